package admincheck

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestConsumerProtocolGroup: a KIP-848 group (franz-go with the server-side
// balancer) is described through ConsumerGroupDescribe: type "consumer",
// the observer's state, epoch, member count and assignment; and the
// offsets the independent consumer commits are listed exactly.
// Before Kafka 4.0 (no KIP-848 groups) it checks instead that listing by
// group type, which those releases cannot do, fails with
// gregor.ErrUnsupportedFeature and is not sent.
func TestConsumerProtocolGroup(t *testing.T) {
	b := newBed(t)
	if !b.kc.AtLeast(4, 0) {
		l, err := b.adm.ListGroups(ctxFor(t, 20*time.Second), admin.ListGroupsOptions{Types: []string{"consumer"}})
		if err != nil || len(l.Brokers) != 1 || !errors.Is(l.Brokers[0].Err, gregor.ErrUnsupportedFeature) {
			t.Fatalf("ListGroups by type on Kafka %s: %v %+v, want the broker's outcome gregor.ErrUnsupportedFeature", b.kc.Version(), err, l)
		}
		return
	}
	topic := b.observedTopic(2, nil)
	group := b.name("kip848")
	b.produce(topic, 0, 3)
	b.produce(topic, 1, 2)
	cons, err := kgo.NewClient(kgo.SeedBrokers(b.boot...), kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic),
		kgo.ServerSideBalancer(), kgo.Balancers(kgo.RangeBalancer()), kgo.DisableAutoCommit(),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer cons.Close()
	for got := 0; got < 5; {
		fs := cons.PollFetches(ctxFor(t, 30*time.Second))
		if err := fs.Err0(); err != nil {
			t.Fatalf("consumer poll: %v", err)
		}
		got += fs.NumRecords()
	}
	if err := cons.CommitUncommittedOffsets(ctxFor(t, 30*time.Second)); err != nil {
		t.Fatalf("consumer commit: %v", err)
	}
	var obsState string
	var obsEpoch int32
	var obsAssigned []string
	eventually(t, 20*time.Second, func() error {
		od, err := b.obs.DescribeConsumerGroups(ctxFor(t, 10*time.Second), group)
		if err != nil {
			return err
		}
		d := od[group]
		if d.Err != nil || len(d.Members) != 1 {
			return fmt.Errorf("observer: %v, %d members", d.Err, len(d.Members))
		}
		obsState, obsEpoch = d.State, d.Epoch
		obsAssigned = obsAssigned[:0]
		for topic, ps := range d.Members[0].Assignment {
			for p := range ps {
				obsAssigned = append(obsAssigned, fmt.Sprintf("%s/%d", topic, p))
			}
		}
		if len(obsAssigned) != 2 {
			return fmt.Errorf("observer sees %d assigned partitions", len(obsAssigned))
		}
		return nil
	})
	d, err := b.adm.DescribeConsumerGroups(ctxFor(t, 30*time.Second), []string{group})
	if err != nil || d[0].Err != nil {
		t.Fatalf("describe: %v / %+v", err, d)
	}
	g := d[0]
	var ours []string
	for _, m := range g.Members {
		for _, a := range m.Assignment {
			ours = append(ours, fmt.Sprintf("%s/%d", a.Topic, a.Partition))
		}
	}
	slices.Sort(ours)
	slices.Sort(obsAssigned)
	if g.Type != "consumer" || len(g.Members) != 1 || g.State != obsState || g.Epoch != obsEpoch || !slices.Equal(ours, obsAssigned) {
		t.Fatalf("ours %+v (assigned %v); observer state %q epoch %d assigned %v", g, ours, obsState, obsEpoch, obsAssigned)
	}
	// The consumer committed 3 and 2: listed exactly, for us and the observer.
	res, err := b.adm.FetchOffsets(ctxFor(t, 30*time.Second), []admin.GroupOffsetsQuery{{GroupID: group, Partitions: []gregor.TopicPartition{tp(topic, 0), tp(topic, 1)}}}, admin.FetchOffsetsOptions{RequireStable: true})
	if err != nil || res[0].Err != nil {
		t.Fatalf("fetch offsets: %v / %+v", err, res)
	}
	obs := b.observedCommitted(group, topic)
	for _, o := range res[0].Offsets {
		if !o.Committed || o.Offset != obs[o.Partition] || o.Offset != map[int32]int64{0: 3, 1: 2}[o.Partition] {
			t.Fatalf("offset %+v, observer %v", o, obs)
		}
	}
}
