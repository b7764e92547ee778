package producer

import "github.com/gregor-kafka/gregor/internal/fifo"

// waitQueue is the FIFO of Send calls waiting for room (WaitingRecords,
// WaitingBytes) and the waiters kept for reuse. Guarded by Producer.mu.
// Waiters whose caller gave up stay in list, marked gone, until they reach
// the head.
type waitQueue struct {
	list  fifo.Queue[*waiter] // queued, in arrival order
	bytes int64               // reserved sizes of queued waiters not gone
	free  []*waiter           // recycled (see recycle)
}

// waiter is a Send call waiting for room. Its ready channel (capacity 1)
// is signalled once per wait, so a waiter is recycled once its Send has
// the outcome: a Send that waits for room allocates nothing.
type waiter struct {
	m     *Record
	size  int
	ready chan struct{}
	d     *Delivery
	err   error
	gone  bool // its caller stopped waiting
}

// maxFreeWaiters bounds the waiters kept for reuse.
const maxFreeWaiters = 64

// queued reports whether any waiter is queued (gone ones included until
// they reach the head): a new record must queue behind them.
func (q *waitQueue) queued() bool { return q.list.Len() > 0 }

// full reports whether one more waiter of size bytes would pass the
// limits.
func (q *waitQueue) full(size, maxRecords int, maxBytes int64) bool {
	return q.list.Len()+1 > maxRecords || q.bytes+int64(size) > maxBytes
}

// push queues a recycled (or new) waiter for m and returns it.
func (q *waitQueue) push(m *Record, size int) *waiter {
	var w *waiter
	if n := len(q.free); n > 0 {
		w = q.free[n-1]
		q.free[n-1] = nil
		q.free = q.free[:n-1]
		w.m, w.size = m, size
	} else {
		w = &waiter{m: m, size: size, ready: make(chan struct{}, 1)}
	}
	q.list.Push(w)
	q.bytes += int64(size)
	return w
}

// front returns the waiter at the head, or nil.
func (q *waitQueue) front() *waiter {
	if f := q.list.Front(); f != nil {
		return *f
	}
	return nil
}

// pop removes the waiter at the head.
func (q *waitQueue) pop() { q.list.Pop() }

// signal ends w's wait with d or err (w is no longer counted).
func (q *waitQueue) signal(w *waiter, d *Delivery, err error) {
	w.d, w.err = d, err
	q.bytes -= int64(w.size)
	w.ready <- struct{}{}
}

// abandon marks w gone: its caller stopped waiting before a signal.
func (q *waitQueue) abandon(w *waiter) {
	w.gone = true
	q.bytes -= int64(w.size)
	q.compact()
}

// compact drops gone waiters at the head (the list compacts itself as
// waiters leave, also while it never empties).
func (q *waitQueue) compact() {
	for w := q.front(); w != nil && w.gone; w = q.front() {
		q.pop()
	}
}

// failAll ends every queued wait with err and empties the queue.
func (q *waitQueue) failAll(err error) {
	for _, w := range q.list.Live() {
		if !w.gone {
			q.signal(w, nil, err)
		}
	}
	q.list.Reset()
}

// recycle returns w's outcome and keeps w for reuse; its signal was
// received and no list refers to it any more.
func (q *waitQueue) recycle(w *waiter) (*Delivery, error) {
	d, err := w.d, w.err
	*w = waiter{ready: w.ready}
	if len(q.free) < maxFreeWaiters {
		q.free = append(q.free, w)
	}
	return d, err
}

// count is the number of Send calls waiting.
func (q *waitQueue) count() int {
	n := 0
	for _, w := range q.list.Live() {
		if !w.gone {
			n++
		}
	}
	return n
}
