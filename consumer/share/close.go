package share

import (
	"cmp"
	"context"
	"errors"

	"github.com/gregor-kafka/gregor/wire"
)

// Close ends the consumer within ctx: with AckImplicit it accepts the
// delivered records not acknowledged otherwise; every other record held
// (delivered and unacknowledged under AckExplicit, or fetched but not yet
// delivered) is released; the pending acknowledgements go with
// ShareAcknowledge at epoch -1, ending each broker's share session; then the
// member leaves the group (ShareGroupHeartbeat epoch -1). It returns the
// outcomes of the acknowledgements not yet reported and the first failure of
// ending a share session or of leaving (ctx's end as client.ErrTimeout or
// client.ErrCancelled). Calling it again returns ErrClosed.
func (c *Consumer) Close(ctx context.Context) ([]AckResult, error) {
	c.opMu.Lock()
	defer c.opMu.Unlock()
	if c.closed {
		return nil, ErrClosed
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
				c.pending = append(c.pending, ack{tp: tp, offset: off, node: h.node, typ: wire.AckRelease})
			}
		}
	}
	c.buffered, c.bufferedBytes = nil, 0
	sessErr := c.sendAcksLocked(ctx, true)
	<-c.hbDone
	err := cmp.Or(sessErr, c.leave(ctx))
	r := c.results
	c.results = nil
	if err != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) && ctx.Err() != nil {
		return r, ctxErr(ctx)
	}
	return r, err
}
