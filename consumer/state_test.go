package consumer

import (
	"testing"
	"time"
)

// TestPartitionPhases walks a partition through its transitions and checks
// that only phaseFetchable (unpaused, backoff passed) may be fetched, and
// that a stopped partition keeps its chunk for delivery.
func TestPartitionPhases(t *testing.T) {
	now := time.Now()
	st := &partState{}
	want := func(step string, ph phase, fetchable bool) {
		t.Helper()
		if st.phase != ph || st.fetchable(now) != fetchable {
			t.Fatalf("%s: phase %d fetchable %v, want %d %v", step, st.phase, st.fetchable(now), ph, fetchable)
		}
	}
	want("new", phaseFetchable, true)
	st.paused = true
	want("paused", phaseFetchable, false)
	st.paused = false
	req, next := &fetchReq{}, &fetchReq{}
	st.send(req)
	want("send", phaseInFlight, false)
	st.answered(next)
	want("another Fetch's answer", phaseInFlight, false)
	st.answered(req)
	want("answered", phaseFetchable, true)
	st.hwm = 10
	st.buffer(&chunk{next: 10, lastEpoch: -1})
	want("buffered at the log end", phaseFetchable, false) // nothing to fetch ahead
	st.hwm = 30
	want("buffer", phaseFetchable, true) // fetched ahead from buf.next
	st.send(req)
	want("send ahead", phaseInFlight, false)
	st.answered(req)
	st.buffer(&chunk{next: 20, lastEpoch: 3})
	want("buffered ahead", phaseFetchable, false) // two chunks: no more
	if off, _ := st.fetchPos(); off != 20 && st.ahead == nil {
		t.Fatalf("fetchPos %d with ahead", off)
	}
	if ch := st.delivered(); ch == nil || ch.next != 10 || st.buf == nil || st.buf.next != 20 || st.ahead != nil {
		t.Fatal("delivered did not hand over the oldest chunk and move the next up")
	}
	if off, ep := st.fetchPos(); off != 20 || ep != 3 {
		t.Fatalf("fetchPos %d %d, want 20 3 (past the buffered chunk)", off, ep)
	}
	want("one buffered", phaseFetchable, true)
	st.noAhead = true
	want("ahead held", phaseFetchable, false)
	if st.delivered() == nil || st.buf != nil || st.noAhead {
		t.Fatal("delivered did not hand over the chunk")
	}
	want("delivered", phaseFetchable, true)
	st.startValidation()
	want("validate", phaseValidating, false)
	st.offset = 42
	st.startReset()
	if st.resetSeen != 42 {
		t.Fatalf("resetSeen %d, want 42", st.resetSeen)
	}
	want("reset", phaseResetting, false)
	st.backoff = now.Add(time.Second)
	if !st.backingOff(now) {
		t.Fatal("a resetting partition in backoff is not backing off")
	}
	st.resetDone()
	want("reset done (backoff)", phaseFetchable, false)
	st.buffer(&chunk{})
	st.stop(ErrNotAssigned)
	want("stop", phaseStopped, false)
	if st.backingOff(now) {
		t.Fatal("a stopped partition is backing off")
	}
	if st.delivered() == nil {
		t.Fatal("a stopped partition lost its chunk")
	}
	want("stopped after delivery", phaseStopped, false)
	st.answered(req) // a stale answer does not revive it
	want("stale answer", phaseStopped, false)
	st.buffer(&chunk{})
	if ch := st.reposition(7, 100); ch != 0 || st.buf != nil || st.err != nil || st.gen != 7 || st.offset != 100 || st.lastEpoch != -1 {
		t.Fatalf("reposition: chunk %v, state %+v", ch, st)
	}
	want("reposition", phaseFetchable, true)
}
