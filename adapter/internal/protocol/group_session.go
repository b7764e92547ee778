package protocol

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// groupCommands are the consumer-group rows of the command table (§4.5).
var groupCommands = []command{
	handledBy("create_group_consumer", (*Session).doCreateGroupConsumer),
	handledBy("group_receive", (*Session).doGroupReceive),
	handledBy("observe_group_assignments", (*Session).doObserveGroupAssignments),
	handledBy("group_receive_set", (*Session).doGroupReceiveSet),
	handledBy("control_group_consumer", (*Session).doControlGroupConsumer),
	handledBy("shutdown_group_consumer", (*Session).doShutdownGroupConsumer),
	handledBy("close_group_consumer", (*Session).doCloseGroupConsumer),
}

// groupCommitTimeout bounds the commit of a received batch's checkpoint.
const groupCommitTimeout = 10 * time.Second

// observePoll is the interval between assignment snapshots while
// observe_group_assignments waits for the group to settle.
const observePoll = 100 * time.Millisecond

type groupEntry struct {
	clientID ID
	groupID  string
	topic    string
	gc       GroupConsumer
	// shut is set after shutdown_group_consumer: the member is gone and
	// only a later close_group_consumer may name it (§4.5).
	shut bool
}

func (s *Session) groupOf(id ID) (*groupEntry, error) {
	if err := s.needHello(); err != nil {
		return nil, err
	}
	g, ok := s.groups[id]
	if !ok {
		return nil, stateErr("unknown group consumer %q", id)
	}
	return g, nil
}

func (s *Session) liveGroupOf(id ID) (*groupEntry, error) {
	g, err := s.groupOf(id)
	if err == nil && g.shut {
		err = stateErr("group consumer %q was shut down", id)
	}
	return g, err
}

func (s *Session) doCreateGroupConsumer(p *CreateGroupConsumer) error {
	c, err := s.clientOf(p.ClientID)
	if err != nil {
		return err
	}
	if _, dup := s.groups[p.ConsumerID]; dup {
		return stateErr("duplicate group consumer %q", p.ConsumerID)
	}
	if l := len(p.GroupID); l < 1 || l > 255 {
		return fatalf("adapter_input", "group_id of %d bytes", l)
	}
	cfg := GroupConsumerConfig{GroupID: p.GroupID, Topic: p.Topic, Protocol: string(p.Protocol), OffsetReset: "earliest"}
	if p.Configuration != nil {
		cfg.OffsetReset = string(p.Configuration.OffsetReset)
		cfg.ReadCommitted = p.Configuration.ReadIsolation == "read_committed"
	}
	gc, err := c.client.NewGroupConsumer(cfg)
	if err != nil {
		return failed(err, familyConsumer)
	}
	s.groups[p.ConsumerID] = &groupEntry{clientID: p.ClientID, groupID: p.GroupID, topic: p.Topic, gc: gc}
	return s.emit(GroupConsumerCreated{ConsumerID: p.ConsumerID})
}

// epochOf is the member's GroupMembershipEpoch, or nil while it has none.
func epochOf(gc GroupConsumer) *GroupEpoch {
	if sn := gc.Snapshot(); sn.Generation > 0 {
		e := groupEpoch(sn)
		return &e
	}
	return nil
}

// receiveAndCommit takes one batch within ms and commits its checkpoint.
func receiveAndCommit(gc GroupConsumer, ms uint64) ([]ConsumedRecord, bool, error) {
	recs, err := receiveFirst(gc, ms)
	if err != nil || len(recs) == 0 {
		return recs, false, err
	}
	ctx, cancel := timeout(uint64(groupCommitTimeout / time.Millisecond))
	defer cancel()
	batch := make([]ReceivedRecord, len(recs))
	for i, r := range recs {
		batch[i] = ReceivedRecord{Topic: r.Topic, Partition: r.Partition, Offset: r.Offset}
	}
	if err := gc.CommitBatch(ctx, batch); err != nil {
		return nil, false, failed(err, familyConsumer)
	}
	return recs, true, nil
}

func (s *Session) doGroupReceive(p *GroupReceive) error {
	ge, err := s.liveGroupOf(p.ConsumerID)
	if err != nil {
		return err
	}
	recs, committed, err := receiveAndCommit(ge.gc, p.TimeoutMs)
	if err != nil {
		return err
	}
	return s.emit(GroupReceiveCompleted{ReceiveID: p.ReceiveID, Records: recs, Committed: committed, GroupEpoch: epochOf(ge.gc)})
}

func (s *Session) doGroupReceiveSet(p *GroupReceiveSet) error {
	if n := len(p.ConsumerIDs); n < 1 || n > 32 {
		return fatalf("adapter_input", "group_receive_set with %d consumers", n)
	}
	members := make([]GroupMemberRecords, len(p.ConsumerIDs))
	entries := make([]*groupEntry, len(p.ConsumerIDs))
	for i, id := range p.ConsumerIDs {
		ge, err := s.liveGroupOf(id)
		if err != nil {
			return err
		}
		entries[i] = ge
		members[i] = GroupMemberRecords{ConsumerID: id, Records: []ConsumedRecord{}}
	}
	deadline := time.Now().Add(time.Duration(p.TimeoutMs) * time.Millisecond)
	total := uint64(0)
	for total < p.RecordCount && time.Now().Before(deadline) {
		for i, ge := range entries {
			left := time.Until(deadline)
			if left <= 0 || total >= p.RecordCount {
				break
			}
			slice := min(left, 200*time.Millisecond)
			recs, committed, err := receiveAndCommit(ge.gc, uint64(max(slice, time.Millisecond)/time.Millisecond))
			if err != nil {
				return err
			}
			members[i].Records = append(members[i].Records, recs...)
			members[i].Committed = members[i].Committed || committed
			total += uint64(len(recs))
		}
	}
	for i, ge := range entries {
		members[i].GroupEpoch = epochOf(ge.gc)
	}
	return s.emit(GroupReceiveSetCompleted{ReceiveID: p.ReceiveID, Members: members})
}

func (s *Session) doControlGroupConsumer(p *ControlGroupConsumer) error {
	ge, err := s.liveGroupOf(p.ConsumerID)
	if err != nil {
		return err
	}
	ctx, cancel := timeout(p.TimeoutMs)
	defer cancel()
	c := &p.Control
	switch c.Kind {
	case GroupControlPause:
		err = ge.gc.Pause(c.Partitions)
	case GroupControlResume:
		err = ge.gc.Resume(c.Partitions)
	case GroupControlSeek:
		err = ge.gc.Seek(ctx, c.Partition, c.Position)
	}
	if err != nil {
		return failed(err, familyConsumer)
	}
	return s.emit(GroupConsumerControlCompleted{OperationID: p.OperationID, ConsumerID: p.ConsumerID, Control: c.Kind})
}

func (s *Session) doShutdownGroupConsumer(p *ShutdownGroupConsumer) error {
	ge, err := s.liveGroupOf(p.ConsumerID)
	if err != nil {
		return err
	}
	if p.RequestCount < 1 || p.RequestCount > 8 {
		return fatalf("adapter_input", "request_count %d", p.RequestCount)
	}
	ctx, cancel := timeout(p.TimeoutMs)
	defer cancel()
	errs := make([]error, p.RequestCount)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() { errs[i] = ge.gc.Shutdown(ctx) })
	}
	wg.Wait()
	ge.shut = true
	_, _ = ge.gc.DrainTransitions() // the member is gone; its last transitions go with it
	for _, err := range errs {
		if err != nil {
			return failed(err, familyConsumer)
		}
	}
	return s.emit(GroupConsumerShutdownCompleted{OperationID: p.OperationID, ConsumerID: p.ConsumerID, RequestCount: p.RequestCount})
}

func (s *Session) doCloseGroupConsumer(p *CloseGroupConsumer) error {
	ge, err := s.groupOf(p.ConsumerID)
	if err != nil {
		return err
	}
	delete(s.groups, p.ConsumerID)
	if !ge.shut {
		ctx, cancel := timeout(uint64(groupShutdownTimeout/time.Millisecond) + 5000)
		defer cancel()
		if err := ge.gc.Close(ctx); err != nil {
			return failed(err, familyConsumer)
		}
	}
	return s.emit(GroupConsumerClosed{ConsumerID: p.ConsumerID})
}

// doObserveGroupAssignments drains every member's transitions and waits
// for two identical complete snapshots: every member has joined, all are
// at the same generation and their partitions are disjoint; when the
// members are every live member of the group this session created and the
// coordinator lists no member outside them (a Java consumer in the same
// group), they must also cover the topic. A member whose membership has
// stopped (e.g. gregor.ErrUnsupportedFeature) fails the command at once.
func (s *Session) doObserveGroupAssignments(p *ObserveGroupAssignments) error {
	if n := len(p.ConsumerIDs); n < 1 || n > 32 {
		return fatalf("adapter_input", "observe_group_assignments with %d consumers", n)
	}
	entries := make([]*groupEntry, len(p.ConsumerIDs))
	for i, id := range p.ConsumerIDs {
		ge, err := s.liveGroupOf(id)
		if err != nil {
			return err
		}
		if slices.Index(p.ConsumerIDs, id) != i {
			return fatalf("adapter_input", "consumer %q listed twice", id)
		}
		if i > 0 && (ge.groupID != entries[0].groupID || ge.topic != entries[0].topic) {
			return stateErr("consumers of different groups or topics")
		}
		entries[i] = ge
	}
	sessionWhole := s.liveMembers(entries[0].groupID) == len(entries)
	ctx, cancel := timeout(p.TimeoutMs)
	defer cancel()
	transitions := []GroupTransitionEvent{}
	var prev []GroupSnapshot
	for {
		for i, ge := range entries {
			ts, err := ge.gc.DrainTransitions()
			if err != nil {
				return fatalf("adapter_group_transitions", "%s: %v", p.ConsumerIDs[i], err)
			}
			for _, t := range ts {
				transitions = append(transitions, GroupTransitionEvent{ConsumerID: p.ConsumerIDs[i], Kind: t.Kind,
					AssignmentEpoch: t.AssignmentEpoch, Partitions: nonNilTPs(t.Partitions)})
			}
		}
		for i, ge := range entries {
			if err := ge.gc.Err(); err != nil {
				return failed(fmt.Errorf("group consumer %s stopped: %w", p.ConsumerIDs[i], err), familyConsumer)
			}
		}
		snaps := make([]GroupSnapshot, len(entries))
		for i, ge := range entries {
			snaps[i] = ge.gc.Snapshot()
		}
		if stable(snaps) && slices.EqualFunc(snaps, prev, sameSnapshot) &&
			(!sessionWhole || !onlyMembers(ctx, entries[0], snaps) || covers(ctx, snaps, entries[0])) {
			out := make([]GroupAssignmentEvent, len(snaps))
			for i, sn := range snaps {
				out[i] = GroupAssignmentEvent{ConsumerID: p.ConsumerIDs[i], GroupID: sn.GroupID, MemberID: sn.MemberID,
					GroupEpoch: groupEpoch(sn), AssignmentEpoch: sn.AssignmentEpoch,
					Partitions: nonNilTPs(sn.Partitions)}
			}
			return s.emit(GroupAssignmentsObserved{OperationID: p.OperationID, Transitions: transitions, Assignments: out})
		}
		prev = snaps
		select {
		case <-ctx.Done():
			return failed(fmt.Errorf("%w: the group did not settle within %dms", context.DeadlineExceeded, p.TimeoutMs), familyConsumer)
		case <-time.After(observePoll):
		}
	}
}

// stable reports whether snaps are all joined at one generation with
// disjoint partitions.
func stable(snaps []GroupSnapshot) bool {
	seen := map[TopicPartition]bool{}
	for _, sn := range snaps {
		if sn.Generation <= 0 || sn.Generation != snaps[0].Generation {
			return false
		}
		for _, tp := range sn.Partitions {
			if seen[tp] {
				return false
			}
			seen[tp] = true
		}
	}
	return true
}

// onlyMembers reports whether the coordinator says the snapshots' members
// are the whole group. When it cannot say (the describe failed), they are
// taken to be, as the session created every member it knows of.
func onlyMembers(ctx context.Context, ge *groupEntry, snaps []GroupSnapshot) bool {
	ids, err := ge.gc.GroupMembers(ctx)
	if err != nil {
		return true
	}
	for _, id := range ids {
		if !slices.ContainsFunc(snaps, func(sn GroupSnapshot) bool { return sn.MemberID == id }) {
			return false
		}
	}
	return true
}

// covers reports whether snaps' partitions cover the topic.
func covers(ctx context.Context, snaps []GroupSnapshot, ge *groupEntry) bool {
	n := 0
	for _, sn := range snaps {
		n += len(sn.Partitions)
	}
	count, err := ge.gc.PartitionCount(ctx)
	return err == nil && n == count
}

func sameSnapshot(a, b GroupSnapshot) bool {
	return a.MemberID == b.MemberID && a.Generation == b.Generation && a.AssignmentEpoch == b.AssignmentEpoch &&
		slices.Equal(a.Partitions, b.Partitions)
}

// liveMembers counts the session's group consumers of group not shut down.
func (s *Session) liveMembers(group string) int {
	n := 0
	for _, g := range s.groups {
		if g.groupID == group && !g.shut {
			n++
		}
	}
	return n
}

func nonNilTPs(tps []TopicPartition) []TopicPartition {
	if tps == nil {
		return []TopicPartition{}
	}
	return tps
}
