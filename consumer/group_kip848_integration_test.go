package consumer

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/wire"
)

// withConsumerProtocol selects the KIP-848 protocol with the given
// server-side assignor.
func withConsumerProtocol(assignor string) func(*GroupConfig) {
	return func(c *GroupConfig) { c.Protocol = ProtocolConsumer; c.ServerAssignor = assignor }
}

// TestGroupConsumerIntegrationSplitAndTakeOver: on the real broker, three
// consumer-protocol members split six partitions disjointly and covering
// (for each server-side assignor); when one closes (heartbeat with epoch
// -1), the survivors own everything (losing nothing; with uniform,
// revoking nothing), and their member epochs are positive.
func TestGroupConsumerIntegrationSplitAndTakeOver(t *testing.T) {
	for _, assignor := range []string{"uniform", "range"} {
		t.Run(assignor, func(t *testing.T) {
			e := newGroupEnv(t, 6)
			if !e.kip848() {
				return
			}
			group := e.topic + "-g"
			mod := withConsumerProtocol(assignor)
			a := e.join(group, mod)
			b := e.join(group, mod)
			c := e.join(group, mod)
			e.stableSplit(6, a, b, c)
			// Judge only what the take-over does: joining one after the
			// other, a member that was alone for a moment gives partitions
			// up to the next (a Revoking before the split is stable).
			for _, m := range []*member{a, b} {
				m.mu.Lock()
				m.events = nil
				m.mu.Unlock()
			}
			ctx, cancel := context.WithTimeout(e.ctx, 10*time.Second)
			if err := c.Close(ctx); err != nil {
				t.Fatalf("Close: %v", err)
			}
			cancel()
			e.stableSplit(6, a, b)
			e.checkAdminDescribe(group, a, b)
			for _, m := range []*member{a, b} {
				if md := m.GroupMetadata(); md.GenerationID <= 0 || len(md.MemberID) != 22 {
					t.Fatalf("member identity %+v", md)
				}
				m.mu.Lock()
				for _, ev := range m.events {
					// Never lost; uniform (sticky) revokes nothing a
					// survivor keeps, range may move a partition.
					if ev.Kind == Lost || ev.Kind == Revoking && assignor == "uniform" {
						t.Errorf("survivor saw %+v", ev)
					}
				}
				m.mu.Unlock()
			}
		})
	}
}

// checkAdminDescribe: admin.DescribeConsumerGroups shows the consumer
// group with exactly these members, each at its member epoch with its
// owned partitions as assignment and target assignment (reconciled).
func (e *groupEnv) checkAdminDescribe(group string, ms ...*member) {
	e.t.Helper()
	e.waitFor("admin to describe the reconciled group", func() bool {
		ds, err := admin.New(e.cl, admin.Config{}).DescribeConsumerGroups(e.ctx, []string{group})
		if err != nil {
			e.t.Fatal(err)
		}
		d := ds[0]
		if d.Err != nil || d.Type != "consumer" || len(d.Members) != len(ms) || d.AssignmentEpoch <= 0 {
			return false
		}
		for _, m := range ms {
			epoch, id := m.m.identity()
			owned := m.ownedSet()
			found := false
			for _, dm := range d.Members {
				if dm.MemberID != id {
					continue
				}
				found = dm.MemberEpoch == epoch && len(dm.Assignment) == len(owned) && len(dm.TargetAssignment) == len(owned)
				for i, tp := range dm.Assignment {
					found = found && owned[gregor.TopicPartition{Topic: tp.Topic, Partition: tp.Partition}] && owned[gregor.TopicPartition{Topic: dm.TargetAssignment[i].Topic, Partition: dm.TargetAssignment[i].Partition}]
				}
			}
			if !found {
				return false
			}
		}
		return true
	})
}

// TestGroupConsumerIntegrationCommitReplay: a consumer-protocol member
// commits part of what it received (OffsetCommit with member ID and
// epoch) and closes; a new member starts exactly at the committed offsets
// (OffsetFetch with its member ID and epoch).
func TestGroupConsumerIntegrationCommitReplay(t *testing.T) {
	e := newGroupEnv(t, 2)
	if !e.kip848() {
		return
	}
	group := e.topic + "-g"
	e.produce("v", 20, 2)
	mod := func(c *GroupConfig) { withConsumerProtocol("")(c); c.DisableAutoCommit = true }
	a := e.join(group, mod)
	recs := e.drain(a, 20)
	commit := map[gregor.TopicPartition]int64{}
	for _, r := range recs {
		if r.Offset < 4 {
			tp := gregor.TopicPartition{Topic: r.Topic, Partition: r.Partition}
			commit[tp] = max(commit[tp], r.Offset+1)
		}
	}
	if err := a.Commit(e.ctx, commit); err != nil {
		t.Fatalf("Commit: %v", err)
	}
	ctx, cancel := context.WithTimeout(e.ctx, 10*time.Second)
	defer cancel()
	if err := a.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	b := e.join(group, mod)
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

// TestGroupConsumerIntegrationStaticMember: a static consumer-protocol
// member leaves with epoch -2 on Close and, restarted with the same
// instance ID, gets its partitions back while the other member keeps its
// own without any event.
func TestGroupConsumerIntegrationStaticMember(t *testing.T) {
	e := newGroupEnv(t, 4)
	if !e.kip848() {
		return
	}
	group := e.topic + "-g"
	static := func(id string) func(*GroupConfig) {
		return func(c *GroupConfig) { withConsumerProtocol("")(c); c.InstanceID = id }
	}
	a := e.join(group, static("a"))
	b := e.join(group, static("b"))
	e.stableSplit(4, a, b)
	before := a.ownedSet()
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
	if len(b.events) != evB {
		t.Fatalf("the other member saw %+v", b.events[evB:])
	}
}

// TestGroupConsumerIntegrationRegex: with the broker-side regular
// expression (KIP-848), a topic created after the member joined and
// matching its pattern is assigned without a restart.
func TestGroupConsumerIntegrationRegex(t *testing.T) {
	e := newGroupEnv(t, 1)
	if !e.kip848() {
		return
	}
	cl, err := client.New(client.Config{Bootstrap: e.cluster.Bootstrap(kafkatest.Plaintext)})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	m := &member{owned: map[gregor.TopicPartition]bool{}}
	g, err := NewGroup(cl, GroupConfig{GroupID: e.topic + "-g", TopicRegex: regexp.QuoteMeta(e.topic) + "(-more)?",
		Protocol: ProtocolConsumer, OnAssignment: m.onEvent})
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
}

// TestGroupConsumerIntegrationDefaultProtocol: with Protocol unset, a
// member on Kafka 4.0+ (group.version=1) uses the consumer protocol: the
// coordinator describes it as a consumer group; on Kafka 3.x (no
// group.version) it uses the classic protocol.
func TestGroupConsumerIntegrationDefaultProtocol(t *testing.T) {
	e := newGroupEnv(t, 2)
	want := ProtocolConsumer
	if !e.kip848() {
		want = ProtocolClassic
	}
	group := e.topic + "-g"
	a := e.join(group, func(c *GroupConfig) { c.Protocol = "" })
	e.stableSplit(2, a)
	if p := a.m.protocol(); p != want {
		t.Fatalf("protocol %q on Kafka %s, want %q", p, e.cluster.Version(), want)
	}
	if want == ProtocolConsumer {
		e.checkAdminDescribe(group, a)
	}
}
