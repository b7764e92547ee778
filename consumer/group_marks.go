package consumer

import (
	"slices"

	"github.com/gregor-kafka/gregor"
)

// markTracker keeps, per partition, the records delivered in
// CommitProcessed mode and not yet part of the processed prefix. pending
// holds their offsets in delivery order (offsets grow, with gaps where
// compaction or transaction markers left them); done holds the marked ones
// among them. The committable offset is one past the last record of the
// longest fully marked prefix of pending, so a record processed out of
// order never lets the commit skip an unprocessed one.
type markTracker struct {
	parts map[gregor.TopicPartition]*markPart
}

type markPart struct {
	pending []int64
	done    map[int64]bool
	next    int64 // committable offset; -1 before the first prefix
}

func (t *markTracker) init() { t.parts = map[gregor.TopicPartition]*markPart{} }

// delivered appends a delivered record's offset.
func (t *markTracker) delivered(tp gregor.TopicPartition, off int64) {
	p := t.parts[tp]
	if p == nil {
		p = &markPart{done: map[int64]bool{}, next: -1}
		t.parts[tp] = p
	}
	if n := len(p.pending); n > 0 && off <= p.pending[n-1] {
		return // a re-delivery after a Seek back: already awaiting a mark
	}
	p.pending = append(p.pending, off)
}

// mark marks a delivered record and advances the prefix; false if the
// record is not awaiting a mark.
func (t *markTracker) mark(tp gregor.TopicPartition, off int64) bool {
	p := t.parts[tp]
	if p == nil || p.done[off] {
		return false
	}
	if _, found := slices.BinarySearch(p.pending, off); !found {
		return false
	}
	p.done[off] = true
	i := 0
	for i < len(p.pending) && p.done[p.pending[i]] {
		delete(p.done, p.pending[i])
		p.next = p.pending[i] + 1
		i++
	}
	if i > 0 {
		// Shift rather than reslice so the backing array does not grow
		// without bound under a steady stream.
		p.pending = p.pending[:copy(p.pending, p.pending[i:])]
	}
	return true
}

// committable returns the offset to commit for tp, if any prefix exists.
func (t *markTracker) committable(tp gregor.TopicPartition) (int64, bool) {
	p := t.parts[tp]
	if p == nil || p.next < 0 {
		return 0, false
	}
	return p.next, true
}

// drop forgets a partition that left the member.
func (t *markTracker) drop(tp gregor.TopicPartition) { delete(t.parts, tp) }
