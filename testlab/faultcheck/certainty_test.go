package faultcheck

import (
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/testlab/faultproxy"
	"github.com/gregor-kafka/gregor/wire"
)

const produceAPI = int16(wire.KeyProduce)

// A Produce request cut right after the proxy forwarded it whole: the client
// cannot know whether the broker wrote it, so the record is PossiblySent;
// the log decides. A client reporting NotSent would lie.
func TestCutAfterProduceWritten(t *testing.T) {
	f := setup(t)
	_, p := f.producer(5 * time.Second)
	f.mustAck(p, "p", "warm")
	g := f.apply(faultproxy.Fault{Kind: faultproxy.CutFrame, Dir: faultproxy.ToBroker, API: produceAPI, Bytes: -1})
	r, c := f.send(p, "p", "v1")
	if n := fired(f.remove(g)); n != 1 {
		t.Fatalf("cut fired %d times, want 1", n)
	}
	if r.Err == nil || r.Certainty != client.PossiblySent || !c.Forwarded {
		t.Errorf("v1: err %v certainty %v forwarded %v; want a failure PossiblySent after the request was forwarded", r.Err, r.Certainty, c.Forwarded)
	}
	f.mustAck(p, "p", "v2") // later requests succeed on a new connection
	l := f.finish()
	off, present := Truth(l, "v1")
	t.Logf("truth: v1 present %v at %d", present, off)
	lie := c
	lie.Certainty = client.NotSent
	f.mustCatch(lie, l)
}

// Every connection cut and new ones refused before the record is sent: no
// byte of its request can reach the broker, so it fails NotSent and the log
// lacks it. A client claiming it acknowledged would lie.
func TestCutBeforeProduceWritten(t *testing.T) {
	f := setup(t)
	cl, p := f.producer(2 * time.Second)
	f.mustAck(p, "p", "warm")
	refuse := f.apply(faultproxy.Fault{Kind: faultproxy.Refuse})
	// Refused, no new connection opens: once every connection opened so
	// far is closed, no byte of v1's request can leave (waiting for one
	// close let v1 go out on another connection not yet cut, possibly
	// sent).
	opened := cl.Metrics().Conns.Opened
	cut := f.apply(faultproxy.Fault{Kind: faultproxy.CutAll})
	f.waitClosed(cl, opened)
	r, c := f.send(p, "p", "v1")
	f.remove(cut)
	recs := f.remove(refuse)
	if r.Err == nil || r.Certainty != client.NotSent || c.Forwarded {
		t.Errorf("v1: err %v certainty %v forwarded %v; want a failure NotSent with nothing forwarded", r.Err, r.Certainty, c.Forwarded)
	}
	t.Logf("refused %d connection(s)", fired(recs))
	f.mustAck(p, "p", "v2")
	l := f.finish()
	lie := c
	lie.Acked, lie.Offset = true, 1
	f.mustCatch(lie, l)
}

// A Produce response with a wrong correlation ID: the client must fail that
// connection's requests (PossiblySent: the broker got them) while another
// client's connection goes on, and a later request succeeds.
func TestWrongCorrelationID(t *testing.T) {
	f := setup(t)
	clA, pa := f.producer(5 * time.Second)
	clB := f.client(client.Config{RequestTimeout: 5 * time.Second})
	f.mustAck(pa, "pa", "warm")
	closedA, closedB := clA.Metrics().Conns.Closed, clB.Metrics().Conns.Closed
	g := f.apply(faultproxy.Fault{Kind: faultproxy.WrongCorrelation, API: produceAPI, Every: true})
	r, c := f.send(pa, "pa", "v1")
	for i := 0; i < 3; i++ {
		if _, err := clB.Metadata(f.ctx, []string{f.topic}); err != nil {
			t.Errorf("other connection: Metadata %d failed: %v", i, err)
		}
	}
	recs := f.remove(g)
	if fired(recs) < 1 {
		t.Fatalf("fault never fired: %+v", recs)
	}
	if r.Err == nil || r.Certainty != client.PossiblySent {
		t.Errorf("v1: err %v certainty %v; want a failure PossiblySent", r.Err, r.Certainty)
	}
	if got := clA.Metrics().Conns.Closed; got <= closedA {
		t.Errorf("client A closed %d connections, want the one with the wrong correlation ID closed", got-closedA)
	}
	if got := clB.Metrics().Conns.Closed; got != closedB {
		t.Errorf("client B closed %d connections, want none", got-closedB)
	}
	f.mustAck(pa, "pa", "v2")
	l := f.finish()
	lie := c
	lie.Certainty = client.NotSent
	f.mustCatch(lie, l)
}

// The previous response replayed before the Produce response: a client that
// took it as the answer would acknowledge v1 at warm's offset.
func TestReplayedResponse(t *testing.T) {
	f := setup(t)
	_, p := f.producer(5 * time.Second)
	warm := f.mustAck(p, "p", "warm")
	g := f.apply(faultproxy.Fault{Kind: faultproxy.Replay, API: produceAPI})
	r, c := f.send(p, "p", "v1")
	if n := fired(f.remove(g)); n != 1 {
		t.Fatalf("replay fired %d times, want 1", n)
	}
	if r.Err == nil || r.Certainty != client.PossiblySent {
		t.Errorf("v1: err %v certainty %v; want a failure PossiblySent", r.Err, r.Certainty)
	}
	f.mustAck(p, "p", "v2")
	l := f.finish()
	lie := c
	lie.Acked, lie.Offset = true, warm.Offset
	f.mustCatch(lie, l)
}

// A Produce response stalled (bounded, 6s) past the request and delivery
// deadlines: the record fails PossiblySent within its deadline, and the next
// request, on a new connection, succeeds.
func TestStallHonoursDeadlines(t *testing.T) {
	f := setup(t)
	const timeout = time.Second
	_, p := f.producer(timeout)
	f.mustAck(p, "p", "warm")
	g := f.apply(faultproxy.Fault{Kind: faultproxy.Stall, Dir: faultproxy.ToClient, API: produceAPI, Delay: 6 * time.Second})
	t0 := time.Now()
	r, c := f.send(p, "p", "v1")
	took := time.Since(t0)
	recs := f.remove(g)
	if fired(recs) != 1 {
		t.Fatalf("stall fired %d times, want 1", fired(recs))
	}
	if r.Err == nil || r.Certainty != client.PossiblySent {
		t.Errorf("v1: err %v certainty %v; want a failure PossiblySent", r.Err, r.Certainty)
	}
	// DeliveryTimeout is 3×timeout; allow 1s for scheduling on a loaded machine.
	if took > 3*timeout+time.Second {
		t.Errorf("v1 took %v, beyond its delivery timeout %v", took, 3*timeout)
	}
	t.Logf("v1 failed after %v (request timeout %v)", took, timeout)
	f.mustAck(p, "p", "v2")
	l := f.finish()
	lie := c
	lie.Certainty = client.NotSent
	f.mustCatch(lie, l)
}
