package wirecheck

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"testing"

	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The record batch cross-check: batches gregor encodes must decode with
// franz-go (kmsg.RecordBatch + kgo's decompressor), and batches built with
// kmsg and kgo's compressor must decode with gregor's BatchReader, for all
// five codecs.

var recCodecs = []struct {
	ours   wire.Compression
	theirs kgo.CompressionCodec
}{
	{wire.CompressionNone, kgo.NoCompression()},
	{wire.CompressionGzip, kgo.GzipCompression()},
	{wire.CompressionSnappy, kgo.SnappyCompression()},
	{wire.CompressionLZ4, kgo.Lz4Compression()},
	{wire.CompressionZstd, kgo.ZstdCompression()},
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func recSample() []wire.Record {
	return []wire.Record{
		{Timestamp: 1_700_000_000_000, Key: []byte("key-1"), Value: []byte("value one"),
			Headers: []wire.Header{{Key: "trace", Value: []byte("abc")}, {Key: "null", Value: nil}, {Key: "empty", Value: []byte{}}}},
		{Timestamp: 1_700_000_000_007, Key: nil, Value: []byte{}},
		{Timestamp: 1_699_999_999_000, Key: []byte{}, Value: nil},
		{Timestamp: 1_700_000_000_500, Key: []byte("big"), Value: bytes.Repeat([]byte("0123456789abcdef"), 4096)},
	}
}

func sameBytes(t *testing.T, what string, got, want []byte) {
	t.Helper()
	if (got == nil) != (want == nil) || !bytes.Equal(got, want) {
		t.Errorf("%s: got %.20q (nil %v), want %.20q (nil %v)", what, got, got == nil, want, want == nil)
	}
}

// splitKmsgRecords parses a decompressed records section with kmsg.Record.
func splitKmsgRecords(t *testing.T, raw []byte, n int) []kmsg.Record {
	t.Helper()
	var out []kmsg.Record
	for i := 0; i < n; i++ {
		l, w := binary.Varint(raw)
		if w <= 0 || int(l)+w > len(raw) {
			t.Fatalf("record %d: bad length", i)
		}
		var r kmsg.Record
		if err := r.ReadFrom(raw[:w+int(l)]); err != nil {
			t.Fatalf("kmsg record %d: %v", i, err)
		}
		out = append(out, r)
		raw = raw[w+int(l):]
	}
	if len(raw) != 0 {
		t.Fatalf("%d bytes after %d records", len(raw), n)
	}
	return out
}

func TestRecordBatchOursDecodeWithKmsg(t *testing.T) {
	enc := wire.NewBatchEncoder(nil)
	dec := kgo.DefaultDecompressor()
	for _, c := range recCodecs {
		t.Run(c.ours.String(), func(t *testing.T) {
			want := recSample()
			h := &wire.BatchHeader{Compression: c.ours, Transactional: true, ProducerID: 77, ProducerEpoch: 2,
				BaseSequence: 40, BaseTimestamp: 1_700_000_000_000}
			out, err := enc.AppendBatch(nil, h, want)
			if err != nil {
				t.Fatal(err)
			}
			var kb kmsg.RecordBatch
			if err := kb.ReadFrom(out); err != nil {
				t.Fatalf("kmsg: %v", err)
			}
			if int(kb.Length)+12 != len(out) || kb.Magic != 2 || kb.Attributes != int16(c.ours)|0x10 ||
				kb.LastOffsetDelta != 3 || kb.FirstTimestamp != h.BaseTimestamp || kb.MaxTimestamp != 1_700_000_000_500 ||
				kb.ProducerID != 77 || kb.ProducerEpoch != 2 || kb.FirstSequence != 40 || kb.NumRecords != 4 ||
				kb.PartitionLeaderEpoch != -1 || kb.FirstOffset != 0 {
				t.Fatalf("kmsg header %+v", kb)
			}
			if crc := crc32.Checksum(out[21:], castagnoli); uint32(kb.CRC) != crc {
				t.Fatalf("crc %#x, computed %#x", uint32(kb.CRC), crc)
			}
			raw, err := dec.Decompress(kb.Records, kgo.CompressionCodecType(c.ours))
			if err != nil {
				t.Fatalf("franz-go decompress: %v", err)
			}
			recs := splitKmsgRecords(t, raw, 4)
			for i, r := range recs {
				w := want[i]
				if r.OffsetDelta != int32(i) || kb.FirstTimestamp+r.TimestampDelta64 != w.Timestamp || r.Attributes != 0 {
					t.Errorf("record %d: delta %d ts %d", i, r.OffsetDelta, r.TimestampDelta64)
				}
				sameBytes(t, fmt.Sprintf("record %d key", i), r.Key, w.Key)
				sameBytes(t, fmt.Sprintf("record %d value", i), r.Value, w.Value)
				if len(r.Headers) != len(w.Headers) {
					t.Fatalf("record %d: %d headers", i, len(r.Headers))
				}
				for j, hd := range r.Headers {
					if hd.Key != w.Headers[j].Key {
						t.Errorf("record %d header %d key %q", i, j, hd.Key)
					}
					sameBytes(t, fmt.Sprintf("record %d header %d", i, j), hd.Value, w.Headers[j].Value)
				}
			}
		})
	}
}

// kmsgBatch builds a batch with kmsg and kgo's compressor.
func kmsgBatch(t *testing.T, codec kgo.CompressionCodec, base int64, baseTS int64, recs []wire.Record) []byte {
	t.Helper()
	var raw []byte
	for i, w := range recs {
		r := kmsg.Record{TimestampDelta64: w.Timestamp - baseTS, OffsetDelta: int32(i), Key: w.Key, Value: w.Value}
		for _, hd := range w.Headers {
			r.Headers = append(r.Headers, kmsg.Header{Key: hd.Key, Value: hd.Value})
		}
		body := r.AppendTo(nil)[1:] // drop the placeholder length 0
		r.Length = int32(len(body))
		raw = r.AppendTo(raw)
	}
	payload, used := raw, kgo.CodecNone
	comp, err := kgo.DefaultCompressor(codec)
	if err != nil {
		t.Fatal(err)
	}
	if comp != nil { // nil for NoCompression
		payload, used = comp.Compress(new(bytes.Buffer), raw)
		if used == kgo.CodecError {
			t.Fatal("franz-go compress failed")
		}
		payload = append([]byte(nil), payload...)
	}
	maxTS := baseTS
	for _, w := range recs {
		maxTS = max(maxTS, w.Timestamp)
	}
	kb := kmsg.RecordBatch{
		FirstOffset: base, Length: int32(49 + len(payload)), PartitionLeaderEpoch: 5, Magic: 2,
		Attributes: int16(used), LastOffsetDelta: int32(len(recs) - 1), FirstTimestamp: baseTS,
		MaxTimestamp: maxTS, ProducerID: 9, ProducerEpoch: 1, FirstSequence: 3, NumRecords: int32(len(recs)),
		Records: payload,
	}
	out := kb.AppendTo(nil)
	binary.BigEndian.PutUint32(out[17:], crc32.Checksum(out[21:], castagnoli))
	return out
}

func TestRecordBatchKmsgDecodeWithOurs(t *testing.T) {
	d := wire.NewDecompressor(0)
	for _, c := range recCodecs {
		t.Run(c.ours.String(), func(t *testing.T) {
			want := recSample()
			in := append(kmsgBatch(t, c.theirs, 100, 1_700_000_000_000, want), kmsgBatch(t, c.theirs, 104, 5, want[1:2])...)
			br := wire.NewBatchReader(in, wire.DecodeOptions{Decompressor: d})
			var b wire.RecordBatch
			if !br.Next(&b) {
				t.Fatalf("no batch: %v", br.Err())
			}
			if b.Compression() != c.ours || b.BaseOffset != 100 || b.NextOffset() != 104 || b.PartitionLeaderEpoch != 5 ||
				b.ProducerID != 9 || b.ProducerEpoch != 1 || b.BaseSequence != 3 || len(b.Records) != 4 {
				t.Fatalf("batch %+v", b)
			}
			for i, r := range b.Records {
				w := want[i]
				if r.Offset != int64(100+i) || r.Timestamp != w.Timestamp {
					t.Errorf("record %d: offset %d ts %d", i, r.Offset, r.Timestamp)
				}
				sameBytes(t, fmt.Sprintf("record %d key", i), r.Key, w.Key)
				sameBytes(t, fmt.Sprintf("record %d value", i), r.Value, w.Value)
				if len(r.Headers) != len(w.Headers) {
					t.Fatalf("record %d: %d headers", i, len(r.Headers))
				}
				for j, hd := range r.Headers {
					if hd.Key != w.Headers[j].Key {
						t.Errorf("record %d header %d key %q", i, j, hd.Key)
					}
					sameBytes(t, fmt.Sprintf("record %d header %d", i, j), hd.Value, w.Headers[j].Value)
				}
			}
			if !br.Next(&b) || b.BaseOffset != 104 || len(b.Records) != 1 || b.Records[0].Timestamp != want[1].Timestamp {
				t.Fatalf("second batch: %v %+v", br.Err(), b)
			}
			if br.Next(&b) || br.Err() != nil || br.Truncated() {
				t.Fatalf("end: %v", br.Err())
			}
		})
	}
}

// TestLegacyMessageSetFromKmsg decodes v0/v1 message sets built with
// kmsg.MessageV0/V1, plain and as compressed wrappers (kgo's compressor).
func TestLegacyMessageSetFromKmsg(t *testing.T) {
	msg := func(magic int8, offset int64, attrs int8, ts int64, key, value []byte) []byte {
		var out []byte
		if magic == 0 {
			m := kmsg.MessageV0{Offset: offset, Magic: 0, Attributes: attrs, Key: key, Value: value}
			m.MessageSize = int32(len(m.AppendTo(nil)) - 12)
			out = m.AppendTo(nil)
		} else {
			m := kmsg.MessageV1{Offset: offset, Magic: 1, Attributes: attrs, Timestamp: ts, Key: key, Value: value}
			m.MessageSize = int32(len(m.AppendTo(nil)) - 12)
			out = m.AppendTo(nil)
		}
		binary.BigEndian.PutUint32(out[12:], crc32.ChecksumIEEE(out[16:]))
		return out
	}
	for _, magic := range []int8{0, 1} {
		for _, c := range recCodecs[:4] { // zstd never existed for v0/v1
			t.Run(fmt.Sprintf("v%d/%v", magic, c.ours), func(t *testing.T) {
				var in []byte
				if c.ours == wire.CompressionNone {
					in = append(msg(magic, 20, 0, 1000, []byte("k"), nil), msg(magic, 21, 0, 1001, nil, []byte("v"))...)
				} else {
					first := int64(0)
					if magic == 0 {
						first = 20
					}
					inner := append(msg(magic, first, 0, 1000, []byte("k"), nil), msg(magic, first+1, 0, 1001, nil, []byte("v"))...)
					comp, _ := kgo.DefaultCompressor(c.theirs)
					payload, _ := comp.Compress(new(bytes.Buffer), inner)
					in = msg(magic, 21, int8(c.ours), 1001, nil, append([]byte(nil), payload...))
				}
				br := wire.NewBatchReader(in, wire.DecodeOptions{})
				var recs []wire.Record
				var b wire.RecordBatch
				for br.Next(&b) {
					if b.Magic != magic {
						t.Fatalf("magic %d", b.Magic)
					}
					recs = append(recs, b.Records...)
				}
				if br.Err() != nil || len(recs) != 2 || b.NextOffset() != 22 {
					t.Fatalf("err %v records %d next %d", br.Err(), len(recs), b.NextOffset())
				}
				wantTS := int64(1000)
				if magic == 0 {
					wantTS = -1
				}
				if recs[0].Offset != 20 || recs[1].Offset != 21 || recs[0].Timestamp != wantTS {
					t.Fatalf("records %+v", recs)
				}
				sameBytes(t, "key 0", recs[0].Key, []byte("k"))
				sameBytes(t, "value 0", recs[0].Value, nil)
				sameBytes(t, "key 1", recs[1].Key, nil)
				sameBytes(t, "value 1", recs[1].Value, []byte("v"))
			})
		}
	}
}
