package runner

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/gregor-kafka/gregor/testlab/judge"
)

// groupView is what the runner knows of one group consumer from the
// transitions the adapter reported: the partitions they add up to and the
// last assignment epoch.
type groupView struct {
	owned map[tpKey]bool
	epoch uint64
}

type tpKey = judge.TopicPartition

// checkGroupAssignments judges group_assignments_observed: every consumer's
// transitions (across all observations) are in epoch order, assign only
// what it does not own and revoke or lose only what it owns, and add up to
// its reported assignment; the assignments are disjoint, at one positive
// classic generation; and the coordinator (described by the observer) gives
// each reported member exactly the reported partitions, covering the topic
// when the report names every member of the group.
func (r *run) checkGroupAssignments(ctx context.Context, cmd *judge.Command, pl *judge.GroupAssignmentsObserved) error {
	ts, as := pl.Transitions, pl.Assignments
	views := map[string]*groupView{}
	for id, v := range r.views {
		views[id] = &groupView{owned: maps.Clone(v.owned), epoch: v.epoch}
	}
	for _, t := range ts {
		v := views[string(t.ConsumerID)]
		if v == nil {
			v = &groupView{owned: map[tpKey]bool{}}
			views[string(t.ConsumerID)] = v
		}
		if t.AssignmentEpoch <= v.epoch || len(t.Partitions) == 0 {
			return fmt.Errorf("transition %+v after epoch %d: epochs must grow and name partitions", t, v.epoch)
		}
		v.epoch = t.AssignmentEpoch
		for _, tp := range t.Partitions {
			switch {
			case t.Kind == "assigned" && v.owned[tp]:
				return fmt.Errorf("%s assigned %v it already owned", t.ConsumerID, tp)
			case t.Kind == "assigned":
				v.owned[tp] = true
			case (t.Kind == "revoking" || t.Kind == "lost") && !v.owned[tp]:
				return fmt.Errorf("%s %s %v it did not own", t.ConsumerID, t.Kind, tp)
			case t.Kind == "revoking" || t.Kind == "lost":
				delete(v.owned, tp)
			default:
				return fmt.Errorf("transition kind %q", t.Kind)
			}
		}
	}
	ids := list(cmd.Payload["consumer_ids"])
	if len(as) != len(ids) {
		return fmt.Errorf("%d assignments for %d consumers", len(as), len(ids))
	}
	seen := map[tpKey]string{}
	for i, a := range as {
		if string(a.ConsumerID) != str(ids[i]) {
			return fmt.Errorf("assignments[%d] is %s, want %s (caller order)", i, a.ConsumerID, ids[i])
		}
		if err := checkGroupEpoch(a, as[0]); err != nil {
			return err
		}
		v := views[string(a.ConsumerID)]
		if v == nil {
			v = &groupView{owned: map[tpKey]bool{}}
		}
		got := map[tpKey]bool{}
		for _, tp := range a.Partitions {
			got[tp] = true
			if other, dup := seen[tp]; dup {
				return fmt.Errorf("%v assigned to both %s and %s", tp, other, a.ConsumerID)
			}
			seen[tp] = string(a.ConsumerID)
		}
		if !maps.Equal(got, v.owned) || a.AssignmentEpoch != v.epoch {
			return fmt.Errorf("%s reports %v at epoch %d; its transitions add up to %v at epoch %d", a.ConsumerID, a.Partitions, a.AssignmentEpoch, keysOf(v.owned), v.epoch)
		}
	}
	if err := r.checkGroupOnBroker(ctx, cmd, as, seen); err != nil {
		return err
	}
	r.views = views
	return nil
}

// checkGroupEpoch: a classic member reports the group's one positive
// generation; a consumer-protocol member (KIP-848) a positive member epoch
// (compared with the coordinator's in checkGroupOnBroker). All members of
// one report use the same protocol.
func checkGroupEpoch(a, first judge.GroupAssignment) error {
	e := a.GroupEpoch
	switch {
	case e.Kind != first.GroupEpoch.Kind:
		return fmt.Errorf("%s group_epoch kind %q, %s's is %q", a.ConsumerID, e.Kind, first.ConsumerID, first.GroupEpoch.Kind)
	case e.Kind == "classic" && (e.Value() <= 0 || e.Value() != first.GroupEpoch.Value()):
		return fmt.Errorf("%s group_epoch classic %d: want one positive classic generation", a.ConsumerID, e.Value())
	case e.Kind == "consumer" && e.Value() <= 0:
		return fmt.Errorf("%s group_epoch consumer %d: want a positive member epoch", a.ConsumerID, e.Value())
	case e.Kind != "classic" && e.Kind != "consumer":
		return fmt.Errorf("%s group_epoch kind %q", a.ConsumerID, e.Kind)
	}
	return nil
}

// checkGroupOnBroker compares the reported assignments with the
// coordinator's description of the group.
func (r *run) checkGroupOnBroker(ctx context.Context, cmd *judge.Command, as []judge.GroupAssignment, seen map[tpKey]string) error {
	group := as[0].GroupID
	topic := r.topicOfGroupConsumer(string(as[0].ConsumerID))
	describe := r.obs.GroupMembers
	if as[0].GroupEpoch.Kind == "consumer" {
		describe = r.obs.ConsumerGroupMembers // ConsumerGroupDescribe: member epochs too
	}
	state, members, err := describe(ctx, group)
	if err != nil {
		return err
	}
	byID := map[string][]int32{}
	epochs := map[string]int32{}
	for _, m := range members {
		ps := slices.Clone(m.Partitions[topic])
		slices.Sort(ps)
		byID[m.MemberID] = ps
		epochs[m.MemberID] = m.MemberEpoch
	}
	for _, a := range as {
		if e := a.GroupEpoch; e.Kind == "consumer" && epochs[a.MemberID] != e.Value() {
			r.fact(cmd.ID, fmt.Sprintf("member %s of %s is at member epoch %d", a.MemberID, group, e.Value()), fmt.Sprintf("coordinator says %d", epochs[a.MemberID]), false)
			return fmt.Errorf("%s claims member %s is at member epoch %d; the coordinator says %d", a.ConsumerID, a.MemberID, e.Value(), epochs[a.MemberID])
		}
		ps, ok := byID[a.MemberID]
		var want []int32
		for _, tp := range a.Partitions {
			want = append(want, tp.Partition)
		}
		slices.Sort(want)
		if !ok || !slices.Equal(ps, want) {
			r.fact(cmd.ID, fmt.Sprintf("member %s of %s owns %v", a.MemberID, group, want), fmt.Sprintf("state %s, broker assignment %v (member known: %v)", state, ps, ok), false)
			return fmt.Errorf("%s claims member %s owns %v of %s; the coordinator (state %s) says %v (member known: %v)", a.ConsumerID, a.MemberID, want, topic, state, ps, ok)
		}
	}
	if len(members) == len(as) {
		td, err := r.obs.Topic(ctx, topic)
		if err != nil {
			return err
		}
		if len(seen) != len(td.Partitions) {
			return fmt.Errorf("the whole group of %d members owns %d of %d partitions of %s", len(as), len(seen), len(td.Partitions), topic)
		}
	}
	r.fact(cmd.ID, fmt.Sprintf("group %s assignments", group), fmt.Sprintf("%d members, state %s, as reported", len(members), state), true)
	return nil
}

// checkGroupReceiveSet: every member that claims a commit has, on the
// broker, committed offsets at least one past its last received record
// of each partition.
func (r *run) checkGroupReceiveSet(ctx context.Context, pl *judge.GroupReceiveSetCompleted) error {
	for _, m := range pl.Members {
		if !m.Committed {
			continue
		}
		group := r.groupOf(string(m.ConsumerID))
		last := map[tpKey]int64{}
		for _, c := range m.Records {
			k := tpKey{Topic: c.Topic, Partition: c.Partition}
			last[k] = max(last[k], c.Offset+1)
		}
		for k, want := range last {
			off, ok, err := r.obs.Committed(ctx, group, k.Topic, k.Partition)
			if err != nil {
				return err
			}
			if !ok || off < want {
				return fmt.Errorf("%s claimed committed; group %s has %d (exists=%v) for %s[%d], want >= %d", m.ConsumerID, group, off, ok, k.Topic, k.Partition, want)
			}
		}
	}
	return nil
}

// topicOfGroupConsumer returns the topic a group consumer subscribed to.
func (r *run) topicOfGroupConsumer(consumerID string) string {
	for _, c := range r.sess.Commands() {
		if c.Kind == "create_group_consumer" && str(c.Payload["consumer_id"]) == consumerID {
			return str(c.Payload["topic"])
		}
	}
	return ""
}

func keysOf(m map[tpKey]bool) []tpKey {
	out := make([]tpKey, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// checkTransformOffset: next_offset is one past the batch's last record of
// the reported partition; after a commit the group's committed offset
// there has reached next_offset (checkClaims re-checks for a while: the
// coordinator materialises it with the commit marker), after an abort it
// stays below next_offset.
func (r *run) checkTransformOffset(ctx context.Context, cmd *judge.Command, f *judge.TransactionalTransformCompleted) error {
	want := int64(-1)
	for _, c := range f.Records {
		if c.Topic == f.Topic && c.Partition == f.Partition {
			want = max(want, c.Offset+1)
		}
	}
	if want < 0 || want != f.NextOffset {
		return fmt.Errorf("transactional_transform_completed: next_offset %d, batch's last record of %s[%d] says %d", f.NextOffset, f.Topic, f.Partition, want)
	}
	if group := r.groupOf(str(cmd.Payload["consumer_id"])); group != f.GroupID {
		return fmt.Errorf("transactional_transform_completed: group_id %q, consumer's group %q", f.GroupID, group)
	}
	off, ok, err := r.obs.Committed(ctx, f.GroupID, f.Topic, f.Partition)
	if err != nil {
		return err
	}
	if moved := ok && off >= f.NextOffset; moved != (f.Disposition == "commit") {
		return fmt.Errorf("transactional transform %s: group %s has %d (exists=%v) for %s[%d], next_offset %d", f.Disposition, f.GroupID, off, ok, f.Topic, f.Partition, f.NextOffset)
	}
	r.fact(cmd.ID, fmt.Sprintf("group %s offset of %s[%d] after %s", f.GroupID, f.Topic, f.Partition, f.Disposition),
		fmt.Sprintf("committed=%v offset=%d, next_offset=%d", ok, off, f.NextOffset), true)
	return nil
}
