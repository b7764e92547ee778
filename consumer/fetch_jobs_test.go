package consumer

import (
	"testing"
	"time"
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
