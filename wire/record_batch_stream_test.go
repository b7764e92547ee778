package wire

import (
	"bytes"
	"testing"
)

// TestFinishBatchMatchesAppendBatch: records encoded one by one with
// AppendRecord and finished with FinishBatch give the same bytes as
// AppendBatch, for every codec, and decode back to the records.
func TestFinishBatchMatchesAppendBatch(t *testing.T) {
	recs := []Record{
		{Timestamp: 1000, Key: []byte{}, Value: nil, Headers: []Header{{Key: "a", Value: nil}, {Key: "", Value: []byte{}}}},
		{Timestamp: 999, Key: nil, Value: []byte("v1")},
		{Timestamp: 1500, Key: []byte("k2"), Value: bytes.Repeat([]byte("x"), 300), Headers: []Header{{Key: "dup", Value: []byte("1")}, {Key: "dup", Value: []byte("2")}}},
	}
	for _, codec := range []Compression{CompressionNone, CompressionGzip, CompressionSnappy, CompressionLZ4, CompressionZstd} {
		h := BatchHeader{Compression: codec, ProducerID: 42, ProducerEpoch: 3, BaseSequence: 7, BaseTimestamp: 1000}
		want, err := NewBatchEncoder(nil).AppendBatch(nil, &h, recs)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, BatchHeaderLen)
		for i := range recs {
			buf = AppendRecord(buf, int32(i), recs[i].Timestamp-h.BaseTimestamp, recs[i].Key, recs[i].Value, recs[i].Headers)
		}
		plain := append([]byte(nil), buf...)
		got, err := NewBatchEncoder(nil).FinishBatch([]byte("prefix"), buf, &h, int32(len(recs)), 1500)
		if err != nil {
			t.Fatal(err)
		}
		if codec == CompressionNone {
			if &got[0] != &buf[0] {
				t.Fatal("uncompressed FinishBatch should return buf itself")
			}
		} else {
			if string(got[:6]) != "prefix" {
				t.Fatalf("%v: dst prefix lost", codec)
			}
			got = got[6:]
			if !bytes.Equal(buf, plain) {
				t.Fatalf("%v: buf modified", codec)
			}
		}
		if codec == CompressionNone || codec == CompressionSnappy || codec == CompressionLZ4 {
			if !bytes.Equal(got, want) {
				t.Fatalf("%v: FinishBatch bytes differ from AppendBatch", codec)
			}
		}
		br := NewBatchReader(got, DecodeOptions{})
		var b RecordBatch
		if !br.Next(&b) {
			t.Fatalf("%v: decode: %v", codec, br.Err())
		}
		if b.ProducerID != 42 || b.ProducerEpoch != 3 || b.BaseSequence != 7 || b.MaxTimestamp != 1500 || len(b.Records) != 3 || b.Compression() != codec {
			t.Fatalf("%v: header %+v", codec, b)
		}
		for i, r := range b.Records {
			w := recs[i]
			if r.Timestamp != w.Timestamp || (r.Key == nil) != (w.Key == nil) || (r.Value == nil) != (w.Value == nil) ||
				!bytes.Equal(r.Key, w.Key) || !bytes.Equal(r.Value, w.Value) || len(r.Headers) != len(w.Headers) {
				t.Fatalf("%v: record %d = %+v, want %+v", codec, i, r, w)
			}
		}
	}
}

// TestFinishBatchCRC: with the records' running CRC-32C, FinishBatchCRC
// writes the same bytes as FinishBatch (which reads the records again) and
// as AppendBatch; a wrong running CRC gives a batch the decoder rejects.
func TestFinishBatchCRC(t *testing.T) {
	recs := []Record{
		{Timestamp: 1000, Key: []byte("k"), Value: bytes.Repeat([]byte("v"), 1000)},
		{Timestamp: 1001, Key: nil, Value: []byte{}},
	}
	h := BatchHeader{Compression: CompressionNone, ProducerID: 9, ProducerEpoch: 1, BaseSequence: 100, BaseTimestamp: 1000}
	want, err := NewBatchEncoder(nil).AppendBatch(nil, &h, recs)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, BatchHeaderLen)
	var crc uint32
	for i := range recs {
		start := len(buf)
		buf = AppendRecord(buf, int32(i), recs[i].Timestamp-h.BaseTimestamp, recs[i].Key, recs[i].Value, nil)
		crc = UpdateCRC32C(crc, buf[start:])
	}
	got, err := NewBatchEncoder(nil).FinishBatchCRC(nil, buf, &h, 2, 1001, crc)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("FinishBatchCRC bytes differ from AppendBatch")
	}
	bad, err := NewBatchEncoder(nil).FinishBatchCRC(nil, append([]byte(nil), buf...), &h, 2, 1001, crc^1)
	if err != nil {
		t.Fatal(err)
	}
	var b RecordBatch
	if br := NewBatchReader(bad, DecodeOptions{}); br.Next(&b) || br.Err() == nil {
		t.Fatal("a batch finished with a wrong running CRC decoded without error")
	}
}

// TestRecordLen: RecordLen is exactly what AppendRecord appends, across
// varint length boundaries of every field (nil and empty distinct, negative
// timestamp deltas, headers with null values).
func TestRecordLen(t *testing.T) {
	sizes := []int{-1, 0, 1, 63, 64, 8191, 8192, 70000}
	blob := func(n int) []byte {
		if n < 0 {
			return nil
		}
		return bytes.Repeat([]byte("b"), n)
	}
	headerSets := [][]Header{nil, {}, {{Key: "k", Value: nil}}, {{Key: "", Value: []byte{}}, {Key: string(blob(200)), Value: blob(64)}}}
	for _, off := range []int32{0, 63, 64, 8191, 8192, 1 << 20} {
		for _, ts := range []int64{0, -1, 63, -65, 1 << 40, -(1 << 40)} {
			for _, k := range sizes {
				for _, v := range sizes {
					for _, hs := range headerSets {
						key, value := blob(k), blob(v)
						got := RecordLen(off, ts, key, value, hs)
						want := len(AppendRecord(nil, off, ts, key, value, hs))
						if got != want {
							t.Fatalf("RecordLen(off %d, ts %d, key %d, value %d, %d headers) = %d, AppendRecord appends %d", off, ts, k, v, len(hs), got, want)
						}
					}
				}
			}
		}
	}
}
