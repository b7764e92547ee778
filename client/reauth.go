package client

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// reauthTime is when a connection whose SASL session the broker limited to
// lifetimeMs milliseconds (SaslAuthenticate v1+, broker setting
// connections.max.reauth.ms; KIP-368) re-authenticates: at a random 85–95%
// of the lifetime after sent, the moment the final SaslAuthenticate request
// was sent, as the Java client does (the margin covers network latency and
// clock drift, the jitter spreads many connections' re-authentications), in
// unix nanoseconds. 0 (never) when the session has no lifetime.
func reauthTime(sent time.Time, lifetimeMs int64) int64 {
	if lifetimeMs <= 0 {
		return 0
	}
	use := time.Duration(float64(lifetimeMs) * (0.85 + 0.10*rand.Float64()) * float64(time.Millisecond))
	return sent.Add(use).UnixNano()
}

// reauthenticate runs SASL again on the open connection before the broker's
// session ends (KIP-368), called by the writer-path holder about to write
// p, the first request due after cn.reauthAt. Keeping the writer path, it
// waits until every written request is answered (as the Java client does,
// so no response is still due when the SASL exchange starts), then sends
// SaslHandshake and SaslAuthenticate as at connect; later requests wait
// behind it on the writer path, so they keep their order.
//
// The wait is bounded by p's own context and deadline: when they end first,
// p fails NotSent with that cause and the connection stays as it is (the
// next request re-authenticates). The wait is also bounded by
// RequestTimeout, and so is the SASL exchange. A written request that is
// still unanswered then, or a failed exchange, closes the connection
// (nothing is in flight then) and fails p NotSent with an ErrTransport or
// ErrAuthentication cause, never with a timeout that p's caller would
// mistake for its own deadline.
func (cn *conn) reauthenticate(p *pending) error {
	t0 := time.Now()
	limit := t0.Add(cn.cl.cfg.RequestTimeout)
	if d := p.effDeadline(); !d.IsZero() && d.Before(limit) {
		limit = d
	}
	wctx, cancel := context.WithDeadline(p.ctx, limit)
	err := cn.awaitIdle(wctx)
	cancel()
	if err != nil && !cn.isDead() {
		// p's own end came first: p gives up; the connection is as it was.
		if cerr := p.ctx.Err(); cerr != nil {
			return ctxError(cerr)
		}
		if d := p.effDeadline(); !d.IsZero() && !time.Now().Before(d) {
			return ctxError(context.DeadlineExceeded)
		}
	}
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), cn.cl.cfg.RequestTimeout)
		err = cn.cl.authenticate(ctx, cn, cn.lockedRoundTrip)
		cancel()
	}
	if err != nil {
		if errors.Is(err, ErrAuthentication) {
			err = fmt.Errorf("re-authenticating with %s (KIP-368): %w", cn.addr, err)
		} else {
			// Not %w: an inner timeout is the exchange's, not the caller's.
			err = fmt.Errorf("%w: re-authenticating with %s (KIP-368): %v", ErrTransport, cn.addr, err)
		}
		cn.fail(err)
		return err
	}
	cn.cl.m.reauths.Add(1)
	cn.cl.cfg.Logger.Debug("gregor: re-authenticated", "addr", cn.addr, "broker", cn.broker, "took", time.Since(t0))
	return nil
}

// awaitIdle waits until no written request is unanswered on cn. The caller
// holds the writer path, so none is added meanwhile.
func (cn *conn) awaitIdle(ctx context.Context) error {
	cn.mu.Lock()
	if cn.closed {
		cn.mu.Unlock()
		return cn.deadErr()
	}
	n := cn.queue.len()
	if n == 0 {
		cn.mu.Unlock()
		return nil
	}
	idle := make(chan struct{})
	cn.idle = idle
	cn.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-cn.dead:
		return cn.deadErr()
	case <-ctx.Done():
		cn.mu.Lock()
		cn.idle = nil
		n = cn.queue.len()
		cn.mu.Unlock()
		return fmt.Errorf("%w: %d requests to %s still unanswered after RequestTimeout %v", ErrTransport, n, cn.addr, cn.cl.cfg.RequestTimeout)
	}
}
