package share

import (
	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/wire"
)

// decodeAcquiredLocked decodes the record batches of pr and returns, in
// ascending offset order, only the records inside its acquired ranges
// (control batches never deliver), and the offset after the last complete
// batch. A broker answers a record-limited ShareFetch with whole batches,
// often far larger than what it acquired, so records outside the ranges
// are never materialized; the batch decoding buffers are reused across
// calls (c.br, c.batch, c.decoded: opMu), compressed batches decompress
// into the arena of the round's block (c.cur), and the returned slice is
// valid until the next call.
func (c *Consumer) decodeAcquiredLocked(tp gregor.TopicPartition, pr *wire.ShareFetchPartitionResponse) ([]consumer.Record, int64) {
	in := func(off int64) bool {
		for _, a := range pr.AcquiredRecords {
			if off >= a.FirstOffset && off <= a.LastOffset {
				return true
			}
		}
		return false
	}
	lo, hi := pr.AcquiredRecords[0].FirstOffset, pr.AcquiredRecords[0].LastOffset
	for _, a := range pr.AcquiredRecords[1:] {
		lo, hi = min(lo, a.FirstOffset), max(hi, a.LastOffset)
	}
	if c.br == nil {
		c.br = wire.NewBatchReader(nil, wire.DecodeOptions{Decompressor: c.dec})
	}
	c.br.Reset(pr.Records, wire.DecodeOptions{Decompressor: c.dec})
	c.br.SetArena(c.cur.arena)
	defer func() {
		c.cur.arena = c.br.Arena()
		c.inflated += c.br.DecompressedBytes()
	}()
	out := c.decoded[:0]
	defer func() { c.decoded = out }()
	next := int64(0)
	b := &c.batch
	for c.br.Next(b) {
		end := b.NextOffset()
		if end > lo && b.BaseOffset <= hi && !b.IsControl() {
			logAppend := b.Attributes&wire.AttrLogAppendTime != 0
			floor := max(next, b.BaseOffset)
			for i := range b.Records {
				r := &b.Records[i]
				// out of order or beyond the batch (corrupt): never delivered
				if r.Offset < floor || r.Offset >= end {
					continue
				}
				floor = r.Offset + 1
				if !in(r.Offset) {
					continue
				}
				ts := r.Timestamp
				if logAppend {
					ts = b.MaxTimestamp
				}
				out = append(out, consumer.Record{Topic: tp.Topic, Partition: tp.Partition, Offset: r.Offset, Timestamp: wire.TimeOfMillis(ts),
					Key: r.Key, Value: r.Value, Headers: r.Headers})
			}
		}
		next = max(next, end)
	}
	return out, next
}
