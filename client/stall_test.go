package client

import (
	"context"
	"runtime"
	"testing"
	"time"
	"weak"

	"github.com/gregor-kafka/gregor/wire"
)

// abandonCreateTopics sends a CreateTopics that the fake broker swallows
// (handing its connection and request to held) with a deadline that ends
// first, so the client abandons it, and returns a weak pointer to the
// request: the test's only reference to it.
func abandonCreateTopics(t *testing.T, c *Client) weak.Pointer[wire.CreateTopicsRequest] {
	t.Helper()
	req := createTopics("abandoned")
	w := weak.Make(req)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := c.Request(ctx, 1, req)
	expectFailure(t, "abandoned", err, ErrTimeout, PossiblySent)
	return w
}

// collected reports whether w's object was garbage collected, after a GC.
func collected[T any](w weak.Pointer[T]) bool {
	runtime.GC()
	return w.Value() == nil
}

// newStallCluster is a one-broker fake cluster whose broker answers no
// CreateTopics (each is handed to the returned channel) and a client of it
// with a RequestTimeout far beyond the tests.
func newStallCluster(t *testing.T) (*Client, <-chan heldReq) {
	fc := newFakeCluster(t, 1)
	cfg := fc.config()
	cfg.RequestTimeout = time.Minute
	c := newTestClient(t, cfg)
	held := make(chan heldReq, 4)
	fc.setHandle(func(conn *fakeConn, r *fakeReq) bool {
		if r.hdr.Key != wire.KeyCreateTopics {
			return false
		}
		held <- heldReq{c: conn, r: r}
		return true
	})
	if err := c.Ready(testCtx(t, 5*time.Second)); err != nil {
		t.Fatal(err)
	}
	return c, held
}

// TestAbandonedRequestFreedAtClose: a request abandoned by its caller and
// never answered is no longer referenced once the client is closed. Its
// stall check's timer (RequestTimeout, a minute here) held it, and with it
// whatever the request points to (a consumer's Fetch: the record block its
// response was to be read into), until the timer fired.
func TestAbandonedRequestFreedAtClose(t *testing.T) {
	c, _ := newStallCluster(t)
	w := abandonCreateTopics(t, c)
	if collected(w) {
		t.Fatal("abandoned request collected while its connection still waits for the answer")
	}
	if err := c.Close(testCtx(t, 5*time.Second)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the abandoned request to be collected after Close", 5*time.Second, func() bool { return collected(w) })
}

// TestAbandonedRequestFreedWhenAnswered: the late answer to an abandoned
// request ends its stall check, so the request is not kept until
// RequestTimeout on a connection that stays open.
func TestAbandonedRequestFreedWhenAnswered(t *testing.T) {
	c, held := newStallCluster(t)
	w := abandonCreateTopics(t, c)
	h := <-held
	h.c.write(frame(h.r, h.r.hdr.CorrelationID, echoCreateTopics(h.r.req.(*wire.CreateTopicsRequest))))
	waitFor(t, "the answered abandoned request to be collected", 5*time.Second, func() bool { return collected(w) })
	// The connection stayed open and serves the next request.
	if _, err := c.Request(testCtx(t, 5*time.Second), 1, &wire.MetadataRequest{}); err != nil {
		t.Fatal(err)
	}
}
