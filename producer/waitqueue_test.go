package producer

import "testing"

// TestWaitQueueNeverEmptyStaysBounded: under sustained backpressure the
// queue of waiting Sends may never empty (a new Send queues before the
// oldest is admitted). Its memory must follow the waiters queued, not every
// Send that ever waited: the list was reset only once empty, so it grew by
// a slot per waiting Send for as long as the backpressure lasted.
func TestWaitQueueNeverEmptyStaysBounded(t *testing.T) {
	var q waitQueue
	m := &Record{Topic: "t"}
	for range 4 {
		q.push(m, 1)
	}
	const stream = 200_000
	for range stream {
		q.push(m, 1)
		w := q.front()
		q.pop()
		q.signal(w, nil, nil)
		<-w.ready
		q.recycle(w)
	}
	if n, c := q.count(), q.list.Cap(); n != 4 || c > 64 {
		t.Fatalf("%d waiting in a list of capacity %d after %d Sends waited, want 4 within 64", n, c, stream)
	}
}
