package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// TestPooledRecordsNeverCrossed drives many concurrent requests, with
// deadlines shorter than a slow fake broker's latency, through recycled
// request records: abandoned requests whose responses still arrive, stall
// timers, connections closed as stalled with requests in flight, Enqueue
// handles and cancellation. Every response must reach the request it
// answers, and every failure must be typed with a truthful certainty.
func TestPooledRecordsNeverCrossed(t *testing.T) {
	fc := newFakeCluster(t, 2)
	cfg := fc.config()
	cfg.MaxInFlightPerBroker = 4
	cfg.RequestTimeout = 40 * time.Millisecond // abandoned requests soon stall their connection
	c := newTestClient(t, cfg)
	fc.setHandle(func(fcn *fakeConn, r *fakeReq) bool {
		if r.hdr.Key != wire.KeyCreateTopics {
			return false
		}
		// A broker that is sometimes slow and now and then stalls past
		// RequestTimeout (simulated latency, not synchronization): answers
		// stay in order on the connection, later requests wait behind a
		// slow one, and a stall gets the connection closed.
		d := time.Duration(rand.IntN(3)) * time.Millisecond
		if rand.IntN(60) == 0 {
			d = 100 * time.Millisecond
		}
		if d > 0 {
			<-time.After(d)
		}
		fcn.answer(r)
		return true
	})
	const workers, each = 12, 60
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		ok, fail int
	)
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				name := fmt.Sprintf("w%d-%d", w, i)
				ctx, cancel := context.WithTimeout(context.Background(), time.Duration(2+rand.IntN(40))*time.Millisecond)
				var resp wire.Response
				var err error
				switch i % 3 {
				case 0:
					resp, err = c.Request(ctx, int32(1+i%2), createTopics(name))
				case 1:
					var p Pending
					if p, err = c.Enqueue(ctx, int32(1+i%2), createTopics(name)); err == nil {
						<-p.Done()
						resp, err = p.Result()
					}
				default:
					var p Pending
					if p, err = c.Enqueue(ctx, int32(1+i%2), createTopics(name)); err == nil {
						if rand.IntN(2) == 0 {
							cancel()
						}
						resp, err = p.Result()
					}
				}
				cancel()
				if err == nil {
					if got := respTopic(resp); got != name {
						errs <- fmt.Errorf("request %s got the response for %s", name, got)
						return
					}
					mu.Lock()
					ok++
					mu.Unlock()
					continue
				}
				var re *RequestError
				if !errors.As(err, &re) || re.Certainty != NotSent && re.Certainty != PossiblySent {
					errs <- fmt.Errorf("request %s: untyped failure %v", name, err)
					return
				}
				if !errors.Is(err, ErrTimeout) && !errors.Is(err, ErrCancelled) && !errors.Is(err, ErrTransport) {
					errs <- fmt.Errorf("request %s: unexpected failure %v", name, err)
					return
				}
				mu.Lock()
				fail++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if ok == 0 || fail == 0 {
		t.Fatalf("%d answered, %d failed: the mix did not exercise both paths", ok, fail)
	}
	m := c.Metrics()
	if m.Calls.Succeeded+m.Calls.Failed != m.Calls.Started {
		t.Fatalf("calls %+v: not every call reached one terminal", m.Calls)
	}
	if m.Calls.Abandoned == 0 {
		t.Fatalf("calls %+v: no request was abandoned in flight", m.Calls)
	}
	t.Logf("%d answered, %d failed, %d abandoned in flight; connections accepted: %d, %d",
		ok, fail, m.Calls.Abandoned, fc.brokers[0].accepted.Load(), fc.brokers[1].accepted.Load())
	// The client still works after all that: with the broker prompt again,
	// a request succeeds (each try is bounded by the short RequestTimeout,
	// which a loaded machine may miss, so a few tries are allowed).
	fc.setHandle(nil)
	var err error
	for range 20 {
		var resp wire.Response
		if resp, err = c.Request(testCtx(t, 5*time.Second), 1, createTopics("after")); err == nil {
			if got := respTopic(resp); got != "after" {
				t.Fatalf("request after the storm got the response for %s", got)
			}
			break
		}
	}
	if err != nil {
		t.Fatalf("request after the storm: %v", err)
	}
}

// TestPendingDoneAndResult checks a handle's Done and Result for every
// waiter: before the terminal (Done makes a channel that the terminal
// closes), and after it (Done returns a closed channel).
func TestPendingDoneAndResult(t *testing.T) {
	fc := newFakeCluster(t, 1)
	c := newTestClient(t, fc.config())
	release := make(chan struct{})
	fc.setHandle(func(fcn *fakeConn, r *fakeReq) bool {
		if r.hdr.Key != wire.KeyCreateTopics {
			return false
		}
		<-release
		fcn.answer(r)
		return true
	})
	p, err := c.Enqueue(testCtx(t, 5*time.Second), 1, createTopics("x"))
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Done():
		t.Fatal("Done closed before the response")
	default:
	}
	var wg sync.WaitGroup
	got := make(chan string, 6)
	for range 3 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			<-p.Done()
			resp, err := p.Result()
			if err != nil {
				got <- err.Error()
				return
			}
			got <- respTopic(resp)
		}()
		go func() {
			defer wg.Done()
			resp, err := p.Result()
			if err != nil {
				got <- err.Error()
				return
			}
			got <- respTopic(resp)
		}()
	}
	close(release)
	wg.Wait()
	close(got)
	for g := range got {
		if g != "x" {
			t.Fatalf("waiter saw %q", g)
		}
	}
	select {
	case <-p.Done():
	default:
		t.Fatal("Done after the terminal is not closed")
	}
}

// respTopic is the topic a one-topic CreateTopicsResponse names, or a
// description of what resp is instead (safe off the test goroutine).
func respTopic(resp wire.Response) string {
	r, ok := resp.(*wire.CreateTopicsResponse)
	if !ok || len(r.Topics) != 1 {
		return fmt.Sprintf("%#v", resp)
	}
	return r.Topics[0].Name
}

// TestRequestTimeoutWithoutContextDeadline checks the timers that enforce
// RequestTimeout when the caller's context has no deadline (no context is
// derived for it): a Request and an Enqueue'd request whose response never
// comes fail ErrTimeout, PossiblySent, at about RequestTimeout, and the
// records and watchers serve later requests normally.
func TestRequestTimeoutWithoutContextDeadline(t *testing.T) {
	fc := newFakeCluster(t, 1)
	cfg := fc.config()
	cfg.RequestTimeout = 300 * time.Millisecond
	c := newTestClient(t, cfg)
	var hold sync.Map // topic names the broker never answers
	fc.setHandle(func(fcn *fakeConn, r *fakeReq) bool {
		if r.hdr.Key != wire.KeyCreateTopics {
			return false
		}
		if _, ok := hold.Load(r.req.(*wire.CreateTopicsRequest).Topics[0].Name); !ok {
			fcn.answer(r)
		}
		return true
	})
	if err := c.Ready(testCtx(t, 5*time.Second)); err != nil {
		t.Fatal(err)
	}
	hold.Store("held-request", true)
	hold.Store("held-enqueue", true)
	ctx := context.Background()

	start := time.Now()
	_, err := c.Request(ctx, 1, createTopics("held-request"))
	expectFailure(t, "Request", err, ErrTimeout, PossiblySent)
	if d := time.Since(start); d < cfg.RequestTimeout || d > 10*cfg.RequestTimeout {
		t.Fatalf("Request failed after %v, want about RequestTimeout %v", d, cfg.RequestTimeout)
	}

	// The held request's connection is closed as stalled RequestTimeout
	// after it was written, about when that Request gave up: wait for the
	// close, or the Enqueue below may land on that connection and fail
	// with it (ErrTransport) instead of by its own deadline (seen under
	// load in CI).
	waitFor(t, "the stalled connection to close", 10*time.Second, func() bool { return c.Metrics().Conns.Closed > 0 })
	var p Pending
	for range 20 { // the stalled connection's close may race the first try
		start = time.Now()
		if p, err = c.Enqueue(ctx, 1, createTopics("held-enqueue")); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Done():
	case <-time.After(10 * cfg.RequestTimeout):
		t.Fatal("Enqueue'd request's Done not closed at its deadline")
	}
	_, err = p.Result()
	expectFailure(t, "Enqueue", err, ErrTimeout, PossiblySent)
	if d := time.Since(start); d < cfg.RequestTimeout {
		t.Fatalf("Enqueue failed after %v, before RequestTimeout %v", d, cfg.RequestTimeout)
	}

	hold.Clear()
	var resp wire.Response
	for range 20 { // the stalled connection's close may race the first try
		if resp, err = c.Request(ctx, 1, createTopics("after")); err == nil {
			break
		}
	}
	if err != nil || respTopic(resp) != "after" {
		t.Fatalf("after: %v %v", respTopic(resp), err)
	}
	q, err := c.Enqueue(ctx, 1, createTopics("after-enqueue"))
	if err != nil {
		t.Fatal(err)
	}
	if resp, err := q.Result(); err != nil || respTopic(resp) != "after-enqueue" {
		t.Fatalf("after-enqueue: %v %v", respTopic(resp), err)
	}
	if m := c.Metrics(); m.Calls.Abandoned < 2 || m.Stages.DeadlineOverrun.Count < 2 {
		t.Fatalf("metrics: calls %+v lateness %+v", m.Calls, m.Stages.DeadlineOverrun)
	}
}

// TestSlotWaitEndsAtDeadline checks the timer a send starts when it must
// wait for an in-flight slot and its context has no deadline: at the
// request's deadline it gives up, NotSent, and the connection stays usable.
func TestSlotWaitEndsAtDeadline(t *testing.T) {
	c := newTestClient(t, Config{Bootstrap: []string{"pipe:1"}, MaxInFlightPerBroker: 1})
	client, broker := net.Pipe()
	t.Cleanup(func() { _ = broker.Close() })
	go func() { _, _ = io.Copy(io.Discard, broker) }() // reads requests, never answers
	cn := newConn(c, client, "pipe:1", 1, LaneControl)
	t.Cleanup(func() { cn.fail(ErrClosed) })
	info, _ := wire.LookupAPI(wire.KeyCreateTopics)
	ctx := context.Background()

	first := c.getPending(ctx, createTopics("first"), info, info.MaxVersion, 1, false)
	first.cn = cn // no deadline: holds the only slot
	if err := cn.send(first); err != nil {
		t.Fatal(err)
	}
	second := c.getPending(ctx, createTopics("second"), info, info.MaxVersion, 1, false)
	second.cn = cn
	second.deadline = time.Now().Add(100 * time.Millisecond)
	start := time.Now()
	err := cn.send(second)
	expectFailure(t, "second", err, ErrTimeout, NotSent)
	if d := time.Since(start); d < 100*time.Millisecond || d > 5*time.Second {
		t.Fatalf("slot wait ended after %v, want about 100ms", d)
	}
	second.unref()
	if cn.isDead() {
		t.Fatal("a request that timed out waiting for a slot closed the connection")
	}
}

// gatedConn is a client-side net.Conn whose reads come from a script: the
// first Read waits for the first Write (so the frame it answers is queued)
// and returns head, the next waits until body is released and then returns
// it; Close does not interrupt that wait. Writes are discarded.
type gatedConn struct {
	net.Conn   // nil: only the methods below are used
	head, body []byte
	reads      int
	waiting    chan struct{} // closed when the second Read starts waiting
	release    chan struct{} // closed by the test to let it return body
	closed     chan struct{}
	closeOnce  sync.Once
	readMu     sync.Mutex
	wrote      chan struct{} // closed by the first Write
	writeOnce  sync.Once
}

func (g *gatedConn) Read(b []byte) (int, error) {
	g.readMu.Lock()
	g.reads++
	n := g.reads
	g.readMu.Unlock()
	switch n {
	case 1:
		<-g.wrote
		return copy(b, g.head), nil
	case 2:
		close(g.waiting)
		<-g.release
		return copy(b, g.body), nil
	}
	<-g.closed
	return 0, net.ErrClosed
}

func (g *gatedConn) Write(b []byte) (int, error) {
	g.writeOnce.Do(func() { close(g.wrote) })
	return len(b), nil
}
func (g *gatedConn) Close() error {
	g.closeOnce.Do(func() { close(g.closed) })
	return nil
}
func (g *gatedConn) SetWriteDeadline(time.Time) error { return nil }

// TestFailWhileReadingFrame checks the reader when the connection fails
// (a stall check, Close) after it has begun reading a response frame and
// before it matches it: the frame is dropped, the request keeps the
// terminal the failure gave it, and nothing panics on the emptied queue.
func TestFailWhileReadingFrame(t *testing.T) {
	c := newTestClient(t, Config{Bootstrap: []string{"gated:1"}})
	frame := appendBenchFrame(nil, 1, benchBody())
	g := &gatedConn{head: frame[:4], body: frame[4:], waiting: make(chan struct{}), release: make(chan struct{}), closed: make(chan struct{}), wrote: make(chan struct{})}
	cn := newConn(c, g, "gated:1", 1, LaneControl)
	info, _ := wire.LookupAPI(wire.KeyCreateTopics)
	p := c.newPending(testCtx(t, 5*time.Second), createTopics("bench"), info, benchVersion, 1, false)
	p.cn = cn
	if err := cn.send(p); err != nil {
		t.Fatal(err)
	}
	select {
	case <-g.waiting: // the reader has the frame's size and waits for its body
	case <-time.After(5 * time.Second):
		t.Fatal("reader never asked for the frame body")
	}
	cn.fail(fmt.Errorf("%w: test", ErrTransport))
	close(g.release)
	select {
	case <-cn.readerDone:
	case <-time.After(5 * time.Second):
		t.Fatal("reader did not stop after the connection failed")
	}
	_, err := p.Result()
	expectFailure(t, "request", err, ErrTransport, PossiblySent)
}
