package consumer

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
)

var (
	tp0 = gregor.TopicPartition{Topic: "t", Partition: 0}
	tp1 = gregor.TopicPartition{Topic: "t", Partition: 1}
	tp2 = gregor.TopicPartition{Topic: "u", Partition: 0}
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
	if string(rs[0].Value) != "v4" || rs[0].Timestamp.UnixMilli() != 1_700_000_000_000 {
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
	if err := c.Remove(bg(), []gregor.TopicPartition{tp0}); err != nil {
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
	if err := c.Close(context.Background()); err != nil {
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
		{{gregor.TopicPartition{Topic: "", Partition: 0}, AtBeginning()}},
		{{gregor.TopicPartition{Topic: "t", Partition: -1}, AtBeginning()}},
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

// waitForBound is how long waitFor waits: long, since it only bounds a
// wait that ends as soon as the condition holds, and a loaded machine
// running -race can take seconds to decode a large batch (5 s made
// TestBufferBoundCountsRecordMemory fail at load 60).
const waitForBound = 30 * time.Second

// waitFor polls cond until true or fails after waitForBound.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitForBound)
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
		c.Close(context.Background())
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

// TestCloseEndsFetchSessions: Close asks each broker to drop the fetch
// session the consumer holds with it (KIP-227 final epoch), also when an
// incremental Fetch of that session was in flight.
func TestCloseEndsFetchSessions(t *testing.T) {
	f := newFakeBroker(t)
	tpB := gregor.TopicPartition{Topic: "t", Partition: 9}
	f.append(tp0, dataBatch(0, 3))
	f.append(tpB, dataBatch(0, 2))
	f.leaders[tpB] = 2
	c, err := newConsumer(f, f, Config{MaxWait: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}, {tpB, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	receiveN(t, c, 5)
	var open [][2]int32
	// The broker, not only the consumer (which counts a Fetch in flight
	// once planned), must have seen an incremental Fetch from both.
	waitFor(t, "incremental fetches in flight to both brokers", func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		open = open[:0]
		for _, r := range f.fetches {
			if !r.plan.Full && !slices.Contains(open, [2]int32{r.node, r.plan.SessionID}) {
				open = append(open, [2]int32{r.node, r.plan.SessionID})
			}
		}
		return len(f.sessions) == 2 && len(open) == 2 && c.Metrics().FetchesInFlight == 2
	})
	c.Close(context.Background())
	slices.SortFunc(open, func(a, b [2]int32) int { return int(a[0] - b[0]) })
	slices.SortFunc(f.closed, func(a, b [2]int32) int { return int(a[0] - b[0]) })
	if len(open) != 2 || !slices.Equal(f.closed, open) {
		t.Fatalf("closed sessions %v, want the sessions in use %v", f.closed, open)
	}
	if len(f.sessions) != 0 {
		t.Fatalf("broker still holds sessions %v", f.sessions)
	}
}
