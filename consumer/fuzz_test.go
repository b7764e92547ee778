package consumer

import (
	"testing"

	"github.com/gregor-kafka/gregor/wire"
)

// FuzzDecodePartition feeds arbitrary records bytes and aborted lists
// through the consumer's decode and delivery filter and checks what it
// must never do: panic, deliver an offset below the fetch offset or out of
// order, deliver a control record, or move the position backwards.
func FuzzDecodePartition(f *testing.F) {
	txn, _ := txnLog(f)
	f.Add(txn, int64(0), true, int64(7), int64(3))
	f.Add(encodeAll(f, dataBatch(0, 10), dataBatch(10, 2)), int64(5), false, int64(-1), int64(0))
	f.Add(encodeAll(f, tBatch{base: 10, lastDelta: 4, pid: -1}, tBatch{base: 15, lastDelta: 2, pid: -1}), int64(10), false, int64(0), int64(0))
	f.Add(encodeAll(f, tBatch{base: 0, lastDelta: 2, pid: -1, codec: wire.CompressionLZ4, recs: []tRec{{delta: 1, value: []byte("x")}}}), int64(0), false, int64(0), int64(0))
	f.Fuzz(func(t *testing.T, raw []byte, fetchOffset int64, readCommitted bool, abortedPID, abortedFirst int64) {
		if fetchOffset < 0 {
			fetchOffset = -fetchOffset
			if fetchOffset < 0 {
				fetchOffset = 0
			}
		}
		c := &Consumer{dec: wire.NewDecompressor(1 << 20)}
		if readCommitted {
			c.cfg.Isolation = ReadCommitted
		}
		p := &fetchRespPart{TopicPartition: testTP, Records: raw, Aborted: []abortedTxn{{abortedPID, abortedFirst}}}
		ch, err := c.decodePartition(p, fetchOffset, 1<<16, 0, true, nil, nil)
		if err != nil {
			return
		}
		if ch.next < fetchOffset {
			t.Fatalf("position moved back: %d < %d", ch.next, fetchOffset)
		}
		last := fetchOffset - 1
		for _, r := range ch.records {
			if r.Offset <= last || r.Offset >= ch.next {
				t.Fatalf("offset %d delivered after %d (fetch %d, next %d)", r.Offset, last, fetchOffset, ch.next)
			}
			last = r.Offset
		}
		if ch.bytes < int64(len(raw)) {
			t.Fatalf("charged %d bytes for %d", ch.bytes, len(raw))
		}
	})
}
