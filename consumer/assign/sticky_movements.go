package assign

// movements is AbstractStickyAssignor's PartitionMovements: where each
// partition moved from during one assignment, so that a partition moving
// back is replaced by one that moved the other way (keeping stickiness).
type movements struct {
	byPartition map[topicPartition]consumerPair
	byTopic     map[string]map[consumerPair]*tpHashSet
}

// consumerPair is a move from src to dst.
type consumerPair struct{ src, dst string }

func newMovements() *movements {
	return &movements{byPartition: map[topicPartition]consumerPair{}, byTopic: map[string]map[consumerPair]*tpHashSet{}}
}

func (mv *movements) removeRecord(tp topicPartition) consumerPair {
	pair := mv.byPartition[tp]
	delete(mv.byPartition, tp)
	forTopic := mv.byTopic[tp.topic]
	forTopic[pair].remove(tp)
	if forTopic[pair].empty() {
		delete(forTopic, pair)
	}
	if len(forTopic) == 0 {
		delete(mv.byTopic, tp.topic)
	}
	return pair
}

func (mv *movements) addRecord(tp topicPartition, pair consumerPair) {
	mv.byPartition[tp] = pair
	forTopic := mv.byTopic[tp.topic]
	if forTopic == nil {
		forTopic = map[consumerPair]*tpHashSet{}
		mv.byTopic[tp.topic] = forTopic
	}
	set := forTopic[pair]
	if set == nil {
		set = newTPHashSet()
		forTopic[pair] = set
	}
	set.add(tp)
}

func (mv *movements) move(tp topicPartition, from, to string) {
	if _, ok := mv.byPartition[tp]; ok {
		existing := mv.removeRecord(tp)
		if existing.src != to {
			mv.addRecord(tp, consumerPair{existing.src, to})
		}
		return
	}
	mv.addRecord(tp, consumerPair{from, to})
}

// actualPartitionToMove returns the partition to move from one member to
// another in place of tp: one of the same topic that earlier moved the
// opposite way (the first in Java's HashSet order), else tp itself.
func (mv *movements) actualPartitionToMove(tp topicPartition, from, to string) topicPartition {
	forTopic, ok := mv.byTopic[tp.topic]
	if !ok {
		return tp
	}
	if pair, ok := mv.byPartition[tp]; ok {
		from = pair.src
	}
	set, ok := forTopic[consumerPair{to, from}]
	if !ok {
		return tp
	}
	return set.first()
}
