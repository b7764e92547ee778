package client

import (
	"context"
	"time"
)

// A request's effective deadline is the earlier of its context's deadline
// and RequestTimeout from admission (one deadline per operation). It is
// carried as a time, not as a derived context: deriving one
// (context.WithDeadline) costs several allocations per request, so the
// fast path (a live connection, a free in-flight slot) waits on timers
// it reuses, and a context is derived only for the slow paths that need
// one (dialing, metadata refreshes); see opBound.

// effectiveDeadline is the deadline of an operation admitted at now within ctx.
func (c *Client) effectiveDeadline(ctx context.Context, now time.Time) time.Time {
	d := now.Add(c.cfg.RequestTimeout)
	if cd, ok := ctx.Deadline(); ok && cd.Before(d) {
		return cd
	}
	return d
}

// opBound is an operation's context bounded by its effective deadline,
// derived on first use (slow paths only) and released with release.
type opBound struct {
	parent   context.Context
	deadline time.Time
	ctx      context.Context
	cancel   context.CancelFunc
}

// get returns the bounded context, deriving it when the parent's deadline
// is later than the effective one.
func (o *opBound) get() context.Context {
	if o.ctx == nil {
		if cd, ok := o.parent.Deadline(); ok && !cd.After(o.deadline) {
			o.ctx = o.parent
		} else {
			o.ctx, o.cancel = context.WithDeadline(o.parent, o.deadline)
		}
	}
	return o.ctx
}

// release frees a derived context.
func (o *opBound) release() {
	if o.cancel != nil {
		o.cancel()
	}
}

// timerDeadline is the deadline a wait must enforce with a timer besides
// ctx.Done(): d, unless it is zero (none) or ctx's own deadline comes no
// later (then ctx.Done() enforces it); else zero.
func timerDeadline(ctx context.Context, d time.Time) time.Time {
	if d.IsZero() {
		return d
	}
	if cd, ok := ctx.Deadline(); ok && !cd.After(d) {
		return time.Time{}
	}
	return d
}

// expiry is a timer made on first use, for waits that must end at a
// deadline ctx does not carry. Its zero value (or a zero d) never fires.
type expiry struct {
	d time.Time
	t *time.Timer
}

// C returns a channel that receives at the deadline, or nil for none.
func (e *expiry) C() <-chan time.Time {
	if e.d.IsZero() {
		return nil
	}
	if e.t == nil {
		e.t = time.NewTimer(time.Until(e.d))
	}
	return e.t.C
}

// stop stops the timer, if one was made.
func (e *expiry) stop() {
	if e.t != nil {
		e.t.Stop()
	}
}

// resetTimer arms *t (made on first use, kept for reuse) to fire at d and
// returns its channel; the caller stops it when done waiting. Since Go
// 1.23 a stopped or reset timer never delivers a stale value.
func resetTimer(t **time.Timer, d time.Time) <-chan time.Time {
	if *t == nil {
		*t = time.NewTimer(time.Until(d))
	} else {
		(*t).Reset(time.Until(d))
	}
	return (*t).C
}
