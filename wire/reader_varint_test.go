package wire

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"
)

// TestVarlongMatchesBinary: Varlong (with its one- and two-byte fast
// paths) reads every encoding binary.Varint does, including non-minimal
// ones, and fails a truncated one with ErrTruncated.
func TestVarlongMatchesBinary(t *testing.T) {
	vals := []int64{0, 1, -1, 63, -64, 64, -65, 100, 200, 8191, -8192, 8192, -8193, 1 << 20, -(1 << 40), math.MaxInt64, math.MinInt64}
	for v := int64(-20000); v <= 20000; v += 7 {
		vals = append(vals, v)
	}
	for _, v := range vals {
		buf := binary.AppendVarint(nil, v)
		r := NewReader(append(buf, 0xAA)) // a following byte must not be read
		if got := r.Varlong(); got != v || r.Err() != nil || r.off != len(buf) {
			t.Fatalf("Varlong(% x) = %d (off %d, err %v), want %d (off %d)", buf, got, r.off, r.Err(), v, len(buf))
		}
	}
	for _, b := range [][]byte{{0x80, 0x00}, {0x81, 0x00}, {0xff, 0x01}} { // non-minimal two-byte forms
		want, _ := binary.Varint(b)
		if got := NewReader(b).Varlong(); got != want {
			t.Fatalf("Varlong(% x) = %d, want %d", b, got, want)
		}
	}
	for _, b := range [][]byte{{}, {0x80}, {0xff, 0xff}} {
		r := NewReader(b)
		if r.Varlong(); !errors.Is(r.Err(), ErrTruncated) {
			t.Fatalf("Varlong(% x): err %v, want ErrTruncated", b, r.Err())
		}
	}
}
