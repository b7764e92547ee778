package consumer

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer/assign"
	"github.com/gregor-kafka/gregor/wire"
)

// fakeCoord scripts a group coordinator for one member (node 7): the
// KIP-394 handshake for dynamic members, one generation per join, the
// leader's assignment echoed back in SyncGroup, and queued error codes per
// API. Metadata comes from the fetch fake.
type fakeCoord struct {
	f  *fakeBroker
	mu sync.Mutex

	gen          int32
	joins        []wire.JoinGroupRequest
	syncs        int
	heartbeats   int
	assigned     []byte // the leader's assignment of the last sync
	committed    map[gregor.TopicPartition]int64
	commits      []wire.OffsetCommitRequest
	lookups      int // Coordinator calls that found the cache empty
	known        bool
	leaves       int
	errs         map[wire.APIKey][]int16 // queued error codes, first first
	cghbs        []wire.ConsumerGroupHeartbeatRequest
	groupVersion int16   // finalized group.version in ApiVersions
	cgAssign     []int32 // consumer protocol: partitions of "t" assigned; nil: both
	cgChanged    bool    // cgAssign changed: the next heartbeat bumps the epoch
	fetches      []wire.OffsetFetchRequest
	dead         bool  // requests hang until their context ends
	noCGHB       error // not nil: ConsumerGroupHeartbeat is not advertised, its requests fail with it
}

func newFakeCoord(f *fakeBroker) *fakeCoord {
	return &fakeCoord{f: f, committed: map[gregor.TopicPartition]int64{}, errs: map[wire.APIKey][]int16{}, groupVersion: 1}
}

func (c *fakeCoord) queue(k wire.APIKey, codes ...int16) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.errs[k] = append(c.errs[k], codes...)
}

func (c *fakeCoord) next(k wire.APIKey) int16 {
	q := c.errs[k]
	if len(q) == 0 {
		return 0
	}
	c.errs[k] = q[1:]
	return q[0]
}

func (c *fakeCoord) Metadata(ctx context.Context, topics []string) (*client.Metadata, error) {
	return c.f.Metadata(ctx, topics)
}

func (c *fakeCoord) Coordinator(ctx context.Context, kind client.CoordinatorType, key string) (int32, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.known {
		c.lookups++
		c.known = true
	}
	return 7, nil
}

func (c *fakeCoord) InvalidateCoordinator(kind client.CoordinatorType, key string) {
	c.mu.Lock()
	c.known = false
	c.mu.Unlock()
}

func (c *fakeCoord) Request(ctx context.Context, broker int32, req wire.Request) (wire.Response, error) {
	c.mu.Lock()
	if c.dead {
		c.mu.Unlock()
		<-ctx.Done()
		return nil, ctx.Err()
	}
	defer c.mu.Unlock()
	switch r := req.(type) {
	case *wire.JoinGroupRequest:
		c.joins = append(c.joins, *r)
		if code := c.next(wire.KeyJoinGroup); code != 0 {
			return &wire.JoinGroupResponse{ErrorCode: code, GenerationID: -1, MemberID: r.MemberID}, nil
		}
		if r.MemberID == "" && r.GroupInstanceID == nil {
			return &wire.JoinGroupResponse{ErrorCode: wire.ErrMemberIDRequired.Code, GenerationID: -1, MemberID: "m1"}, nil
		}
		c.gen++
		name := r.Protocols[0].Name
		return &wire.JoinGroupResponse{GenerationID: c.gen, ProtocolName: &name, Leader: "m1", MemberID: "m1",
			Members: []wire.JoinGroupResponseMember{{MemberID: "m1", GroupInstanceID: r.GroupInstanceID, Metadata: r.Protocols[0].Metadata}}}, nil
	case *wire.SyncGroupRequest:
		c.syncs++
		if code := c.next(wire.KeySyncGroup); code != 0 {
			return &wire.SyncGroupResponse{ErrorCode: code}, nil
		}
		for _, a := range r.Assignments {
			if a.MemberID == r.MemberID {
				c.assigned = a.Assignment
			}
		}
		return &wire.SyncGroupResponse{Assignment: c.assigned}, nil
	case *wire.HeartbeatRequest:
		c.heartbeats++
		return &wire.HeartbeatResponse{ErrorCode: c.next(wire.KeyHeartbeat)}, nil
	case *wire.LeaveGroupRequest:
		c.leaves++
		return &wire.LeaveGroupResponse{ErrorCode: c.next(wire.KeyLeaveGroup)}, nil
	case *wire.ApiVersionsRequest:
		resp := &wire.ApiVersionsResponse{FinalizedFeatures: []wire.ApiVersionsFinalizedFeature{{Name: "group.version", MaxVersionLevel: c.groupVersion}}}
		if c.noCGHB == nil {
			resp.ApiKeys = []wire.ApiVersionsResponseKey{{ApiKey: wire.KeyConsumerGroupHeartbeat, MaxVersion: 1}}
		}
		return resp, nil
	case *wire.ConsumerGroupHeartbeatRequest:
		if c.noCGHB != nil {
			c.cghbs = append(c.cghbs, *r)
			return nil, c.noCGHB
		}
		return c.consumerHeartbeat(r), nil
	case *wire.OffsetFetchRequest:
		c.fetches = append(c.fetches, *r)
		if code := c.next(wire.KeyOffsetFetch); code != 0 {
			return &wire.OffsetFetchResponse{Groups: []wire.OffsetFetchGroupResult{{GroupID: r.GroupID, ErrorCode: code}}}, nil
		}
		var topics []wire.OffsetFetchTopicResult
		for _, rt := range r.Groups[0].Topics {
			var ps []wire.OffsetFetchPartitionResult
			for _, p := range rt.PartitionIndexes {
				o, ok := c.committed[gregor.TopicPartition{Topic: rt.Name, Partition: p}]
				if !ok {
					o = -1
				}
				ps = append(ps, wire.OffsetFetchPartitionResult{PartitionIndex: p, CommittedOffset: o, CommittedLeaderEpoch: -1})
			}
			topics = append(topics, wire.OffsetFetchTopicResult{Name: rt.Name, TopicID: rt.TopicID, Partitions: ps})
		}
		return &wire.OffsetFetchResponse{Groups: []wire.OffsetFetchGroupResult{{GroupID: r.GroupID, Topics: topics}}}, nil
	case *wire.OffsetCommitRequest:
		c.commits = append(c.commits, *r)
		code := c.next(wire.KeyOffsetCommit)
		resp := &wire.OffsetCommitResponse{}
		for _, t := range r.Topics {
			tr := wire.OffsetCommitTopicResult{Name: t.Name, TopicID: t.TopicID}
			for _, p := range t.Partitions {
				if code == 0 {
					c.committed[gregor.TopicPartition{Topic: t.Name, Partition: p.PartitionIndex}] = p.CommittedOffset
				}
				tr.Partitions = append(tr.Partitions, wire.OffsetCommitPartitionResult{PartitionIndex: p.PartitionIndex, ErrorCode: code})
			}
			resp.Topics = append(resp.Topics, tr)
		}
		return resp, nil
	}
	return nil, errors.New("fakeCoord: unexpected request")
}

func (c *fakeCoord) snapshot() (joins, syncs, heartbeats, lookups int, gen int32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.joins), c.syncs, c.heartbeats, c.lookups, c.gen
}

// newFakeGroup starts a Group on the fakes, subscribed to topic "t" (two
// partitions with 5 records each), with events recorded in the member.
func newFakeGroup(t *testing.T, mod func(*GroupConfig)) (*member, *fakeCoord, *fakeBroker) {
	return newFakeGroupWith(t, mod, nil)
}

// newFakeGroupWith is newFakeGroup with pre run on the coordinator before
// the member starts.
func newFakeGroupWith(t *testing.T, mod func(*GroupConfig), pre func(*fakeCoord)) (*member, *fakeCoord, *fakeBroker) {
	t.Helper()
	m, fc, f := startFakeGroup(t, mod, pre)
	waitFor(t, "both partitions assigned", func() bool { return len(m.ownedSet()) == 2 })
	return m, fc, f
}

// startFakeGroup is newFakeGroupWith without waiting for the assignment.
func startFakeGroup(t *testing.T, mod func(*GroupConfig), pre func(*fakeCoord)) (*member, *fakeCoord, *fakeBroker) {
	t.Helper()
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 5))
	f.append(gregor.TopicPartition{Topic: "t", Partition: 1}, dataBatch(0, 5))
	fc := newFakeCoord(f)
	if pre != nil {
		pre(fc)
	}
	m := &member{owned: map[gregor.TopicPartition]bool{}}
	cfg := GroupConfig{GroupID: "g", Topics: []string{"t"}, Protocol: ProtocolClassic, Assignors: []assign.Assignor{testRange{coop: true}},
		HeartbeatInterval: 5 * time.Millisecond, DisableAutoCommit: true, OnAssignment: m.onEvent}
	if mod != nil {
		mod(&cfg)
	}
	cfg, re, err := cfg.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	cons, err := newConsumer(f, f, cfg.Config)
	if err != nil {
		t.Fatal(err)
	}
	m.Group = startGroup(fc, cons, cfg, re)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(bg(), 5*time.Second)
		defer cancel()
		m.Close(ctx)
	})
	return m, fc, f
}

// TestGroupMemberIDRequiredJoinsOnce: a dynamic member's first JoinGroup
// gets MEMBER_ID_REQUIRED with its member ID (KIP-394); it joins exactly
// once more, with that ID, and is assigned.
func TestGroupMemberIDRequiredJoinsOnce(t *testing.T) {
	_, fc, _ := newFakeGroup(t, nil)
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if len(fc.joins) != 2 || fc.joins[0].MemberID != "" || fc.joins[1].MemberID != "m1" {
		t.Fatalf("joins %+v: want one without and one with the member ID", fc.joins)
	}
	var sub wire.ConsumerProtocolSubscription
	if err := sub.DecodeFrom(wire.NewReader(fc.joins[1].Protocols[0].Metadata)); err != nil || sub.Version != 3 || len(sub.Topics) != 1 {
		t.Fatalf("subscription %+v: %v", sub, err)
	}
}

// TestGroupCommitDuringRebalance: a commit refused with
// REBALANCE_IN_PROGRESS, ILLEGAL_GENERATION or UNKNOWN_MEMBER_ID is
// reported typed, fetching goes on, the member rejoins and keeps its
// (cooperative) assignment, and a later commit succeeds with the new
// generation.
func TestGroupCommitDuringRebalance(t *testing.T) {
	for _, code := range []*wire.KafkaError{wire.ErrRebalanceInProgress, wire.ErrIllegalGeneration, wire.ErrUnknownMemberID} {
		t.Run(code.Name, func(t *testing.T) {
			m, fc, f := newFakeGroup(t, nil)
			receiveGroupN(t, m, 10)
			_, _, _, _, gen := fc.snapshot()
			fc.queue(wire.KeyOffsetCommit, code.Code)
			err := m.CommitDelivered(bg())
			var ce *CommitError
			if !errors.As(err, &ce) || !errors.Is(err, code) || len(ce.Partitions) != 2 {
				t.Fatalf("commit error %v, want a *CommitError with %s for both partitions", err, code.Name)
			}
			// Fetching is not stalled: new records arrive.
			f.append(tp0, dataBatch(5, 3))
			receiveGroupN(t, m, 3)
			// The rejoin is complete when the member has synced the new
			// generation, not when the coordinator has answered its
			// JoinGroup (the fake's gen moves first): a commit between the
			// two still carries the old generation.
			waitFor(t, "the member at a new generation", func() bool { g, _ := m.m.identity(); return g > gen })
			if len(m.ownedSet()) != 2 {
				t.Fatalf("owned %v after the rejoin, want both partitions", m.ownedSet())
			}
			for _, ev := range m.events {
				if ev.Kind != Assigned {
					t.Fatalf("event %+v: the assignment must survive the refused commit", ev)
				}
			}
			if err := m.CommitDelivered(bg()); err != nil {
				t.Fatalf("commit after the rejoin: %v", err)
			}
			fc.mu.Lock()
			last := fc.commits[len(fc.commits)-1]
			fc.mu.Unlock()
			if g, id := m.m.identity(); last.GenerationIDOrMemberEpoch != g || last.MemberID != id || g <= gen {
				t.Fatalf("commit carried generation %d member %q, member is at %d %q (was %d)", last.GenerationIDOrMemberEpoch, last.MemberID, g, id, gen)
			}
		})
	}
}

// TestGroupNotCoordinatorMidHeartbeat: NOT_COORDINATOR on a heartbeat makes
// the member look the coordinator up again and keep heartbeating, without
// rejoining or losing its partitions.
func TestGroupNotCoordinatorMidHeartbeat(t *testing.T) {
	m, fc, _ := newFakeGroup(t, nil)
	joins, _, hb, lookups, _ := fc.snapshot()
	fc.queue(wire.KeyHeartbeat, wire.ErrNotCoordinator.Code)
	waitFor(t, "heartbeats after the error", func() bool { _, _, h, _, _ := fc.snapshot(); return h >= hb+3 })
	j2, _, _, l2, _ := fc.snapshot()
	if l2 != lookups+1 || j2 != joins {
		t.Fatalf("lookups %d->%d, joins %d->%d: want one more lookup and no rejoin", lookups, l2, joins, j2)
	}
	if len(m.ownedSet()) != 2 || len(m.events) != 1 {
		t.Fatalf("events %+v", m.events)
	}
}

// TestGroupCloseLeavesAfterCoordinatorMoved: a LeaveGroup answered
// NOT_COORDINATOR and then COORDINATOR_LOAD_IN_PROGRESS (the coordinator
// just moved) is sent again, after a new coordinator lookup for the first,
// until the coordinator takes it: Close returns nil, with three LeaveGroup
// requests. Without the retry the member stays in the group until its
// session times out.
func TestGroupCloseLeavesAfterCoordinatorMoved(t *testing.T) {
	m, fc, _ := newFakeGroup(t, nil)
	_, _, _, lookups, _ := fc.snapshot()
	fc.queue(wire.KeyLeaveGroup, wire.ErrNotCoordinator.Code, wire.ErrCoordinatorLoadInProgress.Code)
	ctx, cancel := context.WithTimeout(bg(), 5*time.Second)
	defer cancel()
	if err := m.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if fc.leaves != 3 || fc.lookups != lookups+1 {
		t.Fatalf("%d LeaveGroup requests and %d new lookups, want 3 and 1", fc.leaves, fc.lookups-lookups)
	}
}

// TestGroupFencedInstanceID: a static member fenced by a newer member with
// its instance ID (FENCED_INSTANCE_ID on a heartbeat) loses its partitions
// and stops: Receive reports the typed error; Close does not leave.
func TestGroupFencedInstanceID(t *testing.T) {
	m, fc, _ := newFakeGroup(t, func(c *GroupConfig) { c.InstanceID = "i1" })
	fc.mu.Lock()
	if len(fc.joins) != 1 || *fc.joins[0].GroupInstanceID != "i1" {
		t.Fatalf("static join %+v: want one JoinGroup with the instance ID", fc.joins)
	}
	fc.mu.Unlock()
	fc.queue(wire.KeyHeartbeat, wire.ErrFencedInstanceID.Code)
	waitFor(t, "the partitions lost", func() bool { return len(m.ownedSet()) == 0 })
	m.mu.Lock()
	last := m.events[len(m.events)-1]
	m.mu.Unlock()
	if last.Kind != Lost || len(last.Partitions) != 2 {
		t.Fatalf("last event %+v, want both partitions lost", last)
	}
	ctx, cancel := context.WithTimeout(bg(), time.Second)
	defer cancel()
	for {
		if _, err := m.Receive(ctx); err != nil {
			if !errors.Is(err, wire.ErrFencedInstanceID) {
				t.Fatalf("Receive: %v, want FENCED_INSTANCE_ID", err)
			}
			break
		}
	}
	m.Close(ctx)
	if fc.leaves != 0 {
		t.Fatalf("a static member sent %d LeaveGroup", fc.leaves)
	}
}

// TestGroupMarkProcessedGapSafe: in CommitProcessed mode only the
// contiguous processed prefix is committed, whatever order records are
// marked in.
func TestGroupMarkProcessedGapSafe(t *testing.T) {
	m, fc, _ := newFakeGroup(t, func(c *GroupConfig) { c.CommitProcessed = true })
	recs := receiveGroupN(t, m, 10)
	var p0 []Record
	for _, r := range recs {
		if r.Partition == 0 {
			p0 = append(p0, r)
		}
	}
	// Mark 0, 1, 3, 4 of partition 0: offset 2 is not processed.
	if err := m.MarkProcessed(p0[0], p0[1], p0[3], p0[4]); err != nil {
		t.Fatal(err)
	}
	if err := m.CommitMarked(bg()); err != nil {
		t.Fatal(err)
	}
	if o := fc.committedOf(tp0); o != 2 {
		t.Fatalf("committed %d with offset 2 unprocessed, want 2", o)
	}
	if err := m.MarkProcessed(p0[2]); err != nil {
		t.Fatal(err)
	}
	if err := m.MarkProcessed(p0[2]); !errors.Is(err, ErrNotDelivered) {
		t.Fatalf("marking twice: %v", err)
	}
	if err := m.CommitMarked(bg()); err != nil {
		t.Fatal(err)
	}
	if o := fc.committedOf(tp0); o != 5 {
		t.Fatalf("committed %d, want 5", o)
	}
	if _, ok := fc.committed[gregor.TopicPartition{Topic: "t", Partition: 1}]; ok {
		t.Fatal("partition 1 committed with nothing processed")
	}
}

func (c *fakeCoord) committedOf(tp gregor.TopicPartition) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	o, ok := c.committed[tp]
	if !ok {
		return -1
	}
	return o
}

func receiveGroupN(t *testing.T, m *member, n int) []Record {
	t.Helper()
	var out []Record
	ctx, cancel := context.WithTimeout(bg(), 5*time.Second)
	defer cancel()
	for len(out) < n {
		recs, err := m.Receive(ctx)
		if err != nil {
			t.Fatalf("Receive after %d of %d: %v", len(out), n, err)
		}
		out = append(out, recs...)
	}
	return out
}

// TestGroupCloseWithinDeadline: with the coordinator unreachable (requests
// hang), Close still returns within its context's deadline, reporting the
// failed commit/leave.
func TestGroupCloseWithinDeadline(t *testing.T) {
	m, fc, _ := newFakeGroup(t, func(c *GroupConfig) { c.DisableAutoCommit = false; c.AutoCommitInterval = time.Hour })
	receiveGroupN(t, m, 10)
	fc.mu.Lock()
	fc.dead = true
	fc.mu.Unlock()
	ctx, cancel := context.WithTimeout(bg(), 300*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	err := m.Close(ctx)
	if d := time.Since(t0); d > 2*time.Second {
		t.Fatalf("Close took %v with a 300ms deadline", d)
	}
	if err == nil {
		t.Fatal("Close reported success with the coordinator unreachable")
	}
}

// TestGroupSlowRevokeKeepsHeartbeating: while an eager member's Revoking
// callback runs, heartbeats continue, so a callback longer than the session
// timeout does not get the member expired.
func TestGroupSlowRevokeKeepsHeartbeating(t *testing.T) {
	release := make(chan struct{})
	var slow sync.Once
	m, fc, _ := newFakeGroup(t, func(c *GroupConfig) {
		c.Assignors = []assign.Assignor{testRange{}}
		prev := c.OnAssignment
		c.OnAssignment = func(ctx context.Context, ev AssignmentEvent) {
			prev(ctx, ev)
			if ev.Kind == Revoking {
				slow.Do(func() { <-release })
			}
		}
	})
	_, _, hb, _, _ := fc.snapshot()
	fc.queue(wire.KeyHeartbeat, wire.ErrRebalanceInProgress.Code)
	waitFor(t, "the revoking callback", func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		return m.events[len(m.events)-1].Kind == Revoking
	})
	waitFor(t, "heartbeats during the callback", func() bool { _, _, h, _, _ := fc.snapshot(); return h >= hb+5 })
	close(release)
	waitFor(t, "reassigned", func() bool { return len(m.ownedSet()) == 2 })
}

// TestGroupResetNoneWithoutCommit: under ResetNone, partitions without a
// committed offset are reported once by Receive and stay paused until the
// application seeks and resumes them; one with a committed offset starts
// there.
func TestGroupResetNoneWithoutCommit(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 5))
	f.append(gregor.TopicPartition{Topic: "t", Partition: 1}, dataBatch(0, 5))
	fc := newFakeCoord(f)
	fc.committed[gregor.TopicPartition{Topic: "t", Partition: 1}] = 3
	m := &member{owned: map[gregor.TopicPartition]bool{}}
	cfg, re, err := GroupConfig{GroupID: "g", Topics: []string{"t"}, Protocol: ProtocolClassic, Assignors: []assign.Assignor{testRange{}},
		HeartbeatInterval: 5 * time.Millisecond, DisableAutoCommit: true, OnAssignment: m.onEvent, Config: Config{OffsetReset: ResetNone}}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	cons, err := newConsumer(f, f, cfg.Config)
	if err != nil {
		t.Fatal(err)
	}
	m.Group = startGroup(fc, cons, cfg, re)
	defer m.Close(bg())
	waitFor(t, "assigned", func() bool { return len(m.ownedSet()) == 2 })
	ctx, cancel := context.WithTimeout(bg(), 5*time.Second)
	defer cancel()
	_, err = m.Receive(ctx)
	var ne *NoCommittedOffsetError
	if !errors.As(err, &ne) || len(ne.Partitions) != 1 || ne.Partitions[0] != tp0 {
		t.Fatalf("Receive: %v, want NoCommittedOffsetError for %s", err, tp0)
	}
	recs := receiveGroupN(t, m, 2)
	for _, r := range recs {
		if r.Partition != 1 || r.Offset < 3 {
			t.Fatalf("record %s[%d]@%d: want only partition 1 from its committed 3", r.Topic, r.Partition, r.Offset)
		}
	}
	if err := m.Seek(bg(), tp0, AtOffset(4)); err != nil {
		t.Fatal(err)
	}
	if err := m.Resume(tp0); err != nil {
		t.Fatal(err)
	}
	if r := receiveGroupN(t, m, 1); r[0].Partition != 0 || r[0].Offset != 4 {
		t.Fatalf("after seek+resume got %+v", r[0])
	}
}

// TestGroupCommitOnlyOwned: a commit naming a partition the member does not
// own is refused locally for that partition (ErrNotAssigned) while the owned
// ones are committed; a lower offset than already committed is skipped.
func TestGroupCommitOnlyOwned(t *testing.T) {
	m, fc, _ := newFakeGroup(t, nil)
	err := m.Commit(bg(), map[gregor.TopicPartition]int64{tp0: 3, {Topic: "other", Partition: 0}: 9})
	var ce *CommitError
	if !errors.As(err, &ce) || len(ce.Partitions) != 1 || !errors.Is(ce.Partitions[gregor.TopicPartition{Topic: "other", Partition: 0}], ErrNotAssigned) {
		t.Fatalf("commit: %v, want ErrNotAssigned for other[0] only", err)
	}
	if o := fc.committedOf(tp0); o != 3 {
		t.Fatalf("t[0] committed %d, want 3", o)
	}
	if err := m.Commit(bg(), map[gregor.TopicPartition]int64{tp0: 1}); err != nil {
		t.Fatal(err)
	}
	if o := fc.committedOf(tp0); o != 3 {
		t.Fatalf("t[0] committed %d after a lower commit, want 3", o)
	}
}

// TestGroupPauseInAssignedEvent: a partition announced by an Assigned
// event is already in the fetch engine, so the listener can pause it
// there (as Java's onPartitionsAssigned can); a paused partition then
// delivers nothing. Before the fix the event came first and Pause
// answered ErrNotAssigned.
func TestGroupPauseInAssignedEvent(t *testing.T) {
	ready := make(chan *Group, 1)
	var mu sync.Mutex
	var pauseErrs []error
	m, _, _ := newFakeGroup(t, func(cfg *GroupConfig) {
		record := cfg.OnAssignment
		cfg.OnAssignment = func(ctx context.Context, ev AssignmentEvent) {
			record(ctx, ev)
			if ev.Kind != Assigned {
				return
			}
			g := <-ready
			ready <- g
			for _, tp := range ev.Partitions {
				err := g.Pause(tp)
				mu.Lock()
				pauseErrs = append(pauseErrs, err)
				mu.Unlock()
			}
		}
	})
	ready <- m.Group
	waitFor(t, "both partitions paused by the listener", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(pauseErrs) == 2
	})
	mu.Lock()
	for _, err := range pauseErrs {
		if err != nil {
			t.Errorf("Pause in the Assigned event: %v", err)
		}
	}
	mu.Unlock()
	ctx, cancel := context.WithTimeout(bg(), 300*time.Millisecond)
	defer cancel()
	if recs, _ := m.Receive(ctx); len(recs) != 0 {
		t.Fatalf("received %d records from paused partitions", len(recs))
	}
}

// TestGroupRecycleHandsBackToEngine: a slice the group's Receive returned
// and Recycle handed back is released to the engine's pool (its pin is
// gone), as Consumer.Recycle does.
func TestGroupRecycleHandsBackToEngine(t *testing.T) {
	m, _, _ := newFakeGroup(t, nil)
	ctx, cancel := context.WithTimeout(bg(), 5*time.Second)
	defer cancel()
	var recs []Record
	for len(recs) == 0 {
		var err error
		if recs, err = m.Receive(ctx); err != nil {
			t.Fatal(err)
		}
	}
	addr := uintptr(unsafe.Pointer(&recs[0]))
	pinned := func() bool {
		m.Group.c.mu.Lock()
		defer m.Group.c.mu.Unlock()
		for _, p := range m.Group.c.pins.ring {
			if p.first == addr {
				return true
			}
		}
		return false
	}
	if !pinned() {
		t.Fatal("the delivered slice is not pinned for Recycle")
	}
	m.Recycle(recs)
	if pinned() {
		t.Fatal("the recycled slice is still pinned: Recycle did not reach the engine")
	}
}
