package consumer

import (
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
)

// waitHeld waits until the fake holds a request of api.
func waitHeld(t *testing.T, f *fakeBroker, api string) {
	t.Helper()
	select {
	case got := <-f.held:
		if got != api {
			t.Fatalf("held %s, want %s", got, api)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("no %s request was sent", api)
	}
}

// TestResetDoesNotHoldOtherPartitions: while one partition's reset waits
// for its ListOffsets answer (held by the broker), another partition's
// records are still fetched and delivered; the reset then completes. The
// fetch loop once ran resets synchronously before any Fetch (bounded by a
// hard-coded 30s), holding every partition's data meanwhile.
func TestResetDoesNotHoldOtherPartitions(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 10))
	f.setStart(tp0, 6) // offset 2 is out of range: reset to 6
	f.append(tp1)      // empty for now
	release := f.hold("ListOffsets")
	defer release()
	c := newTestConsumer(t, f, Config{})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtOffset(2)}, {tp1, AtOffset(0)}}); err != nil {
		t.Fatal(err)
	}
	waitHeld(t, f, "ListOffsets")
	f.append(tp1, dataBatch(0, 3))
	wantOffsets(t, receiveN(t, c, 3), tp1, 0, 3)
	release()
	wantOffsets(t, receiveN(t, c, 4), tp0, 6, 10)
	if m := c.Metrics(); m.OffsetResets != 1 {
		t.Fatalf("OffsetResets = %d, want 1", m.OffsetResets)
	}
}

// TestValidationDoesNotHoldOtherPartitions: while one partition's position
// is validated after a leader change (KIP-320) and its
// OffsetForLeaderEpoch is held by the new leader, another partition's
// records are still delivered; the validation then completes.
func TestValidationDoesNotHoldOtherPartitions(t *testing.T) {
	f := newFakeBroker(t)
	b := dataBatch(0, 4)
	b.epoch = 5
	f.append(tp0, b)
	f.append(tp1)
	c := newTestConsumer(t, f, Config{})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}, {tp1, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 4), tp0, 0, 4)
	release := f.hold("OffsetForLeaderEpoch")
	defer release()
	f.mu.Lock()
	f.epochs[tp0] = 6 // leader change of tp0 only
	f.mu.Unlock()
	nb := dataBatch(4, 2)
	nb.epoch = 6
	f.append(tp0, nb) // wakes tp0's waiting Fetch: fenced, then validated
	waitHeld(t, f, "OffsetForLeaderEpoch")
	f.append(tp1, dataBatch(0, 3))
	wantOffsets(t, receiveN(t, c, 3), tp1, 0, 3)
	release()
	wantOffsets(t, receiveN(t, c, 2), tp0, 4, 6)
	if m := c.Metrics(); m.Validations != 1 {
		t.Fatalf("Validations = %d, want 1", m.Validations)
	}
}

// TestJobBoundFromConfig: a reset whose ListOffsets never answers ends at
// RequestTimeout and is tried again (the hold sees a second request).
func TestJobBoundFromConfig(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 10))
	f.setStart(tp0, 6)
	release := f.hold("ListOffsets")
	defer release()
	c := newTestConsumer(t, f, Config{RequestTimeout: 100 * time.Millisecond})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtOffset(2)}}); err != nil {
		t.Fatal(err)
	}
	waitHeld(t, f, "ListOffsets")
	waitHeld(t, f, "ListOffsets") // the first ended at RequestTimeout
	release()
	wantOffsets(t, receiveN(t, c, 4), tp0, 6, 10)
}

// TestMovedPartitionsDoNotWaitForHeldFetch: a partition added, resumed or
// sought while its broker holds the session's Fetch (MaxWait 5s, nothing to
// answer) is fetched at once in a sessionless Fetch, and the session stays
// consistent (the fake checks it on every request).
func TestMovedPartitionsDoNotWaitForHeldFetch(t *testing.T) {
	const maxWait = 5 * time.Second
	for _, how := range []string{"add", "resume", "seek"} {
		t.Run(how, func(t *testing.T) {
			f := newFakeBroker(t)
			f.append(tp0) // idle: the session's Fetch waits MaxWait
			f.append(tp1, dataBatch(0, 3))
			c := newTestConsumer(t, f, Config{MaxWait: maxWait})
			first := []PartitionPosition{{tp0, AtOffset(0)}}
			if how != "add" {
				first = append(first, PartitionPosition{tp1, AtOffset(3)})
			}
			if err := c.Assign(bg(), first); err != nil {
				t.Fatal(err)
			}
			if how == "resume" {
				if err := c.Pause(tp1); err != nil {
					t.Fatal(err)
				}
				if err := c.Seek(bg(), tp1, AtOffset(0)); err != nil {
					t.Fatal(err)
				}
			}
			waitFor(t, "the session's Fetch in flight", func() bool {
				m := c.Metrics()
				return m.FetchRequests >= 1 && m.FetchesInFlight == 1
			})
			t0 := time.Now()
			var err error
			switch how {
			case "add":
				err = c.Add(bg(), []PartitionPosition{{tp1, AtOffset(0)}})
			case "resume":
				err = c.Resume(tp1)
			case "seek":
				err = c.Seek(bg(), tp1, AtOffset(0))
			}
			if err != nil {
				t.Fatal(err)
			}
			wantOffsets(t, receiveN(t, c, 3), tp1, 0, 3)
			if d := time.Since(t0); d >= maxWait/2 {
				t.Fatalf("records came %v after the %s, want < %v", d, how, maxWait/2)
			}
			f.mu.Lock()
			n := f.sessionless
			f.mu.Unlock()
			if n == 0 {
				t.Fatal("no sessionless Fetch")
			}
		})
	}
}

// TestValidPositionsSkipResetting: a partition waiting for its reset has
// no valid position (as after a topic recreation, where it is still the
// old topic's): the group must not commit it. Once the reset is applied,
// its new position is valid.
func TestValidPositionsSkipResetting(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 10))
	f.setStart(tp0, 6)
	f.append(tp1, dataBatch(0, 3))
	release := f.hold("ListOffsets")
	defer release()
	c := newTestConsumer(t, f, Config{})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtOffset(2)}, {tp1, AtOffset(0)}}); err != nil {
		t.Fatal(err)
	}
	waitHeld(t, f, "ListOffsets")
	want := map[gregor.TopicPartition]bool{tp0: true, tp1: true}
	if got := c.validPositions(want); len(got) != 1 || got[tp1] != 0 {
		t.Fatalf("valid positions %v while tp0 resets, want only %v at 0", got, tp1)
	}
	release()
	wantOffsets(t, receiveN(t, c, 7), tp0, 6, 10)
	if got := c.validPositions(want); got[tp0] != 10 {
		t.Fatalf("valid positions %v after the reset, want %v at 10", got, tp0)
	}
}
