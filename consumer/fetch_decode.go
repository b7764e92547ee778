package consumer

import (
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
		res.chunks = map[TopicPartition]*chunk{}
		budget := int64(req.maxBytes)
		progress := false
		for i := range res.resp.Parts {
			p := &res.resp.Parts[i]
			sp, ok := req.want[p.TopicPartition]
			if !ok || p.Err != nil || p.Diverging != nil {
				continue
			}
			ch, err := c.decodePartition(p, sp.FetchOffset, budget, !progress)
			if err != nil {
				if res.errs == nil {
					res.errs = map[TopicPartition]error{}
				}
				res.errs[p.TopicPartition] = err
			}
			if ch.next > sp.FetchOffset || len(ch.records) > 0 {
				progress = true
			}
			budget -= ch.bytes
			res.chunks[p.TopicPartition] = ch
			if c.hooks.Fetch() && len(ch.records) > 0 {
				c.hooks.FetchBatch(client.BatchEvent{Topic: p.Topic, Partition: p.Partition, Broker: req.node, Records: len(ch.records), Bytes: int(ch.bytes), BaseOffset: ch.records[0].Offset, LastOffset: ch.records[len(ch.records)-1].Offset, HighWatermark: p.HighWatermark})
			}
		}
	}
	results <- res
}

// decodePartition decodes and filters one partition's records, accepting
// batches while the bytes charged (the records field plus decompressed
// records) stay within budget, or the first batch when atLeastOne.
func (c *Consumer) decodePartition(p *fetchRespPart, fetchOffset, budget int64, atLeastOne bool) (*chunk, error) {
	f := newDeliveryFilter(p.TopicPartition, c.cfg.Isolation == ReadCommitted, fetchOffset, p.Aborted)
	recs := make([]Record, 0, countRecords(p.Records))
	charged := int64(len(p.Records))
	accepted := false
	err := decodeBatches(p.Records, c.dec, &c.scratch, func(b *wire.RecordBatch, extra int64) bool {
		if charged+extra > budget && !(atLeastOne && !accepted) {
			return false
		}
		accepted = true
		charged += extra
		recs = f.add(b, recs)
		return true
	})
	return &chunk{records: recs, next: f.next, lastEpoch: f.lastEpoch, bytes: charged}, err
}
