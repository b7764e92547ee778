package wire

import (
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/golang/snappy"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// ErrDecompressedTooLarge reports a compressed batch (or legacy wrapper
// message) whose decompressed size exceeds the configured bound
// (DecodeOptions.MaxDecompressedBytes). Decompression stops at the bound, so
// memory stays bounded whatever the input claims.
var ErrDecompressedTooLarge = errors.New("wire: decompressed batch exceeds the size limit")

// String returns Kafka's name for the codec (compression.type): none, gzip,
// snappy, lz4, zstd, or "unknown(n)".
func (c Compression) String() string {
	switch c {
	case CompressionNone:
		return "none"
	case CompressionGzip:
		return "gzip"
	case CompressionSnappy:
		return "snappy"
	case CompressionLZ4:
		return "lz4"
	case CompressionZstd:
		return "zstd"
	}
	return fmt.Sprintf("unknown(%d)", int8(c))
}

// CompressionLevels sets the level of each codec that has one. A zero field
// selects that codec's default. Kafka's equivalents are compression.gzip.level,
// compression.lz4.level and compression.zstd.level (KIP-390).
type CompressionLevels struct {
	// Gzip is 1 (fastest) .. 9 (best); default 0 = gzip.DefaultCompression
	// (level 6, as the Java client's -1 default).
	Gzip int
	// LZ4 is 1 .. 9 for pierrec/lz4's high-compression levels; default
	// 0 = its fast mode (the Java client defaults to 9, which is much slower).
	LZ4 int
	// Zstd is a zstd level (1 .. 22, mapped to klauspost/compress/zstd's four
	// speeds with zstd.EncoderLevelFromZstd); default 0 = level 3 as in Kafka.
	Zstd int
}

// Compressor compresses record-batch payloads with the five Kafka codecs.
// It keeps one sync.Pool of encoders per codec, so steady-state compression
// allocates nothing. A Compressor is safe for concurrent use; share one per
// producer.
type Compressor struct {
	levels CompressionLevels
	gzip   sync.Pool // *gzipEncoder
	lz4    sync.Pool // *lz4Encoder
	zstd   sync.Pool // *zstd.Encoder
}

// NewCompressor returns a Compressor with the given levels. It fails when a
// level is out of range for its codec.
func NewCompressor(levels CompressionLevels) (*Compressor, error) {
	if l := levels.Gzip; l != 0 && (l < gzip.HuffmanOnly || l > gzip.BestCompression) {
		return nil, fmt.Errorf("wire: gzip level %d out of range -2..9", l)
	}
	if l := levels.LZ4; l < 0 || l > 9 {
		return nil, fmt.Errorf("wire: lz4 level %d out of range 0..9", l)
	}
	if l := levels.Zstd; l < 0 || l > 22 {
		return nil, fmt.Errorf("wire: zstd level %d out of range 0..22", l)
	}
	return &Compressor{levels: levels}, nil
}

// appendWriter is an io.Writer appending to a byte slice it owns.
type appendWriter struct{ b []byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// resetWriter is a streaming compressor that can be pointed at a new
// output: *gzip.Writer and *lz4.Writer.
type resetWriter interface {
	io.WriteCloser
	Reset(w io.Writer)
}

// streamCompress appends src compressed by w to dst: w is reset onto out,
// which collects the output, and closed to flush the frame's trailer.
func streamCompress(out *appendWriter, w resetWriter, dst, src []byte, codec string) ([]byte, error) {
	out.b = dst
	w.Reset(out)
	_, err := w.Write(src)
	if err == nil {
		err = w.Close()
	}
	dst, out.b = out.b, nil
	if err != nil {
		return dst, fmt.Errorf("wire: %s: %w", codec, err)
	}
	return dst, nil
}

type gzipEncoder struct {
	out appendWriter
	w   *gzip.Writer
}

type lz4Encoder struct {
	out appendWriter
	w   *lz4.Writer
}

// Compress appends src compressed with codec c to dst and returns the
// extended slice. CompressionNone appends src unchanged. Snappy output is a
// raw snappy block (what franz-go and librdkafka write; Kafka brokers and the
// Java client read it); lz4 output is an LZ4 frame with 64 KiB blocks (Kafka's
// lz4 format since magic v1, KIP-57); gzip and zstd are their standard
// formats. An unknown codec fails with ErrUnsupportedCompressionType.
func (c *Compressor) Compress(dst []byte, codec Compression, src []byte) ([]byte, error) {
	var cache codecCache
	out, err := c.compress(&cache, dst, codec, src)
	cache.release(c)
	return out, err
}

// codecCache holds codecs taken from a Compressor's pools. A BatchEncoder
// keeps one so that its codecs survive garbage collections (which empty
// sync.Pools) and steady-state encoding never allocates.
type codecCache struct {
	gzip *gzipEncoder
	lz4  *lz4Encoder
	zstd *zstd.Encoder
}

// release returns the cached codecs to c's pools.
func (k *codecCache) release(c *Compressor) {
	if k.gzip != nil {
		c.gzip.Put(k.gzip)
	}
	if k.lz4 != nil {
		c.lz4.Put(k.lz4)
	}
	if k.zstd != nil {
		c.zstd.Put(k.zstd)
	}
	*k = codecCache{}
}

func (c *Compressor) compress(k *codecCache, dst []byte, codec Compression, src []byte) ([]byte, error) {
	switch codec {
	case CompressionNone:
		return append(dst, src...), nil
	case CompressionGzip:
		e, err := c.gzipEncoder(k)
		if err != nil {
			return dst, err
		}
		return streamCompress(&e.out, e.w, dst, src, "gzip")
	case CompressionSnappy:
		n := snappy.MaxEncodedLen(len(src))
		if n < 0 {
			return dst, fmt.Errorf("wire: snappy: block of %d bytes too large", len(src))
		}
		start := len(dst)
		dst = growLen(dst, n)
		enc := snappy.Encode(dst[start:], src)
		return dst[:start+len(enc)], nil
	case CompressionLZ4:
		e, err := c.lz4Encoder(k)
		if err != nil {
			return dst, err
		}
		return streamCompress(&e.out, e.w, dst, src, "lz4")
	case CompressionZstd:
		e, err := c.zstdEncoder(k)
		if err != nil {
			return dst, err
		}
		return e.EncodeAll(src, dst), nil
	}
	return dst, fmt.Errorf("%w: codec %d", ErrUnsupportedCompressionType, int8(codec))
}

func (c *Compressor) gzipEncoder(k *codecCache) (*gzipEncoder, error) {
	if k.gzip != nil {
		return k.gzip, nil
	}
	e, _ := c.gzip.Get().(*gzipEncoder)
	if e == nil {
		level := c.levels.Gzip
		if level == 0 {
			level = gzip.DefaultCompression
		}
		e = &gzipEncoder{}
		w, err := gzip.NewWriterLevel(&e.out, level)
		if err != nil {
			return nil, fmt.Errorf("wire: gzip writer: %w", err)
		}
		e.w = w
	}
	k.gzip = e
	return e, nil
}

func (c *Compressor) lz4Encoder(k *codecCache) (*lz4Encoder, error) {
	if k.lz4 != nil {
		return k.lz4, nil
	}
	e, _ := c.lz4.Get().(*lz4Encoder)
	if e == nil {
		e = &lz4Encoder{}
		w, err := c.newLZ4Writer(&e.out)
		if err != nil {
			return nil, err
		}
		e.w = w
	}
	k.lz4 = e
	return e, nil
}

// newLZ4Writer returns an lz4 frame writer onto w at c's level.
func (c *Compressor) newLZ4Writer(w io.Writer) (*lz4.Writer, error) {
	zw := lz4.NewWriter(w)
	level := lz4.Fast
	if c.levels.LZ4 > 0 {
		level = lz4.CompressionLevel(1 << (8 + c.levels.LZ4))
	}
	// 64 KiB blocks (StreamChunk) and no content checksum, as the Java
	// client's KafkaLZ4BlockOutputStream writes them: the record batch's
	// CRC-32C already covers the compressed bytes, and the frame's xxh32
	// over the uncompressed data cost about as much CPU as compressing.
	if err := zw.Apply(lz4.BlockSizeOption(lz4.Block64Kb), lz4.CompressionLevelOption(level), lz4.ChecksumOption(false)); err != nil {
		return nil, fmt.Errorf("wire: lz4 writer: %w", err)
	}
	return zw, nil
}

func (c *Compressor) zstdEncoder(k *codecCache) (*zstd.Encoder, error) {
	if k.zstd != nil {
		return k.zstd, nil
	}
	e, _ := c.zstd.Get().(*zstd.Encoder)
	if e == nil {
		level := c.levels.Zstd
		if level == 0 {
			level = 3
		}
		var err error
		e, err = zstd.NewWriter(nil,
			zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(level)),
			zstd.WithEncoderConcurrency(1),
			zstd.WithWindowSize(1<<20))
		if err != nil {
			return nil, fmt.Errorf("wire: zstd writer: %w", err)
		}
	}
	k.zstd = e
	return e, nil
}

// growLen returns b extended by n bytes (contents of the new bytes
// unspecified), reallocating only when capacity is short.
func growLen(b []byte, n int) []byte {
	if cap(b)-len(b) < n {
		nb := make([]byte, len(b), len(b)+n+len(b)/4)
		copy(nb, b)
		b = nb
	}
	return b[:len(b)+n]
}
