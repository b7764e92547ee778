package consumer

import (
	"cmp"
	"slices"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/internal/fifo"
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

// markPart is one partition's delivered records awaiting a mark, in
// delivery order (offsets grow, with gaps where compaction or transaction
// markers left them), each saying whether it is marked. The marked prefix
// leaves from the front as it forms; the queue compacts itself (fifo), so a
// steady stream keeps it bounded and each offset is moved at most once on
// average.
type markPart struct {
	pending fifo.Queue[markEntry]
	next    int64 // committable offset; -1 before the first prefix
}

// markEntry is one delivered record awaiting its mark.
type markEntry struct {
	off  int64
	done bool
}

func (t *markTracker) init() { t.parts = map[gregor.TopicPartition]*markPart{} }

// delivered appends a delivered record's offset.
func (t *markTracker) delivered(tp gregor.TopicPartition, off int64) {
	p := t.parts[tp]
	if p == nil {
		p = &markPart{next: -1}
		t.parts[tp] = p
	}
	if live := p.pending.Live(); len(live) > 0 && off <= live[len(live)-1].off {
		return // a re-delivery after a Seek back: already awaiting a mark
	}
	p.pending.Push(markEntry{off: off})
}

// mark marks a delivered record and advances the prefix; false if the
// record is not awaiting a mark.
func (t *markTracker) mark(tp gregor.TopicPartition, off int64) bool {
	p := t.parts[tp]
	if p == nil {
		return false
	}
	live := p.pending.Live()
	i := p.find(off)
	if i < 0 || live[i].done {
		return false
	}
	live[i].done = true
	for e := p.pending.Front(); e != nil && e.done; e = p.pending.Front() {
		p.next = e.off + 1
		p.pending.Pop()
	}
	return true
}

// find returns the index of off in pending.Live(), -1 if it is not
// awaiting a mark: at once for the next in delivery order (the usual case),
// else by binary search.
func (p *markPart) find(off int64) int {
	live := p.pending.Live()
	if len(live) > 0 && live[0].off == off {
		return 0
	}
	if i, found := slices.BinarySearchFunc(live, off, func(e markEntry, off int64) int { return cmp.Compare(e.off, off) }); found {
		return i
	}
	return -1
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
