package share

// ackResults keeps acknowledgement outcomes until the application takes
// them, at most Config.MaxAckResults: past the bound a success is dropped,
// and a failure replaces the oldest kept success (the oldest kept failure
// when none is left), so failures are the last to go. Every outcome costs
// O(1) amortized, whatever the bound: the first version shifted the whole
// kept slice for each failure past it (100,000 outcomes by default, under
// Consumer.opMu). Outcomes are taken in the order they were kept.
type ackResults struct {
	succ, fail resultQueue
	seq        uint64 // the next outcome's place in the order kept
	dropped    int64  // outcomes not kept
}

// resultQueue is one kind of outcome, oldest first from head.
type resultQueue struct {
	items []seqResult
	head  int
}

type seqResult struct {
	seq uint64
	r   AckResult
}

func (q *resultQueue) len() int { return len(q.items) - q.head }

// dropOldest forgets the oldest item, compacting once the forgotten ones
// are the larger half (each item is moved at most once on average).
func (q *resultQueue) dropOldest() {
	q.items[q.head] = seqResult{} // keep no error alive
	q.head++
	switch n := len(q.items); {
	case q.head == n:
		q.items, q.head = q.items[:0], 0
	case q.head > n/2:
		live := copy(q.items, q.items[q.head:])
		clear(q.items[live:])
		q.items, q.head = q.items[:live], 0
	}
}

func (q *resultQueue) reset() {
	clear(q.items)
	q.items, q.head = q.items[:0], 0
}

// keep records r, keeping at most bound outcomes.
func (a *ackResults) keep(r AckResult, bound int) {
	s := seqResult{seq: a.seq, r: r}
	a.seq++
	q := &a.succ
	if r.Err != nil {
		q = &a.fail
	}
	if a.succ.len()+a.fail.len() < bound {
		q.items = append(q.items, s)
		return
	}
	a.dropped++
	switch {
	case r.Err == nil:
		return
	case a.succ.len() > 0:
		a.succ.dropOldest()
	case a.fail.len() > 0:
		a.fail.dropOldest()
	default:
		return // bound 0: nothing is kept
	}
	a.fail.items = append(a.fail.items, s)
}

// appendTo appends the kept outcomes to dst in the order they were kept and
// forgets them (their memory is reused for the next ones).
func (a *ackResults) appendTo(dst []AckResult) []AckResult {
	s, f := a.succ.items[a.succ.head:], a.fail.items[a.fail.head:]
	for len(s) > 0 || len(f) > 0 {
		if len(f) == 0 || (len(s) > 0 && s[0].seq < f[0].seq) {
			dst, s = append(dst, s[0].r), s[1:]
		} else {
			dst, f = append(dst, f[0].r), f[1:]
		}
	}
	a.succ.reset()
	a.fail.reset()
	return dst
}

// take returns the kept outcomes and forgets them; nil when none.
func (a *ackResults) take() []AckResult {
	n := a.succ.len() + a.fail.len()
	if n == 0 {
		return nil
	}
	return a.appendTo(make([]AckResult, 0, n))
}

// failures returns the kept failed outcomes, oldest first (kept).
func (a *ackResults) failures() []AckResult {
	var out []AckResult
	for _, s := range a.fail.items[a.fail.head:] {
		out = append(out, s.r)
	}
	return out
}
