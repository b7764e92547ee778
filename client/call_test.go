package client

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// TestStartCallOrder: calls started from one goroutine are written in call
// order and each Wait gets its own response; every outcome is counted once.
func TestStartCallOrder(t *testing.T) {
	fc := newFakeCluster(t, 1)
	cfg := fc.config()
	cfg.MaxInFlightPerBroker = 5
	c := newTestClient(t, cfg)
	ctx := testCtx(t, 5*time.Second)
	var calls []Call
	for i := range 5 {
		k, err := c.StartCall(ctx, 1, createTopics(fmt.Sprint("t", i)))
		if err != nil {
			t.Fatal(err)
		}
		calls = append(calls, k)
	}
	for i, k := range calls {
		resp, err := k.Wait()
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if got := topicOf(t, resp); got != fmt.Sprint("t", i) {
			t.Fatalf("call %d got the response for %s", i, got)
		}
		k.Release()
	}
	for i, r := range fc.requests(wire.KeyCreateTopics) {
		if name := r.req.(*wire.CreateTopicsRequest).Topics[0].Name; name != fmt.Sprint("t", i) {
			t.Fatalf("broker received %s at position %d: not call order", name, i)
		}
	}
	if m := c.Metrics().Calls; m.Started != m.Succeeded || m.Failed != 0 {
		t.Fatalf("calls %+v", m)
	}
}

// TestStartCallDeadline: a call whose context ends before the response fails
// PossiblySent with ErrTimeout; its late response is discarded, the released
// record is not reused while the connection still holds it (the next call,
// started before the late answer, gets a record of its own), and the
// connection serves the next calls.
func TestStartCallDeadline(t *testing.T) {
	fc := newFakeCluster(t, 1)
	c := newTestClient(t, fc.config())
	type heldReq struct {
		conn *fakeConn
		r    *fakeReq
	}
	held := make(chan heldReq, 4)
	fc.setHandle(func(conn *fakeConn, r *fakeReq) bool {
		if r.hdr.Key != wire.KeyCreateTopics {
			return false
		}
		held <- heldReq{conn, r}
		return true
	})
	answer := func(h heldReq) { h.conn.respond(h.r, echoCreateTopics(h.r.req.(*wire.CreateTopicsRequest))) }
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	k, err := c.StartCall(ctx, 1, createTopics("late"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = k.Wait()
	expectFailure(t, "late call", err, ErrTimeout, PossiblySent)
	k.Release()
	late := <-held

	next, err := c.StartCall(testCtx(t, 5*time.Second), 1, createTopics("next"))
	if err != nil {
		t.Fatal(err)
	}
	if next.(*call) == k.(*call) {
		t.Fatal("the released call's record was reused while the connection still held it")
	}
	answer(late) // Kafka answers in order: the late one first, to nobody
	answer(<-held)
	resp, err := next.Wait()
	if err != nil {
		t.Fatalf("call after the late one: %v", err)
	}
	if got := topicOf(t, resp); got != "next" {
		t.Fatalf("the next call got the response for %s", got)
	}
	next.Release()
	m := c.Metrics().Calls
	if m.PossiblySent != 1 || m.Abandoned != 1 || m.Failed != 1 || m.Succeeded != m.Started-1 {
		t.Fatalf("calls %+v, want 1 failed possibly sent (abandoned), the others succeeded", m)
	}
}

// TestStartCallNotSent: a call that cannot be written before its context
// ends returns a NotSent error and no Call.
func TestStartCallNotSent(t *testing.T) {
	fc := newFakeCluster(t, 1)
	cfg := fc.config()
	cfg.MaxInFlightPerBroker = 1
	c := newTestClient(t, cfg)
	fc.setHandle(func(conn *fakeConn, r *fakeReq) bool { return r.hdr.Key == wire.KeyCreateTopics })
	first, err := c.StartCall(testCtx(t, 5*time.Second), 1, createTopics("first"))
	if err != nil {
		t.Fatal(err)
	}
	defer first.Release()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	k, err := c.StartCall(ctx, 1, createTopics("second"))
	expectFailure(t, "second", err, ErrTimeout, NotSent)
	if k != nil {
		t.Fatal("a Call came with the error")
	}
}
