package producer

import (
	"context"
	"sync"
	"time"
)

// attemptCtx is the context of one ProduceRequest attempt: the producer's
// context bounded by the request's deadline. It lives with a recycled
// inflightReq and is re-armed for each attempt, so the steady state
// allocates nothing per request (context.WithDeadline allocates a context,
// a timer, a done channel and a cancel func, and registers a child with
// the parent). Its done channel is replaced only after it was closed
// (deadline passed or producer stopped), which is rare.
//
// The client may still hold the context after the attempt is over (a
// handle keeps its ctx); that is harmless: a disarmed attemptCtx reports
// the deadline of its last attempt, and its channel closes only when armed.
type attemptCtx struct {
	parent context.Context

	mu       sync.Mutex
	deadline time.Time
	done     chan struct{}
	err      error // non-nil once done is closed
	armed    bool
	timer    *time.Timer // fires at deadline (reused)
	unhook   func() bool // removes the parent-cancellation hook
}

var _ context.Context = (*attemptCtx)(nil)

// newAttemptCtx returns an attemptCtx of parent, disarmed.
func newAttemptCtx(parent context.Context) *attemptCtx {
	c := &attemptCtx{parent: parent, done: make(chan struct{})}
	c.unhook = context.AfterFunc(parent, c.parentDone)
	return c
}

// arm starts an attempt ending at deadline (or when the parent ends).
func (c *attemptCtx) arm(deadline time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		c.done, c.err = make(chan struct{}), nil
	}
	c.deadline, c.armed = deadline, true
	if err := c.parent.Err(); err != nil {
		c.closeLocked(err)
		return
	}
	d := time.Until(deadline)
	if d <= 0 {
		c.closeLocked(context.DeadlineExceeded)
		return
	}
	if c.timer == nil {
		c.timer = time.AfterFunc(d, c.fire)
	} else {
		c.timer.Reset(d)
	}
}

// disarm ends the attempt: the channel no longer closes at the deadline.
func (c *attemptCtx) disarm() {
	c.mu.Lock()
	c.armed = false
	if c.timer != nil {
		c.timer.Stop()
	}
	c.mu.Unlock()
}

// release disarms c for good and detaches it from the parent.
func (c *attemptCtx) release() {
	c.disarm()
	c.unhook()
}

// fire is the deadline timer's function. A firing left over from an
// earlier attempt (Stop raced with it) finds the deadline not yet passed
// or the context disarmed and does nothing.
func (c *attemptCtx) fire() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.armed && c.err == nil && !time.Now().Before(c.deadline) {
		c.closeLocked(context.DeadlineExceeded)
	}
}

// parentDone runs when the parent ends.
func (c *attemptCtx) parentDone() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.armed && c.err == nil {
		c.closeLocked(c.parent.Err())
	}
}

func (c *attemptCtx) closeLocked(err error) {
	c.err = err
	close(c.done)
}

// Deadline returns the current (or last) attempt's deadline.
func (c *attemptCtx) Deadline() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.deadline, true
}

// Done returns the current attempt's channel.
func (c *attemptCtx) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.done
}

// Err returns context.DeadlineExceeded or the parent's error once Done is
// closed, else nil.
func (c *attemptCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Value returns the parent's value for key.
func (c *attemptCtx) Value(key any) any { return c.parent.Value(key) }
