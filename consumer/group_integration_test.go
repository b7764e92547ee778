package consumer

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer/assign"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/wire"
)

// TestGroupIntegrationSplitAndTakeOver: on the real broker, three members
// split six partitions disjointly and covering; when one closes (leaving
// the group), the survivors own everything again, each partition once.
func TestGroupIntegrationSplitAndTakeOver(t *testing.T) {
	for _, coop := range []bool{false, true} {
		t.Run(map[bool]string{false: "eager", true: "cooperative"}[coop], func(t *testing.T) {
			e := newGroupEnv(t, 6)
			group := e.topic + "-g"
			mod := func(c *GroupConfig) { c.Assignors = []assign.Assignor{testRange{coop: coop}} }
			a := e.join(group, mod)
			b := e.join(group, mod)
			c := e.join(group, mod)
			e.stableSplit(6, a, b, c)
			ctx, cancel := context.WithTimeout(e.ctx, 10*time.Second)
			if err := c.Close(ctx); err != nil {
				t.Fatalf("Close: %v", err)
			}
			cancel()
			e.stableSplit(6, a, b)
			if coop {
				// Cooperative: a and b revoke nothing they keep.
				for _, m := range []*member{a, b} {
					for _, ev := range m.events {
						if ev.Kind == Lost {
							t.Fatalf("lost event %+v", ev)
						}
					}
				}
			}
		})
	}
}

// TestGroupIntegrationCommitReplay: a member consumes, commits part of what
// it received and closes without auto-commit; a new member of the group
// starts exactly at the committed offsets, so it replays exactly the
// uncommitted records.
func TestGroupIntegrationCommitReplay(t *testing.T) {
	e := newGroupEnv(t, 2)
	group := e.topic + "-g"
	e.produce("v", 20, 2)
	noAuto := func(c *GroupConfig) { c.DisableAutoCommit = true }
	a := e.join(group, noAuto)
	recs := e.drain(a, 20)
	commit := map[gregor.TopicPartition]int64{}
	for _, r := range recs {
		if r.Offset < 4 { // commit the first 4 of each partition
			tp := gregor.TopicPartition{Topic: r.Topic, Partition: r.Partition}
			commit[tp] = max(commit[tp], r.Offset+1)
		}
	}
	if err := a.Commit(e.ctx, commit); err != nil {
		t.Fatalf("Commit: %v", err)
	}
	// A lower offset is skipped: the committed offset never goes back.
	if err := a.Commit(e.ctx, map[gregor.TopicPartition]int64{{Topic: e.topic, Partition: 0}: 1}); err != nil {
		t.Fatalf("Commit lower: %v", err)
	}
	ctx, cancel := context.WithTimeout(e.ctx, 10*time.Second)
	defer cancel()
	if err := a.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	b := e.join(group, noAuto)
	again := e.drain(b, 12)
	if len(again) != 12 {
		t.Fatalf("replayed %d records, want 12", len(again))
	}
	for _, r := range again {
		if r.Offset < 4 {
			t.Fatalf("replayed committed record %s[%d]@%d", r.Topic, r.Partition, r.Offset)
		}
	}
}

// TestGroupIntegrationStaticMember: a static member (group.instance.id,
// KIP-345) that closes does not leave; restarted with the same instance ID
// within the session timeout it gets its partitions back without a
// rebalance, so the other member sees no change.
func TestGroupIntegrationStaticMember(t *testing.T) {
	e := newGroupEnv(t, 4)
	group := e.topic + "-g"
	static := func(id string) func(*GroupConfig) {
		return func(c *GroupConfig) { c.InstanceID = id; c.SessionTimeout = 30 * time.Second }
	}
	a := e.join(group, static("a"))
	b := e.join(group, static("b"))
	e.stableSplit(4, a, b)
	before := a.ownedSet()
	genB := b.GroupMetadata().GenerationID
	b.mu.Lock()
	evB := len(b.events)
	b.mu.Unlock()
	ctx, cancel := context.WithTimeout(e.ctx, 10*time.Second)
	defer cancel()
	if err := a.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	a2 := e.join(group, static("a"))
	e.waitFor("the restarted static member's partitions", func() bool { return len(a2.ownedSet()) == len(before) })
	for tp := range before {
		if !a2.ownedSet()[tp] {
			t.Fatalf("restarted member owns %v, before %v", a2.ownedSet(), before)
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if g := b.GroupMetadata().GenerationID; g != genB || len(b.events) != evB {
		t.Fatalf("the other member saw a rebalance: generation %d -> %d, events %+v", genB, g, b.events[evB:])
	}
}

// TestGroupIntegrationRegexAndNewPartitions: a member subscribed by
// regular expression is assigned a matching topic created after it joined,
// and the partitions added to a subscribed topic, without a restart (the
// leader rejoins when metadata changes).
func TestGroupIntegrationRegexAndNewPartitions(t *testing.T) {
	e := newGroupEnv(t, 1)
	cl, err := client.New(client.Config{Bootstrap: e.cluster.Bootstrap(kafkatest.Plaintext), MetadataMaxAge: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	m := &member{owned: map[gregor.TopicPartition]bool{}}
	g, err := NewGroup(cl, GroupConfig{GroupID: e.topic + "-g", TopicRegex: regexp.QuoteMeta(e.topic) + "(-more)?", Protocol: ProtocolClassic,
		Assignors: []assign.Assignor{testRange{}}, SessionTimeout: 6 * time.Second, HeartbeatInterval: 200 * time.Millisecond, OnAssignment: m.onEvent})
	if err != nil {
		t.Fatal(err)
	}
	m.Group = g
	defer g.Close(e.ctx)
	e.waitFor("the first topic", func() bool { return m.ownedSet()[gregor.TopicPartition{Topic: e.topic, Partition: 0}] })
	more := e.topic + "-more"
	r, err := e.cl.RequestController(e.ctx, &wire.CreateTopicsRequest{TimeoutMs: 30000,
		Topics: []wire.CreateTopicsTopic{{Name: more, NumPartitions: 2, ReplicationFactor: 1}}})
	if err != nil || r.(*wire.CreateTopicsResponse).Topics[0].ErrorCode != 0 {
		t.Fatalf("CreateTopics: %v %+v", err, r)
	}
	e.waitFor("the matching topic created later", func() bool {
		s := m.ownedSet()
		return s[gregor.TopicPartition{Topic: more, Partition: 0}] && s[gregor.TopicPartition{Topic: more, Partition: 1}]
	})
	r, err = e.cl.RequestController(e.ctx, &wire.CreatePartitionsRequest{TimeoutMs: 30000,
		Topics: []wire.CreatePartitionsTopic{{Name: e.topic, Count: 3}}})
	if err != nil || r.(*wire.CreatePartitionsResponse).Results[0].ErrorCode != 0 {
		t.Fatalf("CreatePartitions: %v %+v", err, r)
	}
	e.waitFor("the added partitions", func() bool { return len(m.ownedSet()) == 5 })
}
