package client

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// telemetryFake is a fake cluster that advertises the telemetry APIs and
// answers them with sub; pushes are recorded (decompressed) and answered
// by pushAnswer (nil: no error; a nil return: never answered).
type telemetryFake struct {
	*fakeCluster
	mu         sync.Mutex
	sub        wire.GetTelemetrySubscriptionsResponse
	subs       []wire.GetTelemetrySubscriptionsRequest
	pushes     []pushSeen
	pushAnswer func(n int) *wire.PushTelemetryResponse
}

type pushSeen struct {
	req     wire.PushTelemetryRequest
	metrics []byte // decompressed
	at      time.Time
}

var fakeInstanceID = wire.UUID{0xca, 0xfe, 15: 1}

func newTelemetryFake(t *testing.T, interval time.Duration, requested ...string) *telemetryFake {
	tf := &telemetryFake{fakeCluster: newFakeCluster(t, 1)}
	tf.telemetry = true
	tf.sub = wire.GetTelemetrySubscriptionsResponse{ClientInstanceID: fakeInstanceID, SubscriptionID: 7,
		AcceptedCompressionTypes: []int8{int8(wire.CompressionZstd), int8(wire.CompressionGzip)},
		PushIntervalMs:           int32(interval / time.Millisecond), TelemetryMaxBytes: 1 << 20, RequestedMetrics: requested}
	dec := wire.NewDecompressor(1 << 20)
	tf.setHandle(func(fc *fakeConn, r *fakeReq) bool {
		switch req := r.req.(type) {
		case *wire.GetTelemetrySubscriptionsRequest:
			tf.mu.Lock()
			tf.subs = append(tf.subs, *req)
			resp := tf.sub
			if req.ClientInstanceID != (wire.UUID{}) {
				resp.ClientInstanceID = wire.UUID{}
			}
			tf.mu.Unlock()
			fc.respond(r, &resp)
			return true
		case *wire.PushTelemetryRequest:
			m, err := dec.Decompress(nil, wire.Compression(req.CompressionType), req.Metrics, 1<<20)
			if err != nil {
				t.Errorf("push: %v", err)
			}
			tf.mu.Lock()
			cp := *req
			cp.Metrics = nil
			tf.pushes = append(tf.pushes, pushSeen{cp, m, time.Now()})
			n := len(tf.pushes)
			answer := tf.pushAnswer
			tf.mu.Unlock()
			resp := &wire.PushTelemetryResponse{}
			if answer != nil {
				resp = answer(n)
			}
			if resp != nil {
				fc.respond(r, resp)
			}
			return true
		}
		return false
	})
	return tf
}

func (tf *telemetryFake) seen() ([]wire.GetTelemetrySubscriptionsRequest, []pushSeen) {
	tf.mu.Lock()
	defer tf.mu.Unlock()
	return append([]wire.GetTelemetrySubscriptionsRequest(nil), tf.subs...), append([]pushSeen(nil), tf.pushes...)
}

// TestTelemetryPushesSubscribedMetrics: the client subscribes with the zero
// instance id, pushes zstd-compressed metrics of the subscribed prefixes
// only, and pushes once more, terminating, on Close.
func TestTelemetryPushesSubscribedMetrics(t *testing.T) {
	tf := newTelemetryFake(t, 20*time.Millisecond, "org.apache.kafka.producer.connection.")
	c := newTestClient(t, tf.config())
	ctx := testCtx(t, 10*time.Second)
	if err := c.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Request(ctx, 1, &wire.ProduceRequest{Acks: -1, TimeoutMs: 1000}); err != nil { // the producer role
		t.Fatal(err)
	}
	waitFor(t, "two pushes", 10*time.Second, func() bool { _, p := tf.seen(); return len(p) >= 2 })
	if id, ok := c.ClientInstanceID(); !ok || id != fakeInstanceID {
		t.Fatalf("ClientInstanceID = %v, %v", id, ok)
	}
	if err := c.Close(ctx); err != nil {
		t.Fatal(err)
	}
	subs, pushes := tf.seen()
	if len(subs) != 1 || subs[0].ClientInstanceID != (wire.UUID{}) {
		t.Fatalf("subscriptions %+v, want one with the zero instance id", subs)
	}
	for i, p := range pushes {
		if p.req.ClientInstanceID != fakeInstanceID || p.req.SubscriptionID != 7 || p.req.CompressionType != int8(wire.CompressionZstd) {
			t.Fatalf("push %d: %+v", i, p.req)
		}
		if !bytes.Contains(p.metrics, []byte("org.apache.kafka.producer.connection.creation.total")) {
			t.Fatalf("push %d lacks connection.creation.total", i)
		}
		if bytes.Contains(p.metrics, []byte("node.request.latency")) || bytes.Contains(p.metrics, []byte("org.apache.kafka.consumer.")) {
			t.Fatalf("push %d carries metrics not subscribed", i)
		}
		if p.req.Terminating != (i == len(pushes)-1) {
			t.Fatalf("push %d of %d: Terminating %v", i, len(pushes), p.req.Terminating)
		}
	}
}

// TestTelemetryResubscribesOnUnknownSubscription: UNKNOWN_SUBSCRIPTION_ID
// makes the client ask again at once, with the instance id it was given.
func TestTelemetryResubscribesOnUnknownSubscription(t *testing.T) {
	tf := newTelemetryFake(t, 20*time.Millisecond, "*")
	tf.pushAnswer = func(n int) *wire.PushTelemetryResponse {
		if n == 1 {
			return &wire.PushTelemetryResponse{ErrorCode: wire.ErrUnknownSubscriptionID.Code}
		}
		return &wire.PushTelemetryResponse{}
	}
	c := newTestClient(t, tf.config())
	if err := c.Ready(testCtx(t, 10*time.Second)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a second subscription", 10*time.Second, func() bool { s, _ := tf.seen(); return len(s) >= 2 })
	subs, _ := tf.seen()
	if subs[1].ClientInstanceID != fakeInstanceID {
		t.Fatalf("second GetTelemetrySubscriptions carried %v, want the assigned id", subs[1].ClientInstanceID)
	}
}

// TestTelemetryBacksOffWhenThrottled: after THROTTLING_QUOTA_EXCEEDED with
// a throttle time the next push waits at least that long.
func TestTelemetryBacksOffWhenThrottled(t *testing.T) {
	const throttle = 400 * time.Millisecond
	tf := newTelemetryFake(t, 10*time.Millisecond, "*")
	tf.pushAnswer = func(n int) *wire.PushTelemetryResponse {
		if n == 1 {
			return &wire.PushTelemetryResponse{ErrorCode: wire.ErrThrottlingQuotaExceeded.Code, ThrottleTimeMs: int32(throttle / time.Millisecond)}
		}
		return &wire.PushTelemetryResponse{}
	}
	c := newTestClient(t, tf.config())
	if err := c.Ready(testCtx(t, 10*time.Second)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a second push", 10*time.Second, func() bool { _, p := tf.seen(); return len(p) >= 2 })
	subs, p := tf.seen()
	if gap := p[1].at.Sub(p[0].at); gap < throttle {
		t.Fatalf("second push %v after the throttled one, want >= %v", gap, throttle)
	}
	if len(subs) != 1 {
		t.Fatalf("%d subscriptions: throttling must not resubscribe", len(subs))
	}
}

// TestTelemetryCloseDoesNotHang: a broker that never answers the
// terminating push delays Close by telemetryCloseTimeout at most.
func TestTelemetryCloseDoesNotHang(t *testing.T) {
	tf := newTelemetryFake(t, 10*time.Millisecond, "*")
	tf.pushAnswer = func(int) *wire.PushTelemetryResponse { return nil } // never answered
	c := newTestClient(t, tf.config())
	if err := c.Ready(testCtx(t, 10*time.Second)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a push", 10*time.Second, func() bool { _, p := tf.seen(); return len(p) >= 1 })
	start := time.Now()
	if err := c.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 2*telemetryCloseTimeout+5*time.Second {
		t.Fatalf("Close took %v", d)
	}
}

// TestTelemetryOffSwitchAndUnsupported: EnableMetricsPush false never
// starts the loop; a broker that does not advertise the APIs gets none of
// them.
func TestTelemetryOffSwitchAndUnsupported(t *testing.T) {
	off := false
	tf := newTelemetryFake(t, 10*time.Millisecond, "*")
	cfg := tf.config()
	cfg.EnableMetricsPush = &off
	c := newTestClient(t, cfg)
	if c.tel != nil {
		t.Fatal("telemetry loop made with EnableMetricsPush false")
	}
	if err := c.Ready(testCtx(t, 10*time.Second)); err != nil {
		t.Fatal(err)
	}
	_ = c.Close(context.Background())

	plain := newFakeCluster(t, 1) // no telemetry receiver
	c2 := newTestClient(t, plain.config())
	if c2.tel == nil {
		t.Fatal("telemetry not on by default")
	}
	ctx := testCtx(t, 10*time.Second)
	if err := c2.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c2.Request(ctx, 1, &wire.ProduceRequest{Acks: -1, TimeoutMs: 1000}); err != nil {
		t.Fatal(err)
	}
	_ = c2.Close(context.Background())
	for _, k := range []wire.APIKey{wire.KeyGetTelemetrySubscriptions, wire.KeyPushTelemetry} {
		if n := len(tf.requests(k)) + len(plain.requests(k)); n != 0 {
			t.Fatalf("%d requests of key %d", n, k)
		}
	}
	if c2.Metrics().Calls.Failed != 0 {
		t.Fatal("failed calls against a broker without telemetry")
	}
}
