package consumer

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/consumer/assign"
	"github.com/gregor-kafka/gregor/producer"
)

// TestGroupIntegrationRebalanceStorm: members join and leave at random
// while a producer writes (GREGOR_GROUP_STORM sets the duration, default
// 6s per rebalance protocol; the minute belongs in a soak run).
// From the members' own event timestamps no partition is owned by two
// members at once; the committed offsets sampled meanwhile never decrease;
// every record is consumed at least once.
func TestGroupIntegrationRebalanceStorm(t *testing.T) {
	d := 6 * time.Second
	if s := os.Getenv("GREGOR_GROUP_STORM"); s != "" {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			t.Fatal(err)
		}
	}
	for _, coop := range []bool{false, true} {
		t.Run(map[bool]string{false: "eager", true: "cooperative"}[coop], func(t *testing.T) { storm(t, d, coop) })
	}
}

type ownership struct {
	member   int
	from, to time.Time
}

func storm(t *testing.T, d time.Duration, coop bool) {
	const parts = 6
	e := newGroupEnv(t, parts)
	group := e.topic + "-g"
	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()

	var mu sync.Mutex
	got := map[string]bool{}
	owners := map[gregor.TopicPartition][]ownership{}
	open := map[[2]any]time.Time{} // {member, tp} -> assigned at
	event := func(id int) func(context.Context, AssignmentEvent) {
		return func(_ context.Context, ev AssignmentEvent) {
			mu.Lock()
			defer mu.Unlock()
			for _, tp := range ev.Partitions {
				k := [2]any{id, tp}
				if ev.Kind == Assigned {
					open[k] = ev.Time
				} else if from, ok := open[k]; ok {
					owners[tp] = append(owners[tp], ownership{id, from, ev.Time})
					delete(open, k)
				}
			}
		}
	}
	start := func(id int) (*Group, func()) {
		g, err := NewGroup(newTestClient(t, e.cluster), GroupConfig{GroupID: group, Topics: []string{e.topic}, Protocol: ProtocolClassic,
			Assignors: []assign.Assignor{testRange{coop: coop}}, SessionTimeout: 6 * time.Second, HeartbeatInterval: 200 * time.Millisecond,
			RebalanceTimeout: 10 * time.Second, AutoCommitInterval: 100 * time.Millisecond, OnAssignment: event(id),
			Config: Config{MaxWait: 100 * time.Millisecond}})
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			for {
				recs, err := g.Receive(ctx)
				if err != nil {
					return
				}
				mu.Lock()
				for _, r := range recs {
					got[string(r.Value)] = true
				}
				mu.Unlock()
			}
		}()
		return g, func() {
			cctx, ccancel := context.WithTimeout(e.ctx, 20*time.Second)
			defer ccancel()
			// A member closing while the group is already in a newer
			// generation gets its final commit refused (typed); that is the
			// contract, not a failure of the storm.
			var ce *CommitError
			if err := g.Close(cctx); err != nil && !errors.As(err, &ce) {
				t.Errorf("member %d Close: %v", id, err)
			}
			<-done
		}
	}

	// The producer writes until the storm ends.
	p, err := producer.New(e.cl, producer.Config{Linger: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	written := 0
	prodDone := make(chan struct{})
	stormEnd := time.Now().Add(d)
	go func() {
		defer close(prodDone)
		for time.Now().Before(stormEnd) {
			if _, err := p.Send(ctx, &producer.Record{Topic: e.topic, Partition: producer.ToPartition(int32(written % parts)), Value: fmt.Appendf(nil, "s-%d", written)}); err != nil {
				return
			}
			written++
			time.Sleep(2 * time.Millisecond) // the production rate, not synchronization
		}
	}()
	// The committed offsets, sampled, never decrease.
	sampleDone := make(chan struct{})
	go func() {
		defer close(sampleDone)
		last := map[gregor.TopicPartition]int64{}
		for time.Now().Before(stormEnd) {
			for tp, o := range e.committed(group) {
				if prev, ok := last[tp]; ok && o < prev {
					t.Errorf("committed offset of %s went back from %d to %d", tp, prev, o)
				}
				if o >= 0 {
					last[tp] = max(last[tp], o)
				}
			}
			time.Sleep(100 * time.Millisecond) // sampling interval
		}
	}()

	rng := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))
	stops := make([]func(), 4)
	next := 0
	stops[0] = func() {}
	_, stops[0] = start(next)
	next++
	for time.Now().Before(stormEnd) {
		i := rng.IntN(len(stops))
		if stops[i] == nil {
			_, stops[i] = start(next)
			next++
		} else if i != 0 { // slot 0 stays, so someone always consumes
			stops[i]()
			stops[i] = nil
		}
		time.Sleep(time.Duration(300+rng.IntN(700)) * time.Millisecond) // the storm's pace
	}
	<-prodDone
	<-sampleDone
	if err := p.Close(e.ctx); err != nil {
		t.Fatal(err)
	}
	e.waitFor(fmt.Sprintf("all %d records consumed", written), func() bool {
		mu.Lock()
		defer mu.Unlock()
		for i := range written {
			if !got[fmt.Sprintf("s-%d", i)] {
				return false
			}
		}
		return true
	})
	for _, stop := range stops {
		if stop != nil {
			stop()
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for tp, os := range owners {
		for i, a := range os {
			for _, b := range os[i+1:] {
				if a.member != b.member && a.from.Before(b.to) && b.from.Before(a.to) {
					t.Fatalf("%s owned by members %d [%v, %v] and %d [%v, %v] at once", tp, a.member, a.from, a.to, b.member, b.from, b.to)
				}
			}
		}
	}
	n := 0
	for _, os := range owners {
		n += len(os)
	}
	t.Logf("%d members started, %d records written and consumed, %d ownership intervals ended", next, written, n)
}
