package assign

import (
	"encoding/binary"
	"errors"
	"sort"
)

// stickyAssignor is Java's StickyAssignor (cooperative false) or
// CooperativeStickyAssignor (cooperative true), both built on Java's
// AbstractStickyAssignor: a balanced assignment that keeps as many
// partitions as possible with their previous owners.
type stickyAssignor struct{ cooperative bool }

// Sticky returns the "sticky" assignor (eager), Java's StickyAssignor. It
// learns previous ownership from each member's user data (see
// StickyUserData).
func Sticky() Assignor { return stickyAssignor{} }

// CooperativeSticky returns the "cooperative-sticky" assignor
// (cooperative, KIP-429), Java's CooperativeStickyAssignor. It learns
// previous ownership from the subscriptions' owned partitions and
// generation; a partition that moves to another member is left out of
// every assignment of this round, so that its owner revokes it first and
// the next rebalance hands it over.
func CooperativeSticky() Assignor { return stickyAssignor{cooperative: true} }

func (s stickyAssignor) Name() string {
	if s.cooperative {
		return "cooperative-sticky"
	}
	return "sticky"
}

func (s stickyAssignor) Protocol() RebalanceProtocol {
	if s.cooperative {
		return Cooperative
	}
	return Eager
}

// defaultGeneration is Java's DEFAULT_GENERATION: no known generation.
const defaultGeneration = -1

// errJavaFails is returned where Java's assignor throws for the same input.
var errJavaFails = errors.New("assign: sticky assignment failed (Java's assignor throws for this input too)")

// memberData is AbstractStickyAssignor.MemberData: what a member says it
// owned, and in which generation.
type memberData struct {
	partitions []topicPartition
	generation int32
	hasGen     bool
}

func (d memberData) gen() int32 {
	if d.hasGen {
		return d.generation
	}
	return defaultGeneration
}

// memberData reads a member's previous ownership the way the Java assignor
// does: StickyAssignor from the user data only, CooperativeStickyAssignor
// from the subscription's owned partitions, with the generation of the
// subscription (v2+) or else of its user data.
func (s stickyAssignor) memberData(m *member) memberData {
	if !s.cooperative {
		if len(m.UserData) == 0 {
			return memberData{}
		}
		d, err := DecodeStickyUserData(m.UserData)
		if err != nil {
			return memberData{generation: defaultGeneration, hasGen: true}
		}
		var tps []topicPartition
		for _, o := range d.Owned {
			for _, p := range o.Partitions {
				tps = append(tps, topicPartition{o.Topic, p})
			}
		}
		return memberData{partitions: tps, generation: d.Generation, hasGen: d.HasGeneration}
	}
	if m.Generation >= 0 {
		return memberData{partitions: m.owned, generation: m.Generation, hasGen: true}
	}
	d := memberData{partitions: m.owned}
	switch {
	case m.UserData == nil:
	case len(m.UserData) >= 4:
		d.generation, d.hasGen = int32(binary.BigEndian.Uint32(m.UserData)), true
	default:
		d.generation, d.hasGen = defaultGeneration, true
	}
	return d
}

// subscriptionGeneration is the member's subscription generation (v2+),
// -1 when absent.
func subscriptionGeneration(m *member) int32 {
	if m.Generation < 0 {
		return defaultGeneration
	}
	return m.Generation
}

// stickyState is what AbstractStickyAssignor computes before building.
type stickyState struct {
	g              *group
	allEqual       bool
	owned          map[string][]topicPartition // consumerToOwnedPartitions
	multipleOwners map[topicPartition]bool
	maxGeneration  int32
	rack           *rackInfo
}

func (s stickyAssignor) Assign(members []Member, topics map[string][]Partition) (map[string][]TopicPartitions, error) {
	g, err := newGroup(members, topics)
	if err != nil {
		return nil, err
	}
	if len(g.members) == 0 {
		return g.result(nil), nil
	}
	st := s.prepare(g)
	var assigned map[string][]topicPartition
	var transferring map[topicPartition]string
	if st.allEqual {
		c := newConstrained(st)
		if assigned, err = c.build(); err != nil {
			return nil, err
		}
		transferring = c.transferring
	} else {
		gb := newGeneral(st, s)
		if assigned, err = gb.build(); err != nil {
			return nil, err
		}
		if s.cooperative {
			transferring = transferringOwnership(g, assigned)
		}
	}
	if s.cooperative {
		removeTransferring(assigned, transferring)
	}
	return g.result(assigned), nil
}

// removeTransferring takes each partition changing owner out of its new
// owner's list (CooperativeStickyAssignor: it is assigned only once the
// old owner has revoked it), as removeTP of each would (the first
// occurrence only), with one pass and one new list per member.
func removeTransferring(assigned map[string][]topicPartition, transferring map[topicPartition]string) {
	gone := map[string]int{} // per new owner, how many partitions leave its list
	for _, to := range transferring {
		gone[to]++
	}
	removed := make(map[topicPartition]bool, len(transferring))
	for to, n := range gone {
		l := assigned[to]
		out := make([]topicPartition, 0, max(len(l)-n, 0))
		for _, tp := range l {
			if owner, ok := transferring[tp]; ok && owner == to && !removed[tp] {
				removed[tp] = true
				continue
			}
			out = append(out, tp)
		}
		assigned[to] = out
	}
}

// prepare is AbstractStickyAssignor.allSubscriptionsEqual: whether every
// member subscribes to the same topics, and who owns what, a partition
// claimed twice going to the claimant of the later generation (Java's
// generation of the other claimant is that of its subscription), or to
// nobody if the generations are equal.
func (s stickyAssignor) prepare(g *group) *stickyState {
	st := &stickyState{g: g, allEqual: true, owned: map[string][]topicPartition{},
		multipleOwners: map[topicPartition]bool{}, maxGeneration: defaultGeneration}
	subscribed := map[string]bool{}
	previousOwner := make(map[topicPartition]*member, g.partitionCount())
	for _, m := range g.members {
		if len(subscribed) == 0 {
			for _, t := range m.Topics {
				subscribed[t] = true
			}
		} else if st.allEqual && !sameTopics(m, subscribed) {
			st.allEqual = false
		}
		d := s.memberData(m)
		gen := d.gen()
		st.maxGeneration = max(st.maxGeneration, gen)
		st.owned[m.MemberID] = make([]topicPartition, 0, len(d.partitions))
		for _, tp := range d.partitions {
			if !g.exists(tp) {
				continue
			}
			other, claimed := previousOwner[tp]
			if !claimed {
				st.owned[m.MemberID] = append(st.owned[m.MemberID], tp)
				previousOwner[tp] = m
				continue
			}
			otherGen := subscriptionGeneration(other)
			switch {
			case gen == otherGen:
				st.multipleOwners[tp] = true
				st.owned[other.MemberID] = removeTP(st.owned[other.MemberID], tp)
				previousOwner[tp] = m
			case gen > otherGen:
				st.owned[m.MemberID] = append(st.owned[m.MemberID], tp)
				st.owned[other.MemberID] = removeTP(st.owned[other.MemberID], tp)
				previousOwner[tp] = m
			}
		}
	}
	st.rack = newRackInfo(g)
	return st
}

func sameTopics(m *member, set map[string]bool) bool {
	if len(m.Topics) != len(set) {
		return false
	}
	for _, t := range m.Topics {
		if !set[t] {
			return false
		}
	}
	return true
}

// removeTP removes the first occurrence of tp (Java's List.remove(Object)).
func removeTP(l []topicPartition, tp topicPartition) []topicPartition {
	for i, x := range l {
		if x == tp {
			return append(l[:i:i], l[i+1:]...)
		}
	}
	return l
}

func containsTP(l []topicPartition, tp topicPartition) bool {
	for _, x := range l {
		if x == tp {
			return true
		}
	}
	return false
}

// transferringOwnership is CooperativeStickyAssignor's computation for the
// general case: partitions assigned to a member that did not own them
// while their owner (per the subscriptions' owned partitions) loses them.
func transferringOwnership(g *group, assigned map[string][]topicPartition) map[topicPartition]string {
	added := map[topicPartition]string{}
	revoked := map[topicPartition]bool{}
	for _, m := range g.members {
		got := assigned[m.MemberID]
		for _, tp := range got {
			if !containsTP(m.owned, tp) {
				added[tp] = m.MemberID
			}
		}
		for _, tp := range m.owned {
			if !containsTP(got, tp) {
				revoked[tp] = true
			}
		}
	}
	for tp := range added {
		if !revoked[tp] {
			delete(added, tp)
		}
	}
	return added
}

// allPartitions lists the partitions of topics in the given order.
func (g *group) allPartitions(topics []string) []topicPartition {
	n := 0
	for _, t := range topics {
		n += len(g.topics[t])
	}
	out := make([]topicPartition, 0, n)
	for _, t := range topics {
		for _, p := range g.topics[t] {
			out = append(out, topicPartition{t, p.ID})
		}
	}
	return out
}

// partitionCount is the number of partitions of every topic with metadata.
func (g *group) partitionCount() int {
	n := 0
	for _, ps := range g.topics {
		n += len(ps)
	}
	return n
}

// rackInfo is AbstractStickyAssignor.RackInfo (KIP-881).
type rackInfo struct {
	consumerRacks           map[string]string // empty unless rack-aware
	partitionRacks          map[topicPartition]map[string]bool
	numConsumersByPartition map[topicPartition]int
}

func newRackInfo(g *group) *rackInfo {
	ri := &rackInfo{consumerRacks: map[string]string{}, partitionRacks: map[topicPartition]map[string]bool{},
		numConsumersByPartition: map[topicPartition]int{}}
	consumersByRack := map[string][]string{}
	for _, m := range g.members {
		if r := m.rack(); r != "" {
			consumersByRack[r] = append(consumersByRack[r], m.MemberID)
		}
	}
	if len(consumersByRack) == 0 {
		return ri
	}
	partitionRacksAll := map[topicPartition]map[string]bool{}
	allRacks := map[string]bool{}
	for t, ps := range g.topics {
		for _, p := range ps {
			rs := partitionRacks(p)
			partitionRacksAll[topicPartition{t, p.ID}] = rs
			for r := range rs {
				allRacks[r] = true
			}
		}
	}
	consumerRackSet := map[string]bool{}
	for r := range consumersByRack {
		consumerRackSet[r] = true
	}
	if useRackAware(consumerRackSet, allRacks, partitionRacksAll) {
		for r, ms := range consumersByRack {
			for _, m := range ms {
				ri.consumerRacks[m] = r
			}
		}
		ri.partitionRacks = partitionRacksAll
	}
	for tp, rs := range partitionRacksAll {
		n := 0
		for r := range rs {
			n += len(consumersByRack[r])
		}
		ri.numConsumersByPartition[tp] = n
	}
	return ri
}

func (ri *rackInfo) racksMismatch(consumer string, tp topicPartition) bool {
	r, ok := ri.consumerRacks[consumer]
	if !ok {
		return false
	}
	rs := ri.partitionRacks[tp]
	return rs == nil || !rs[r]
}

// sortByRackConsumers orders partitions by how many members share a rack
// with their replicas, fewest first (stable).
func (ri *rackInfo) sortByRackConsumers(tps []topicPartition) []topicPartition {
	if len(ri.numConsumersByPartition) == 0 {
		return tps
	}
	out := append([]topicPartition(nil), tps...)
	sort.SliceStable(out, func(i, j int) bool {
		return ri.numConsumersByPartition[out[i]] < ri.numConsumersByPartition[out[j]]
	})
	return out
}

// nextRackConsumer returns the index of the first member of list, from
// first on and circling, on a rack with a replica of tp; -1 if none.
func (ri *rackInfo) nextRackConsumer(tp topicPartition, list []string, first int) int {
	rs := ri.partitionRacks[tp]
	if len(rs) == 0 {
		return -1
	}
	for i := range list {
		idx := (first + i) % len(list)
		if r, ok := ri.consumerRacks[list[idx]]; ok && rs[r] {
			return idx
		}
	}
	return -1
}
