package share

import "github.com/gregor-kafka/gregor/internal/fifo"

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

// resultQueue is one kind of outcome, oldest first.
type resultQueue = fifo.Queue[seqResult]

type seqResult struct {
	seq uint64
	r   AckResult
}

// keep records r, keeping at most bound outcomes.
func (a *ackResults) keep(r AckResult, bound int) {
	s := seqResult{seq: a.seq, r: r}
	a.seq++
	q := &a.succ
	if r.Err != nil {
		q = &a.fail
	}
	if a.succ.Len()+a.fail.Len() < bound {
		q.Push(s)
		return
	}
	a.dropped++
	switch {
	case r.Err == nil:
		return
	case a.succ.Len() > 0:
		a.succ.Pop()
	case a.fail.Len() > 0:
		a.fail.Pop()
	default:
		return // bound 0: nothing is kept
	}
	a.fail.Push(s)
}

// appendTo appends the kept outcomes to dst in the order they were kept and
// forgets them (their memory is reused for the next ones).
func (a *ackResults) appendTo(dst []AckResult) []AckResult {
	s, f := a.succ.Live(), a.fail.Live()
	for len(s) > 0 || len(f) > 0 {
		if len(f) == 0 || (len(s) > 0 && s[0].seq < f[0].seq) {
			dst, s = append(dst, s[0].r), s[1:]
		} else {
			dst, f = append(dst, f[0].r), f[1:]
		}
	}
	a.succ.Reset()
	a.fail.Reset()
	return dst
}

// take returns the kept outcomes and forgets them; nil when none.
func (a *ackResults) take() []AckResult {
	n := a.succ.Len() + a.fail.Len()
	if n == 0 {
		return nil
	}
	return a.appendTo(make([]AckResult, 0, n))
}

// failures returns the kept failed outcomes, oldest first (kept).
func (a *ackResults) failures() []AckResult {
	var out []AckResult
	for _, s := range a.fail.Live() {
		out = append(out, s.r)
	}
	return out
}
