package client

// pendingQueue is a connection's outstanding requests, oldest first: a ring
// that reuses its slots, so steady-state pushes and pops allocate nothing. It
// holds at most MaxInFlightPerBroker requests (each holds an in-flight slot
// while queued) and grows only if that ever failed to hold. Guarded by the
// connection's mu.
type pendingQueue struct {
	buf  []*pending
	head int
	n    int
}

func newPendingQueue(capacity int) pendingQueue {
	return pendingQueue{buf: make([]*pending, max(capacity, 1))}
}

func (q *pendingQueue) len() int { return q.n }

// push appends p as the newest request.
func (q *pendingQueue) push(p *pending) {
	if q.n == len(q.buf) {
		nb := make([]*pending, max(2*len(q.buf), 1))
		for i := range q.n {
			nb[i] = q.buf[(q.head+i)%len(q.buf)]
		}
		q.buf, q.head = nb, 0
	}
	q.buf[(q.head+q.n)%len(q.buf)] = p
	q.n++
}

// front returns the oldest request; the queue must not be empty.
func (q *pendingQueue) front() *pending { return q.buf[q.head] }

// popFront removes the oldest request; the queue must not be empty.
func (q *pendingQueue) popFront() {
	q.buf[q.head] = nil
	q.head = (q.head + 1) % len(q.buf)
	q.n--
}

// back returns the newest request, or nil when the queue is empty.
func (q *pendingQueue) back() *pending {
	if q.n == 0 {
		return nil
	}
	return q.buf[(q.head+q.n-1)%len(q.buf)]
}

// popBack removes the newest request; the queue must not be empty.
func (q *pendingQueue) popBack() {
	q.buf[(q.head+q.n-1)%len(q.buf)] = nil
	q.n--
}

// drain removes and returns every request, oldest first.
func (q *pendingQueue) drain() []*pending {
	out := make([]*pending, 0, q.n)
	for q.n > 0 {
		out = append(out, q.front())
		q.popFront()
	}
	return out
}
