package wire

import (
	"testing"
	"time"
)

func TestTimestampMillis(t *testing.T) {
	if got := TimeOfMillis(-1); !got.IsZero() {
		t.Fatalf("TimeOfMillis(-1) = %v, want the zero time", got)
	}
	if got := MillisOf(time.Time{}); got != -1 {
		t.Fatalf("MillisOf(zero) = %d, want -1", got)
	}
	for _, ms := range []int64{0, 1, 1764547200123} {
		if got := MillisOf(TimeOfMillis(ms)); got != ms {
			t.Fatalf("round trip of %d gave %d", ms, got)
		}
	}
}
