package consumer

import (
	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// doFetch sends one Fetch and decodes its partitions (outside the lock).
// Decoding stops once the response's decoded bytes reach req.maxBytes (the
// buffer room when the Fetch was planned), after at least one batch of the
// response: a broker bounds max_bytes in compressed bytes, and compressed
// data can decompress to far more, so the bound on buffered memory is kept
// here. Batches not decoded are fetched again later.
func (c *Consumer) doFetch(req *fetchReq, results chan<- *fetchResult) {
	res := &fetchResult{req: req}
	res.resp, res.err = c.tr.fetch(c.ctx, req)
	if res.err == nil && res.resp.Err == nil {
		res.chunks = map[gregor.TopicPartition]*chunk{}
		// One block holds the records of every partition of the response,
		// one partition after the other, so Receive can hand them out as
		// one slice without copying them.
		n, raw, compressed := 0, 0, false
		for i := range res.resp.Parts {
			p := &res.resp.Parts[i]
			n += countRecords(p.Records)
			raw += len(p.Records)
			compressed = compressed || firstBatchCompressed(p.Records)
		}
		blk := c.blocks.get(n, compressed, raw)
		budget := int64(req.maxBytes)
		progress := false
		inflated := 0 // decompressed bytes charged
		for i := range res.resp.Parts {
			p := &res.resp.Parts[i]
			sp, ok := req.want[p.TopicPartition]
			if !ok || p.Err != nil || p.Diverging != nil {
				continue
			}
			ch, err := c.decodePartition(p, sp.FetchOffset, budget, !progress, blk)
			if err != nil {
				if res.errs == nil {
					res.errs = map[gregor.TopicPartition]error{}
				}
				res.errs[p.TopicPartition] = err
			}
			if ch.next > sp.FetchOffset || len(ch.records) > 0 {
				progress = true
			}
			budget -= ch.bytes
			inflated += int(ch.bytes) - len(p.Records)
			res.chunks[p.TopicPartition] = ch
			if c.hooks.Fetch() && len(ch.records) > 0 {
				c.hooks.FetchBatch(client.BatchEvent{Topic: p.Topic, Partition: p.Partition, Broker: req.node, Records: len(ch.records), Bytes: int(ch.bytes), BaseOffset: ch.records[0].Offset, LastOffset: ch.records[len(ch.records)-1].Offset, HighWatermark: p.HighWatermark})
			}
		}
		if compressed {
			// All decompressed bytes, also those of batches that did not
			// fit the arena, so the next arena is sized to hold them.
			c.blocks.noteArena(inflated, raw)
		}
	}
	results <- res
}

// decodePartition decodes and filters one partition's records, accepting
// batches while the bytes charged (the records field plus decompressed
// records) stay within budget, or the first batch when atLeastOne. The
// records are appended to blk.recs (decompressed bytes to blk.arena); the
// chunk's records are that part of blk.recs, with blk.recs' capacity
// beyond them (Receive caps what it delivers).
func (c *Consumer) decodePartition(p *fetchRespPart, fetchOffset, budget int64, atLeastOne bool, blk *recBlock) (*chunk, error) {
	f := newDeliveryFilter(p.TopicPartition, c.cfg.Isolation == ReadCommitted, fetchOffset, p.Aborted)
	if blk == nil {
		blk = &recBlock{recs: make([]Record, 0, countRecords(p.Records))}
	}
	lo := len(blk.recs)
	charged := int64(len(p.Records))
	accepted := false
	var err error
	blk.arena, err = decodeBatches(p.Records, c.dec, &c.scratch, blk.arena, func(b *wire.RecordBatch, extra int64) bool {
		if charged+extra > budget && !(atLeastOne && !accepted) {
			return false
		}
		accepted = true
		charged += extra
		blk.recs = f.add(b, blk.recs)
		return true
	})
	ch := blk.newChunk()
	*ch = chunk{records: blk.recs[lo:], next: f.next, lastEpoch: f.lastEpoch, bytes: charged}
	if len(ch.records) > 0 {
		ch.blk = blk
		blk.refs++
	}
	return ch, err
}

// firstBatchCompressed reports whether the first batch of raw (magic v2 or
// a legacy message set) is compressed, from its attributes.
func firstBatchCompressed(raw []byte) bool {
	const (
		magicAt   = 16
		v2AttrsAt = 22 // low byte of the int16 attributes of a v2 batch
		v1AttrsAt = 17 // attributes of a legacy message (after offset, size, crc, magic)
	)
	if len(raw) <= v2AttrsAt {
		return false
	}
	if raw[magicAt] == 2 {
		return raw[v2AttrsAt]&7 != 0
	}
	return raw[v1AttrsAt]&7 != 0
}
