package consumer

import (
	"slices"

	"github.com/gregor-kafka/gregor"
)

// markTracker keeps, per partition, the records delivered in
// CommitProcessed mode and not yet part of the processed prefix. The
// committable offset is one past the last record of the longest fully
// marked prefix, so a record processed out of order never lets the commit
// skip an unprocessed one. Every operation is O(1) amortized (O(log n) for
// a mark out of delivery order): MarkProcessed runs under Group.mu, which
// the heartbeat needs too, so a large batch must not hold it long.
type markTracker struct {
	parts map[gregor.TopicPartition]*markPart
}

// markPart is one partition's delivered records awaiting a mark:
// pending[head:] in delivery order (offsets grow, with gaps where
// compaction or transaction markers left them), done[i] saying whether
// pending[i] is marked. pending[:head] are in the prefix already; they are
// compacted away once they are the larger half, so a steady stream keeps
// the arrays bounded and each offset is moved at most once on average.
type markPart struct {
	pending []int64
	done    []bool
	head    int
	next    int64 // committable offset; -1 before the first prefix
	moved   int   // offsets moved by compaction (tests check the bound)
}

func (t *markTracker) init() { t.parts = map[gregor.TopicPartition]*markPart{} }

// delivered appends a delivered record's offset.
func (t *markTracker) delivered(tp gregor.TopicPartition, off int64) {
	p := t.parts[tp]
	if p == nil {
		p = &markPart{next: -1}
		t.parts[tp] = p
	}
	if n := len(p.pending); n > p.head && off <= p.pending[n-1] {
		return // a re-delivery after a Seek back: already awaiting a mark
	}
	p.pending = append(p.pending, off)
	p.done = append(p.done, false)
}

// mark marks a delivered record and advances the prefix; false if the
// record is not awaiting a mark.
func (t *markTracker) mark(tp gregor.TopicPartition, off int64) bool {
	p := t.parts[tp]
	if p == nil {
		return false
	}
	i := p.find(off)
	if i < 0 || p.done[i] {
		return false
	}
	p.done[i] = true
	for p.head < len(p.pending) && p.done[p.head] {
		p.next = p.pending[p.head] + 1
		p.head++
	}
	p.compact()
	return true
}

// find returns the index of off among the records awaiting a mark, -1 if
// it is not one: at once for the next in delivery order (the usual case),
// else by binary search.
func (p *markPart) find(off int64) int {
	live := p.pending[p.head:]
	if len(live) > 0 && live[0] == off {
		return p.head
	}
	if i, found := slices.BinarySearch(live, off); found {
		return p.head + i
	}
	return -1
}

// compact drops the prefix's records once they are all of pending, or its
// larger half.
func (p *markPart) compact() {
	switch n := len(p.pending); {
	case p.head == n:
		p.pending, p.done, p.head = p.pending[:0], p.done[:0], 0
	case p.head > n/2:
		live := copy(p.pending, p.pending[p.head:])
		copy(p.done, p.done[p.head:])
		p.pending, p.done, p.head = p.pending[:live], p.done[:live], 0
		p.moved += live
	}
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
