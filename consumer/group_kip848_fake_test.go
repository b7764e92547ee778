package consumer

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// consumerHeartbeat answers a ConsumerGroupHeartbeat (mu held): queued
// error codes first; epoch 0 joins (a new epoch, the partitions of "t",
// topic ID {1}, in cgAssign, default both); a negative epoch leaves;
// otherwise the current epoch, a new one when cgAssign changed. As Kafka,
// the assignment is in the answer to every full heartbeat.
func (c *fakeCoord) consumerHeartbeat(r *wire.ConsumerGroupHeartbeatRequest) *wire.ConsumerGroupHeartbeatResponse {
	c.cghbs = append(c.cghbs, *r)
	c.heartbeats++
	if code := c.next(wire.KeyConsumerGroupHeartbeat); code != 0 {
		if r.MemberEpoch < 0 {
			c.leaves++
		}
		return &wire.ConsumerGroupHeartbeatResponse{ErrorCode: code, MemberEpoch: -1}
	}
	id := r.MemberID
	if r.MemberEpoch < 0 {
		c.leaves++
		return &wire.ConsumerGroupHeartbeatResponse{MemberID: &id, MemberEpoch: r.MemberEpoch}
	}
	if c.cgAssign == nil {
		c.cgAssign = []int32{0, 1}
	}
	if r.MemberEpoch == 0 || c.cgChanged {
		c.gen++
		c.cgChanged = false
	}
	resp := &wire.ConsumerGroupHeartbeatResponse{MemberID: &id, MemberEpoch: c.gen, HeartbeatIntervalMs: 5}
	if r.TopicPartitions != nil {
		resp.Assignment = &wire.ConsumerGroupHeartbeatAssignment{TopicPartitions: []wire.ConsumerGroupHeartbeatTopicPartitions{
			{TopicID: wire.UUID{1}, Partitions: slices.Clone(c.cgAssign)}}}
	}
	return resp
}

func consumerProtocol(c *GroupConfig) { c.Protocol = ProtocolConsumer }

// TestGroupConsumerFencedRejoinsWithEpochZero: FENCED_MEMBER_EPOCH or
// UNKNOWN_MEMBER_ID on a heartbeat loses the partitions (no commit) and
// the member joins again with epoch 0 and the same member ID, and is
// assigned again.
func TestGroupConsumerFencedRejoinsWithEpochZero(t *testing.T) {
	for _, code := range []*wire.KafkaError{wire.ErrFencedMemberEpoch, wire.ErrUnknownMemberID} {
		t.Run(code.Name, func(t *testing.T) {
			m, fc, _ := newFakeGroup(t, consumerProtocol)
			_, id := m.m.identity()
			fc.queue(wire.KeyConsumerGroupHeartbeat, code.Code)
			waitFor(t, "the rejoin", func() bool { fc.mu.Lock(); defer fc.mu.Unlock(); return fc.gen == 2 })
			waitFor(t, "the new assignment", func() bool { return len(m.ownedSet()) == 2 })
			fc.mu.Lock()
			defer fc.mu.Unlock()
			var zero []wire.ConsumerGroupHeartbeatRequest
			for _, r := range fc.cghbs {
				if r.MemberEpoch == 0 {
					zero = append(zero, r)
				}
			}
			if len(zero) != 2 || zero[1].MemberID != id || len(zero[1].SubscribedTopicNames) != 1 {
				t.Fatalf("joins %+v: want a second full join with member %q", zero, id)
			}
			m.mu.Lock()
			defer m.mu.Unlock()
			kinds := []AssignmentEventKind{}
			for _, ev := range m.events {
				kinds = append(kinds, ev.Kind)
			}
			if len(kinds) != 3 || kinds[0] != Assigned || kinds[1] != Lost || kinds[2] != Assigned {
				t.Fatalf("events %v, want assigned, lost, assigned", kinds)
			}
		})
	}
}

// TestGroupConsumerCoordinatorMoved: NOT_COORDINATOR on a heartbeat makes
// the member look the coordinator up again and keep its partitions and
// epoch.
func TestGroupConsumerCoordinatorMoved(t *testing.T) {
	m, fc, _ := newFakeGroup(t, consumerProtocol)
	_, _, hb, lookups, _ := fc.snapshot()
	fc.queue(wire.KeyConsumerGroupHeartbeat, wire.ErrNotCoordinator.Code)
	waitFor(t, "heartbeats after the error", func() bool { _, _, h, _, _ := fc.snapshot(); return h >= hb+3 })
	_, _, _, l2, gen := fc.snapshot()
	if l2 != lookups+1 || gen != 1 {
		t.Fatalf("lookups %d->%d, epoch %d: want one more lookup and no rejoin", lookups, l2, gen)
	}
	if g, _ := m.m.identity(); g != 1 || len(m.ownedSet()) != 2 || len(m.events) != 1 {
		t.Fatalf("epoch %d, events %+v", g, m.events)
	}
}

// TestGroupConsumerUnreleasedInstanceID: UNRELEASED_INSTANCE_ID (another
// member still holds the static member's instance ID) is fatal: the
// partitions are lost and Receive reports the typed error.
func TestGroupConsumerUnreleasedInstanceID(t *testing.T) {
	m, fc, _ := newFakeGroup(t, func(c *GroupConfig) { consumerProtocol(c); c.InstanceID = "i" })
	fc.queue(wire.KeyConsumerGroupHeartbeat, wire.ErrUnreleasedInstanceID.Code)
	waitFor(t, "the member to stop", func() bool { return m.fatalErr() != nil })
	if _, err := m.Receive(bg()); !errors.Is(err, wire.ErrUnreleasedInstanceID) {
		t.Fatalf("Receive: %v", err)
	}
	if len(m.ownedSet()) != 0 {
		t.Fatalf("still owns %v", m.ownedSet())
	}
}

// TestGroupConsumerLeave: Close leaves with epoch -1 (-2 for a static
// member), and GROUP_ID_NOT_FOUND on the leave (the group is already
// gone) counts as left.
func TestGroupConsumerLeave(t *testing.T) {
	for _, tc := range []struct {
		name     string
		instance string
		code     int16
		epoch    int32
	}{{"dynamic", "", 0, -1}, {"static", "i", 0, -2}, {"group gone", "", wire.ErrGroupIDNotFound.Code, -1}} {
		t.Run(tc.name, func(t *testing.T) {
			m, fc, _ := newFakeGroup(t, func(c *GroupConfig) { consumerProtocol(c); c.InstanceID = tc.instance })
			if tc.code != 0 {
				// Queued once the heartbeat loop has stopped, so the leave
				// is the request that gets it.
				m.cancel()
				m.wg.Wait()
				fc.queue(wire.KeyConsumerGroupHeartbeat, tc.code)
			}
			if err := m.Close(bg()); err != nil {
				t.Fatalf("Close: %v", err)
			}
			fc.mu.Lock()
			defer fc.mu.Unlock()
			last := fc.cghbs[len(fc.cghbs)-1]
			if last.MemberEpoch != tc.epoch || fc.leaves != 1 {
				t.Fatalf("last heartbeat epoch %d, leaves %d: want one leave with epoch %d", last.MemberEpoch, fc.leaves, tc.epoch)
			}
		})
	}
}

// TestGroupConsumerStaleEpochOnOffsetFetch: STALE_MEMBER_EPOCH on the
// assignment's OffsetFetch never falls back to OffsetReset: the member
// heartbeats and fetches again, and starts at the committed offsets.
func TestGroupConsumerStaleEpochOnOffsetFetch(t *testing.T) {
	m, fc, _ := newFakeGroupWith(t, consumerProtocol, func(fc *fakeCoord) {
		fc.committed[tp0] = 3
		fc.committed[gregor.TopicPartition{Topic: "t", Partition: 1}] = 4
		fc.queue(wire.KeyOffsetFetch, wire.ErrStaleMemberEpoch.Code, wire.ErrStaleMemberEpoch.Code)
	})
	recs := receiveGroupN(t, m, 3)
	for _, r := range recs {
		if r.Offset < fc.committedOf(gregor.TopicPartition{Topic: r.Topic, Partition: r.Partition}) {
			t.Fatalf("record %s[%d]@%d below the committed offset: reset instead of retried", r.Topic, r.Partition, r.Offset)
		}
	}
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if len(fc.fetches) != 3 {
		t.Fatalf("%d offset fetches, want 3 (two stale, one answered)", len(fc.fetches))
	}
	for _, f := range fc.fetches {
		if g := f.Groups[0]; g.MemberID == nil || *g.MemberID == "" || g.MemberEpoch != 1 {
			t.Fatalf("offset fetch without member ID and epoch: %+v", g)
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.events) != 1 || m.events[0].Kind != Assigned {
		t.Fatalf("events %+v", m.events)
	}
}

// TestGroupConsumerCommitStaleEpoch: STALE_MEMBER_EPOCH on a commit is a
// typed *CommitError, the member keeps its partitions and fetching, and
// the commit carries the member ID and epoch.
func TestGroupConsumerCommitStaleEpoch(t *testing.T) {
	m, fc, _ := newFakeGroup(t, consumerProtocol)
	receiveGroupN(t, m, 10)
	fc.queue(wire.KeyOffsetCommit, wire.ErrStaleMemberEpoch.Code)
	err := m.CommitDelivered(bg())
	var ce *CommitError
	if !errors.As(err, &ce) || !errors.Is(err, wire.ErrStaleMemberEpoch) || len(ce.Partitions) != 2 {
		t.Fatalf("commit error %v", err)
	}
	if err := m.CommitDelivered(bg()); err != nil {
		t.Fatalf("second commit: %v", err)
	}
	fc.mu.Lock()
	last := fc.commits[len(fc.commits)-1]
	fc.mu.Unlock()
	if g, id := m.m.identity(); last.GenerationIDOrMemberEpoch != g || last.MemberID != id || g != 1 || len(m.ownedSet()) != 2 {
		t.Fatalf("commit carried %d %q, member %d %q, owned %v", last.GenerationIDOrMemberEpoch, last.MemberID, g, id, m.ownedSet())
	}
}

// TestGroupProtocolDefault: with Protocol unset the member asks the
// coordinator's ApiVersions and uses the consumer protocol when the
// cluster's group.version is 1 or more, classic otherwise.
func TestGroupProtocolDefault(t *testing.T) {
	for level, want := range map[int16]GroupProtocol{0: ProtocolClassic, 1: ProtocolConsumer} {
		t.Run(string(want), func(t *testing.T) {
			m, fc, _ := newFakeGroupWith(t, func(c *GroupConfig) { c.Protocol = "" }, func(fc *fakeCoord) { fc.groupVersion = level })
			if got := m.m.protocol(); got != want {
				t.Fatalf("protocol %q, want %q", got, want)
			}
			fc.mu.Lock()
			defer fc.mu.Unlock()
			if (len(fc.cghbs) > 0) != (want == ProtocolConsumer) || (len(fc.joins) > 0) != (want == ProtocolClassic) {
				t.Fatalf("%d ConsumerGroupHeartbeats, %d JoinGroups for %s", len(fc.cghbs), len(fc.joins), want)
			}
		})
	}
}

// TestGroupConsumerSteadyHeartbeats: the coordinator repeats the
// assignment in every answer to a full heartbeat; an unchanged one is not
// reconciled and acknowledged again, so a settled member heartbeats at the
// coordinator's interval (5ms here), not in a loop.
func TestGroupConsumerSteadyHeartbeats(t *testing.T) {
	_, fc, _ := newFakeGroup(t, consumerProtocol)
	_, _, before, _, _ := fc.snapshot()
	time.Sleep(200 * time.Millisecond) // the observation window, not synchronization
	_, _, after, _, _ := fc.snapshot()
	if n := after - before; n > 60 {
		t.Fatalf("%d heartbeats in 200ms at a 5ms interval", n)
	}
}

// TestGroupConsumerSlowRevokeKeepsHeartbeating: while a Revoking callback
// runs (here until three more heartbeats arrived) the member keeps
// heartbeating with its new epoch, then drops the revoked partition and
// acknowledges.
func TestGroupConsumerSlowRevokeKeepsHeartbeating(t *testing.T) {
	var fcp *fakeCoord
	var slowOnce sync.Once // only the rebalance's revocation, not Close's
	m, fc, _ := newFakeGroupWith(t, func(c *GroupConfig) {
		consumerProtocol(c)
		inner := c.OnAssignment
		c.OnAssignment = func(ctx context.Context, ev AssignmentEvent) {
			if ev.Kind == Revoking {
				slowOnce.Do(func() {
					_, _, hb, _, _ := fcp.snapshot()
					waitFor(t, "heartbeats during the revocation", func() bool { _, _, h, _, _ := fcp.snapshot(); return h >= hb+3 })
				})
			}
			inner(ctx, ev)
		}
	}, func(fc *fakeCoord) { fcp = fc })
	fc.mu.Lock()
	fc.cgAssign, fc.cgChanged = []int32{0}, true
	fc.mu.Unlock()
	waitFor(t, "the revocation", func() bool { return len(m.ownedSet()) == 1 })
	waitFor(t, "the acknowledgement", func() bool {
		fc.mu.Lock()
		defer fc.mu.Unlock()
		last := fc.cghbs[len(fc.cghbs)-1]
		return len(last.TopicPartitions) == 1 && slices.Equal(last.TopicPartitions[0].Partitions, []int32{0}) && last.MemberEpoch == 2
	})
}

// TestGroupConsumerFetchCommittedRetriesStaleEpoch: an OffsetFetch answered
// STALE_MEMBER_EPOCH (an assignment change under way, KIP-848) is sent
// again with the member's current epoch rather than failing the read of
// the committed offsets.
func TestGroupConsumerFetchCommittedRetriesStaleEpoch(t *testing.T) {
	m, fc, _ := newFakeGroupWith(t, consumerProtocol, func(fc *fakeCoord) {
		fc.committed[tp0] = 3
	})
	receiveGroupN(t, m, 3)
	fc.queue(wire.KeyOffsetFetch, wire.ErrStaleMemberEpoch.Code)
	offs, err := m.fetchCommitted(bg(), []gregor.TopicPartition{tp0})
	if err != nil || offs[tp0] != 3 {
		t.Fatalf("fetchCommitted = %v, %v; want %v at 3", offs, err, tp0)
	}
}
