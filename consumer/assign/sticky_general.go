package assign

import "sort"

// general is AbstractStickyAssignor's GeneralAssignmentBuilder, used when
// members subscribe to different topics: owned partitions are kept where
// still subscribed, the rest go to the least loaded subscriber, then
// partitions move (preferring their previous owners) until balanced.
type general struct {
	*stickyState
	s                   stickyAssignor
	current             map[string][]topicPartition // currentAssignment
	topicConsumers      map[string][]string         // topic2AllPotentialConsumers
	consumerTopics      map[string][]string         // consumer2AllPotentialTopics
	partitionConsumer   map[topicPartition]string   // currentPartitionConsumer
	sortedAll           []topicPartition            // sortedAllPartitions
	sorted              []string                    // sortedCurrentSubscriptions
	revocationRequired  bool
	movements           *movements
	total               int
	partitionsPerTopicN int
}

func newGeneral(st *stickyState, s stickyAssignor) *general {
	b := &general{stickyState: st, s: s, current: map[string][]topicPartition{},
		topicConsumers: map[string][]string{}, consumerTopics: map[string][]string{},
		partitionConsumer: map[topicPartition]string{}, movements: newMovements()}
	for t, ps := range st.g.topics {
		b.topicConsumers[t] = nil
		b.total += len(ps)
	}
	b.partitionsPerTopicN = len(st.g.topics)
	for _, m := range st.g.members {
		topics := []string{}
		for _, t := range m.Topics {
			if _, ok := st.g.topics[t]; ok {
				topics = append(topics, t)
				b.topicConsumers[t] = append(b.topicConsumers[t], m.MemberID)
			}
		}
		b.consumerTopics[m.MemberID] = topics
		b.current[m.MemberID] = append([]topicPartition(nil), st.owned[m.MemberID]...)
	}
	for _, m := range st.g.members {
		for _, tp := range b.current[m.MemberID] {
			b.partitionConsumer[tp] = m.MemberID
		}
	}
	topics := make([]string, 0, len(b.topicConsumers))
	for t := range b.topicConsumers {
		topics = append(topics, t)
	}
	sort.Slice(topics, func(i, j int) bool { return b.topicLess(topics[i], topics[j]) })
	b.sortedAll = st.g.allPartitions(topics)
	return b
}

// topicLess is Java's TopicComparator: fewer potential consumers first,
// then by name.
func (b *general) topicLess(x, y string) bool {
	if nx, ny := len(b.topicConsumers[x]), len(b.topicConsumers[y]); nx != ny {
		return nx < ny
	}
	return javaLess(x, y)
}

// subscriptionLess is Java's SubscriptionComparator: fewer assigned
// partitions first, then by member id.
func (b *general) subscriptionLess(x, y string) bool {
	if nx, ny := len(b.current[x]), len(b.current[y]); nx != ny {
		return nx < ny
	}
	return javaLess(x, y)
}

func (b *general) sortedAdd(c string) {
	i := sort.Search(len(b.sorted), func(i int) bool { return !b.subscriptionLess(b.sorted[i], c) })
	if i < len(b.sorted) && b.sorted[i] == c {
		return
	}
	b.sorted = append(b.sorted, "")
	copy(b.sorted[i+1:], b.sorted[i:])
	b.sorted[i] = c
}

func (b *general) sortedRemove(c string) { b.sorted = removeString(b.sorted, c) }

func (b *general) build() (map[string][]topicPartition, error) {
	prev := b.prepopulate()
	assigned := b.assignOwned()
	unassigned := b.unassignedPartitions(assigned)
	for _, m := range b.g.members {
		b.sortedAdd(m.MemberID)
	}
	if err := b.balance(prev, unassigned); err != nil {
		return nil, err
	}
	return b.current, nil
}

// prevOwner is ConsumerGenerationPair: an older generation's owner.
type prevOwner struct {
	consumer   string
	generation int32
}

// prepopulate records, for partitions members owned in generations older
// than the newest, the owner of the latest of those generations.
func (b *general) prepopulate() map[topicPartition]prevOwner {
	prev := map[topicPartition]prevOwner{}
	update := func(tps []topicPartition, consumer string, gen int32) {
		for _, tp := range tps {
			if p, ok := prev[tp]; !ok || gen > p.generation {
				prev[tp] = prevOwner{consumer, gen}
			}
		}
	}
	for _, m := range b.g.members {
		d := b.s.memberData(m)
		if d.hasGen && d.generation < b.maxGeneration {
			update(d.partitions, m.MemberID, d.generation)
		} else if !d.hasGen && b.maxGeneration > defaultGeneration {
			update(d.partitions, m.MemberID, defaultGeneration)
		}
	}
	return prev
}

// assignOwned drops owned partitions a member no longer subscribes to (or
// whose replicas are off its rack) and returns the partitions kept.
func (b *general) assignOwned() []topicPartition {
	var kept []topicPartition
	for _, m := range b.g.members {
		id := m.MemberID
		var still []topicPartition
		for _, tp := range b.current[id] {
			switch {
			case !m.subscribes(tp.topic) || b.rack.racksMismatch(id, tp):
				b.revocationRequired = true
			default:
				still = append(still, tp)
				kept = append(kept, tp)
			}
		}
		b.current[id] = still
	}
	return kept
}

func (b *general) unassignedPartitions(assigned []topicPartition) []topicPartition {
	if len(assigned) == 0 {
		return append([]topicPartition(nil), b.sortedAll...)
	}
	kept := make(map[topicPartition]bool, len(assigned))
	for _, tp := range assigned {
		kept[tp] = true
	}
	var out []topicPartition
	for _, tp := range b.sortedAll {
		if !kept[tp] {
			out = append(out, tp)
		}
	}
	return out
}

func (b *general) maxAssignmentSize(topics []string) int {
	if len(topics) == b.partitionsPerTopicN {
		return b.total
	}
	n := 0
	for _, t := range topics {
		n += len(b.g.topics[t])
	}
	return n
}

func (b *general) isBalanced() bool {
	minSize := len(b.current[b.sorted[0]])
	maxSize := len(b.current[b.sorted[len(b.sorted)-1]])
	if minSize >= maxSize-1 {
		return true
	}
	owner := map[topicPartition]string{}
	for c, tps := range b.current {
		for _, tp := range tps {
			owner[tp] = c
		}
	}
	for _, c := range b.sorted {
		mine := b.current[c]
		n := len(mine)
		topics := b.consumerTopics[c]
		if n == b.maxAssignmentSize(topics) {
			continue
		}
		for _, t := range topics {
			for _, p := range b.g.topics[t] {
				tp := topicPartition{t, p.ID}
				if containsTP(mine, tp) {
					continue
				}
				if other, ok := owner[tp]; ok && n+1 < len(b.current[other]) {
					return false
				}
			}
		}
	}
	return true
}

func balanceScore(a map[string][]topicPartition) int {
	sizes := make([]int, 0, len(a))
	for _, tps := range a {
		sizes = append(sizes, len(tps))
	}
	score := 0
	for i := range sizes {
		for j := i + 1; j < len(sizes); j++ {
			score += max(sizes[i]-sizes[j], sizes[j]-sizes[i])
		}
	}
	return score
}

func (b *general) subscribesTo(c, topic string) bool {
	for _, t := range b.consumerTopics[c] {
		if t == topic {
			return true
		}
	}
	return false
}

// maybeAssignPartition gives tp to the least loaded subscriber (on a
// matching rack if rackAware).
func (b *general) maybeAssignPartition(tp topicPartition, rackAware bool) bool {
	for _, c := range b.sorted {
		if b.subscribesTo(c, tp.topic) && (!rackAware || !b.rack.racksMismatch(c, tp)) {
			b.sortedRemove(c)
			b.current[c] = append(b.current[c], tp)
			b.partitionConsumer[tp] = c
			b.sortedAdd(c)
			return true
		}
	}
	return false
}

func (b *general) maybeAssign(tps []topicPartition, rackAware bool) []topicPartition {
	var left []topicPartition
	for _, tp := range tps {
		if len(b.topicConsumers[tp.topic]) == 0 {
			left = append(left, tp)
			continue
		}
		if !b.maybeAssignPartition(tp, rackAware) || !rackAware {
			left = append(left, tp)
		}
	}
	return left
}

func (b *general) topicCanMove(topic string) bool { return len(b.topicConsumers[topic]) >= 2 }

func (b *general) consumerCanMove(c string) bool {
	mine := b.current[c]
	if len(mine) < b.maxAssignmentSize(b.consumerTopics[c]) {
		return true
	}
	for _, tp := range mine {
		if b.topicCanMove(tp.topic) {
			return true
		}
	}
	return false
}

func (b *general) balance(prev map[topicPartition]prevOwner, unassigned []topicPartition) error {
	initializing := len(b.current[b.sorted[len(b.sorted)-1]]) == 0
	toAssign := unassigned
	if len(b.rack.consumerRacks) > 0 {
		toAssign = b.maybeAssign(toAssign, true)
	}
	b.maybeAssign(toAssign, false)

	fixedTopic := map[string]bool{}
	for t := range b.topicConsumers {
		if !b.topicCanMove(t) {
			fixedTopic[t] = true
		}
	}
	dropFixed := func(l []topicPartition) []topicPartition {
		out := l[:0:0]
		for _, tp := range l {
			if !fixedTopic[tp.topic] {
				out = append(out, tp)
			}
		}
		return out
	}
	b.sortedAll = dropFixed(b.sortedAll)
	unassigned = dropFixed(unassigned)

	fixed := map[string][]topicPartition{}
	for _, m := range b.g.members {
		if c := m.MemberID; !b.consumerCanMove(c) {
			b.sortedRemove(c)
			fixed[c] = b.current[c]
			delete(b.current, c)
		}
	}
	if len(b.sorted) == 0 {
		return b.restoreFixed(fixed)
	}
	pre := make(map[string][]topicPartition, len(b.current))
	for c, tps := range b.current {
		pre[c] = append([]topicPartition(nil), tps...)
	}
	prePC := make(map[topicPartition]string, len(b.partitionConsumer))
	for tp, c := range b.partitionConsumer {
		prePC[tp] = c
	}
	if !b.revocationRequired {
		if _, err := b.performReassignments(unassigned, prev); err != nil {
			return err
		}
	}
	performed, err := b.performReassignments(b.sortedAll, prev)
	if err != nil {
		return err
	}
	if !initializing && performed && balanceScore(b.current) >= balanceScore(pre) {
		b.current = pre
		b.partitionConsumer = prePC
	}
	return b.restoreFixed(fixed)
}

func (b *general) restoreFixed(fixed map[string][]topicPartition) error {
	for c, tps := range fixed {
		b.current[c] = tps
	}
	return nil
}

func (b *general) performReassignments(partitions []topicPartition, prev map[topicPartition]prevOwner) (bool, error) {
	performed := false
	for modified := true; modified; {
		modified = false
		for _, tp := range partitions {
			if b.isBalanced() {
				break
			}
			consumer, ok := b.partitionConsumer[tp]
			mine, live := b.current[consumer]
			if !ok || !live {
				return false, errJavaFails
			}
			if p, ok := prev[tp]; ok {
				theirs, live := b.current[p.consumer]
				if !live {
					return false, errJavaFails // Java dereferences a missing member here
				}
				if len(mine) > len(theirs)+1 {
					b.reassignTo(tp, p.consumer)
					performed, modified = true, true
					continue
				}
			}
			moved := false
			cr, hasRack := b.rack.consumerRacks[consumer]
			prs := b.rack.partitionRacks[tp]
			if hasRack && len(prs) > 0 && prs[cr] {
				for _, other := range b.topicConsumers[tp.topic] {
					or, ok := b.rack.consumerRacks[other]
					if !ok || !prs[or] {
						continue
					}
					if len(b.current[consumer]) > len(b.current[other])+1 {
						b.reassign(tp)
						performed, modified, moved = true, true, true
						break
					}
				}
			}
			if !moved {
				for _, other := range b.topicConsumers[tp.topic] {
					if len(b.current[consumer]) > len(b.current[other])+1 {
						b.reassign(tp)
						performed, modified = true, true
						break
					}
				}
			}
		}
	}
	return performed, nil
}

// reassign moves tp to the least loaded member subscribed to its topic.
func (b *general) reassign(tp topicPartition) {
	for _, c := range b.sorted {
		if b.subscribesTo(c, tp.topic) {
			b.reassignTo(tp, c)
			return
		}
	}
}

func (b *general) reassignTo(tp topicPartition, to string) {
	from := b.partitionConsumer[tp]
	b.processMovement(b.movements.actualPartitionToMove(tp, from, to), to)
}

func (b *general) processMovement(tp topicPartition, to string) {
	from := b.partitionConsumer[tp]
	b.sortedRemove(from)
	b.sortedRemove(to)
	b.movements.move(tp, from, to)
	b.current[from] = removeTP(b.current[from], tp)
	b.current[to] = append(b.current[to], tp)
	b.partitionConsumer[tp] = to
	b.sortedAdd(to)
	b.sortedAdd(from)
}
