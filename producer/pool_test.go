package producer

import "testing"

func TestSlicePoolGetUpTo(t *testing.T) {
	sp := slicePool[byte]{maxBytes: 1 << 30, elemSize: 1, noClear: true}
	// Nothing pooled: a slice of n's class, as get would return.
	if s := sp.getUpTo(100, 1<<20); cap(s) != 128 || len(s) != 0 {
		t.Fatalf("empty pool: len %d cap %d, want 0 and 128", len(s), cap(s))
	}
	big := make([]byte, 10, 1<<20)
	mid := make([]byte, 0, 1<<12)
	sp.put(mid)
	sp.put(big)
	// The largest pooled slice up to want is taken.
	if s := sp.getUpTo(100, 1<<20); cap(s) != 1<<20 || len(s) != 0 {
		t.Fatalf("got cap %d len %d, want the pooled 1 MiB slice, empty", cap(s), len(s))
	}
	// A pooled slice larger than want's class is left alone.
	sp.put(big)
	if s := sp.getUpTo(100, 1<<13); cap(s) != 1<<12 {
		t.Fatalf("got cap %d, want the pooled 4 KiB slice", cap(s))
	}
	// A pooled slice smaller than n is never returned.
	sp.put(mid)
	if s := sp.getUpTo(1<<13, 1<<14); cap(s) < 1<<13 {
		t.Fatalf("got cap %d < n", cap(s))
	}
	if sp.pooled != 1<<20+1<<12 {
		t.Fatalf("pooled = %d, want %d", sp.pooled, 1<<20+1<<12)
	}
}
