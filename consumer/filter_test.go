package consumer

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

var testTP = gregor.TopicPartition{Topic: "t", Partition: 0}

// decodeFiltered runs raw through decodeBatches and the delivery filter.
func decodeFiltered(t *testing.T, raw []byte, fetchOffset int64, readCommitted bool, aborted []abortedTxn) ([]Record, *deliveryFilter) {
	t.Helper()
	f := new(deliveryFilter)
	*f = newDeliveryFilter(testTP, readCommitted, fetchOffset, aborted)
	var recs []Record
	if _, err := decodeBatches(raw, wire.NewDecompressor(0), nil, nil, func(b *wire.RecordBatch, br *wire.BatchReader, _ int64) bool { recs = f.add(br, b, recs); return true }); err != nil {
		t.Fatalf("decodeBatches: %v", err)
	}
	return recs, f
}

func TestFilterTruncatedTrailingBatch(t *testing.T) {
	full := encodeAll(t, dataBatch(0, 3), dataBatch(3, 4))
	first := len(encodeAll(t, dataBatch(0, 3)))
	for cut := first + 1; cut < len(full); cut += 7 {
		recs, f := decodeFiltered(t, full[:cut], 0, false, nil)
		if got := offsetsOf(recs); !slices.Equal(got, []int64{0, 1, 2}) {
			t.Fatalf("cut %d: offsets %v, want [0 1 2]", cut, got)
		}
		if f.next != 3 {
			t.Fatalf("cut %d: next %d, want 3 (refetch from the truncated batch)", cut, f.next)
		}
	}
	// Only a truncated batch: nothing, position unchanged.
	recs, f := decodeFiltered(t, full[first:first+20], 3, false, nil)
	if len(recs) != 0 || f.next != 3 {
		t.Fatalf("lone truncated batch: %d records, next %d", len(recs), f.next)
	}
}

func TestFilterEmptyCompactedBatches(t *testing.T) {
	raw := encodeAll(t,
		tBatch{base: 10, lastDelta: 4, pid: -1}, // all records compacted away: 10..14
		tBatch{base: 15, lastDelta: 2, pid: -1}, // 15..17 empty too
		tBatch{base: 18, lastDelta: 5, pid: -1, // 18..23, only 20 and 23 survive
			recs: []tRec{{delta: 2, value: []byte("a")}, {delta: 5, value: []byte("b")}}},
	)
	recs, f := decodeFiltered(t, raw, 10, false, nil)
	if got := offsetsOf(recs); !slices.Equal(got, []int64{20, 23}) {
		t.Fatalf("offsets %v, want [20 23]", got)
	}
	if f.next != 24 {
		t.Fatalf("next %d, want 24", f.next)
	}
	// Only empty batches: no records but the position moves past them.
	recs, f = decodeFiltered(t, encodeAll(t, tBatch{base: 10, lastDelta: 4, pid: -1}), 10, false, nil)
	if len(recs) != 0 || f.next != 15 {
		t.Fatalf("empty batch: %d records, next %d, want 0 and 15", len(recs), f.next)
	}
}

func TestFilterBatchTailBelowFetchOffset(t *testing.T) {
	raw := encodeAll(t, dataBatch(0, 10), dataBatch(10, 2))
	recs, f := decodeFiltered(t, raw, 5, false, nil)
	if got := offsetsOf(recs); !slices.Equal(got, []int64{5, 6, 7, 8, 9, 10, 11}) {
		t.Fatalf("offsets %v", got)
	}
	if f.next != 12 {
		t.Fatalf("next %d", f.next)
	}
	// A compacted batch whose surviving records are all below the fetch
	// offset while its last offset is above: nothing delivered, next moves.
	raw = encodeAll(t, tBatch{base: 0, lastDelta: 9, pid: -1,
		recs: []tRec{{delta: 1, value: []byte("x")}, {delta: 3, value: []byte("y")}}})
	recs, f = decodeFiltered(t, raw, 5, false, nil)
	if len(recs) != 0 || f.next != 10 {
		t.Fatalf("compacted tail: %v, next %d", offsetsOf(recs), f.next)
	}
	// A batch wholly below the position is skipped and does not move it back.
	recs, f = decodeFiltered(t, encodeAll(t, dataBatch(0, 3)), 7, false, nil)
	if len(recs) != 0 || f.next != 7 {
		t.Fatalf("old batch: %v, next %d", offsetsOf(recs), f.next)
	}
}

// txnLog is producer 7 writing: committed txn (0,1 + commit 2), aborted
// txn (3,4 + abort 5), committed txn (6,7 + commit 8), a plain record of
// another producer at 9, aborted txn (10 + abort 11), and an open txn
// (12,13) with no marker. Producer 8 interleaves its own aborted txn at 14
// with the abort marker at 16, while producer 7's plain batch is at 15.
func txnLog(t testing.TB) ([]byte, []abortedTxn) {
	raw := encodeAll(t,
		txnBatch(0, 2, 7), marker(2, 7, wire.ControlCommit),
		txnBatch(3, 2, 7), marker(5, 7, wire.ControlAbort),
		txnBatch(6, 2, 7), marker(8, 7, wire.ControlCommit),
		dataBatch(9, 1),
		txnBatch(10, 1, 7), marker(11, 7, wire.ControlAbort),
		txnBatch(12, 2, 7),
		txnBatch(14, 1, 8), dataBatch(15, 1), marker(16, 8, wire.ControlAbort),
	)
	// The broker lists aborted transactions by producer and first offset,
	// in no promised order.
	return raw, []abortedTxn{{8, 14}, {7, 10}, {7, 3}}
}

func TestFilterSeveralTransactionsOneProducer(t *testing.T) {
	raw, aborted := txnLog(t)
	recs, f := decodeFiltered(t, raw, 0, true, aborted)
	if got, want := offsetsOf(recs), []int64{0, 1, 6, 7, 9, 12, 13, 15}; !slices.Equal(got, want) {
		t.Fatalf("read_committed offsets %v, want %v", got, want)
	}
	if f.next != 17 {
		t.Fatalf("next %d, want 17", f.next)
	}
	recs, _ = decodeFiltered(t, raw, 0, false, aborted)
	if got, want := offsetsOf(recs), []int64{0, 1, 3, 4, 6, 7, 9, 10, 12, 13, 14, 15}; !slices.Equal(got, want) {
		t.Fatalf("read_uncommitted offsets %v, want %v (no control records)", got, want)
	}
	// Starting inside the aborted range still filters it.
	recs, _ = decodeFiltered(t, raw, 4, true, aborted)
	if got, want := offsetsOf(recs), []int64{6, 7, 9, 12, 13, 15}; !slices.Equal(got, want) {
		t.Fatalf("read_committed from 4: %v, want %v", got, want)
	}
}

func TestFilterNullAndEmptyKept(t *testing.T) {
	for _, codec := range []wire.Compression{wire.CompressionNone, wire.CompressionGzip, wire.CompressionSnappy, wire.CompressionLZ4, wire.CompressionZstd} {
		raw := encodeAll(t, tBatch{base: 0, lastDelta: 2, pid: -1, codec: codec, recs: []tRec{
			{delta: 0, key: nil, value: []byte{}, headers: []wire.Header{{Key: "h", Value: nil}, {Key: "h", Value: []byte{}}}},
			{delta: 1, key: []byte{}, value: nil},
			{delta: 2, key: []byte("k"), value: []byte("v")},
		}})
		recs, _ := decodeFiltered(t, raw, 0, false, nil)
		if len(recs) != 3 {
			t.Fatalf("%v: %d records", codec, len(recs))
		}
		r0, r1 := recs[0], recs[1]
		if r0.Key != nil || r0.Value == nil || len(r0.Value) != 0 {
			t.Fatalf("%v: record 0 key %v value %v", codec, r0.Key, r0.Value)
		}
		if len(r0.Headers) != 2 || r0.Headers[0].Value != nil || r0.Headers[1].Value == nil {
			t.Fatalf("%v: headers %+v", codec, r0.Headers)
		}
		if r1.Key == nil || r1.Value != nil {
			t.Fatalf("%v: record 1 key %v value %v", codec, r1.Key, r1.Value)
		}
		if !bytes.Equal(recs[2].Value, []byte("v")) || recs[2].Topic != "t" || recs[2].Timestamp.UnixMilli() != 2 {
			t.Fatalf("%v: record 2 %+v", codec, recs[2])
		}
	}
}

func TestDecodeCorrupt(t *testing.T) {
	raw := encodeAll(t, dataBatch(0, 3))
	raw[len(raw)-1] ^= 0xff // breaks the CRC
	_, err := decodeBatches(raw, wire.NewDecompressor(0), nil, nil, func(*wire.RecordBatch, *wire.BatchReader, int64) bool { return true })
	if !errors.Is(err, wire.ErrCorruptMessage) {
		t.Fatalf("err %v, want CORRUPT_MESSAGE", err)
	}
}
