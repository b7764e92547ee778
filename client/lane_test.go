package client

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// heldRequests collects the requests of one API key a fake broker holds
// unanswered, with the connection each came on.
type heldRequests struct {
	mu   sync.Mutex
	reqs []*fakeReq
	fcs  []*fakeConn
	got  chan struct{} // one send per held request
}

func newHeld() *heldRequests { return &heldRequests{got: make(chan struct{}, 64)} }

func (h *heldRequests) hold(fc *fakeConn, r *fakeReq) {
	h.mu.Lock()
	h.reqs = append(h.reqs, r)
	h.fcs = append(h.fcs, fc)
	h.mu.Unlock()
	h.got <- struct{}{}
}

// wait waits for the next held request.
func (h *heldRequests) wait(t *testing.T) {
	t.Helper()
	select {
	case <-h.got:
	case <-time.After(5 * time.Second):
		t.Fatal("the broker never received the request to hold")
	}
}

func (h *heldRequests) conn(i int) *fakeConn {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.fcs[i]
}

func produceReq() *wire.ProduceRequest { return &wire.ProduceRequest{Acks: -1, TimeoutMs: 1000} }

func fetchReq() *wire.FetchRequest {
	return &wire.FetchRequest{ReplicaID: -1, MaxWaitMs: 5000, MaxBytes: 1 << 20, SessionEpoch: -1}
}

func TestLaneTable(t *testing.T) {
	cases := map[wire.APIKey]Lane{
		wire.KeyProduce: LaneProduce, wire.KeyFetch: LaneFetch, wire.KeyShareFetch: LaneFetch,
		wire.KeyShareAcknowledge: LaneFetch, wire.KeyJoinGroup: LaneGroup, wire.KeyFindCoordinator: LaneGroup,
		wire.KeyEndTxn: LaneGroup, wire.KeyShareGroupHeartbeat: LaneGroup, wire.KeyMetadata: LaneControl,
		wire.KeyApiVersions: LaneControl, wire.KeyCreateTopics: LaneControl, wire.KeyInitProducerId: LaneControl,
		wire.KeyListOffsets: LaneControl, wire.KeySaslAuthenticate: LaneControl,
	}
	for k, want := range cases {
		if got := LaneOf(k); got != want {
			t.Errorf("LaneOf(%s) = %v, want %v", apiName(k), got, want)
		}
	}
	for l, name := range []string{"control", "produce", "fetch", "group"} {
		if got := Lane(l).String(); got != name {
			t.Errorf("Lane(%d) = %q, want %q", l, got, name)
		}
	}
}

// TestHeldFetchDoesNotDelayProduce checks head-of-line blocking is gone: a
// Fetch the broker holds does not delay a Produce or a Metadata to the same
// broker, which travel on connections of their own.
func TestHeldFetchDoesNotDelayProduce(t *testing.T) {
	fc := newFakeCluster(t, 1)
	held := newHeld()
	fc.setHandle(func(c *fakeConn, r *fakeReq) bool {
		if r.hdr.Key == wire.KeyFetch {
			held.hold(c, r)
			return true
		}
		return false
	})
	c := newTestClient(t, fc.config())
	ctx := testCtx(t, 10*time.Second)
	pf, err := c.Enqueue(ctx, 1, fetchReq())
	if err != nil {
		t.Fatal(err)
	}
	held.wait(t)
	for i := range 10 {
		if _, err := c.Request(ctx, 1, produceReq()); err != nil {
			t.Fatalf("produce %d behind a held fetch: %v", i, err)
		}
	}
	if _, err := c.Request(ctx, 1, &wire.MetadataRequest{Topics: []wire.MetadataRequestTopic{}}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-pf.Done():
		t.Fatal("the held fetch completed")
	default:
	}
	fetchConn := fc.requests(wire.KeyFetch)[0].conn
	for _, r := range fc.requests(wire.KeyProduce) {
		if r.conn == fetchConn {
			t.Fatalf("a produce went over the fetch connection %d", fetchConn)
		}
	}
	// The broker answers the fetch at last, on its own connection.
	held.conn(0).respond(held.reqs[0], &wire.FetchResponse{})
	if _, err := pf.Result(); err != nil {
		t.Fatalf("fetch: %v", err)
	}
}

// TestDeadFetchLaneFailsOnlyFetches checks that a fetch connection the
// broker drops fails the fetch on it (PossiblySent: it was written) and
// nothing else: a produce in flight on the same broker is answered on its
// own connection, which stays open.
func TestDeadFetchLaneFailsOnlyFetches(t *testing.T) {
	fc := newFakeCluster(t, 1)
	heldProduce, heldFetch := newHeld(), newHeld()
	var first atomic.Bool
	fc.setHandle(func(c *fakeConn, r *fakeReq) bool {
		switch {
		case r.hdr.Key == wire.KeyFetch:
			heldFetch.hold(c, r)
			return true
		case r.hdr.Key == wire.KeyProduce && first.CompareAndSwap(false, true):
			heldProduce.hold(c, r) // only the first
			return true
		}
		return false
	})
	c := newTestClient(t, fc.config())
	ctx := testCtx(t, 10*time.Second)
	pp, err := c.Enqueue(ctx, 1, produceReq())
	if err != nil {
		t.Fatal(err)
	}
	heldProduce.wait(t)
	pf, err := c.Enqueue(ctx, 1, fetchReq())
	if err != nil {
		t.Fatal(err)
	}
	heldFetch.wait(t)
	heldFetch.conn(0).close()
	_, err = pf.Result()
	expectFailure(t, "fetch on the dropped connection", err, ErrTransport, PossiblySent)

	heldProduce.conn(0).respond(heldProduce.reqs[0], &wire.ProduceResponse{})
	if _, err := pp.Result(); err != nil {
		t.Fatalf("produce in flight while the fetch connection died: %v", err)
	}
	if _, err := c.Request(ctx, 1, produceReq()); err != nil {
		t.Fatalf("produce after the fetch connection died: %v", err)
	}
	prods := fc.requests(wire.KeyProduce)
	if prods[0].conn != prods[1].conn {
		t.Fatalf("produce connection changed (%d then %d): it should not have failed", prods[0].conn, prods[1].conn)
	}
	m := c.Metrics()
	if got := m.Lanes[LaneFetch]; got.Closed != 1 || got.Connections != 0 {
		t.Fatalf("fetch lane %+v: want one connection closed, none open", got)
	}
	if got := m.Lanes[LaneProduce]; got.Closed != 0 || got.Connections != 1 {
		t.Fatalf("produce lane %+v: want one open, none closed", got)
	}
}

// TestDeadProduceLaneCertainty checks a produce connection the broker drops
// with requests written on it and one more waiting for an in-flight slot:
// the written ones fail PossiblySent, the waiting one NotSent, and a
// control request on the same broker is untouched.
func TestDeadProduceLaneCertainty(t *testing.T) {
	fc := newFakeCluster(t, 1)
	held := newHeld()
	fc.setHandle(func(c *fakeConn, r *fakeReq) bool {
		if r.hdr.Key == wire.KeyProduce {
			held.hold(c, r)
			return true
		}
		return false
	})
	cfg := fc.config()
	cfg.MaxInFlightPerBroker = 2
	c := newTestClient(t, cfg)
	ctx := testCtx(t, 10*time.Second)
	if err := c.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	var written []Pending
	for range 2 {
		p, err := c.Enqueue(ctx, 1, produceReq())
		if err != nil {
			t.Fatal(err)
		}
		written = append(written, p)
		held.wait(t)
	}
	third := make(chan error, 1)
	go func() {
		_, err := c.Enqueue(ctx, 1, produceReq())
		third <- err
	}()
	waitFor(t, "the third produce to wait for a slot", 5*time.Second, func() bool { return c.Metrics().Slots.Waiting == 1 })
	if got := c.Metrics().Lanes[LaneProduce].InFlight; got != 2 {
		t.Fatalf("produce lane in flight %d, want 2", got)
	}
	held.conn(0).close()
	for _, p := range written {
		_, err := p.Result()
		expectFailure(t, "written produce", err, ErrTransport, PossiblySent)
	}
	expectFailure(t, "produce waiting for a slot", <-third, ErrTransport, NotSent)
	if _, err := c.Request(ctx, 1, createTopics("control")); err != nil {
		t.Fatalf("control request after the produce connection died: %v", err)
	}
	m := c.Metrics()
	if m.Lanes[LaneControl].Closed != 0 || m.Lanes[LaneProduce].Closed != 1 {
		t.Fatalf("lanes %+v: want only the produce connection closed", m.Lanes)
	}
}

// TestLaneMetrics checks the per-lane gauges and counters: each lane dials
// its own connection on first use only, and in-flight requests count in
// their lane.
func TestLaneMetrics(t *testing.T) {
	fc := newFakeCluster(t, 2)
	held := newHeld()
	fc.setHandle(func(c *fakeConn, r *fakeReq) bool {
		if r.hdr.Key == wire.KeyFetch {
			held.hold(c, r)
			return true
		}
		return false
	})
	c := newTestClient(t, fc.config())
	ctx := testCtx(t, 10*time.Second)
	if err := c.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	m := c.Metrics()
	if m.Lanes[LaneControl].Connections != 1 || m.Lanes[LaneProduce].Connections+m.Lanes[LaneFetch].Connections+m.Lanes[LaneGroup].Connections != 0 {
		t.Fatalf("after Ready: lanes %+v, want one control connection only", m.Lanes)
	}
	for _, b := range []int32{1, 2} {
		if _, err := c.Request(ctx, b, produceReq()); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Enqueue(ctx, 2, fetchReq()); err != nil {
		t.Fatal(err)
	}
	held.wait(t)
	if _, err := c.Coordinator(ctx, CoordinatorGroup, "g"); err != nil {
		t.Fatal(err)
	}
	m = c.Metrics()
	want := [NumLanes]LaneMetrics{
		LaneControl: {Connections: 1, Opened: 1},
		LaneProduce: {Connections: 2, Opened: 2},
		LaneFetch:   {Connections: 1, InFlight: 1, Opened: 1},
		LaneGroup:   {Connections: 1, Opened: 1},
	}
	if m.Lanes != want {
		t.Fatalf("lanes %+v, want %+v", m.Lanes, want)
	}
	if m.Conns.Opened != 5 {
		t.Fatalf("connections opened %d, want 5 (the sum over lanes)", m.Conns.Opened)
	}
	fcr, mdr := fc.requests(wire.KeyFindCoordinator), fc.requests(wire.KeyMetadata)
	if len(fcr) != 1 || (fcr[0].broker == mdr[0].broker && fcr[0].conn == mdr[0].conn) {
		t.Fatalf("FindCoordinator went over the control connection")
	}
}
