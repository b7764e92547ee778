package share

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/gregor-kafka/gregor/wire"
)

// Close ends the consumer within ctx: with AckImplicit it accepts the
// delivered records not acknowledged otherwise; every other record held
// (delivered and unacknowledged under AckExplicit, or fetched but not yet
// delivered) is released; the pending acknowledgements go with
// ShareAcknowledge at epoch -1, ending each broker's share session; then the
// member leaves the group (ShareGroupHeartbeat epoch -1). It returns nil
// when all of that succeeded; otherwise a *CloseError (errors.As) listing
// the acknowledgements that failed and the first failure of ending a share
// session or of leaving (ctx's end as client.ErrTimeout or
// client.ErrCancelled); errors.Is sees through to each. The outcomes of all
// the acknowledgements not yet reported, successes included, stay
// available from TakeAckResults after Close. A Receive waiting when Close
// is called returns ErrClosed: at once when it waits for an assignment,
// else once its ShareFetch in flight is answered (within MaxWait; the
// records that answer acquires are released like the others). Calling it
// again returns ErrClosed.
func (c *Consumer) Close(ctx context.Context) error {
	c.closeOnce.Do(func() { close(c.closing) }) // ends a Receive holding opMu
	c.opMu.Lock()
	defer c.opMu.Unlock()
	if c.closed {
		return ErrClosed
	}
	c.closed = true
	c.hbCancel()
	if c.cfg.AckMode == AckImplicit {
		c.acceptDeliveredLocked()
	}
	for tp, offs := range c.held {
		for off, h := range offs {
			if !h.acked {
				h.acked = true
				offs[off] = h
				c.pending = append(c.pending, ack{tp: tp, offset: off, node: h.node, typ: wire.AckRelease})
			}
		}
	}
	c.buffered, c.cur, c.bufferedBytes = nil, nil, 0
	sessErr := c.sendAcksLocked(ctx, true)
	<-c.hbDone
	err := cmp.Or(sessErr, c.leave(ctx))
	if err != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) && ctx.Err() != nil {
		err = ctxErr(ctx)
	}
	failed := c.results.failures()
	if err == nil && len(failed) == 0 {
		return nil
	}
	return &CloseError{FailedAcks: failed, Err: err}
}

// CloseError is Close's failure: the acknowledgements that failed and the
// failure of ending the share sessions or leaving the group (nil when only
// acknowledgements failed).
type CloseError struct {
	// FailedAcks are the outcomes, with a non-nil Err, of the
	// acknowledgements not reported before Close.
	FailedAcks []AckResult
	// Err is the first failure of ending a share session or of leaving.
	Err error
}

// Error summarises the failure.
func (e *CloseError) Error() string {
	msg := fmt.Sprintf("share: close: %d acknowledgement(s) failed", len(e.FailedAcks))
	if len(e.FailedAcks) > 0 {
		msg += fmt.Sprintf(" (first %s@%d: %v)", e.FailedAcks[0].TopicPartition, e.FailedAcks[0].Offset, e.FailedAcks[0].Err)
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns Err and every failed acknowledgement's error.
func (e *CloseError) Unwrap() []error {
	out := make([]error, 0, len(e.FailedAcks)+1)
	if e.Err != nil {
		out = append(out, e.Err)
	}
	for _, a := range e.FailedAcks {
		out = append(out, a.Err)
	}
	return out
}
