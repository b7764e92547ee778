package consumer

import (
	"testing"
)

// TestFirstFetchAsksWhatItDecodes: before any response told the charge
// per byte, a Fetch asks the broker for its decode budget at the charge of
// 100-byte records (firstChargePerByte), not byte for byte: a response of
// small records that filled the budget's bytes would be half decoded and
// the rest fetched again. Once a response with records came, the asked
// bytes follow its measured charge.
func TestFirstFetchAsksWhatItDecodes(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 10))
	c := newTestConsumer(t, f, Config{MaxBufferedBytes: 4 << 20})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 10), tp0, 0, 10)
	waitFor(t, "a Fetch after the first response", func() bool { return f.fetchedFrom(tp0, 10) })
	f.mu.Lock()
	first, next := f.fetches[0], f.fetches[len(f.fetches)-1]
	f.mu.Unlock()
	if first.maxBytes != 1<<20 {
		t.Fatalf("first Fetch's budget %d, want a quarter of MaxBufferedBytes (%d)", first.maxBytes, 1<<20)
	}
	if want := int32(float64(first.maxBytes) / firstChargePerByte); first.askBytes != want {
		t.Fatalf("first Fetch asks %d bytes for a budget of %d, want %d", first.askBytes, first.maxBytes, want)
	}
	if next.askBytes == first.askBytes {
		t.Fatalf("the Fetch after a response asks %d bytes, as the first: not the measured charge", next.askBytes)
	}
}
