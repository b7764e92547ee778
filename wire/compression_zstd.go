package wire

import (
	"errors"
	"fmt"

	"github.com/klauspost/compress/zstd"
)

// zstdDecoder is a pooled zstd decoder and the output limit it is set to
// (zstd.WithDecoderMaxMemory).
type zstdDecoder struct {
	d     *zstd.Decoder
	limit int
}

// zstdBlockMax is the most one zstd block can regenerate (Block_Maximum_Size,
// RFC 8878 §3.1.1.2.4).
const zstdBlockMax = 128 << 10

// zstdFrames is what the frame and block headers of a zstd input say about
// its decompressed size, read without decoding anything.
type zstdFrames struct {
	// bound is the most the input can decompress to: each frame's declared
	// Frame_Content_Size, or for a frame without one the sum of its
	// blocks' regenerated sizes (Block_Maximum_Size for a compressed block).
	bound uint64
	// exact reports that every frame declares its content size, so a valid
	// input decompresses to exactly bound bytes.
	exact bool
	// window is the largest Window_Size of the frames.
	window uint64
}

// scanZstd reads the frame and block headers of src (RFC 8878 §3.1). ok is
// false when src is not a sequence of whole frames the scan understands; the
// decoder then judges it. A frame declaring a content size its blocks cannot
// hold is corrupt (err): without this check the decoder would pre-allocate
// the declared size for a tiny input.
func scanZstd(src []byte) (f zstdFrames, ok bool, err error) {
	f.exact = true
	for in := src; len(in) > 0; {
		var h zstd.Header
		rest, herr := h.DecodeAndStrip(in)
		if herr != nil {
			return f, false, nil
		}
		if h.Skippable {
			if uint64(len(rest)) < uint64(h.SkippableSize) {
				return f, false, nil
			}
			in = rest[h.SkippableSize:]
			continue
		}
		window := h.WindowSize
		if h.SingleSegment {
			window = h.FrameContentSize
		}
		var blocks uint64
		for last := false; !last; {
			if len(rest) < 3 {
				return f, false, nil
			}
			bh := uint32(rest[0]) | uint32(rest[1])<<8 | uint32(rest[2])<<16
			rest = rest[3:]
			last = bh&1 != 0
			size := int(bh >> 3)
			switch (bh >> 1) & 3 {
			case 0: // Raw_Block: size bytes, copied
				blocks += uint64(size)
			case 1: // RLE_Block: one byte, repeated size times
				blocks += uint64(size)
				size = 1
			case 2: // Compressed_Block
				blocks += zstdBlockMax
			default: // Reserved
				return f, false, nil
			}
			if len(rest) < size {
				return f, false, nil
			}
			rest = rest[size:]
		}
		if h.HasCheckSum {
			if len(rest) < 4 {
				return f, false, nil
			}
			rest = rest[4:]
		}
		if h.HasFCS {
			if h.FrameContentSize > blocks {
				return f, false, fmt.Errorf("frame declares %d bytes, its blocks hold at most %d", h.FrameContentSize, blocks)
			}
			blocks = h.FrameContentSize
		} else {
			f.exact = false
		}
		f.bound += blocks
		f.window = max(f.window, window)
		in = rest
	}
	return f, true, nil
}

// decompressZstd appends the zstd decompression of src to dst, producing at
// most most bytes. The headers are scanned first: an input that declares more
// than most fails with ErrDecompressedTooLarge, and one that declares more
// than its blocks can hold fails as corrupt, both before anything is
// allocated. When the input may exceed most, the decoder itself is limited
// to most (or the frames' window, if larger), so it stops there rather than at
// d.MaxBytes(). Output grows with what is decoded; the decoder pre-allocates
// at most a declared content size the blocks can hold.
func (d *Decompressor) decompressZstd(dst, src []byte, most int) ([]byte, error) {
	frames, known, err := scanZstd(src)
	if err != nil {
		return dst, codecError("zstd", err)
	}
	limit := d.max
	if known && frames.bound > uint64(most) {
		if frames.exact {
			return dst, codecError("zstd", ErrDecompressedTooLarge)
		}
		// The decoder refuses windows above its limit, so the limit never
		// drops below the window: a large window is not too large output.
		limit = int(min(uint64(d.max), max(uint64(most), frames.window)))
	}
	z, err := d.zstdDecoder(limit)
	if err != nil {
		return dst, err
	}
	start := len(dst)
	out, err := z.d.DecodeAll(src, dst)
	d.zstd.Put(z)
	if err == nil && len(out)-start > most {
		err = ErrDecompressedTooLarge
	}
	if errors.Is(err, zstd.ErrDecoderSizeExceeded) || errors.Is(err, zstd.ErrWindowSizeExceeded) {
		err = ErrDecompressedTooLarge
	}
	if err != nil {
		return dst, codecError("zstd", err)
	}
	return out, nil
}

// zstdDecoder takes a decoder from the pool, set to produce at most limit
// bytes. Changing a pooled decoder's limit allocates a little; the limit
// changes only when an input may exceed the caller's bound.
func (d *Decompressor) zstdDecoder(limit int) (*zstdDecoder, error) {
	z, _ := d.zstd.Get().(*zstdDecoder)
	if z == nil {
		zd, err := zstd.NewReader(nil,
			zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderMaxMemory(uint64(d.max)),
			zstd.WithDecoderMaxWindow(uint64(min(d.max, 1<<30))))
		if err != nil {
			return nil, fmt.Errorf("wire: zstd reader: %w", err)
		}
		z = &zstdDecoder{d: zd, limit: d.max}
	}
	if z.limit != limit {
		if err := z.d.ResetWithOptions(nil, zstd.WithDecoderMaxMemory(uint64(limit))); err != nil {
			return nil, fmt.Errorf("wire: zstd reader: %w", err)
		}
		z.limit = limit
	}
	return z, nil
}
