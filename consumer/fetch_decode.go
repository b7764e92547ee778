package consumer

import (
	"time"

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
//
// The response is read into the frame of a block taken before the request
// is sent (fetchCall.FrameBuffer) and its records are decoded into that
// block, so a recycled block brings back all of a response's memory. When
// the transport fails, the request (and the block) are dropped: the
// connection may still read an abandoned response into them.
func (c *Consumer) doFetch(req *fetchReq, results chan<- *fetchResult) {
	res := &req.res
	chunks, errs := res.chunks, res.errs
	clear(chunks)
	clear(errs)
	*res = fetchResult{req: req, chunks: chunks, errs: errs}
	blk := c.blocks.take()
	req.blk = blk
	sent := time.Now()
	res.resp, res.err = c.tr.fetch(c.ctx, req)
	roundTrip := time.Since(sent)
	// The lane's results reach the loop in the order sent (fetch_early.go).
	ord, seq := req.ord, req.seq // req is the loop's again once the result is handed
	perRecord := ord.wait(seq)
	var decoded time.Duration                 // per record
	defer func() { ord.done(seq, decoded) }() // after the result is handed
	req.twinVote = 0
	if res.err != nil {
		// The connection may still read an abandoned response into
		// blk.frame, and the call keeps a pointer into blk for that
		// (as long as the client keeps the call, e.g. the session
		// closing requests' contexts at Close): the block's other memory
		// (a pooled block's records slice and arena) is let go now.
		blk.recs, blk.arena, blk.chunks = nil, nil, nil
		results <- res
		return
	}
	req.blk = nil
	blk.ownFrame = req.call.framed // uncompressed records alias blk.frame
	if res.resp.Err == nil {
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
		if !req.side {
			req.twinVote = twinVote(c.tr.roundTrip(req.node), raw, req.askBytes, n, perRecord)
		}
		// The gate first, on the records the response holds (at least
		// those decoding will deliver): the headers' scan and the ends
		// only when an early answer would pay (not on loopback).
		if !compressed && earlyWorthIt(roundTrip, n, perRecord) && earlyEnds(req, res.resp) {
			// The lane's next Fetch may go out while this one is decoded.
			req.earlyRes = fetchResult{req: req, resp: res.resp, early: true}
			results <- &req.earlyRes
			if c.afterEarly != nil {
				c.afterEarly()
			}
		}
		if res.chunks == nil {
			res.chunks = map[gregor.TopicPartition]*chunk{}
		}
		c.blocks.fit(blk, n, compressed, raw, int64(req.maxBytes))
		start := time.Now()
		budget := int64(req.maxBytes)
		progress := false
		inflated := 0 // decompressed bytes charged
		later := raw
		for i := range res.resp.Parts {
			p := &res.resp.Parts[i]
			later -= len(p.Records)
			sp, ok := req.want[p.TopicPartition]
			if !ok || p.Err != nil || p.Diverging != nil {
				continue
			}
			ch, err := c.decodePartition(p, sp.FetchOffset, budget, later, !progress, blk, &req.scratch)
			if err != nil {
				if res.errs == nil {
					res.errs = map[gregor.TopicPartition]error{}
				}
				res.errs[p.TopicPartition] = err
			}
			if ch.next > sp.FetchOffset || len(ch.records) > 0 {
				progress = true
			}
			budget -= ch.charge()
			inflated += int(ch.bytes) - len(p.Records)
			res.chunks[p.TopicPartition] = ch
			if c.hooks.Fetch() && len(ch.records) > 0 {
				c.hooks.FetchBatch(client.BatchEvent{Topic: p.Topic, Partition: p.Partition, Broker: req.node, Records: len(ch.records), Bytes: int(ch.bytes), BaseOffset: ch.records[0].Offset, LastOffset: ch.records[len(ch.records)-1].Offset, HighWatermark: p.HighWatermark})
			}
		}
		if n > 0 {
			decoded = max(time.Since(start)/time.Duration(n), 1)
		}
		if compressed {
			// All decompressed bytes, also those of batches that did not
			// fit the arena, so the next arena is sized to hold them.
			c.blocks.noteArena(inflated, raw)
		}
	}
	if blk.refs == 0 {
		res.spare = blk // nothing to deliver: the fetch loop pools it
	}
	results <- res
}

// decodePartition decodes and filters one partition's records, accepting
// batches while the bytes charged (the records field, decompressed
// records and recordSize per Record value) stay within budget, or the first batch when atLeastOne. The
// records are appended to blk.recs (decompressed bytes to blk.arena); the
// chunk's records are that part of blk.recs, with blk.recs' capacity
// beyond them (Receive caps what it delivers).
//
// later is the records-field bytes of the response's partitions decoded
// after this one into the same block (they share an overflow arena).
//
// scratch (nil: one is made) is the reader decodeBatches uses.
func (c *Consumer) decodePartition(p *fetchRespPart, fetchOffset, budget int64, later int, atLeastOne bool, blk *recBlock, scratch *batchScratch) (*chunk, error) {
	f := newDeliveryFilter(p.TopicPartition, c.cfg.Isolation == ReadCommitted, fetchOffset, p.Aborted)
	if blk == nil {
		blk = &recBlock{recs: make([]Record, 0, countRecords(p.Records))}
	}
	lo := len(blk.recs)
	charged := int64(len(p.Records))
	slots := int64(0) // recordSize per record appended
	accepted := false
	arenaLen := len(blk.arena)
	var err error
	blk.arena, err = decodeBatches(p.Records, c.dec, scratch, blk.arena, func(b *wire.RecordBatch, br *wire.BatchReader, extra int64) bool {
		grew := len(br.Arena()) - arenaLen
		arenaLen += grew
		if charged+slots+extra+int64(max(b.NumRecords, 0))*recordSize > budget && !(atLeastOne && !accepted) {
			return false
		}
		accepted = true
		charged += extra
		n := len(blk.recs)
		blk.recs = f.add(br, b, blk.recs)
		slots += int64(len(blk.recs)-n) * recordSize
		// Records pointing outside the block's own memory (a batch
		// that did not fit the arena, a frame the block does not own,
		// header slabs) make the pool clear the block (recBlock.foreign).
		if b.Compression() == wire.CompressionNone {
			blk.foreign = blk.foreign || !blk.ownFrame
		} else if int64(grew) < extra {
			// The batch did not fit the arena (a consumer's first
			// responses guess the ratio): the rest of the response
			// decompresses into a new arena sized at this batch's
			// ratio, not into one buffer per batch, and no larger
			// than the budget left (decoding stops there).
			blk.foreign = true
			if rest := br.Remaining() + later; rest > 0 && b.BatchLength > 0 {
				want := float64(rest) * float64(extra) / float64(b.BatchLength) * 1.1
				// The budget left also pays recordSize per record: at
				// this batch's mix, extra of every extra+slots bytes.
				per := float64(extra) / float64(extra+int64(max(b.NumRecords, 1))*recordSize)
				if left := float64(max(budget-charged-slots, 0)) * per * 1.1; want > left {
					want = left
				}
				br.SetArena(make([]byte, 0, int(want)+64<<10))
				arenaLen = 0
			}
		}
		return true
	})
	blk.foreign = blk.foreign || f.headers
	ch := blk.newChunk()
	*ch = chunk{records: blk.recs[lo:], at: lo, next: f.next, lastEpoch: f.lastEpoch, bytes: charged, slots: slots}
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
