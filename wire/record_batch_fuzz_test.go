package wire

import (
	"bytes"
	"errors"
	"testing"
)

// fuzzMax bounds decompression in fuzz targets: no input may make the
// decoder produce more than this.
const fuzzMax = 1 << 20

// batchSeeds returns golden and encoded batches for the fuzz corpora.
func batchSeeds(tb testing.TB) [][]byte {
	enc := NewBatchEncoder(nil)
	seeds := [][]byte{
		rawBatch{numRecords: 2, lastOffsetDelta: 1, payload: cat(recNullDelta0, recKVDelta1)}.bytes(),
		rawBatch{numRecords: 2, lastOffsetDelta: 1, payload: cat(recNullEmpty, recEmptyNull)}.bytes(),
		rawBatch{lastOffsetDelta: 2}.bytes(),
		rawBatch{numRecords: -1, payload: recNullDelta0}.bytes(),
		rawBatch{numRecords: 1, payload: []byte{0x0c, 0, 0, 0, 0x01, 0x01, 0x01}}.bytes(),
		rawBatch{numRecords: 2, attrs: int16(CompressionSnappy), payload: appendXerialSnappy(nil, cat(recNullDelta0, recKVDelta1), 5)}.bytes(),
		legacyMsg(3, 0, 0, 0, []byte("k"), []byte("v")),
		legacyMsg(4, 1, 0, 99, nil, []byte{}),
	}
	for _, c := range allCodecs {
		b, err := enc.AppendBatch(nil, &BatchHeader{Compression: c, BaseTimestamp: 10}, sampleRecords()[:3])
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, b, b[:len(b)-3])
	}
	comp, _ := NewCompressor(CompressionLevels{})
	inner := cat(legacyMsg(0, 1, 0, 1, []byte("a"), nil), legacyMsg(1, 1, 0, 2, nil, []byte("b")))
	for _, c := range []Compression{CompressionGzip, CompressionLZ4} {
		p, _ := comp.Compress(nil, c, inner)
		seeds = append(seeds, legacyMsg(1, 1, int8(c), 2, nil, p))
	}
	return seeds
}

// checkBatchReader decodes in and checks the reader's invariants.
func checkBatchReader(t *testing.T, in []byte) {
	br := NewBatchReader(in, DecodeOptions{MaxDecompressedBytes: fuzzMax})
	var b RecordBatch
	consumed := 0
	for br.Next(&b) {
		if b.Magic == 2 && int(b.NumRecords) != len(b.Records) {
			t.Fatalf("NumRecords %d, decoded %d", b.NumRecords, len(b.Records))
		}
		consumed += int(b.BatchLength) + logOverhead
		// Re-encode what we decoded; the result must decode to the same records.
		if b.Magic == 2 && len(b.Records) > 0 && !b.IsControl() {
			out, err := NewBatchEncoder(nil).AppendBatch(nil, &BatchHeader{BaseTimestamp: b.BaseTimestamp}, b.Records)
			if err != nil {
				t.Fatal(err)
			}
			again, br2 := readAll(out, DecodeOptions{})
			if br2.Err() != nil || len(again) != 1 || len(again[0].Records) != len(b.Records) {
				t.Fatalf("re-encoded batch does not decode: %v", br2.Err())
			}
			for i, r := range again[0].Records {
				w := b.Records[i]
				if !bytes.Equal(r.Key, w.Key) || (r.Key == nil) != (w.Key == nil) ||
					!bytes.Equal(r.Value, w.Value) || (r.Value == nil) != (w.Value == nil) || len(r.Headers) != len(w.Headers) {
					t.Fatalf("record %d changed in re-encoding", i)
				}
			}
		}
	}
	if err := br.Err(); err != nil {
		if !errors.Is(err, ErrCorruptMessage) && !errors.Is(err, ErrDecompressedTooLarge) && !errors.Is(err, ErrUnsupportedCompressionType) {
			t.Fatalf("untyped error %v", err)
		}
		if br.Truncated() {
			t.Fatal("both error and truncated")
		}
	} else if br.Remaining() != len(in)-consumed || (!br.Truncated() && br.Remaining() != 0) {
		t.Fatalf("remaining %d, consumed %d of %d, truncated %v", br.Remaining(), consumed, len(in), br.Truncated())
	}
}

// FuzzBatchReader decodes arbitrary records bytes (magic v2 batches and
// legacy message sets). It must never panic, must return typed errors and
// must keep its accounting of consumed bytes.
func FuzzBatchReader(f *testing.F) {
	for _, s := range batchSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(checkBatchReader)
}

// FuzzLegacyMessageSet decodes arbitrary legacy message sets: the fuzzer
// mutates the message body while the framing (size, CRC) stays valid, so it
// reaches the parsing behind the CRC check.
func FuzzLegacyMessageSet(f *testing.F) {
	f.Add(int8(0), int8(0), []byte("k"), []byte("v"))
	f.Add(int8(1), int8(AttrLogAppendTime), []byte(nil), []byte{})
	comp, _ := NewCompressor(CompressionLevels{})
	inner := cat(legacyMsg(0, 1, 0, 1, []byte("a"), nil), legacyMsg(1, 1, 0, 2, nil, []byte("b")))
	for _, c := range allCodecs[1:] {
		p, _ := comp.Compress(nil, c, inner)
		f.Add(int8(1), int8(c), []byte(nil), p)
	}
	f.Add(int8(1), int8(CompressionSnappy), []byte(nil), appendXerialSnappy(nil, inner, 7))
	f.Fuzz(func(t *testing.T, magic, attrs int8, key, value []byte) {
		msg := legacyMsg(7, magic&1, attrs, 5, key, value)
		checkBatchReader(t, msg)
		checkBatchReader(t, cat(msg, msg[:len(msg)/2]))
	})
}

// FuzzBatchPayload fuzzes the records inside a valid batch frame (correct
// CRC and length), for each codec attribute, so mutations reach record
// parsing and decompression.
func FuzzBatchPayload(f *testing.F) {
	f.Add(int8(0), int32(2), cat(recNullDelta0, recKVDelta1))
	f.Add(int8(0), int32(2), cat(recNullEmpty, recEmptyNull))
	f.Add(int8(2), int32(2), appendXerialSnappy(nil, cat(recNullDelta0, recKVDelta1), 5))
	f.Fuzz(func(t *testing.T, attrs int8, n int32, payload []byte) {
		checkBatchReader(t, rawBatch{attrs: int16(attrs), numRecords: n, payload: payload}.bytes())
	})
}

func fuzzDecompress(f *testing.F, codec Compression, extra ...[]byte) {
	c, _ := NewCompressor(CompressionLevels{})
	for _, in := range [][]byte{nil, []byte("x"), bytes.Repeat([]byte("abc"), 1000)} {
		out, err := c.Compress(nil, codec, in)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(out)
	}
	for _, e := range extra {
		f.Add(e)
	}
	d := NewDecompressor(fuzzMax)
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := d.Decompress(nil, codec, in, 0)
		if err != nil {
			if !errors.Is(err, ErrCorruptMessage) && !errors.Is(err, ErrDecompressedTooLarge) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if len(out) > fuzzMax {
			t.Fatalf("%d bytes exceed the limit", len(out))
		}
	})
}

// FuzzDecompressGzip fuzzes the gzip decompressor.
func FuzzDecompressGzip(f *testing.F) { fuzzDecompress(f, CompressionGzip) }

// FuzzDecompressSnappy fuzzes the snappy decompressor (raw and xerial).
func FuzzDecompressSnappy(f *testing.F) {
	fuzzDecompress(f, CompressionSnappy, goldenXerial, appendXerialSnappy(nil, bytes.Repeat([]byte("xy"), 100), 30))
}

// FuzzDecompressLZ4 fuzzes the lz4 frame decompressor.
func FuzzDecompressLZ4(f *testing.F) { fuzzDecompress(f, CompressionLZ4) }

// FuzzDecompressZstd fuzzes the zstd decompressor, seeded with hand-made
// frames: one declaring far more than its blocks hold, and a bomb without a
// declared size.
func FuzzDecompressZstd(f *testing.F) {
	fuzzDecompress(f, CompressionZstd, zstdTestFrame(60<<20, 0, 512, 1), zstdTestFrame(-1, 20, 16, zstdBlockMax),
		zstdTestFrame(3, 0, 1, 3))
}
