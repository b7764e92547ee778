package admincheck

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestOperatorThreeBrokers uses the shared 1+3 cluster and checks, each
// step observed by franz-go: DescribeQuorum lists controller 100 as voter
// and the three brokers as observers; a reassignment batch with a valid
// and an invalid partition moves the valid one ([1 2] -> [2 3], the
// observer sees the new replicas, WaitReassignments returns) and fails the
// other alone with UNKNOWN_TOPIC_OR_PARTITION; a throttled reassignment is
// listed in progress (adding [3], removing [1], as kadm lists it) and
// cancelled back to replicas {1, 2}; a real UpdateFeatures
// downgrade and upgrade reach every broker's ApiVersions (WaitFeatures);
// after broker 1 is killed and restarted, a preferred-leader election
// restores it as leader (WaitPreferredLeaders; the observer agrees).
func TestOperatorThreeBrokers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	kc := threeBrokers(t)
	step := time.Now()
	lap := func(what string) { t.Logf("%s took %v", what, time.Since(step)); step = time.Now() }
	boot := kc.Bootstrap(kafkatest.Plaintext)
	cl, err := client.New(client.Config{Bootstrap: boot, RetryBackoff: 50 * time.Millisecond, RetryBackoffMax: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	adm := admin.New(cl, admin.Config{RetryBackoff: 50 * time.Millisecond, RetryBackoffMax: 300 * time.Millisecond})
	kcl, err := kgo.NewClient(kgo.SeedBrokers(boot...))
	if err != nil {
		t.Fatal(err)
	}
	defer kcl.Close()
	obs := kadm.NewClient(kcl)
	// observed asks any broker for fresh metadata (kadm.Metadata may answer
	// from franz-go's metadata cache, which lagged an election by seconds).
	observed := func(topic string) kmsg.MetadataResponseTopicPartition {
		req := kmsg.NewPtrMetadataRequest()
		rt := kmsg.NewMetadataRequestTopic()
		rt.Topic = kmsg.StringPtr(topic)
		req.Topics = append(req.Topics, rt)
		resp, err := req.RequestWith(ctxFor(t, 10*time.Second), kcl)
		if err != nil || len(resp.Topics) != 1 || resp.Topics[0].ErrorCode != 0 || len(resp.Topics[0].Partitions) != 1 {
			t.Fatalf("observer metadata: %v %+v", err, resp)
		}
		return resp.Topics[0].Partitions[0]
	}

	q, err := adm.DescribeQuorum(ctxFor(t, 30*time.Second))
	if err != nil {
		t.Fatalf("DescribeQuorum: %v", err)
	}
	var observers []int32
	for _, o := range q.Observers {
		observers = append(observers, o.ID)
	}
	slices.Sort(observers)
	if q.LeaderID != 100 || len(q.Voters) != 1 || q.Voters[0].ID != 100 || fmt.Sprint(observers) != "[1 2 3]" {
		t.Fatalf("DescribeQuorum: %+v", q)
	}

	lap("DescribeQuorum")

	// Reassignment, in a batch with a partition of a missing topic.
	topic := kafkatest.UniqueName(t, "move")
	if r, err := adm.CreateTopics(ctxFor(t, time.Minute), []admin.NewTopic{{Name: topic, Assignments: [][]int32{{1, 2}}}},
		admin.TopicOptions{WaitVisible: true}); err != nil || r[0].Err != nil {
		t.Fatalf("create: %v %+v", err, r)
	}
	tp := gregor.TopicPartition{Topic: topic, Partition: 0}
	missing := gregor.TopicPartition{Topic: kafkatest.UniqueName(t, "nosuch"), Partition: 0}
	mv, err := adm.AlterPartitionReassignments(ctxFor(t, time.Minute), []admin.Reassignment{
		{TopicPartition: tp, Replicas: []int32{2, 3}}, {TopicPartition: missing, Replicas: []int32{1}}})
	// The unknown topic is an answer, not retried until the deadline (it
	// was: the call took the whole minute and ended in a timeout).
	if err != nil || mv[0].Err != nil || !errors.Is(mv[1].Err, wire.ErrUnknownTopicOrPartition) || errors.Is(mv[1].Err, client.ErrTimeout) {
		t.Fatalf("AlterPartitionReassignments: %v %+v", err, mv)
	}
	if err := adm.WaitReassignments(ctxFor(t, time.Minute), []gregor.TopicPartition{tp}); err != nil {
		t.Fatalf("WaitReassignments: %v", err)
	}
	if lr, err := obs.ListPartitionReassignments(ctxFor(t, 10*time.Second), kadm.TopicsSet{topic: {0: {}}}); err != nil || len(lr) != 0 {
		t.Fatalf("observer still lists a reassignment: %v %+v", err, lr)
	}
	until(t, 30*time.Second, "observer sees replicas [2 3]", func() error {
		if p := observed(topic); fmt.Sprint(p.Replicas) != "[2 3]" {
			return fmt.Errorf("replicas %v", p.Replicas)
		}
		return nil
	})

	lap("reassignment")

	// A throttled reassignment stays in progress: listed with its adding
	// and removing replicas (kadm agrees), then cancelled.
	slow := kafkatest.UniqueName(t, "slow")
	if r, err := adm.CreateTopics(ctxFor(t, time.Minute), []admin.NewTopic{{Name: slow, Assignments: [][]int32{{1, 2}},
		Configs: map[string]string{"leader.replication.throttled.replicas": "*", "follower.replication.throttled.replicas": "*"}}},
		admin.TopicOptions{WaitVisible: true}); err != nil || r[0].Err != nil {
		t.Fatalf("create: %v %+v", err, r)
	}
	for i := 0; i < 64; i++ {
		kcl.Produce(ctx, &kgo.Record{Topic: slow, Value: make([]byte, 64<<10)}, nil)
	}
	if err := kcl.Flush(ctxFor(t, time.Minute)); err != nil {
		t.Fatalf("produce: %v", err)
	}
	var throttles []admin.AlterConfigsResource
	for _, id := range kc.BrokerIDs() {
		throttles = append(throttles, admin.AlterConfigsResource{Type: admin.ResourceBroker, Name: fmt.Sprint(id), Changes: []admin.ConfigChange{
			{Name: "leader.replication.throttled.rate", Op: admin.OpSet, Value: "1024"},
			{Name: "follower.replication.throttled.rate", Op: admin.OpSet, Value: "1024"}}})
	}
	if r, err := adm.IncrementalAlterConfigs(ctxFor(t, 30*time.Second), throttles, admin.AlterConfigsOptions{}); err != nil || r[0].Err != nil || r[1].Err != nil || r[2].Err != nil {
		t.Fatalf("throttle: %v %+v", err, r)
	}
	until(t, 30*time.Second, "every broker throttled", func() error {
		for _, id := range kc.BrokerIDs() {
			rc, err := obs.DescribeBrokerConfigs(ctxFor(t, 10*time.Second), id)
			if err != nil {
				return err
			}
			if v, err := rc.On(fmt.Sprint(id), nil); err != nil || !slices.ContainsFunc(v.Configs, func(c kadm.Config) bool {
				return c.Key == "follower.replication.throttled.rate" && c.MaybeValue() == "1024"
			}) {
				return fmt.Errorf("broker %d not throttled yet: %v", id, err)
			}
		}
		return nil
	})
	stp := gregor.TopicPartition{Topic: slow, Partition: 0}
	if r, err := adm.AlterPartitionReassignments(ctxFor(t, time.Minute), []admin.Reassignment{{TopicPartition: stp, Replicas: []int32{2, 3}}}); err != nil || r[0].Err != nil {
		t.Fatalf("throttled reassignment: %v %+v", err, r)
	}
	on, err := adm.ListPartitionReassignments(ctxFor(t, 30*time.Second), []gregor.TopicPartition{stp})
	if err != nil || len(on) != 1 || fmt.Sprint(on[0].Adding) != "[3]" || fmt.Sprint(on[0].Removing) != "[1]" {
		t.Fatalf("ListPartitionReassignments: %v %+v", err, on)
	}
	olr, err := obs.ListPartitionReassignments(ctxFor(t, 10*time.Second), kadm.TopicsSet{slow: {0: {}}})
	if err != nil || fmt.Sprint(olr[slow][0].AddingReplicas) != "[3]" || fmt.Sprint(olr[slow][0].RemovingReplicas) != "[1]" {
		t.Fatalf("observer ListPartitionReassignments: %v %+v", err, olr)
	}
	if err := adm.WaitReassignments(ctxFor(t, time.Second), []gregor.TopicPartition{stp}); !errors.Is(err, client.ErrTimeout) {
		t.Fatalf("WaitReassignments on a throttled move: %v, want a timeout", err)
	}
	if r, err := adm.AlterPartitionReassignments(ctxFor(t, time.Minute), []admin.Reassignment{{TopicPartition: stp}}); err != nil || r[0].Err != nil {
		t.Fatalf("cancel: %v %+v", err, r)
	}
	if err := adm.WaitReassignments(ctxFor(t, time.Minute), []gregor.TopicPartition{stp}); err != nil {
		t.Fatalf("WaitReassignments after the cancel: %v", err)
	}
	until(t, 30*time.Second, "observer sees replicas {1, 2} again", func() error {
		// The cancel restores the replica set, not its order (seen: [2 1]).
		if p := observed(slow); fmt.Sprint(slices.Sorted(slices.Values(p.Replicas))) != "[1 2]" {
			return fmt.Errorf("replicas %v", p.Replicas)
		}
		return nil
	})
	if r, err := adm.AlterPartitionReassignments(ctxFor(t, time.Minute), []admin.Reassignment{{TopicPartition: stp}}); err != nil || !errors.Is(r[0].Err, wire.ErrNoReassignmentInProgress) {
		t.Fatalf("second cancel: %v %+v", err, r)
	}
	for i := range throttles { // leave the shared cluster unthrottled
		for j := range throttles[i].Changes {
			throttles[i].Changes[j].Op = admin.OpDelete
		}
	}
	if r, err := adm.IncrementalAlterConfigs(ctxFor(t, 30*time.Second), throttles, admin.AlterConfigsOptions{}); err != nil || r[0].Err != nil || r[1].Err != nil || r[2].Err != nil {
		t.Fatalf("unthrottle: %v %+v", err, r)
	}
	lap("throttled reassignment, cancel")

	// A real feature downgrade and upgrade, seen by every broker (ELR is
	// on by default from Kafka 4.1; on 4.0 it is supported but off, so the
	// test upgrades it first and downgrades it back).
	const elr = "eligible.leader.replicas.version"
	fm, err := adm.DescribeFeatures(ctxFor(t, 20*time.Second), client.AnyBroker)
	elrOn := int16(1)
	if !kc.AtLeast(4, 1) {
		elrOn = 0
	}
	_, known := fm.Supported[elr]
	if err != nil || known != kc.AtLeast(4, 0) || known && (fm.Finalized[elr].Max != elrOn || fm.Supported[elr].Max != 1) {
		t.Fatalf("DescribeFeatures on Kafka %s: %v %+v", kc.Version(), err, fm)
	}
	updates := []admin.FeatureUpdate{{Feature: elr, Level: 0, Type: admin.FeatureSafeDowngrade}, {Feature: elr, Level: 1}}
	switch {
	case !known: // Kafka 3.x: no feature but metadata.version, never downgraded here
		updates = nil
	case elrOn == 0:
		updates[0], updates[1] = updates[1], updates[0]
	}
	for _, u := range updates {
		if r, err := adm.UpdateFeatures(ctxFor(t, 30*time.Second), []admin.FeatureUpdate{u}, false); err != nil || r[0].Err != nil {
			t.Fatalf("UpdateFeatures %+v: %v %+v", u, err, r)
		}
		if err := adm.WaitFeatures(ctxFor(t, 30*time.Second), map[string]int16{elr: u.Level}); err != nil {
			t.Fatalf("WaitFeatures %+v: %v", u, err)
		}
		for i, addr := range boot {
			// A client seeded with one broker asks that broker (franz-go's
			// Broker(id) path answered ApiVersions without the feature
			// fields in a trial).
			one, err := kgo.NewClient(kgo.SeedBrokers(addr))
			if err != nil {
				t.Fatal(err)
			}
			av, err := kmsg.NewPtrApiVersionsRequest().RequestWith(ctxFor(t, 10*time.Second), one)
			one.Close()
			if err != nil || len(av.FinalizedFeatures) == 0 {
				t.Fatalf("observer ApiVersions from %s: %v %+v", addr, err, av)
			}
			got := int16(0)
			for _, f := range av.FinalizedFeatures {
				if f.Name == elr {
					got = f.MaxVersionLevel
				}
			}
			if got != u.Level {
				t.Fatalf("after WaitFeatures broker %d (%s) shows %s=%d, want %d", i, addr, elr, got, u.Level)
			}
		}
	}

	lap("feature updates")

	// Preferred leader election after a broker restart.
	lead := kafkatest.UniqueName(t, "lead")
	if r, err := adm.CreateTopics(ctxFor(t, time.Minute), []admin.NewTopic{{Name: lead, Assignments: [][]int32{{1, 2, 3}}}},
		admin.TopicOptions{WaitVisible: true}); err != nil || r[0].Err != nil {
		t.Fatalf("create: %v %+v", err, r)
	}
	ltp := gregor.TopicPartition{Topic: lead, Partition: 0}
	if err := adm.WaitPreferredLeaders(ctxFor(t, 30*time.Second), []gregor.TopicPartition{ltp}); err != nil {
		t.Fatalf("new topic not led by its preferred replica: %v", err)
	}
	if err := kc.KillBroker(ctx, 1); err != nil {
		t.Fatal(err)
	}
	until(t, 60*time.Second, "leader moved off broker 1", func() error {
		if p := observed(lead); p.Leader == 1 || p.Leader < 0 {
			return fmt.Errorf("leader %d", p.Leader)
		}
		return nil
	})
	lap("kill, leader moved")
	if err := kc.RestartBroker(ctx, 1); err != nil {
		t.Fatal(err)
	}
	until(t, 90*time.Second, "broker 1 back in sync", func() error {
		if p := observed(lead); !slices.Contains(p.ISR, 1) {
			return fmt.Errorf("ISR %v", p.ISR)
		}
		return nil
	})
	lap("restart, back in ISR")
	if p := observed(lead); p.Leader == 1 {
		t.Fatalf("broker 1 leads again before any election: %+v", p)
	}
	el, err := adm.ElectLeaders(ctxFor(t, time.Minute), admin.ElectPreferred, []gregor.TopicPartition{ltp, missing})
	if err != nil || el[0].Err != nil || !errors.Is(el[1].Err, wire.ErrUnknownTopicOrPartition) || errors.Is(el[1].Err, client.ErrTimeout) {
		t.Fatalf("ElectLeaders: %v %+v", err, el)
	}
	if err := adm.WaitPreferredLeaders(ctxFor(t, time.Minute), []gregor.TopicPartition{ltp}); err != nil {
		t.Fatalf("WaitPreferredLeaders: %v", err)
	}
	// Every broker's metadata showed broker 1 leading when
	// WaitPreferredLeaders returned; the observer asks one of them.
	if p := observed(lead); p.Leader != 1 {
		ds, derr := adm.DescribeTopicPartitions(ctxFor(t, 10*time.Second), []string{lead}, admin.DescribeTopicPartitionsOptions{})
		t.Fatalf("observer sees %+v after the election (ours now: %v %+v)", p, derr, ds)
	}
	lap("election")
	again, err := adm.ElectLeaders(ctxFor(t, time.Minute), admin.ElectPreferred, []gregor.TopicPartition{ltp})
	if err != nil || !errors.Is(again[0].Err, wire.ErrElectionNotNeeded) {
		t.Fatalf("second election: %v %+v", err, again)
	}
}
