package consumer

import (
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// fetchedFrom reports whether a Fetch listed tp at offset.
func (f *fakeBroker) fetchedFrom(tp gregor.TopicPartition, offset int64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, req := range f.fetches {
		if sp, ok := req.want[tp]; ok && sp.FetchOffset == offset {
			return true
		}
	}
	return false
}

// aheadState returns whether tp has a chunk buffered, one fetched ahead
// behind it, and a held fetch ahead.
func aheadState(c *Consumer, tp gregor.TopicPartition) (buf, ahead, held bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.parts[tp]
	return st.buf != nil, st.ahead != nil, st.noAhead
}

// TestFetchAheadWhileBuffered: the next Fetch for a partition goes out from
// the end of its buffered records while they are still undelivered (one
// fetch ahead, so the round trip overlaps delivery); its answer waits
// behind them, Receive hands the chunks out oldest first, with two chunks
// buffered the partition is not fetched until one is delivered, and at
// the log end (the high watermark) it is not fetched ahead. One batch per
// response (PartitionMaxBytes 1: the fake answers at least one batch).
func TestFetchAheadWhileBuffered(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 10), dataBatch(10, 10), dataBatch(20, 10))
	c := newTestConsumer(t, f, Config{PartitionMaxBytes: 1})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "two chunks buffered, none delivered", func() bool { buf, ahead, _ := aheadState(c, tp0); return buf && ahead })
	if !f.fetchedFrom(tp0, 10) {
		t.Fatal("no Fetch from offset 10")
	}
	c.mu.Lock()
	fetchable := c.parts[tp0].fetchable(time.Now())
	buffered := c.buffered
	c.mu.Unlock()
	if fetchable {
		t.Fatal("fetchable with two chunks buffered")
	}
	if m := c.Metrics(); m.BufferedRecords != 20 || m.BufferedBytes != buffered || m.RecordsDelivered != 0 {
		t.Fatalf("metrics %+v, want 20 records buffered (%d bytes), none delivered", m, buffered)
	}
	wantOffsets(t, receiveN(t, c, 10), tp0, 0, 10)
	if got := c.Assignment()[0].Position; got != AtOffset(10) {
		t.Fatalf("position %v after the first chunk, want 10", got)
	}
	waitFor(t, "the last batch fetched ahead", func() bool { _, ahead, _ := aheadState(c, tp0); return ahead })
	wantOffsets(t, receiveN(t, c, 10), tp0, 10, 20)
	c.mu.Lock()
	st := c.parts[tp0]
	atEnd := st.buf != nil && st.buf.next == 30 && st.hwm == 30 && !st.fetchable(time.Now())
	c.mu.Unlock()
	if !atEnd {
		t.Fatal("the partition is fetched ahead at the log end")
	}
	wantOffsets(t, receiveN(t, c, 10), tp0, 20, 30)
	waitFor(t, "a Fetch from offset 30", func() bool { return f.fetchedFrom(tp0, 30) })
	if m := c.Metrics(); m.BufferedBytes != 0 {
		t.Fatalf("%d bytes buffered after delivering everything", m.BufferedBytes)
	}
}

// TestFetchAheadErrorWaitsForDelivery: an error answering a fetch ahead is
// not acted on while records are buffered: the fetch ahead is held, and
// after delivery the partition is fetched from its delivered position,
// where the error (here gone) is handled as without buffered records.
func TestFetchAheadErrorWaitsForDelivery(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 10), dataBatch(10, 5))
	injected := false // guarded by f.mu, which onFetch runs with
	f.onFetch = func(req *fetchReq) {
		if sp, ok := req.want[tp0]; ok && sp.FetchOffset == 10 && !injected {
			injected = true // the fetch ahead: answered with an error
			f.partErr[tp0] = []error{wire.ErrOffsetOutOfRange}
		}
	}
	c := newTestConsumer(t, f, Config{PartitionMaxBytes: 1})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the fetch ahead held", func() bool { _, _, held := aheadState(c, tp0); return held })
	if m := c.Metrics(); m.OffsetResets != 0 || m.BufferedRecords != 10 {
		t.Fatalf("metrics %+v: want 10 records buffered, no offset reset", m)
	}
	wantOffsets(t, receiveN(t, c, 10), tp0, 0, 10)
	wantOffsets(t, receiveN(t, c, 5), tp0, 10, 15)
	if m := c.Metrics(); m.OffsetResets != 0 {
		t.Fatalf("%d offset resets", m.OffsetResets)
	}
}

// TestFetchAheadStopsAtLastStable: under read_committed a partition whose
// buffered records end at the last stable offset is not fetched ahead,
// although the high watermark is beyond it (an open transaction): such a
// Fetch would wait at the broker for MaxWait, holding the leader's one
// Fetch in flight. Under read_uncommitted the records up to the high
// watermark may be read, so it is.
func TestFetchAheadStopsAtLastStable(t *testing.T) {
	for _, tc := range []struct {
		readCommitted, want bool
	}{{true, false}, {false, true}} {
		st := &partState{phase: phaseFetchable, hwm: 30, lso: 20, readCommitted: tc.readCommitted, buf: &chunk{next: 20}}
		if got := st.fetchable(time.Now()); got != tc.want {
			t.Errorf("readCommitted %v, buffered up to 20, LSO 20, HWM 30: fetchable %v, want %v", tc.readCommitted, got, tc.want)
		}
	}
}
