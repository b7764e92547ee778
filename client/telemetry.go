package client

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/gregor-kafka/gregor/internal/backoff"
	"github.com/gregor-kafka/gregor/wire"
)

// Telemetry timing (KIP-714; ClientTelemetryReporter in the Java client).
const (
	// telemetryRetryMax caps the backoff between failed
	// GetTelemetrySubscriptions tries.
	telemetryRetryMax = 30 * time.Second
	// telemetryCloseTimeout bounds Close's wait for the terminating push.
	telemetryCloseTimeout = 2 * time.Second
	// telemetryNoSubscriptionWait is how long the loop waits before asking
	// again when the broker answered without a push interval.
	telemetryNoSubscriptionWait = 5 * time.Minute
)

// subscription is a GetTelemetrySubscriptions answer the loop follows.
type subscription struct {
	id         int32
	interval   time.Duration
	codec      wire.Compression
	maxBytes   int
	delta      bool
	selector   metricSelector
	subscribed bool // at least one metric requested
}

// telemetry is the client's KIP-714 push loop: one goroutine (in c.bg)
// that owns every field but those under mu. See INTERNALS.md.
type telemetry struct {
	c      *Client
	connCh chan struct{} // cap 1: a connection opened or metadata arrived
	// closing is closed by Close (after closeCtx is set): the loop sends
	// the terminating push and ends; done is closed when it has.
	closing  chan struct{}
	closeCtx context.Context
	done     chan struct{}
	ctx      context.Context // the loop's requests; cancelled by Close
	cancel   context.CancelFunc

	mu         sync.Mutex
	instanceID wire.UUID // mu: assigned by the broker, zero before

	broker int32
	sub    subscription
	comp   *wire.Compressor
	state  metricState
}

// newTelemetry returns the loop of c, not started.
func newTelemetry(c *Client) *telemetry {
	ctx, cancel := context.WithCancel(context.Background())
	return &telemetry{c: c, connCh: make(chan struct{}, 1), closing: make(chan struct{}), done: make(chan struct{}),
		ctx: ctx, cancel: cancel, state: newMetricState(time.Now())}
}

// wake wakes the loop when it waits for a broker (a connection opened or
// metadata arrived); it never blocks.
func (t *telemetry) wake() {
	if t == nil {
		return
	}
	select {
	case t.connCh <- struct{}{}:
	default:
	}
}

// terminate asks the loop for its terminating push and waits for it to end,
// bounded by ctx and telemetryCloseTimeout.
func (t *telemetry) terminate(ctx context.Context) {
	if t == nil {
		return
	}
	if ctx == nil {
		ctx = context.Background()
	}
	t.closeCtx = ctx
	close(t.closing)
	t.cancel() // a regular push in flight is abandoned for the terminating one
	timer := time.NewTimer(telemetryCloseTimeout)
	defer timer.Stop()
	select {
	case <-t.done:
	case <-timer.C:
	case <-ctx.Done():
	}
}

// ClientInstanceID returns the client instance id a broker assigned for
// metrics push (KIP-714), or false when none has been assigned yet (no
// broker that receives client telemetry reached, or EnableMetricsPush off).
func (c *Client) ClientInstanceID() (wire.UUID, bool) {
	if c.tel == nil {
		return wire.UUID{}, false
	}
	c.tel.mu.Lock()
	defer c.tel.mu.Unlock()
	return c.tel.instanceID, c.tel.instanceID != wire.UUID{}
}

// run is the loop: find a broker advertising both APIs, subscribe, push at
// the interval, push once more (terminating) when Close begins.
func (t *telemetry) run() {
	defer t.c.bg.Done()
	defer close(t.done)
	for try := 0; ; {
		if !t.pickBroker() {
			if !t.waitConn() {
				return
			}
			continue
		}
		wait, ok := t.subscribe()
		if !ok {
			if !t.sleep(backoff.Delay(t.c.cfg.RetryBackoff, telemetryRetryMax, try)) {
				return
			}
			try++
			continue
		}
		try = 0
		if !t.sub.subscribed {
			if !t.sleep(wait) {
				return
			}
			continue
		}
		again, ok := t.pushLoop(wait)
		if !ok {
			t.push(true)
			return
		}
		if !t.sleep(again) { // what the refused push asked for (0: at once)
			return
		}
	}
}

// pushLoop waits first, then pushes at the interval until the subscription
// must be renewed (it returns how long to wait before subscribing again,
// and true) or Close begins (false).
func (t *telemetry) pushLoop(first time.Duration) (time.Duration, bool) {
	wait := first
	for {
		if !t.sleep(wait) {
			return 0, false
		}
		next, resubscribe := t.push(false)
		if t.isClosing() {
			return 0, false
		}
		if resubscribe {
			return next, true
		}
		wait = next
	}
}

// waitConn waits for wake; false when Close begins.
func (t *telemetry) waitConn() bool {
	select {
	case <-t.connCh:
		return true
	case <-t.closing:
		return false
	}
}

// isClosing reports whether Close has begun.
func (t *telemetry) isClosing() bool {
	select {
	case <-t.closing:
		return true
	default:
		return false
	}
}

// sleep waits d; false when Close begins first.
func (t *telemetry) sleep(d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-t.closing:
		return false
	}
}

// pickBroker chooses a broker with a live connection that advertises
// GetTelemetrySubscriptions and PushTelemetry; it dials nothing to find
// one: a broker without a client telemetry receiver does not advertise
// them, and then the loop only waits for the next connection. (The
// requests themselves go on the control lane, which may open a connection
// to the chosen broker; version negotiation there still refuses an API
// the broker does not advertise.)
func (t *telemetry) pickBroker() bool {
	md := t.c.meta.snap.Load()
	if md == nil {
		return false
	}
	for _, cn := range t.c.pool.live() {
		if _, ok := cn.versions.get(wire.KeyGetTelemetrySubscriptions); !ok {
			continue
		}
		if _, ok := cn.versions.get(wire.KeyPushTelemetry); !ok {
			continue
		}
		for _, b := range md.Brokers {
			if addr, ok := t.c.meta.addrOf(b.NodeID); ok && addr == cn.addr {
				t.broker = b.NodeID
				return true
			}
		}
	}
	return false
}

// subscribe runs GetTelemetrySubscriptions and returns the wait before the
// first push: a random 0.5–1.5 push intervals (KIP-714's jitter), or the
// interval when no metric is requested. False when the request failed.
func (t *telemetry) subscribe() (time.Duration, bool) {
	id, _ := t.c.ClientInstanceID()
	resp, err := t.c.Request(t.ctx, t.broker, &wire.GetTelemetrySubscriptionsRequest{ClientInstanceID: id})
	if err != nil {
		t.debug("gregor: telemetry: GetTelemetrySubscriptions failed", "broker", t.broker, "err", err)
		return 0, false
	}
	r := resp.(*wire.GetTelemetrySubscriptionsResponse)
	if r.ErrorCode != 0 {
		t.debug("gregor: telemetry: GetTelemetrySubscriptions refused", "broker", t.broker, "err", wire.ErrorForCode(r.ErrorCode))
		return 0, false
	}
	if r.ClientInstanceID != (wire.UUID{}) {
		t.mu.Lock()
		t.instanceID = r.ClientInstanceID
		t.mu.Unlock()
	}
	t.sub = subscription{
		id:         r.SubscriptionID,
		interval:   time.Duration(r.PushIntervalMs) * time.Millisecond,
		codec:      pickCodec(r.AcceptedCompressionTypes),
		maxBytes:   int(r.TelemetryMaxBytes),
		delta:      r.DeltaTemporality,
		selector:   newMetricSelector(r.RequestedMetrics),
		subscribed: len(r.RequestedMetrics) > 0,
	}
	if t.sub.interval <= 0 {
		t.sub.interval = telemetryNoSubscriptionWait
		t.sub.subscribed = false
	}
	if !t.sub.subscribed {
		return t.sub.interval, true
	}
	return time.Duration(float64(t.sub.interval) * (0.5 + rand.Float64())), true
}

// debug logs a Debug line when the logger takes Debug.
func (t *telemetry) debug(msg string, args ...any) {
	if t.c.logEnabled(slog.LevelDebug) {
		t.c.cfg.Logger.Debug(msg, args...)
	}
}

// pickCodec is the first accepted compression type gregor can write (the
// broker lists them in its order of preference), or none when the list is
// empty (the broker accepts uncompressed pushes always).
func pickCodec(accepted []int8) wire.Compression {
	for _, a := range accepted {
		if c := wire.Compression(a); c >= wire.CompressionNone && c <= wire.CompressionZstd {
			return c
		}
	}
	return wire.CompressionNone
}

// push sends one PushTelemetry and returns the wait before the next and
// whether to subscribe again first.
func (t *telemetry) push(terminating bool) (time.Duration, bool) {
	ctx := t.ctx
	if terminating {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(t.closeCtx, telemetryCloseTimeout)
		defer cancel()
	}
	payload, err := t.payload()
	if err != nil {
		t.debug("gregor: telemetry: encoding failed", "err", err)
		return t.sub.interval, false
	}
	if t.sub.maxBytes > 0 && len(payload) > t.sub.maxBytes {
		t.debug("gregor: telemetry: payload above TelemetryMaxBytes, not pushed", "bytes", len(payload), "max", t.sub.maxBytes)
		return t.sub.interval, false
	}
	id, _ := t.c.ClientInstanceID()
	req := &wire.PushTelemetryRequest{ClientInstanceID: id, SubscriptionID: t.sub.id, Terminating: terminating,
		CompressionType: int8(t.sub.codec), Metrics: payload}
	resp, err := t.c.Request(ctx, t.broker, req)
	if err != nil {
		t.debug("gregor: telemetry: PushTelemetry failed", "broker", t.broker, "err", err)
		return 0, true // another broker, perhaps: subscribe again
	}
	r := resp.(*wire.PushTelemetryResponse)
	return t.afterPush(r)
}

// afterPush applies a PushTelemetry answer as the Java client does.
func (t *telemetry) afterPush(r *wire.PushTelemetryResponse) (time.Duration, bool) {
	next := max(t.sub.interval, time.Duration(r.ThrottleTimeMs)*time.Millisecond)
	if r.ErrorCode == 0 {
		return next, false
	}
	err := wire.ErrorForCode(r.ErrorCode)
	t.debug("gregor: telemetry: PushTelemetry refused", "broker", t.broker, "err", err)
	switch {
	case errors.Is(err, wire.ErrUnknownSubscriptionID), errors.Is(err, wire.ErrUnsupportedCompressionType):
		return 0, true // subscribe again at once
	case errors.Is(err, wire.ErrThrottlingQuotaExceeded), errors.Is(err, wire.ErrTelemetryTooLarge):
		return next, false // back off one interval (or the throttle)
	case errors.Is(err, wire.ErrInvalidRecord), errors.Is(err, wire.ErrInvalidRequest):
		// The broker cannot read what gregor writes: pushing again would
		// fail again. Ask again after a long wait.
		return max(next, telemetryNoSubscriptionWait), true
	}
	return next, true
}

// payload encodes the subscribed metrics and compresses them.
func (t *telemetry) payload() ([]byte, error) {
	md := t.state.collect(t.c.Metrics(), time.Now(), t.sub.delta, t.sub.selector)
	// A fresh buffer per push: an abandoned request may still hold the
	// previous one (pushes are seconds apart; the allocation is nothing).
	raw := md.Append(nil)
	if t.sub.codec == wire.CompressionNone {
		return raw, nil
	}
	if t.comp == nil {
		comp, err := wire.NewCompressor(wire.CompressionLevels{})
		if err != nil {
			return nil, err
		}
		t.comp = comp
	}
	return t.comp.Compress(nil, t.sub.codec, raw)
}
