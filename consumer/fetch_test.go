package consumer

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

func TestReadCommittedThroughFetch(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0,
		txnBatch(0, 2, 7), marker(2, 7, wire.ControlCommit),
		txnBatch(3, 2, 7), marker(5, 7, wire.ControlAbort),
		dataBatch(6, 1))
	c := newTestConsumer(t, &abortedFake{f, []abortedTxn{{7, 3}}}, Config{Isolation: ReadCommitted})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	rs := receiveN(t, c, 3)
	if got := offsetsOf(rs); got[0] != 0 || got[1] != 1 || got[2] != 6 {
		t.Fatalf("offsets %v, want [0 1 6]", got)
	}
	waitFor(t, "position past the log", func() bool { return c.Assignment()[0].Position == AtOffset(7) })
}

// abortedFake adds an aborted-transactions list to every fetched partition.
type abortedFake struct {
	*fakeBroker
	aborted []abortedTxn
}

func (a *abortedFake) fetch(ctx context.Context, req *fetchReq) (*fetchResp, error) {
	r, err := a.fakeBroker.fetch(ctx, req)
	if r != nil {
		for i := range r.Parts {
			r.Parts[i].Aborted = a.aborted
		}
	}
	return r, err
}

func TestControlOnlyResponsesAdvance(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, txnBatch(0, 2, 7), marker(2, 7, wire.ControlAbort), tBatch{base: 3, lastDelta: 3, pid: -1})
	c := newTestConsumer(t, &abortedFake{f, []abortedTxn{{7, 0}}}, Config{Isolation: ReadCommitted})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "position past aborted, marker and empty batch", func() bool {
		return c.Assignment()[0].Position == AtOffset(7)
	})
	n := f.fetchCount()
	f.append(tp0, dataBatch(7, 1))
	wantOffsets(t, receiveN(t, c, 1), tp0, 7, 8)
	if f.fetchCount() < n {
		t.Fatal("fetch count went backwards")
	}
}

func TestBufferBoundPausesFetching(t *testing.T) {
	f := newFakeBroker(t)
	for _, tp := range []gregor.TopicPartition{tp0, tp1, tp2} {
		f.append(tp, dataBatch(0, 50))
	}
	const bound = 100
	c := newTestConsumer(t, f, Config{MaxBufferedBytes: bound})
	violations := 0
	f.onFetch = func(req *fetchReq) {
		// Runs with f.mu held, never c.mu: read the consumer's gauges.
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.buffered >= bound {
			violations++
		}
		if int64(req.maxBytes) > bound {
			violations++
		}
	}
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}, {tp1, AtBeginning()}, {tp2, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "buffer full", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.buffered >= bound
	})
	c.mu.Lock()
	buffered := c.buffered
	c.mu.Unlock()
	rs := receiveN(t, c, 150)
	for _, tp := range []gregor.TopicPartition{tp0, tp1, tp2} {
		wantOffsets(t, rs, tp, 0, 50)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if violations > 0 {
		t.Fatalf("%d fetches sent with the buffer full or asking beyond the bound", violations)
	}
	// One chunk of 50 records (a few KiB) may overshoot the bound: KIP-74.
	if buffered > 16<<10 {
		t.Fatalf("buffered %d bytes", buffered)
	}
}

func TestLeaderErrorsRetryWithFreshMetadata(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 4))
	f.partErr[tp0] = []error{wire.ErrNotLeaderOrFollower, wire.ErrFencedLeaderEpoch, wire.ErrUnknownTopicID}
	c := newTestConsumer(t, f, Config{})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 4), tp0, 0, 4)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.invalidations < 3 {
		t.Fatalf("%d metadata invalidations, want >= 3", f.invalidations)
	}
}

func TestNonRetriablePartitionErrorStops(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 4))
	f.partErr[tp0] = []error{wire.ErrTopicAuthorizationFailed}
	c := newTestConsumer(t, f, Config{})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(bg(), 5*time.Second)
	defer cancel()
	_, err := c.Receive(ctx)
	var pe *PartitionError
	if !errors.As(err, &pe) || pe.TopicPartition != tp0 || !errors.Is(err, wire.ErrTopicAuthorizationFailed) {
		t.Fatalf("Receive = %v", err)
	}
}

// TestSessionErrorStartsFullSession: a Fetch answered
// INVALID_FETCH_SESSION_EPOCH is followed by a full Fetch (a new session).
func TestSessionErrorStartsFullSession(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 2))
	// A short MaxWait: the incremental Fetch already parked at the fake
	// when the error is queued must end (empty) before the next one takes
	// the error.
	c := newTestConsumer(t, f, Config{MaxWait: 10 * time.Millisecond})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 2), tp0, 0, 2)
	f.mu.Lock()
	f.topErr = []error{wire.ErrInvalidFetchSessionEpoch}
	f.mu.Unlock()
	// Appending now would wake the parked Fetch with the records and the
	// error would never be answered: append once a Fetch has taken it.
	waitFor(t, "a Fetch answered with the session error", func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		return len(f.topErr) == 0
	})
	f.append(tp0, dataBatch(2, 2))
	wantOffsets(t, receiveN(t, c, 2), tp0, 2, 4)
	f.mu.Lock()
	defer f.mu.Unlock()
	full, incremental := 0, 0
	for _, r := range f.fetches {
		if r.plan.Full {
			full++
		} else {
			incremental++
		}
	}
	if full < 2 || incremental < 1 {
		t.Fatalf("%d full and %d incremental fetches; want a new full session after the error", full, incremental)
	}
}

// flakyTransport fails the first n fetches with a transport error.
type flakyTransport struct {
	*fakeBroker
	fail int
}

func (f *flakyTransport) fetch(ctx context.Context, req *fetchReq) (*fetchResp, error) {
	f.mu.Lock()
	fail := f.fail > 0
	if fail {
		f.fail--
	}
	f.mu.Unlock()
	if fail {
		return nil, &client.RequestError{Broker: req.node, API: "Fetch", Certainty: client.PossiblySent, Err: client.ErrTransport}
	}
	return f.fakeBroker.fetch(ctx, req)
}

func TestTransportErrorsRetryAndMetrics(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 3))
	c := newTestConsumer(t, &flakyTransport{f, 2}, Config{})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 3), tp0, 0, 3)
	m := c.Metrics()
	if m.FetchFailures != 2 || m.FetchRequests < 3 || m.FullFetches < 3 || m.RecordsDelivered != 3 || m.AssignedPartitions != 1 {
		t.Fatalf("metrics %+v", m)
	}
	if m.BufferedBytes != 0 || m.BufferedRecords != 0 {
		t.Fatalf("buffer gauges %+v after delivering everything", m)
	}
}

// corruptingFake flips a byte in the last batch of every non-empty
// partition it returns.
type corruptingFake struct{ *fakeBroker }

func (f corruptingFake) fetch(ctx context.Context, req *fetchReq) (*fetchResp, error) {
	r, err := f.fakeBroker.fetch(ctx, req)
	if r != nil {
		for i := range r.Parts {
			if raw := r.Parts[i].Records; len(raw) > 0 {
				raw[len(raw)-1] ^= 0xff
			}
		}
	}
	return r, err
}

func TestCorruptBatchStopsAfterGoodRecords(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 3), dataBatch(3, 2))
	c := newTestConsumer(t, corruptingFake{f}, Config{})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(bg(), 5*time.Second)
	defer cancel()
	_, err := c.Receive(ctx)
	var pe *PartitionError
	if !errors.As(err, &pe) || !errors.Is(err, wire.ErrCorruptMessage) {
		t.Fatalf("Receive = %v, want a corrupt-message PartitionError", err)
	}
	wantOffsets(t, receiveN(t, c, 3), tp0, 0, 3)
	expectNothing(t, c, 100*time.Millisecond)
	if pos := c.Assignment()[0].Position; pos != AtOffset(3) {
		t.Fatalf("position %v, want 3 (the corrupt batch)", pos)
	}
}

// TestBufferBoundCountsDecompressedBytes: highly compressible batches fit
// many per Fetch (max_bytes counts compressed bytes), yet the buffer holds
// at most one batch beyond the bound; the rest is fetched later.
func TestBufferBoundCountsDecompressedBytes(t *testing.T) {
	f := newFakeBroker(t)
	zeros := make([]byte, 1000)
	for i := range 10 {
		bt := tBatch{base: int64(i * 100), lastDelta: 99, pid: -1, codec: wire.CompressionLZ4}
		for j := range 100 {
			bt.recs = append(bt.recs, tRec{delta: int32(j), value: zeros})
		}
		f.append(tp0, bt)
	}
	const bound = 4 << 10
	c := newTestConsumer(t, f, Config{MaxBufferedBytes: bound})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "data buffered", func() bool { return c.Metrics().BufferedRecords > 0 })
	m := c.Metrics()
	if m.BufferedRecords != 100 || m.BufferedBytes > bound+110_000+100*recordSize {
		t.Fatalf("buffered %d records, %d bytes; want one batch of 100", m.BufferedRecords, m.BufferedBytes)
	}
	rs := receiveN(t, c, 1000)
	wantOffsets(t, rs, tp0, 0, 1000)
}

// throttlingFake reports a quota throttle on every response.
type throttlingFake struct {
	*fakeBroker
	ms int32
}

func (f throttlingFake) fetch(ctx context.Context, req *fetchReq) (*fetchResp, error) {
	r, err := f.fakeBroker.fetch(ctx, req)
	if r != nil {
		r.ThrottleMs = f.ms
	}
	return r, err
}

// TestThrottleHonored: after a response with throttle_time_ms, the next
// Fetch to that broker waits at least that long (KIP-219).
func TestThrottleHonored(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 1))
	var sent []time.Time
	f.onFetch = func(*fetchReq) { sent = append(sent, time.Now()) }
	c := newTestConsumer(t, throttlingFake{f, 300}, Config{})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 1), tp0, 0, 1)
	f.append(tp0, dataBatch(1, 1))
	wantOffsets(t, receiveN(t, c, 1), tp0, 1, 2)
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(sent) < 2 {
		t.Fatalf("%d fetches", len(sent))
	}
	for i := 1; i < len(sent); i++ {
		if gap := sent[i].Sub(sent[i-1]); gap < 300*time.Millisecond {
			t.Fatalf("fetch %d sent %v after the previous throttled one", i, gap)
		}
	}
}

// TestPausedPartitionNotFetched: once paused, a partition leaves the fetch
// session (forgotten) and no Fetch lists it until Resume.
func TestPausedPartitionNotFetched(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 1))
	f.append(tp1, dataBatch(0, 1))
	c := newTestConsumer(t, f, Config{MaxWait: 20 * time.Millisecond})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}, {tp1, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	receiveN(t, c, 2)
	if err := c.Pause(tp0); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	mark := len(f.fetches)
	f.mu.Unlock()
	// Two more Fetches must go out (tp1 is fetched on) without tp0.
	waitFor(t, "fetches after the pause", func() bool { return f.fetchCount() >= mark+3 })
	f.mu.Lock()
	for _, r := range f.fetches[mark+1:] {
		if _, ok := r.want[tp0]; ok {
			f.mu.Unlock()
			t.Fatalf("paused %s listed in a Fetch: %+v", tp0, r.plan)
		}
	}
	f.mu.Unlock()
	f.append(tp0, dataBatch(1, 1))
	expectNothing(t, c, 100*time.Millisecond)
	if err := c.Resume(tp0); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 1), tp0, 1, 2)
}

// TestBufferBoundCountsRecordMemory: the bound holds for the memory a
// buffered response really takes, not only for its bytes: the Record
// values (recordSize each) are charged, and the block's records slice and
// decompression arena are sized to what the bound admits, however well the
// data compresses (here ~200:1, so the broker's max_bytes lets a response
// carry ~20 MiB decompressed). (Before, the first block reserved 23 MB
// for a 2 MiB bound.)
func TestBufferBoundCountsRecordMemory(t *testing.T) {
	f := newFakeBroker(t)
	zeros := make([]byte, 1000)
	const batches, per = 40, 500
	for i := range batches {
		bt := tBatch{base: int64(i * per), lastDelta: per - 1, pid: -1, codec: wire.CompressionLZ4}
		for j := range per {
			bt.recs = append(bt.recs, tRec{delta: int32(j), value: zeros})
		}
		f.append(tp0, bt)
	}
	const bound = 2 << 20
	// One batch: its decompressed bytes and its Record values.
	const batchMem = per*(1000+20) + per*recordSize
	c := newTestConsumer(t, f, Config{MaxBufferedBytes: bound})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	for got := 0; got < batches*per; {
		waitFor(t, "data buffered", func() bool { return c.Metrics().BufferedRecords > 0 })
		c.mu.Lock()
		ch := c.parts[tp0].buf
		var mem, slots int64
		if ch != nil && ch.blk != nil {
			mem = int64(cap(ch.blk.recs))*recordSize + int64(cap(ch.blk.arena))
		}
		for _, b := range [2]*chunk{ch, c.parts[tp0].ahead} { // and the one fetched ahead
			if b != nil {
				slots += b.slots
			}
		}
		c.mu.Unlock()
		if m := c.Metrics(); m.BufferedBytes > bound+batchMem || slots != int64(m.BufferedRecords)*recordSize {
			t.Fatalf("buffered %d bytes (%d of Record values) for %d records; want at most %d, recordSize each", m.BufferedBytes, slots, m.BufferedRecords, bound+batchMem)
		}
		// The first response is sized before any ratio is known: its
		// records slice for the worst case (bound/recordSize records).
		limit := int64(bound + batchMem + 64<<10)
		if got == 0 {
			limit += bound
		}
		if mem > limit {
			t.Fatalf("the buffered block reserves %d bytes (records slice and arena), bound %d", mem, bound)
		}
		rs, err := c.Receive(bg())
		if err != nil {
			t.Fatal(err)
		}
		wantOffsets(t, rs, tp0, int64(got), int64(got+len(rs)))
		got += len(rs)
		c.Recycle(rs)
	}
}
