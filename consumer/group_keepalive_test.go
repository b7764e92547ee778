package consumer

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// heldAssignment starts a fake group (protocol proto) whose first Assigned
// callback blocks until release is called: the keep-alive runs meanwhile.
func heldAssignment(t *testing.T, proto GroupProtocol) (m *member, fc *fakeCoord, release func()) {
	t.Helper()
	held := make(chan struct{})
	var once, releaseOnce sync.Once
	m, fc, _ = startFakeGroup(t, func(c *GroupConfig) {
		c.Protocol = proto
		prev := c.OnAssignment
		c.OnAssignment = func(ctx context.Context, ev AssignmentEvent) {
			prev(ctx, ev)
			if ev.Kind == Assigned {
				once.Do(func() { <-held })
			}
		}
	}, nil)
	release = func() { releaseOnce.Do(func() { close(held) }) }
	t.Cleanup(release)
	waitFor(t, "the first assignment's callback", func() bool { return len(m.ownedSet()) == 2 })
	return m, fc, release
}

// paused reports whether the fetch engine holds tp paused.
func (m *member) paused(tp gregor.TopicPartition) bool {
	m.c.mu.Lock()
	defer m.c.mu.Unlock()
	st, ok := m.c.parts[tp]
	return ok && st.paused
}

func (m *member) kinds() []AssignmentEventKind {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []AssignmentEventKind
	for _, ev := range m.events {
		out = append(out, ev.Kind)
	}
	return out
}

// heartbeatKey is the API a protocol's member heartbeats with.
func heartbeatKey(proto GroupProtocol) wire.APIKey {
	if proto == ProtocolConsumer {
		return wire.KeyConsumerGroupHeartbeat
	}
	return wire.KeyHeartbeat
}

// TestGroupFencedDuringCallback: a member expired while its assignment
// callback runs (the coordinator answers the keep-alive's heartbeat
// UNKNOWN_MEMBER_ID, as after a coordinator failover that outlasted the
// session) stops delivering its partitions at once, before the callback
// returns, then reports them Lost and joins again. Seen in the 1-hour soak
// (seed 1796179143212731508): the member kept delivering partitions a Java
// member already owned.
func TestGroupFencedDuringCallback(t *testing.T) {
	for _, proto := range []GroupProtocol{ProtocolClassic, ProtocolConsumer} {
		t.Run(string(proto), func(t *testing.T) {
			m, fc, release := heldAssignment(t, proto)
			fc.queue(heartbeatKey(proto), wire.ErrUnknownMemberID.Code)
			waitFor(t, "the partitions paused while the callback still runs", func() bool { return m.paused(tp0) && m.paused(tp1) })
			release()
			waitFor(t, "lost, then assigned again", func() bool {
				k := m.kinds()
				return len(k) == 3 && k[1] == Lost && k[2] == Assigned
			})
			if k := m.kinds(); k[0] != Assigned {
				t.Fatalf("events %v, want assigned, lost, assigned", k)
			}
		})
	}
}

// TestGroupKeepAliveFollowsCoordinator: while the callback runs, a
// keep-alive heartbeat answered NOT_COORDINATOR looks the coordinator up
// again (a moved coordinator would otherwise expire the member), and the
// member keeps its partitions.
func TestGroupKeepAliveFollowsCoordinator(t *testing.T) {
	for _, proto := range []GroupProtocol{ProtocolClassic, ProtocolConsumer} {
		t.Run(string(proto), func(t *testing.T) {
			m, fc, release := heldAssignment(t, proto)
			_, _, _, lookups, _ := fc.snapshot()
			fc.queue(heartbeatKey(proto), wire.ErrNotCoordinator.Code)
			waitFor(t, "a lookup while the callback still runs", func() bool { _, _, _, l, _ := fc.snapshot(); return l > lookups })
			release()
			if m.paused(tp0) || len(m.ownedSet()) != 2 {
				t.Fatalf("paused %v, owned %v: want both kept", m.paused(tp0), m.ownedSet())
			}
			if k := m.kinds(); len(k) != 1 {
				t.Fatalf("events %v, want the first assignment only", k)
			}
		})
	}
}

// TestGroupConsumerCloseCommitAfterStaleEpoch: Close's commit refused
// STALE_MEMBER_EPOCH (the group changed around the closing member) is sent
// again once a heartbeat brought the current epoch, so the offsets are
// committed; the membership heartbeats during Close. Seen on Kafka 4.0:
// TestIntegrationGroupTwoMembers's commit at Close failed.
func TestGroupConsumerCloseCommitAfterStaleEpoch(t *testing.T) {
	m, fc, _ := newFakeGroup(t, func(c *GroupConfig) {
		consumerProtocol(c)
		c.DisableAutoCommit = false
		c.AutoCommitInterval = time.Hour
	})
	receiveGroupN(t, m, 10)
	fc.queue(wire.KeyOffsetCommit, wire.ErrStaleMemberEpoch.Code)
	_, _, hb, _, _ := fc.snapshot()
	ctx, cancel := context.WithTimeout(bg(), 5*time.Second)
	defer cancel()
	if err := m.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	fc.mu.Lock()
	commits := len(fc.commits)
	fc.mu.Unlock()
	_, _, hb2, _, _ := fc.snapshot()
	if commits != 2 || fc.committedOf(tp0) != 5 || fc.committedOf(tp1) != 5 || hb2 < hb+2 {
		t.Fatalf("%d commits, committed %d/%d, %d heartbeats in Close: want 2 commits of 5/5 and a heartbeat besides the leave",
			commits, fc.committedOf(tp0), fc.committedOf(tp1), hb2-hb)
	}
}
