package wire

import (
	"hash/crc32"
	"math/rand/v2"
	"testing"
)

// TestCombineCRC32C: combining the CRCs of two parts gives hash/crc32's
// Castagnoli checksum of the whole, for empty parts, every split of short
// inputs and random splits of inputs up to 2 MiB; UpdateCRC32C continues a
// checksum as crc32.Update does.
func TestCombineCRC32C(t *testing.T) {
	tab := crc32.MakeTable(crc32.Castagnoli)
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 2<<20)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	check := func(whole []byte, cut int) {
		t.Helper()
		a, b := whole[:cut], whole[cut:]
		want := crc32.Checksum(whole, tab)
		if got := CombineCRC32C(crc32.Checksum(a, tab), crc32.Checksum(b, tab), len(b)); got != want {
			t.Fatalf("len %d cut %d: combined %08x, want %08x", len(whole), cut, got, want)
		}
		if got := UpdateCRC32C(UpdateCRC32C(0, a), b); got != want {
			t.Fatalf("len %d cut %d: updated %08x, want %08x", len(whole), cut, got, want)
		}
	}
	for n := 0; n <= 70; n++ {
		for cut := 0; cut <= n; cut++ {
			check(data[:n], cut)
		}
	}
	for range 200 {
		n := rng.IntN(len(data) + 1)
		check(data[:n], rng.IntN(n+1))
	}
	if got := CombineCRC32C(0x12345678, 0, 0); got != 0x12345678 {
		t.Fatalf("combining an empty suffix changed the CRC to %08x", got)
	}
}
