package client

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// expectFailure checks err is a *RequestError with the given cause and certainty.
func expectFailure(t *testing.T, what string, err error, cause error, cert Certainty) {
	t.Helper()
	var re *RequestError
	if !errors.As(err, &re) {
		t.Fatalf("%s: error %v (%T) is not a *RequestError", what, err, err)
	}
	if !errors.Is(err, cause) {
		t.Fatalf("%s: error %v does not wrap %v", what, err, cause)
	}
	if re.Certainty != cert || CertaintyOf(err) != cert {
		t.Fatalf("%s: certainty %v, want %v (%v)", what, re.Certainty, cert, err)
	}
}

// recovers checks that a fresh request on broker succeeds and was answered on
// a connection the broker accepted after the faulty one.
func recovers(t *testing.T, c *Client, fc *fakeCluster, broker int32, minConn int32) {
	t.Helper()
	resp, err := c.Request(testCtx(t, 5*time.Second), broker, createTopics("after"))
	if err != nil {
		t.Fatalf("request after the fault: %v", err)
	}
	if got := topicOf(t, resp); got != "after" {
		t.Fatalf("response for %q, want \"after\"", got)
	}
	reqs := fc.requests(wire.KeyCreateTopics)
	last := reqs[len(reqs)-1]
	if last.conn < minConn {
		t.Fatalf("recovery request went over connection %d, want a new one (>= %d)", last.conn, minConn)
	}
}

// enqueueTwo enqueues topics "a" and "b" on broker 1 and returns their Pendings.
func enqueueTwo(t *testing.T, c *Client, ctx context.Context) (Pending, Pending) {
	t.Helper()
	pa, err := c.Enqueue(ctx, 1, createTopics("a"))
	if err != nil {
		t.Fatal(err)
	}
	pb, err := c.Enqueue(ctx, 1, createTopics("b"))
	if err != nil {
		t.Fatal(err)
	}
	return pa, pb
}

// collectTwo returns a handler that holds CreateTopics requests until two
// have arrived on a connection and then calls act with both.
func collectTwo(act func(c *fakeConn, a, b *fakeReq)) func(c *fakeConn, r *fakeReq) bool {
	var mu sync.Mutex
	held := map[*fakeConn][]*fakeReq{}
	return func(c *fakeConn, r *fakeReq) bool {
		if r.hdr.Key != wire.KeyCreateTopics || r.conn != 1 {
			return false
		}
		mu.Lock()
		held[c] = append(held[c], r)
		h := held[c]
		mu.Unlock()
		if len(h) == 2 {
			act(c, h[0], h[1])
		}
		return true
	}
}

func TestWrongCorrelationIDFailsConnection(t *testing.T) {
	fc := newFakeCluster(t, 1)
	c := newTestClient(t, fc.config())
	fc.setHandle(collectTwo(func(c *fakeConn, a, b *fakeReq) {
		// Answer b first: a valid correlation ID, but not the oldest.
		c.write(frame(b, b.hdr.CorrelationID, echoCreateTopics(b.req.(*wire.CreateTopicsRequest))))
	}))
	pa, pb := enqueueTwo(t, c, testCtx(t, 5*time.Second))
	_, errA := pa.Result()
	_, errB := pb.Result()
	expectFailure(t, "a", errA, ErrProtocol, PossiblySent)
	expectFailure(t, "b", errB, ErrProtocol, PossiblySent)
	recovers(t, c, fc, 1, 2)
	if m := c.Metrics(); m.Calls.PossiblySent != 2 || m.Failures.Transport != 2 || m.Calls.Succeeded < 1 {
		t.Fatalf("metrics %+v %+v", m.Calls, m.Failures)
	}
}

func TestPartialFrameThenClose(t *testing.T) {
	fc := newFakeCluster(t, 1)
	c := newTestClient(t, fc.config())
	fc.setHandle(collectTwo(func(c *fakeConn, a, b *fakeReq) {
		f := frame(a, a.hdr.CorrelationID, echoCreateTopics(a.req.(*wire.CreateTopicsRequest)))
		c.write(f[:len(f)/2])
		c.close()
	}))
	pa, pb := enqueueTwo(t, c, testCtx(t, 5*time.Second))
	_, errA := pa.Result()
	_, errB := pb.Result()
	expectFailure(t, "a", errA, ErrTransport, PossiblySent)
	expectFailure(t, "b", errB, ErrTransport, PossiblySent)
	recovers(t, c, fc, 1, 2)
}

func TestDisconnectMidResponse(t *testing.T) {
	fc := newFakeCluster(t, 1)
	c := newTestClient(t, fc.config())
	fc.setHandle(collectTwo(func(c *fakeConn, a, b *fakeReq) {
		// a is answered in full; b's response is cut after its header.
		c.write(frame(a, a.hdr.CorrelationID, echoCreateTopics(a.req.(*wire.CreateTopicsRequest))))
		f := frame(b, b.hdr.CorrelationID, echoCreateTopics(b.req.(*wire.CreateTopicsRequest)))
		c.write(f[:9])
		c.close()
	}))
	pa, pb := enqueueTwo(t, c, testCtx(t, 5*time.Second))
	respA, errA := pa.Result()
	_, errB := pb.Result()
	if errA != nil || topicOf(t, respA) != "a" {
		t.Fatalf("a: %v %v", respA, errA)
	}
	expectFailure(t, "b", errB, ErrTransport, PossiblySent)
	recovers(t, c, fc, 1, 2)
}

func TestOversizedFrameCheckedBeforeAllocating(t *testing.T) {
	fc := newFakeCluster(t, 1)
	cfg := fc.config()
	cfg.MaxResponseBytes = minResponseBytes
	c := newTestClient(t, cfg)
	fc.setHandle(func(conn *fakeConn, r *fakeReq) bool {
		if r.hdr.Key != wire.KeyCreateTopics || r.conn != 1 {
			return false
		}
		// Announce a 2 GiB frame and send nothing more, keeping the
		// connection open: a client that allocated and read would hang.
		conn.write(binary.BigEndian.AppendUint32(nil, 0x7fffffff))
		return true
	})
	_, err := c.Request(testCtx(t, 5*time.Second), 1, createTopics("big"))
	expectFailure(t, "oversized", err, ErrProtocol, PossiblySent)
	if m := c.Metrics(); m.Failures.ResponseTooLarge != 1 {
		t.Fatalf("ResponseTooLarge = %d, want 1", m.Failures.ResponseTooLarge)
	}
	recovers(t, c, fc, 1, 2)
}

func TestStallPastDeadline(t *testing.T) {
	fc := newFakeCluster(t, 2)
	cfg := fc.config()
	cfg.RequestTimeout = 2 * time.Second
	c := newTestClient(t, cfg)
	fc.setHandle(func(conn *fakeConn, r *fakeReq) bool {
		// Broker 1's first connection never answers CreateTopics.
		return r.hdr.Key == wire.KeyCreateTopics && r.broker == 1 && r.conn == 1
	})
	if err := c.Ready(testCtx(t, 5*time.Second)); err != nil {
		t.Fatal(err)
	}

	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := c.Request(ctx, 1, createTopics("stalled"))
	elapsed := time.Since(start)
	expectFailure(t, "stalled", err, ErrTimeout, PossiblySent)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("%v does not wrap context.DeadlineExceeded", err)
	}
	if elapsed > time.Second { // well before RequestTimeout
		t.Fatalf("deadline of 100ms honoured after %v", elapsed)
	}

	// A request queued behind the stalled one on the same connection is
	// affected: it fails when the connection is closed as stalled ...
	behind := make(chan error, 1)
	go func() {
		_, err := c.Request(testCtx(t, 5*time.Second), 1, createTopics("behind"))
		behind <- err
	}()
	// ... while broker 2 is not affected at all.
	resp, err := c.Request(testCtx(t, 5*time.Second), 2, createTopics("other-broker"))
	if err != nil || topicOf(t, resp) != "other-broker" {
		t.Fatalf("broker 2: %v %v", resp, err)
	}
	select {
	case err := <-behind:
		// Closed as stalled (ErrTransport), or its own RequestTimeout,
		// which ends about when the stalled request's does.
		if !errors.Is(err, ErrTransport) && !errors.Is(err, ErrTimeout) {
			t.Fatalf("behind: %v", err)
		}
		if CertaintyOf(err) != PossiblySent {
			t.Fatalf("behind: certainty of %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("request behind the stalled one never completed")
	}
	recovers(t, c, fc, 1, 2)
	m := c.Metrics()
	if m.Calls.Abandoned < 1 || m.Failures.Deadline < 1 || m.Stages.DeadlineOverrun.Count < 1 {
		t.Fatalf("metrics: calls %+v failures %+v lateness %+v", m.Calls, m.Failures, m.Stages.DeadlineOverrun)
	}
}

func TestCancellationIsPrompt(t *testing.T) {
	fc := newFakeCluster(t, 1)
	c := newTestClient(t, fc.config())
	fc.setHandle(func(conn *fakeConn, r *fakeReq) bool { return r.hdr.Key == wire.KeyCreateTopics })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.Request(ctx, 1, createTopics("x"))
		done <- err
	}()
	waitFor(t, "request to reach the broker", 5*time.Second, func() bool { return len(fc.requests(wire.KeyCreateTopics)) == 1 })
	cancel()
	select {
	case err := <-done:
		expectFailure(t, "cancelled", err, ErrCancelled, PossiblySent)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%v does not wrap context.Canceled", err)
		}
	case <-time.After(time.Second):
		t.Fatal("cancellation not honoured within 1s")
	}
}

func TestPipeliningOrder(t *testing.T) {
	fc := newFakeCluster(t, 1)
	cfg := fc.config()
	cfg.MaxInFlightPerBroker = 5
	c := newTestClient(t, cfg)
	// Hold responses until five requests are outstanding at once and the
	// sixth waits for the in-flight limit; then answer in batches of five.
	var mu sync.Mutex
	var held []*fakeReq
	release := make(chan struct{})
	fc.setHandle(func(conn *fakeConn, r *fakeReq) bool {
		if r.hdr.Key != wire.KeyCreateTopics {
			return false
		}
		mu.Lock()
		held = append(held, r)
		var batch []*fakeReq
		if len(held) == 5 {
			batch, held = held, nil
		}
		mu.Unlock()
		if batch != nil {
			go func() {
				<-release
				for _, h := range batch {
					conn.respond(h, echoCreateTopics(h.req.(*wire.CreateTopicsRequest)))
				}
			}()
		}
		return true
	})
	ctx := testCtx(t, 5*time.Second)
	const n = 20
	ps := make([]Pending, n)
	enqueued := make(chan error, 1)
	go func() {
		for i := range ps {
			p, err := c.Enqueue(ctx, 1, createTopics(fmt.Sprint("t", i)))
			if err != nil {
				enqueued <- err
				return
			}
			ps[i] = p
		}
		enqueued <- nil
	}()
	waitFor(t, "five outstanding and the sixth queued", 5*time.Second, func() bool {
		return len(fc.requests(wire.KeyCreateTopics)) == 5 && c.Metrics().Slots.Waiting == 1
	})
	close(release)
	if err := <-enqueued; err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		resp, err := p.Result()
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if got, want := topicOf(t, resp), fmt.Sprint("t", i); got != want {
			t.Fatalf("request %d got the response for %s", i, got)
		}
	}
	reqs := fc.requests(wire.KeyCreateTopics)
	for i, r := range reqs {
		name := r.req.(*wire.CreateTopicsRequest).Topics[0].Name
		if name != fmt.Sprint("t", i) {
			t.Fatalf("broker received %s at position %d: not call order", name, i)
		}
		if i > 0 && r.hdr.CorrelationID <= reqs[i-1].hdr.CorrelationID {
			t.Fatalf("correlation IDs not ascending: %d after %d", r.hdr.CorrelationID, reqs[i-1].hdr.CorrelationID)
		}
		if r.conn != 1 {
			t.Fatalf("request %d on connection %d", i, r.conn)
		}
	}
	if m := c.Metrics(); m.Slots.Waited == 0 || m.Slots.MaxInFlight != 5 || m.Slots.Waiting != 0 {
		t.Fatalf("expected requests to wait for the in-flight limit: %+v", m.Slots)
	}
}

func TestInFlightLimitTimeoutIsNotSent(t *testing.T) {
	fc := newFakeCluster(t, 1)
	cfg := fc.config()
	cfg.MaxInFlightPerBroker = 1
	c := newTestClient(t, cfg)
	fc.setHandle(func(conn *fakeConn, r *fakeReq) bool { return r.hdr.Key == wire.KeyCreateTopics })
	if _, err := c.Enqueue(testCtx(t, 5*time.Second), 1, createTopics("first")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := c.Enqueue(ctx, 1, createTopics("second"))
	expectFailure(t, "second", err, ErrTimeout, NotSent)
	if n := len(fc.requests(wire.KeyCreateTopics)); n != 1 {
		t.Fatalf("broker saw %d CreateTopics, want 1", n)
	}
}

func TestConnectRefusedIsNotSent(t *testing.T) {
	fc := newFakeCluster(t, 1)
	addr := fc.brokers[0].addr
	fc.close()
	var dials atomic.Int32
	d := &net.Dialer{}
	c := newTestClient(t, Config{Bootstrap: []string{addr}, RetryBackoff: time.Millisecond, RetryBackoffMax: 5 * time.Millisecond,
		Dialer: func(ctx context.Context, network, addr string) (net.Conn, error) {
			dials.Add(1)
			return d.DialContext(ctx, network, addr)
		}})
	_, err := c.Request(testCtx(t, 300*time.Millisecond), AnyBroker, createTopics("x"))
	expectFailure(t, "refused", err, ErrTransport, NotSent)
	if !errors.Is(err, ErrTimeout) && !errors.Is(err, ErrTransport) {
		t.Fatalf("%v", err)
	}
	if dials.Load() < 2 {
		t.Fatalf("a NotSent connect failure should be retried within the deadline; %d dials", dials.Load())
	}
	if m := c.Metrics(); m.Calls.NotSent != 1 || m.Calls.Failed != 1 || m.Calls.Started != 1 {
		t.Fatalf("calls %+v", m.Calls)
	}
}

func TestApiVersionsV0Fallback(t *testing.T) {
	fc := newFakeCluster(t, 1)
	fc.setHandle(func(conn *fakeConn, r *fakeReq) bool {
		if r.hdr.Key != wire.KeyApiVersions || r.hdr.Version == 0 {
			return false
		}
		// A broker that cannot parse the version answers in the v0 body
		// format with UNSUPPORTED_VERSION and no ApiVersions range.
		conn.respond(r, &wire.ApiVersionsResponse{ErrorCode: wire.ErrUnsupportedVersion.Code, FinalizedFeaturesEpoch: -1})
		return true
	})
	c := newTestClient(t, fc.config())
	vs, err := c.BrokerVersions(testCtx(t, 5*time.Second), AnyBroker)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := vs[wire.KeyMetadata]; !ok {
		t.Fatalf("versions lack Metadata: %v", vs)
	}
	var got []int16
	for _, r := range fc.requests(wire.KeyApiVersions) {
		got = append(got, r.hdr.Version)
	}
	info, _ := wire.LookupAPI(wire.KeyApiVersions)
	if len(got) != 2 || got[0] != info.MaxVersion || got[1] != 0 {
		t.Fatalf("ApiVersions versions sent %v, want [%d 0]", got, info.MaxVersion)
	}
	if _, err := c.Request(testCtx(t, 5*time.Second), AnyBroker, createTopics("x")); err != nil {
		t.Fatalf("request after v0 negotiation: %v", err)
	}
}

func TestApiVersionsFallbackToAdvertisedVersion(t *testing.T) {
	fc := newFakeCluster(t, 1)
	fc.setHandle(func(conn *fakeConn, r *fakeReq) bool {
		if r.hdr.Key != wire.KeyApiVersions || r.hdr.Version <= 2 {
			return false
		}
		conn.respond(r, &wire.ApiVersionsResponse{ErrorCode: wire.ErrUnsupportedVersion.Code, FinalizedFeaturesEpoch: -1,
			ApiKeys: []wire.ApiVersionsResponseKey{{ApiKey: wire.KeyApiVersions, MinVersion: 0, MaxVersion: 2}}})
		return true
	})
	c := newTestClient(t, fc.config())
	if err := c.Ready(testCtx(t, 5*time.Second)); err != nil {
		t.Fatal(err)
	}
	reqs := fc.requests(wire.KeyApiVersions)
	if len(reqs) != 2 || reqs[1].hdr.Version != 2 {
		t.Fatalf("fallback went to %v, want v2", reqs)
	}
}

func TestNegotiatedVersionAndUnsupported(t *testing.T) {
	fc := newFakeCluster(t, 1)
	fc.versions[wire.KeyMetadata] = [2]int16{0, 7}
	fc.versions[wire.KeyCreateTopics] = [2]int16{0, 1} // below gregor's minimum
	fc.omit[wire.KeyFindCoordinator] = true
	c := newTestClient(t, fc.config())
	if err := c.Ready(testCtx(t, 5*time.Second)); err != nil {
		t.Fatal(err)
	}
	if md := fc.requests(wire.KeyMetadata); md[0].hdr.Version != 7 {
		t.Fatalf("Metadata sent at v%d, want v7 (broker max)", md[0].hdr.Version)
	}
	_, err := c.Request(testCtx(t, time.Second), 1, createTopics("x"))
	expectFailure(t, "CreateTopics", err, ErrUnsupportedVersion, NotSent)
	var ue *gregor.UnsupportedFeatureError
	if !errors.Is(err, gregor.ErrUnsupportedFeature) || !errors.As(err, &ue) || ue.Feature != "API CreateTopics" {
		t.Fatalf("CreateTopics: %v, want gregor.ErrUnsupportedFeature for API CreateTopics", err)
	}
	_, err = c.Coordinator(testCtx(t, time.Second), CoordinatorGroup, "g")
	expectFailure(t, "FindCoordinator", err, ErrUnsupportedVersion, NotSent)
	if !errors.Is(err, gregor.ErrUnsupportedFeature) {
		t.Fatalf("FindCoordinator not advertised: %v, want gregor.ErrUnsupportedFeature", err)
	}
	_, err = c.RequestVersion(testCtx(t, time.Second), 1, &wire.MetadataRequest{}, 8)
	expectFailure(t, "Metadata v8", err, ErrUnsupportedVersion, NotSent)
	if _, err = c.RequestVersion(testCtx(t, time.Second), 1, &wire.MetadataRequest{}, 4); err != nil {
		t.Fatal(err)
	}
	if md := fc.requests(wire.KeyMetadata); md[len(md)-1].hdr.Version != 4 {
		t.Fatalf("pinned version sent as v%d", md[len(md)-1].hdr.Version)
	}
	if m := c.Metrics(); m.Failures.Negotiation != 3 {
		t.Fatalf("negotiation failures %d, want 3", m.Failures.Negotiation)
	}
}

func TestCloseFailsOutstanding(t *testing.T) {
	fc := newFakeCluster(t, 1)
	c := newTestClient(t, fc.config())
	fc.setHandle(func(conn *fakeConn, r *fakeReq) bool { return r.hdr.Key == wire.KeyCreateTopics })
	p, err := c.Enqueue(testCtx(t, 5*time.Second), 1, createTopics("x"))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, err = p.Result()
	expectFailure(t, "outstanding", err, ErrClosed, PossiblySent)
	if err := c.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, err = c.Request(testCtx(t, time.Second), 1, createTopics("y"))
	expectFailure(t, "after close", err, ErrClosed, NotSent)
	if m := c.Metrics(); m.Calls.RejectedClosed != 1 {
		t.Fatalf("closed rejections %d", m.Calls.RejectedClosed)
	}
}

func TestConcurrentRequestsRace(t *testing.T) {
	fc := newFakeCluster(t, 3)
	cfg := fc.config()
	cfg.MaxInFlightPerBroker = 3
	c := newTestClient(t, cfg)
	ctx := testCtx(t, 30*time.Second)
	const workers, each = 24, 40
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				name := fmt.Sprintf("w%d-%d", w, i)
				broker := int32(1 + (w+i)%3)
				if i%5 == 0 {
					broker = AnyBroker
				}
				var resp wire.Response
				var err error
				if i%2 == 0 {
					resp, err = c.Request(ctx, broker, createTopics(name))
				} else {
					var p Pending
					if p, err = c.Enqueue(ctx, broker, createTopics(name)); err == nil {
						resp, err = p.Result()
					}
				}
				if err != nil {
					errs <- err
					return
				}
				if got := resp.(*wire.CreateTopicsResponse).Topics[0].Name; got != name {
					errs <- fmt.Errorf("request %s got the response for %s", name, got)
					return
				}
				if i%7 == 0 {
					if _, err := c.Metadata(ctx, []string{"m"}); err != nil {
						errs <- err
						return
					}
					c.InvalidateMetadata()
				}
				_ = c.Metrics()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	m := c.Metrics()
	if m.Calls.Failed != 0 || m.Calls.Succeeded != m.Calls.Started || m.Calls.Succeeded < workers*each {
		t.Fatalf("calls %+v", m.Calls)
	}
}

func TestUndecodableResponseFailsConnection(t *testing.T) {
	fc := newFakeCluster(t, 1)
	c := newTestClient(t, fc.config())
	fc.setHandle(collectTwo(func(c *fakeConn, a, b *fakeReq) {
		// a's frame has the right correlation ID and header but a body
		// that announces more topics than it holds.
		f := frame(a, a.hdr.CorrelationID, &wire.CreateTopicsResponse{})
		f = append(f[:len(f)-2], 0x7f, 0)
		binary.BigEndian.PutUint32(f, uint32(len(f)-4))
		c.write(f)
	}))
	pa, pb := enqueueTwo(t, c, testCtx(t, 5*time.Second))
	_, errA := pa.Result()
	_, errB := pb.Result()
	expectFailure(t, "a", errA, ErrProtocol, PossiblySent)
	expectFailure(t, "b", errB, ErrProtocol, PossiblySent)
	if !errors.Is(errA, wire.ErrInvalidLength) && !errors.Is(errA, wire.ErrTruncated) {
		t.Fatalf("a: %v does not carry the decoding error", errA)
	}
	recovers(t, c, fc, 1, 2)
}

func TestLatencyMetricsKept(t *testing.T) {
	fc := newFakeCluster(t, 1)
	c := newTestClient(t, fc.config())
	for range 3 {
		if _, err := c.Request(testCtx(t, 5*time.Second), 1, createTopics("x")); err != nil {
			t.Fatal(err)
		}
	}
	l := c.Metrics().Stages
	for name, s := range map[string]DurationStats{"route": l.Route, "writer wait": l.WriterWait, "encode": l.Encode,
		"in flight": l.InFlight, "call": l.Call, "slot wait": l.SlotWait} {
		if s.Count < 3 || s.Total == 0 && name != "slot wait" && name != "encode" || s.Max > s.Total {
			t.Errorf("%s latency %+v", name, s)
		}
	}
	if l.Call.Total < l.InFlight.Total {
		t.Errorf("call %v < in flight %v", l.Call.Total, l.InFlight.Total)
	}
}
