package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"runtime"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// zstdTestFrame builds a zstd frame by hand (RFC 8878 §3.1.1): a header with
// an 8-byte Frame_Content_Size fcs (none when fcs < 0), single-segment when
// windowLog is 0 and otherwise with a Window_Descriptor of 2^windowLog
// bytes, then n RLE blocks that each repeat 'x' size times, the last
// flagged.
func zstdTestFrame(fcs int64, windowLog byte, n, size int) []byte {
	f := []byte{0x28, 0xB5, 0x2F, 0xFD} // magic
	var fhd byte
	if fcs >= 0 {
		fhd |= 3 << 6 // 8-byte Frame_Content_Size
	}
	if windowLog == 0 {
		fhd |= 1 << 5 // Single_Segment_flag
	}
	f = append(f, fhd)
	if windowLog != 0 {
		f = append(f, (windowLog-10)<<3)
	}
	if fcs >= 0 {
		f = binary.LittleEndian.AppendUint64(f, uint64(fcs))
	}
	for i := range n {
		h := uint32(1)<<1 | uint32(size)<<3 // RLE_Block
		if i == n-1 {
			h |= 1 // Last_Block
		}
		f = append(f, byte(h), byte(h>>8), byte(h>>16), 'x')
	}
	return f
}

// bytesAllocated returns the heap bytes f allocates per call, averaged over
// runs calls.
func bytesAllocated(runs int, f func()) uint64 {
	f() // warm pools
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
}

// A small frame that declares a huge content size is refused from its
// headers, before the decoder can pre-allocate the declared size.
func TestZstdDeclaredSizeAllocatesLittle(t *testing.T) {
	d := NewDecompressor(0) // 64 MiB
	cases := []struct {
		name  string
		frame []byte
		max   int
		want  error
	}{
		// 2 KiB of 1-byte RLE blocks (512 bytes of content) declaring 60 MiB,
		// within the decompressor's limit: the blocks cannot hold it.
		{"declares more than its blocks", zstdTestFrame(60<<20, 0, 512, 1), 0, ErrCorruptMessage},
		// 512 full RLE blocks really hold the 60 MiB they declare, but the
		// caller allows 1 MiB.
		{"declares more than the caller allows", zstdTestFrame(60<<20, 0, 480, zstdBlockMax), 1 << 20, ErrDecompressedTooLarge},
	}
	for _, c := range cases {
		var err error
		n := bytesAllocated(5, func() { _, err = d.Decompress(nil, CompressionZstd, c.frame, c.max) })
		if !errors.Is(err, c.want) {
			t.Errorf("%s (%d bytes): err %v, want %v", c.name, len(c.frame), err, c.want)
		}
		if n > 16<<10 {
			t.Errorf("%s (%d bytes): %d bytes allocated per call, want at most 16 KiB", c.name, len(c.frame), n)
		}
	}
}

// A frame without a content size that expands past the caller's bound stops
// near the bound instead of at the decompressor's 64 MiB limit.
func TestZstdBombStopsAtCallerBound(t *testing.T) {
	d := NewDecompressor(0)                         // 64 MiB
	bomb := zstdTestFrame(-1, 20, 64, zstdBlockMax) // 8 MiB from 263 bytes, 1 MiB window
	var err error
	n := bytesAllocated(3, func() { _, err = d.Decompress(nil, CompressionZstd, bomb, 1<<20) })
	if !errors.Is(err, ErrDecompressedTooLarge) {
		t.Fatalf("err %v, want ErrDecompressedTooLarge", err)
	}
	// The output grows by append to about the bound: a few MiB in all,
	// where decoding the whole bomb would allocate several times 8 MiB.
	if n > 8<<20 {
		t.Errorf("%d bytes allocated per call for a 1 MiB bound, want at most 8 MiB", n)
	}
	// The same frame is whole within a bound that admits it.
	out, err := d.Decompress(nil, CompressionZstd, bomb, 8<<20)
	if err != nil || len(out) != 8<<20 || out[0] != 'x' || out[len(out)-1] != 'x' {
		t.Fatalf("within bound: %d bytes, err %v", len(out), err)
	}
}

// A frame whose window exceeds the caller's bound still decodes when its
// content fits: the window is not output.
func TestZstdLargeWindowSmallContent(t *testing.T) {
	var buf bytes.Buffer
	w, err := zstd.NewWriter(&buf, zstd.WithWindowSize(4<<20), zstd.WithSingleSegment(false))
	if err != nil {
		t.Fatal(err)
	}
	in := bytes.Repeat([]byte("kafka "), 100)
	if _, err := w.Write(in); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil { // the header goes out before the size is known
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var h zstd.Header
	if err := h.Decode(buf.Bytes()); err != nil || h.HasFCS || h.WindowSize < 4<<20 {
		t.Fatalf("test frame: %+v, err %v; want a 4 MiB window and no content size", h, err)
	}
	d := NewDecompressor(0)
	for _, max := range []int{len(in), 1 << 20, 0} {
		out, err := d.Decompress(nil, CompressionZstd, buf.Bytes(), max)
		if err != nil || !bytes.Equal(out, in) {
			t.Errorf("max %d: err %v, equal %v", max, err, bytes.Equal(out, in))
		}
	}
	if _, err := d.Decompress(nil, CompressionZstd, buf.Bytes(), len(in)-1); !errors.Is(err, ErrDecompressedTooLarge) {
		t.Errorf("max %d: err %v, want ErrDecompressedTooLarge", len(in)-1, err)
	}
}

func TestScanZstd(t *testing.T) {
	skippable := []byte{0x50, 0x2A, 0x4D, 0x18, 2, 0, 0, 0, 'h', 'i'}
	cases := []struct {
		name    string
		src     []byte
		want    zstdFrames
		ok, bad bool
	}{
		{"empty", nil, zstdFrames{exact: true}, true, false},
		{"declared", zstdTestFrame(10, 0, 1, 10), zstdFrames{bound: 10, exact: true, window: 10}, true, false},
		{"undeclared", zstdTestFrame(-1, 20, 2, 7), zstdFrames{bound: 14, window: 1 << 20}, true, false},
		{"two frames and a skippable one", append(append(zstdTestFrame(3, 0, 1, 3), skippable...), zstdTestFrame(-1, 10, 1, 5)...),
			zstdFrames{bound: 8, window: 1 << 10}, true, false},
		{"declares more than its blocks", zstdTestFrame(11, 0, 1, 10), zstdFrames{}, false, true},
		{"truncated", zstdTestFrame(10, 0, 1, 10)[:15], zstdFrames{}, false, false},
		{"not zstd", []byte("definitely not zstd"), zstdFrames{}, false, false},
	}
	for _, c := range cases {
		got, ok, err := scanZstd(c.src)
		if (err != nil) != c.bad || ok != c.ok || (ok && got != c.want) {
			t.Errorf("%s: got %+v ok %v err %v, want %+v ok %v bad %v", c.name, got, ok, err, c.want, c.ok, c.bad)
		}
	}
}
