package consumer

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

var (
	tp0 = TopicPartition{"t", 0}
	tp1 = TopicPartition{"t", 1}
	tp2 = TopicPartition{"u", 0}
)

func bg() context.Context { return context.Background() }

func TestAssignBeginningEndExact(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 5), dataBatch(5, 5))
	f.append(tp1, dataBatch(0, 4))
	f.append(tp2, dataBatch(0, 3))
	c := newTestConsumer(t, f, Config{})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}, {tp1, AtEnd()}, {tp2, AtOffset(1)}}); err != nil {
		t.Fatal(err)
	}
	// Positions are exact when Assign returns.
	got := c.Assignment()
	want := []int64{0, 4, 1}
	for i, p := range got {
		if p.Position != AtOffset(want[i]) {
			t.Fatalf("position %d: %v, want offset %d", i, p.Position, want[i])
		}
	}
	rs := receiveN(t, c, 12)
	wantOffsets(t, rs, tp0, 0, 10)
	wantOffsets(t, rs, tp2, 1, 3)
	// End means records written after Assign arrive, and only those.
	f.append(tp1, dataBatch(4, 2))
	rs = receiveN(t, c, 2)
	wantOffsets(t, rs, tp1, 4, 6)
	if string(rs[0].Value) != "v4" || rs[0].Timestamp != 1_700_000_000_000 {
		t.Fatalf("record %+v", rs[0])
	}
}

func TestSeekPauseResumeRemoveAdd(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 10))
	f.append(tp1, dataBatch(0, 10))
	c := newTestConsumer(t, f, Config{})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtOffset(2)}}); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 8), tp0, 2, 10)

	// Seek into the middle of a batch: nothing below the position.
	if err := c.Seek(bg(), tp0, AtOffset(7)); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 3), tp0, 7, 10)

	// Pause: buffered data for tp0 is withheld; new records are not fetched.
	if err := c.Pause(tp0); err != nil {
		t.Fatal(err)
	}
	f.append(tp0, dataBatch(10, 3))
	expectNothing(t, c, 200*time.Millisecond)
	if err := c.Resume(tp0); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 3), tp0, 10, 13)

	// Add tp1 from 5: tp0 survives at its position (13).
	if err := c.Add(bg(), []PartitionPosition{{tp1, AtOffset(5)}}); err != nil {
		t.Fatal(err)
	}
	f.append(tp0, dataBatch(13, 1))
	rs := receiveN(t, c, 6)
	wantOffsets(t, rs, tp1, 5, 10)
	wantOffsets(t, rs, tp0, 13, 14)

	// Remove tp0: its new records never arrive; tp1's do.
	if err := c.Remove(bg(), []TopicPartition{tp0}); err != nil {
		t.Fatal(err)
	}
	f.append(tp0, dataBatch(14, 5))
	f.append(tp1, dataBatch(10, 2))
	rs = receiveN(t, c, 2)
	wantOffsets(t, rs, tp1, 10, 12)
	if err := c.Pause(tp0); !errors.Is(err, ErrNotAssigned) {
		t.Fatalf("Pause(removed) = %v", err)
	}
	if err := c.Seek(bg(), tp0, AtBeginning()); !errors.Is(err, ErrNotAssigned) {
		t.Fatalf("Seek(removed) = %v", err)
	}

	// Replace: only the new set, at the new positions.
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtOffset(16)}}); err != nil {
		t.Fatal(err)
	}
	f.append(tp1, dataBatch(12, 2))
	rs = receiveN(t, c, 3)
	wantOffsets(t, rs, tp0, 16, 19)
}

func TestPauseWithholdsBufferedData(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 3))
	c := newTestConsumer(t, f, Config{})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "data buffered", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.parts[tp0].buf != nil
	})
	if err := c.Pause(tp0); err != nil {
		t.Fatal(err)
	}
	expectNothing(t, c, 100*time.Millisecond)
	if err := c.Resume(tp0); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 3), tp0, 0, 3)
}

func TestCloseWakesReceive(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 1))
	c := newTestConsumer(t, f, Config{})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtEnd()}}); err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := c.Receive(bg())
		errc <- err
	}()
	// Let the receiver block (it may also run after Close: same result).
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if !errors.Is(err, client.ErrClosed) {
			t.Fatalf("Receive = %v, want ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Receive still waiting after Close")
	}
	if _, err := c.Receive(bg()); !errors.Is(err, client.ErrClosed) {
		t.Fatalf("Receive after Close = %v", err)
	}
	if err := c.Assign(bg(), nil); !errors.Is(err, client.ErrClosed) {
		t.Fatalf("Assign after Close = %v", err)
	}
}

func TestOutOfRangeResetNone(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 10))
	c := newTestConsumer(t, f, Config{OffsetReset: ResetNone})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtOffset(3)}}); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 7), tp0, 3, 10)
	f.setStart(tp0, 10)
	if err := c.Seek(bg(), tp0, AtOffset(4)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(bg(), 5*time.Second)
	defer cancel()
	_, err := c.Receive(ctx)
	var oor *OffsetOutOfRangeError
	if !errors.As(err, &oor) || !errors.Is(err, wire.ErrOffsetOutOfRange) {
		t.Fatalf("Receive = %v, want *OffsetOutOfRangeError", err)
	}
	if oor.TopicPartition != tp0 || oor.Offset != 4 || oor.LogStartOffset != 10 || oor.LogEndOffset != 10 {
		t.Fatalf("error %+v", oor)
	}
	// Reported once; the partition stays stopped until a seek.
	f.append(tp0, dataBatch(10, 2))
	expectNothing(t, c, 150*time.Millisecond)
	if err := c.Seek(bg(), tp0, AtBeginning()); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 2), tp0, 10, 12)
}

func TestOutOfRangeResetEarliestAndLatest(t *testing.T) {
	for _, policy := range []ResetPolicy{ResetEarliest, ResetLatest} {
		t.Run(policy.String(), func(t *testing.T) {
			f := newFakeBroker(t)
			f.append(tp0, dataBatch(0, 10))
			f.setStart(tp0, 6)
			c := newTestConsumer(t, f, Config{OffsetReset: policy})
			if err := c.Assign(bg(), []PartitionPosition{{tp0, AtOffset(2)}}); err != nil {
				t.Fatal(err)
			}
			if policy == ResetEarliest {
				wantOffsets(t, receiveN(t, c, 4), tp0, 6, 10)
				return
			}
			waitFor(t, "reset to the end", func() bool {
				return c.Assignment()[0].Position == AtOffset(10)
			})
			f.append(tp0, dataBatch(10, 1))
			wantOffsets(t, receiveN(t, c, 1), tp0, 10, 11)
		})
	}
}

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
	for _, tp := range []TopicPartition{tp0, tp1, tp2} {
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
	for _, tp := range []TopicPartition{tp0, tp1, tp2} {
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

func TestSessionErrorStartsFullSession(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 2))
	c := newTestConsumer(t, f, Config{})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 2), tp0, 0, 2)
	f.mu.Lock()
	f.topErr = []error{wire.ErrInvalidFetchSessionEpoch}
	f.mu.Unlock()
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

func TestTruncationDetected(t *testing.T) {
	for _, policy := range []ResetPolicy{ResetNone, ResetEarliest} {
		t.Run(policy.String(), func(t *testing.T) {
			f := newFakeBroker(t)
			f.append(tp0, dataBatch(0, 10))
			c := newTestConsumer(t, f, Config{OffsetReset: policy})
			if err := c.Assign(bg(), []PartitionPosition{{tp0, AtOffset(8)}}); err != nil {
				t.Fatal(err)
			}
			wantOffsets(t, receiveN(t, c, 2), tp0, 8, 10)
			f.mu.Lock()
			f.diverge[tp0] = &divergingEpoch{Epoch: 3, EndOffset: 6}
			f.mu.Unlock()
			f.append(tp0, dataBatch(10, 1))
			if policy == ResetNone {
				ctx, cancel := context.WithTimeout(bg(), 5*time.Second)
				defer cancel()
				_, err := c.Receive(ctx)
				var te *LogTruncationError
				if !errors.As(err, &te) || te.TruncatedAt != 6 || te.Offset != 10 {
					t.Fatalf("Receive = %v, want *LogTruncationError at 6", err)
				}
				return
			}
			// With a reset policy the position moves back to the divergence.
			wantOffsets(t, receiveN(t, c, 5), tp0, 6, 11)
		})
	}
}

func TestReceiveDeadline(t *testing.T) {
	f := newFakeBroker(t)
	c := newTestConsumer(t, f, Config{})
	expectNothing(t, c, 20*time.Millisecond)
	ctx, cancel := context.WithCancel(bg())
	cancel()
	if _, err := c.Receive(ctx); !errors.Is(err, client.ErrCancelled) || !errors.Is(err, context.Canceled) {
		t.Fatalf("Receive(cancelled) = %v", err)
	}
}

func TestAssignValidation(t *testing.T) {
	f := newFakeBroker(t)
	c := newTestConsumer(t, f, Config{})
	for _, ps := range [][]PartitionPosition{
		{{TopicPartition{"", 0}, AtBeginning()}},
		{{TopicPartition{"t", -1}, AtBeginning()}},
		{{tp0, AtOffset(-1)}},
		{{tp0, Position{}}},
		{{tp0, AtBeginning()}, {tp0, AtEnd()}},
	} {
		if err := c.Assign(bg(), ps); err == nil {
			t.Fatalf("Assign(%v) accepted", ps)
		}
	}
	// Unknown partition: resolution fails within ctx, assignment unchanged.
	ctx, cancel := context.WithTimeout(bg(), 300*time.Millisecond)
	defer cancel()
	if err := c.Assign(ctx, []PartitionPosition{{tp0, AtBeginning()}}); err == nil {
		t.Fatal("Assign of an unknown partition succeeded")
	}
	if len(c.Assignment()) != 0 {
		t.Fatalf("assignment %v after a failed Assign", c.Assignment())
	}
	if _, err := New(nil, Config{}); err == nil {
		t.Fatal("New(nil) accepted")
	}
	if _, err := newConsumer(f, f, Config{MaxWait: time.Nanosecond}); err == nil {
		t.Fatal("MaxWait 1ns accepted")
	}
}

// waitFor polls cond until true or fails after 5s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		<-tick.C
	}
}

// TestSeekDuringFetchInFlight: a seek while a Fetch for the old position
// waits at the broker drops that Fetch's result and fetches from the new
// position.
func TestSeekDuringFetchInFlight(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 5))
	c := newTestConsumer(t, f, Config{MaxWait: 2 * time.Second})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 5), tp0, 0, 5)
	waitFor(t, "a fetch from 5 in flight", func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		n := len(f.fetches)
		return n > 0 && f.fetches[n-1].want[tp0].FetchOffset == 5
	})
	if err := c.Seek(bg(), tp0, AtOffset(2)); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 3), tp0, 2, 5)
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
	if m.BufferedRecords != 100 || m.BufferedBytes > bound+110_000 {
		t.Fatalf("buffered %d records, %d bytes; want one batch of 100", m.BufferedRecords, m.BufferedBytes)
	}
	rs := receiveN(t, c, 1000)
	wantOffsets(t, rs, tp0, 0, 1000)
}

// TestCloseCancelsFetchInFlight: Close does not wait for a Fetch parked at
// the broker (MaxWait); it cancels it and returns with every goroutine of
// the consumer ended.
func TestCloseCancelsFetchInFlight(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 1))
	c, err := newConsumer(f, f, Config{MaxWait: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtEnd()}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a fetch in flight", func() bool { return c.Metrics().FetchesInFlight == 1 })
	done := make(chan struct{})
	go func() {
		c.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close waited for the parked Fetch")
	}
	if m := c.Metrics(); m.FetchesInFlight != 0 || m.AssignedPartitions != 0 {
		t.Fatalf("after Close: %+v", m)
	}
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

// TestValidateAfterLeaderChange: when metadata names a new leader epoch,
// the position is checked with OffsetForLeaderEpoch before fetching on
// (KIP-320): no truncation → reading continues; the last consumed epoch
// ending below the position → LogTruncationError under ResetNone, or the
// position moves back to the epoch's end.
func TestValidateAfterLeaderChange(t *testing.T) {
	for _, tc := range []struct {
		name      string
		policy    ResetPolicy
		truncated bool
	}{{"clean", ResetNone, false}, {"truncated-none", ResetNone, true}, {"truncated-earliest", ResetEarliest, true}} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeBroker(t)
			b := dataBatch(0, 10)
			b.epoch = 5
			f.append(tp0, b)
			c := newTestConsumer(t, f, Config{OffsetReset: tc.policy})
			if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
				t.Fatal(err)
			}
			wantOffsets(t, receiveN(t, c, 10), tp0, 0, 10)
			f.mu.Lock()
			f.epochs[tp0] = 6 // leader change
			if tc.truncated {
				f.epochEnds[tp0] = epochResp{LeaderEpoch: 5, EndOffset: 7}
			}
			f.mu.Unlock()
			nb := dataBatch(10, 2)
			nb.epoch = 6
			f.append(tp0, nb)
			switch {
			case !tc.truncated:
				wantOffsets(t, receiveN(t, c, 2), tp0, 10, 12)
			case tc.policy == ResetNone:
				ctx, cancel := context.WithTimeout(bg(), 5*time.Second)
				defer cancel()
				_, err := c.Receive(ctx)
				var te *LogTruncationError
				if !errors.As(err, &te) || te.TruncatedAt != 7 || te.Offset != 10 || te.LeaderEpoch != 5 {
					t.Fatalf("Receive = %v, want *LogTruncationError at 7", err)
				}
			default:
				wantOffsets(t, receiveN(t, c, 5), tp0, 7, 12)
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			if f.validations == 0 {
				t.Fatal("no OffsetForLeaderEpoch was sent after the leader change")
			}
		})
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
