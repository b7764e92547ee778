package wire

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/gzip"
	"github.com/pierrec/lz4/v4"
)

// DefaultMaxDecompressedBytes is the default bound on one batch's
// decompressed size: 64 MiB. Kafka's own limit on a batch is message.max.bytes
// (default 1 MiB) on the compressed form; a compression ratio above 64 is rare
// for real data and common for decompression bombs.
const DefaultMaxDecompressedBytes = 64 << 20

// Decompressor decompresses record-batch payloads with the five Kafka codecs,
// never producing more than its limit. It keeps one sync.Pool of decoders per
// codec, so steady-state decompression allocates only the output. A
// Decompressor is safe for concurrent use; share one per consumer.
type Decompressor struct {
	max  int
	gzip sync.Pool // *gzipDecoder
	lz4  sync.Pool // *lz4Decoder
	zstd sync.Pool // *zstdDecoder
}

type gzipDecoder struct {
	src bytes.Reader
	r   gzip.Reader
}

type lz4Decoder struct {
	src bytes.Reader
	r   *lz4.Reader
}

// NewDecompressor returns a Decompressor that refuses to produce more than
// maxBytes bytes from one input (ErrDecompressedTooLarge). maxBytes <= 0
// selects DefaultMaxDecompressedBytes.
func NewDecompressor(maxBytes int) *Decompressor {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxDecompressedBytes
	}
	return &Decompressor{max: maxBytes}
}

// MaxBytes returns the Decompressor's bound on one input's decompressed size.
func (d *Decompressor) MaxBytes() int { return d.max }

// Decompress appends the decompression of src (compressed with codec) to dst
// and returns the extended slice. At most min(max, d.MaxBytes()) bytes are
// produced (max <= 0 means d.MaxBytes()); more fails with
// ErrDecompressedTooLarge. Malformed input fails with an error wrapping
// ErrCorruptMessage; an unknown codec with ErrUnsupportedCompressionType.
// Snappy input may be a raw block or xerial-framed (what the Java client
// writes), with any number of chunks.
func (d *Decompressor) Decompress(dst []byte, codec Compression, src []byte, max int) ([]byte, error) {
	if max <= 0 || max > d.max {
		max = d.max
	}
	switch codec {
	case CompressionNone:
		if len(src) > max {
			return dst, ErrDecompressedTooLarge
		}
		return append(dst, src...), nil
	case CompressionGzip:
		g, _ := d.gzip.Get().(*gzipDecoder)
		if g == nil {
			g = &gzipDecoder{}
		}
		g.src.Reset(src)
		var err error
		if err = g.r.Reset(&g.src); err == nil {
			dst, err = readBounded(dst, &g.r, max, len(src))
		}
		g.src.Reset(nil)
		d.gzip.Put(g)
		return dst, codecError("gzip", err)
	case CompressionSnappy:
		out, err := decodeSnappy(dst, src, max)
		return out, codecError("snappy", err)
	case CompressionLZ4:
		out, err := decodeLZ4Frame(dst, src, max)
		if !errors.Is(err, errLZ4Fallback) {
			return out, codecError("lz4", err)
		}
		l, _ := d.lz4.Get().(*lz4Decoder)
		if l == nil {
			l = &lz4Decoder{}
			l.r = lz4.NewReader(&l.src)
		}
		l.src.Reset(src)
		l.r.Reset(&l.src)
		dst, err := readBounded(dst, l.r, max, len(src))
		l.src.Reset(nil)
		d.lz4.Put(l)
		return dst, codecError("lz4", err)
	case CompressionZstd:
		return d.decompressZstd(dst, src, max)
	}
	return dst, fmt.Errorf("%w: codec %d", ErrUnsupportedCompressionType, int8(codec))
}

// codecError wraps a codec failure as corrupt data, keeping
// ErrDecompressedTooLarge distinguishable.
func codecError(codec string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrDecompressedTooLarge):
		return fmt.Errorf("wire: %s: %w", codec, err)
	}
	return fmt.Errorf("%w: %s: %v", ErrCorruptMessage, codec, err)
}

// readBounded appends everything r yields to dst, failing with
// ErrDecompressedTooLarge once more than max bytes arrive. The buffer grows
// geometrically from a guess based on the compressed size, never past max+1
// bytes beyond its starting length.
func readBounded(dst []byte, r io.Reader, max, srcLen int) ([]byte, error) {
	start := len(dst)
	limit := start + max + 1 // one extra byte detects overflow
	// Spare capacity of at least the compressed size is used as it is (an
	// arena, wire.BatchReader.SetArena); less gets the guess.
	if want := start + min(4*srcLen+512, max+1); cap(dst)-start < min(srcLen+512, max+1) {
		nb := make([]byte, start, want)
		copy(nb, dst)
		dst = nb
	}
	for {
		if len(dst) == cap(dst) {
			if cap(dst) >= limit {
				return dst[:start], ErrDecompressedTooLarge
			}
			nb := make([]byte, len(dst), min(2*cap(dst), limit))
			copy(nb, dst)
			dst = nb
		}
		n, err := r.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if len(dst) > start+max {
			return dst[:start], ErrDecompressedTooLarge
		}
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst[:start], err
		}
	}
}
