package bench

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/consumer/assign"
	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kgo"
)

// takeoverMember is one group member of BenchmarkGroupTakeover: the
// partitions it owns and, per partition, when its first record arrived
// since that partition was last assigned.
type takeoverMember struct {
	mu      sync.Mutex
	owned   map[int32]bool
	firstAt map[int32]time.Time
	close   func()
}

func newTakeoverMember() *takeoverMember {
	return &takeoverMember{owned: map[int32]bool{}, firstAt: map[int32]time.Time{}}
}

func (m *takeoverMember) assigned(ps []int32, on bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, p := range ps {
		m.owned[p] = on
		delete(m.firstAt, p)
	}
}

func (m *takeoverMember) got(p int32) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.firstAt[p]; !ok {
		m.firstAt[p] = time.Now()
	}
}

// first returns the earliest first-record time among ps (any partition
// when ps is nil) at or after since.
func (m *takeoverMember) first(ps map[int32]bool, since time.Time) (time.Time, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var best time.Time
	for p, t := range m.firstAt {
		if (ps == nil || ps[p]) && !t.Before(since) && (best.IsZero() || t.Before(best)) {
			best = t
		}
	}
	return best, !best.IsZero()
}

func (m *takeoverMember) ownedSet() map[int32]bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[int32]bool{}
	for p, ok := range m.owned {
		if ok {
			out[p] = true
		}
	}
	return out
}

type startMember func(b *testing.B, boot []string, topic, group string) *takeoverMember

// BenchmarkGroupTakeover measures group membership latency on the 4-partition
// consume topic, without commits (every member reads from the beginning):
// ms-first-record is from a new member's start (first of a new group) to its
// first record; ms-takeover is from the second member's leave (Close) to the
// survivor's first record of a partition the leaver owned. For gregor's
// consumer.Group and franz-go's group consumer, each with the classic
// protocol (range) and the KIP-848 consumer protocol (franz-go:
// ServerSideBalancer), all with their default heartbeat settings (classic
// 3s interval; consumer: the broker's interval). Run with -benchtime=Nx.
func BenchmarkGroupTakeover(b *testing.B) {
	owner := b
	c := consumeCase{4, wire.CompressionNone}
	topicFn := func(b *testing.B) string {
		topic := topicFor(b, owner, "consume/"+c.name(), c.partitions)
		if _, done := filled.Load(topic); !done {
			prefill(b, topic, c)
			filled.Store(topic, true)
		}
		return topic
	}
	for _, tc := range []struct {
		name  string
		start startMember
	}{
		{"client=gregor/protocol=classic", gregorTakeoverMember(consumer.ProtocolClassic)},
		{"client=gregor/protocol=consumer", gregorTakeoverMember(consumer.ProtocolConsumer)},
		{"client=franz/protocol=classic", franzTakeoverMember(false)},
		{"client=franz/protocol=consumer", franzTakeoverMember(true)},
	} {
		b.Run(tc.name, func(b *testing.B) { benchTakeover(b, topicFn(b), tc.start) })
	}
}

func benchTakeover(b *testing.B, topic string, start startMember) {
	boot := bootstrap(b)
	ctx := ctxFor(b, 10*time.Minute)
	wait := func(what string, cond func() bool) {
		for !cond() {
			if ctx.Err() != nil {
				b.Fatalf("timed out waiting for %s", what)
			}
			time.Sleep(5 * time.Millisecond) // polling interval of a condition wait
		}
	}
	var firstTotal, takeoverTotal time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		group := groupName()
		t0 := time.Now()
		a := start(b, boot, topic, group)
		var t1 time.Time
		wait("the first record", func() (ok bool) { t1, ok = a.first(nil, t0); return ok })
		firstTotal += t1.Sub(t0)
		m := start(b, boot, topic, group)
		wait("two members owning 2 partitions each", func() bool { return len(a.ownedSet()) == 2 && len(m.ownedSet()) == 2 })
		theirs := m.ownedSet()
		wait("the second member's first record", func() bool { _, ok := m.first(theirs, t0); return ok })
		tLeave := time.Now()
		m.close()
		var t2 time.Time
		wait("the survivor's first record of a taken-over partition", func() (ok bool) { t2, ok = a.first(theirs, tLeave); return ok })
		takeoverTotal += t2.Sub(tLeave)
		a.close()
	}
	b.StopTimer()
	b.ReportMetric(float64(firstTotal.Milliseconds())/float64(b.N), "ms-first-record")
	b.ReportMetric(float64(takeoverTotal.Milliseconds())/float64(b.N), "ms-takeover")
}

func groupName() string {
	return "bench-takeover-" + time.Now().Format("150405.000000000")
}

func gregorTakeoverMember(proto consumer.GroupProtocol) startMember {
	return func(b *testing.B, boot []string, topic, group string) *takeoverMember {
		m := newTakeoverMember()
		cl, err := client.New(client.Config{Bootstrap: boot, ClientID: "gregor-bench"})
		if err != nil {
			b.Fatal(err)
		}
		g, err := consumer.NewGroup(cl, consumer.GroupConfig{GroupID: group, Topics: []string{topic}, Protocol: proto,
			Assignors: []assign.Assignor{benchRange{}}, DisableAutoCommit: true, Config: consumer.Config{MaxWait: consumeMaxWait},
			OnAssignment: func(_ context.Context, ev consumer.AssignmentEvent) {
				ps := make([]int32, len(ev.Partitions))
				for i, tp := range ev.Partitions {
					ps[i] = tp.Partition
				}
				m.assigned(ps, ev.Kind == consumer.Assigned)
			}})
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			for {
				rs, err := g.Receive(ctx)
				if err != nil {
					return
				}
				for i := range rs {
					m.got(rs[i].Partition)
				}
			}
		}()
		m.close = func() {
			cctx, ccancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer ccancel()
			_ = g.Close(cctx)
			cancel()
			<-done
			cl.Close(context.Background())
		}
		return m
	}
}

func franzTakeoverMember(serverSide bool) startMember {
	return func(b *testing.B, boot []string, topic, group string) *takeoverMember {
		m := newTakeoverMember()
		parts := func(a map[string][]int32) []int32 { return a[topic] }
		opts := []kgo.Opt{kgo.SeedBrokers(boot...), kgo.ClientID("franz-bench"),
			kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic), kgo.Balancers(kgo.RangeBalancer()),
			kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.DisableAutoCommit(), kgo.FetchMaxWait(consumeMaxWait),
			kgo.OnPartitionsAssigned(func(_ context.Context, _ *kgo.Client, a map[string][]int32) { m.assigned(parts(a), true) }),
			kgo.OnPartitionsRevoked(func(_ context.Context, _ *kgo.Client, a map[string][]int32) { m.assigned(parts(a), false) }),
			kgo.OnPartitionsLost(func(_ context.Context, _ *kgo.Client, a map[string][]int32) { m.assigned(parts(a), false) })}
		if serverSide {
			opts = append(opts, kgo.ServerSideBalancer())
		}
		cl, err := kgo.NewClient(opts...)
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			for ctx.Err() == nil {
				fs := cl.PollFetches(ctx)
				fs.EachRecord(func(r *kgo.Record) { m.got(r.Partition) })
			}
		}()
		m.close = func() {
			cancel()
			<-done
			cl.Close() // leaves the group
		}
		return m
	}
}
