package fifo

// Queue is a FIFO of T: Live()[0] is the oldest item.
type Queue[T any] struct {
	items []T // items[head:] are queued; items[:head] are zero
	head  int
	moved int // items moved by compaction, for the amortized bound's tests
}

// Len is the number of queued items.
func (q *Queue[T]) Len() int { return len(q.items) - q.head }

// Push queues v at the back.
func (q *Queue[T]) Push(v T) { q.items = append(q.items, v) }

// Front returns a pointer to the oldest item, nil when the queue is
// empty. It is valid until the next Push, Pop or Reset.
func (q *Queue[T]) Front() *T {
	if q.head == len(q.items) {
		return nil
	}
	return &q.items[q.head]
}

// Pop drops the oldest item (none when empty), zeroing its slot, and
// compacts the slice once the dropped slots are all of it or its larger
// half.
func (q *Queue[T]) Pop() {
	if q.head == len(q.items) {
		return
	}
	var zero T
	q.items[q.head] = zero
	q.head++
	switch n := len(q.items); {
	case q.head == n:
		q.items, q.head = q.items[:0], 0
	case q.head > n/2:
		live := copy(q.items, q.items[q.head:])
		clear(q.items[live:])
		q.items, q.head = q.items[:live], 0
		q.moved += live
	}
}

// Live returns the queued items, oldest first, in the queue's own memory:
// an item may be changed through it; it is valid until the next Push, Pop
// or Reset.
func (q *Queue[T]) Live() []T { return q.items[q.head:] }

// Reset empties the queue, zeroing its items and keeping its memory for
// the next ones.
func (q *Queue[T]) Reset() {
	clear(q.items)
	q.items, q.head = q.items[:0], 0
}

// Moved is the number of items compaction has moved so far.
func (q *Queue[T]) Moved() int { return q.moved }

// Cap is the capacity of the queue's slice.
func (q *Queue[T]) Cap() int { return cap(q.items) }
