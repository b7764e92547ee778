package wire

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
)

var allCodecs = []Compression{CompressionNone, CompressionGzip, CompressionSnappy, CompressionLZ4, CompressionZstd}

func sampleRecords() []Record {
	return []Record{
		{Timestamp: 1_700_000_000_000, Key: []byte("k1"), Value: []byte("hello"),
			Headers: []Header{{Key: "h1", Value: []byte("v1")}, {Key: "null", Value: nil}, {Key: "empty", Value: []byte{}},
				{Key: string(bytes.Repeat([]byte("long-key/"), 10)), Value: []byte("not interned")}, {Key: "h1", Value: []byte("again")}}},
		{Timestamp: 1_700_000_000_005, Key: nil, Value: []byte{}},
		{Timestamp: 1_699_999_999_990, Key: []byte{}, Value: nil},
		{Timestamp: 1_700_000_000_100, Key: []byte("k4"), Value: bytes.Repeat([]byte("abcdefgh"), 300)},
	}
}

func sameRecord(t *testing.T, where string, got, want Record) {
	t.Helper()
	eqNull := func(what string, g, w []byte) {
		if (g == nil) != (w == nil) || !bytes.Equal(g, w) {
			t.Errorf("%s: %s = %q (nil %v), want %q (nil %v)", where, what, g, g == nil, w, w == nil)
		}
	}
	eqNull("key", got.Key, want.Key)
	eqNull("value", got.Value, want.Value)
	if got.Timestamp != want.Timestamp {
		t.Errorf("%s: timestamp %d, want %d", where, got.Timestamp, want.Timestamp)
	}
	if len(got.Headers) != len(want.Headers) {
		t.Fatalf("%s: %d headers, want %d", where, len(got.Headers), len(want.Headers))
	}
	for i := range got.Headers {
		if got.Headers[i].Key != want.Headers[i].Key {
			t.Errorf("%s: header %d key %q, want %q", where, i, got.Headers[i].Key, want.Headers[i].Key)
		}
		eqNull(fmt.Sprintf("header %d value", i), got.Headers[i].Value, want.Headers[i].Value)
	}
}

func TestBatchRoundTrip(t *testing.T) {
	enc := NewBatchEncoder(nil)
	dec := NewDecompressor(0)
	for _, c := range allCodecs {
		t.Run(c.String(), func(t *testing.T) {
			h := &BatchHeader{Compression: c, Transactional: true, ProducerID: 42, ProducerEpoch: 3,
				BaseSequence: 7, BaseTimestamp: 1_700_000_000_000}
			want := sampleRecords()
			prefix := []byte("prefix")
			out, err := enc.AppendBatch(append([]byte(nil), prefix...), h, want)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(out, prefix) {
				t.Fatal("dst prefix clobbered")
			}
			// Append a second batch to the same buffer.
			out, err = enc.AppendBatch(out, h, want[:1])
			if err != nil {
				t.Fatal(err)
			}
			batches, br := readAll(out[len(prefix):], DecodeOptions{Decompressor: dec})
			if br.Err() != nil || br.Truncated() || len(batches) != 2 {
				t.Fatalf("err %v truncated %v batches %d", br.Err(), br.Truncated(), len(batches))
			}
			b := batches[0]
			if b.Magic != 2 || b.Compression() != c || !b.IsTransactional() || b.IsControl() ||
				b.ProducerID != 42 || b.ProducerEpoch != 3 || b.BaseSequence != 7 ||
				b.PartitionLeaderEpoch != -1 || b.BaseOffset != 0 || b.LastOffsetDelta != 3 ||
				b.NumRecords != 4 || b.BaseTimestamp != h.BaseTimestamp || b.MaxTimestamp != 1_700_000_000_100 ||
				b.NextOffset() != 4 {
				t.Fatalf("header %+v", b)
			}
			for i := range want {
				if b.Records[i].Offset != int64(i) {
					t.Errorf("record %d offset %d", i, b.Records[i].Offset)
				}
				sameRecord(t, fmt.Sprintf("record %d", i), b.Records[i], want[i])
			}
			if int(b.BatchLength)+12 != len(out)-len(prefix)-(int(batches[1].BatchLength)+12) {
				t.Errorf("batch length %d inconsistent", b.BatchLength)
			}
		})
	}
}

func TestAppendBatchErrors(t *testing.T) {
	enc := NewBatchEncoder(nil)
	if _, err := enc.AppendBatch(nil, &BatchHeader{}, nil); !errors.Is(err, ErrEmptyBatch) {
		t.Fatalf("empty batch: %v", err)
	}
	dst := []byte("keep")
	out, err := enc.AppendBatch(dst, &BatchHeader{Compression: 9}, sampleRecords())
	if !errors.Is(err, ErrUnsupportedCompressionType) || string(out) != "keep" {
		t.Fatalf("bad codec: %v %q", err, out)
	}
}

// goldenBatch is a batch our encoder must produce byte for byte: two records
// (key "k"/value "v" and null key/null value), no compression, producer id 1,
// epoch 0, sequence 0, base timestamp 1000, second record at 1001.
const goldenBatchHex = "" +
	"0000000000000000" + // baseOffset 0
	"00000041" + // batchLength 65 (49 header bytes after it + 16 record bytes)
	"ffffffff" + // partitionLeaderEpoch -1
	"02" + // magic
	"%08x" + // crc (checked separately)
	"0000" + // attributes
	"00000001" + // lastOffsetDelta 1
	"00000000000003e8" + // baseTimestamp 1000
	"00000000000003e9" + // maxTimestamp 1001
	"0000000000000001" + // producerId 1
	"0000" + // producerEpoch 0
	"00000000" + // baseSequence 0
	"00000002" + // recordsCount 2
	"10" + "00" + "00" + "00" + "026b" + "0276" + "00" + // len 8, attrs, tsDelta 0, offDelta 0, key "k", value "v", 0 headers
	"0c" + "00" + "02" + "02" + "01" + "01" + "00" // len 6, attrs, tsDelta 1, offDelta 1, key null, value null, 0 headers

func TestAppendBatchGolden(t *testing.T) {
	enc := NewBatchEncoder(nil)
	out, err := enc.AppendBatch(nil, &BatchHeader{ProducerID: 1, BaseTimestamp: 1000},
		[]Record{{Timestamp: 1000, Key: []byte("k"), Value: []byte("v")}, {Timestamp: 1001, Offset: 99}})
	if err != nil {
		t.Fatal(err)
	}
	crc := uint32(out[17])<<24 | uint32(out[18])<<16 | uint32(out[19])<<8 | uint32(out[20])
	want := fmt.Sprintf(goldenBatchHex, crc)
	if got := fmt.Sprintf("%x", out); got != want {
		t.Fatalf("encoded\n%s\nwant\n%s", got, want)
	}
	// The CRC must be what the independent builder computes.
	rb := rawBatch{leaderEpoch: -1, lastOffsetDelta: 1, baseTimestamp: 1000, maxTimestamp: 1001, producerID: 1,
		numRecords: 2, payload: out[61:]}
	if !bytes.Equal(rb.bytes(), out) {
		t.Fatalf("raw builder disagrees:\n%x\n%x", rb.bytes(), out)
	}
	if crc != 0xd1a48836 {
		t.Errorf("crc %#x changed", crc)
	}
}

// Golden record bytes (v2 record format).
var (
	recNullDelta0 = []byte{0x0c, 0, 0, 0, 0x01, 0x01, 0}                                      // offsetDelta 0, null key, null value
	recKVDelta1   = []byte{0x10, 0, 0, 0x02, 0x02, 'k', 0x02, 'v', 0}                         // offsetDelta 1, key "k", value "v"
	recNullEmpty  = []byte{0x18, 0, 0, 0, 0x01, 0x00, 0x04, 0x02, 'a', 0x01, 0x02, 'b', 0x00} // null key, empty value, headers a=null b=empty
	recEmptyNull  = []byte{0x0c, 0, 0, 0x02, 0x00, 0x01, 0}                                   // offsetDelta 1, empty key, null value
)

func TestBatchReaderTruncatedTrailing(t *testing.T) {
	first := rawBatch{baseOffset: 5, numRecords: 1, payload: recNullDelta0, lastOffsetDelta: 0}.bytes()
	second := rawBatch{baseOffset: 6, numRecords: 2, lastOffsetDelta: 1, payload: cat(recNullDelta0, recKVDelta1)}.bytes()
	all := cat(first, second)
	for cut := len(first); cut <= len(all); cut++ {
		batches, br := readAll(all[:cut], DecodeOptions{})
		if br.Err() != nil {
			t.Fatalf("cut %d: error %v", cut, br.Err())
		}
		wantN, wantTrunc := 1, cut > len(first) && cut < len(all)
		if cut == len(all) {
			wantN = 2
		}
		if len(batches) != wantN || br.Truncated() != wantTrunc {
			t.Fatalf("cut %d: %d batches truncated=%v, want %d %v", cut, len(batches), br.Truncated(), wantN, wantTrunc)
		}
		if batches[0].BaseOffset != 5 || batches[0].NextOffset() != 6 || len(batches[0].Records) != 1 {
			t.Fatalf("cut %d: first batch %+v", cut, batches[0])
		}
		if wantTrunc && br.Remaining() != cut-len(first) {
			t.Fatalf("cut %d: remaining %d", cut, br.Remaining())
		}
	}
	// A lone truncated batch: no batch, no error.
	if batches, br := readAll(second[:30], DecodeOptions{}); len(batches) != 0 || !br.Truncated() || br.Err() != nil {
		t.Fatalf("lone truncated: %d %v %v", len(batches), br.Truncated(), br.Err())
	}
}

func TestBatchReaderEmptyCompactedBatches(t *testing.T) {
	// Two batches whose records were all removed by compaction (recordsCount
	// 0) at offsets 0..2 and 3..4, then one record at offset 5.
	empty1 := rawBatch{baseOffset: 0, lastOffsetDelta: 2, producerID: -1, producerEpoch: -1, baseSequence: -1}.bytes()
	empty2 := rawBatch{baseOffset: 3, lastOffsetDelta: 1, producerID: -1, producerEpoch: -1, baseSequence: -1}.bytes()
	rec := rawBatch{baseOffset: 5, numRecords: 1, payload: recNullDelta0}.bytes()
	wantEmpty := "0000000000000000" + "00000031" + "00000000" + "02" + "%s" + "0000" + "00000002" +
		"0000000000000000" + "0000000000000000" + "ffffffffffffffff" + "ffff" + "ffffffff" + "00000000"
	if got := fmt.Sprintf("%x", empty1); got != fmt.Sprintf(wantEmpty, got[34:42]) {
		t.Fatalf("empty batch bytes %s", got)
	}
	batches, br := readAll(cat(empty1, empty2, rec), DecodeOptions{})
	if br.Err() != nil || br.Truncated() || len(batches) != 3 {
		t.Fatalf("err %v trunc %v n %d", br.Err(), br.Truncated(), len(batches))
	}
	next := int64(0)
	for i, b := range batches {
		if b.BaseOffset != next {
			t.Fatalf("batch %d base %d, consumer expected %d", i, b.BaseOffset, next)
		}
		next = b.NextOffset()
	}
	if next != 6 || len(batches[0].Records) != 0 || len(batches[1].Records) != 0 || batches[2].Records[0].Offset != 5 {
		t.Fatalf("next %d batches %+v", next, batches)
	}
}

func TestBatchReaderRecordsBelowFetchOffset(t *testing.T) {
	// Compaction kept offsets 10 and 11 of a batch spanning 10..14; a fetch
	// from offset 13 gets the whole batch. The reader returns both records
	// with absolute offsets; the consumer drops those below 13 and resumes
	// at NextOffset 15.
	b := rawBatch{baseOffset: 10, lastOffsetDelta: 4, numRecords: 2, payload: cat(recNullDelta0, recKVDelta1)}.bytes()
	batches, br := readAll(b, DecodeOptions{})
	if br.Err() != nil || len(batches) != 1 {
		t.Fatal(br.Err())
	}
	got := batches[0]
	if got.Records[0].Offset != 10 || got.Records[1].Offset != 11 || got.NextOffset() != 15 {
		t.Fatalf("offsets %d %d next %d", got.Records[0].Offset, got.Records[1].Offset, got.NextOffset())
	}
	kept := 0
	for _, r := range got.Records {
		if r.Offset >= 13 {
			kept++
		}
	}
	if kept != 0 {
		t.Fatal("records below the fetch offset survived filtering")
	}
}

func TestBatchReaderNegativeCounts(t *testing.T) {
	cases := map[string][]byte{
		"negative record count":  rawBatch{numRecords: -1, payload: recNullDelta0}.bytes(),
		"huge record count":      rawBatch{numRecords: 1 << 30, payload: recNullDelta0}.bytes(),
		"negative header count":  rawBatch{numRecords: 1, payload: []byte{0x0c, 0, 0, 0, 0x01, 0x01, 0x01}}.bytes(),
		"huge header count":      rawBatch{numRecords: 1, payload: []byte{0x12, 0, 0, 0, 0x01, 0x01, 0xfe, 0xff, 0xff, 0xff, 0x0f}}.bytes(),
		"negative record length": rawBatch{numRecords: 1, payload: []byte{0x01, 0, 0, 0, 0x01, 0x01, 0}}.bytes(),
		"negative key length":    rawBatch{numRecords: 1, payload: []byte{0x0c, 0, 0, 0, 0x03, 0x01, 0}}.bytes(),
		"null header key":        rawBatch{numRecords: 1, payload: []byte{0x0e, 0, 0, 0, 0x01, 0x01, 0x02, 0x01, 0x01}}.bytes(),
		"negative batch length":  {0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 2},
		"record length mismatch": rawBatch{numRecords: 1, payload: []byte{0x0e, 0, 0, 0, 0x01, 0x01, 0, 0}}.bytes(),
		"trailing bytes":         rawBatch{numRecords: 1, payload: cat(recNullDelta0, []byte{0})}.bytes(),
		"bad crc":                rawBatch{numRecords: 1, payload: recNullDelta0, badCRC: true}.bytes(),
		"unknown magic":          {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 3},
		"unknown codec":          rawBatch{numRecords: 1, attrs: 5, payload: recNullDelta0}.bytes(),
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			good := rawBatch{baseOffset: 0, numRecords: 1, payload: recNullDelta0}.bytes()
			batches, br := readAll(cat(good, in), DecodeOptions{})
			if len(batches) != 1 {
				t.Fatalf("%d batches before the bad one, want 1", len(batches))
			}
			if !errors.Is(br.Err(), ErrCorruptMessage) || br.Truncated() {
				t.Fatalf("err %v truncated %v", br.Err(), br.Truncated())
			}
			var b RecordBatch
			if br.Next(&b) {
				t.Fatal("Next after error")
			}
		})
	}
	_, br := readAll(rawBatch{numRecords: -1}.bytes(), DecodeOptions{})
	if !errors.Is(br.Err(), ErrInvalidLength) {
		t.Fatalf("negative count not ErrInvalidLength: %v", br.Err())
	}
}

func TestBatchReaderNullVersusEmpty(t *testing.T) {
	b := rawBatch{baseOffset: 100, lastOffsetDelta: 1, numRecords: 2, payload: cat(recNullEmpty, recEmptyNull)}.bytes()
	batches, br := readAll(b, DecodeOptions{})
	if br.Err() != nil || len(batches) != 1 {
		t.Fatal(br.Err())
	}
	r := batches[0].Records
	sameRecord(t, "record 0", r[0], Record{Key: nil, Value: []byte{}, Headers: []Header{{"a", nil}, {"b", []byte{}}}})
	sameRecord(t, "record 1", r[1], Record{Key: []byte{}, Value: nil})
	// Our encoder writes the same bytes.
	out, err := NewBatchEncoder(nil).AppendBatch(nil, &BatchHeader{}, r)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out[61:], cat(recNullEmpty, recEmptyNull)) {
		t.Fatalf("encoder wrote %x", out[61:])
	}
}

func TestBatchReaderControlAndLogAppendTime(t *testing.T) {
	enc := NewBatchEncoder(nil)
	key := AppendControlRecordKey(nil, ControlCommit)
	val := AppendEndTxnMarker(nil, 7)
	out, err := enc.appendBatch(nil, &BatchHeader{Transactional: true, ProducerID: 9, BaseTimestamp: 50},
		[]Record{{Timestamp: 50, Key: key, Value: val}}, AttrControl)
	if err != nil {
		t.Fatal(err)
	}
	lat := rawBatch{attrs: AttrLogAppendTime, numRecords: 2, lastOffsetDelta: 1, baseTimestamp: 1, maxTimestamp: 999,
		payload: cat(recNullDelta0, recKVDelta1)}.bytes()
	batches, br := readAll(cat(out, lat), DecodeOptions{})
	if br.Err() != nil || len(batches) != 2 {
		t.Fatal(br.Err())
	}
	c := batches[0]
	if !c.IsControl() || !c.IsTransactional() {
		t.Fatalf("attributes %#x", c.Attributes)
	}
	typ, err := ParseControlRecordKey(c.Records[0].Key)
	if err != nil || typ != ControlCommit || typ.String() != "COMMIT" {
		t.Fatalf("control type %v %v", typ, err)
	}
	if ep, err := ParseEndTxnMarker(c.Records[0].Value); err != nil || ep != 7 {
		t.Fatalf("marker %d %v", ep, err)
	}
	if _, err := ParseControlRecordKey([]byte{0, 0, 1}); !errors.Is(err, ErrCorruptMessage) {
		t.Fatalf("short key: %v", err)
	}
	if _, err := ParseEndTxnMarker([]byte{0xff, 0xff, 0, 0, 0, 0}); !errors.Is(err, ErrCorruptMessage) {
		t.Fatalf("negative marker version: %v", err)
	}
	for _, r := range batches[1].Records {
		if r.Timestamp != 999 {
			t.Fatalf("LogAppendTime record timestamp %d, want max timestamp 999", r.Timestamp)
		}
	}
}

func TestBatchReaderReusesRecords(t *testing.T) {
	enc := NewBatchEncoder(nil)
	var buf []byte
	for i := 0; i < 3; i++ {
		var err error
		buf, err = enc.AppendBatch(buf, &BatchHeader{}, sampleRecords()[1:3])
		if err != nil {
			t.Fatal(err)
		}
	}
	br := NewBatchReader(buf, DecodeOptions{})
	var b RecordBatch
	var first *Record
	for br.Next(&b) {
		if first == nil {
			first = &b.Records[0]
		} else if &b.Records[0] != first {
			t.Fatal("Records capacity not reused")
		}
	}
	if br.Err() != nil {
		t.Fatal(br.Err())
	}
}

func TestBatchReaderDecompressionBound(t *testing.T) {
	big := make([]Record, 20)
	for i := range big {
		big[i].Value = make([]byte, 64<<10) // 1.25 MiB of zeros
	}
	enc := NewBatchEncoder(nil)
	for _, c := range allCodecs[1:] {
		out, err := enc.AppendBatch(nil, &BatchHeader{Compression: c}, big)
		if err != nil {
			t.Fatal(err)
		}
		_, br := readAll(out, DecodeOptions{MaxDecompressedBytes: 1 << 20})
		if !errors.Is(br.Err(), ErrDecompressedTooLarge) {
			t.Errorf("%v: err %v, want ErrDecompressedTooLarge", c, br.Err())
		}
		batches, br := readAll(out, DecodeOptions{MaxDecompressedBytes: 2 << 20})
		if br.Err() != nil || len(batches) != 1 || len(batches[0].Records) != 20 {
			t.Errorf("%v: with room: %v", c, br.Err())
		}
	}
}

func TestBatchReaderXerialSnappy(t *testing.T) {
	recs := cat(recNullDelta0, recKVDelta1)
	payload := appendXerialSnappy(nil, recs, 4) // 4 chunks
	b := rawBatch{baseOffset: 1, lastOffsetDelta: 1, numRecords: 2, attrs: int16(CompressionSnappy), payload: payload}.bytes()
	batches, br := readAll(b, DecodeOptions{})
	if br.Err() != nil || len(batches) != 1 || len(batches[0].Records) != 2 || string(batches[0].Records[1].Value) != "v" {
		t.Fatalf("err %v batches %+v", br.Err(), batches)
	}
}

func TestBatchReaderDecompressedBytes(t *testing.T) {
	enc := NewBatchEncoder(nil)
	plain, _ := enc.AppendBatch(nil, &BatchHeader{}, sampleRecords())
	gz, _ := enc.AppendBatch(nil, &BatchHeader{Compression: CompressionGzip}, sampleRecords())
	_, br := readAll(cat(plain, gz, gz), DecodeOptions{})
	if br.Err() != nil || br.DecompressedBytes() != 2*(len(plain)-batchHeaderLen) {
		t.Fatalf("DecompressedBytes %d, want %d (%v)", br.DecompressedBytes(), 2*(len(plain)-batchHeaderLen), br.Err())
	}
}
