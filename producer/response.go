package producer

import (
	"context"
	"errors"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// brokerLoop receives one broker's requests in the order they were
// enqueued and applies each response in that order.
func (p *Producer) brokerLoop(q chan *inflightReq) {
	for r := range q {
		var resp wire.Response
		if r.call != nil {
			resp, r.err = r.call.Wait()
		}
		if r.actx != nil {
			r.actx.disarm()
		}
		p.parseResponse(r, resp)
		if r.call != nil {
			// The response is r.resp (SetResponseInto), not the call's:
			// parsed, the call goes back to the client.
			r.call.Release()
			r.call = nil
		}
		p.complete(r)
	}
}

// parseResponse fills r.results from a ProduceResponse (or r.err).
func (p *Producer) parseResponse(r *inflightReq, resp wire.Response) {
	if r.err != nil {
		for i := range r.results {
			if r.results[i].err == nil {
				r.results[i].err = r.err
			}
		}
		return
	}
	pr, ok := resp.(*wire.ProduceResponse)
	if !ok {
		for i := range r.results {
			if r.results[i].err == nil {
				r.results[i].err = client.ErrProtocol
			}
		}
		return
	}
	var at [2]int // where the next answer is expected, if the broker answers in request order
	r.ix.built = false
	for i, b := range r.batches {
		if r.results[i].err != nil {
			continue
		}
		pp := answerFor(pr, b, &at, &r.ix)
		if pp == nil {
			r.results[i].err = errMissingPartition
			continue
		}
		r.results[i] = batchResult{err: wire.ErrorForCode(pp.ErrorCode), baseOffset: pp.BaseOffset, appendTime: pp.LogAppendTimeMs, leader: -1,
			byName: pr.Responses[at[0]].Name != ""}
		if pp.CurrentLeader.LeaderID >= 0 && pp.ErrorCode != 0 {
			r.results[i].leader = pp.CurrentLeader.LeaderID
		}
	}
}

// answerFor returns b's partition in pr, or nil. It looks first where the
// answer after the last one found would be (at: topic and partition
// index; the same topic, else the next one's first partition), then in
// ix (answerIndex: Kafka 4 answers in hash order), so that a request of n
// partitions is matched in O(n), not O(n²).
func answerFor(pr *wire.ProduceResponse, b *batch, at *[2]int, ix *answerIndex) *wire.ProduceResponsePartition {
	for _, c := range [2][2]int{{at[0], at[1]}, {at[0] + 1, 0}} {
		if pp := partitionAt(pr, b, c[0], c[1]); pp != nil {
			*at = [2]int{c[0], c[1] + 1}
			return pp
		}
	}
	pp, ti, pi := ix.find(pr, b)
	if pp != nil {
		*at = [2]int{ti, pi + 1}
	}
	return pp
}

// partitionAt returns pr's partition answer at topic index ti, partition
// index pi if it is b's (topic by name, or by ID when the response names
// none: Produce v13+), else nil.
func partitionAt(pr *wire.ProduceResponse, b *batch, ti, pi int) *wire.ProduceResponsePartition {
	if ti >= len(pr.Responses) {
		return nil
	}
	t := &pr.Responses[ti]
	if pi >= len(t.PartitionResponses) || (t.Name != b.topic.name && (t.Name != "" || t.TopicID != b.topicID)) {
		return nil
	}
	if pp := &t.PartitionResponses[pi]; pp.Index == b.part.partition {
		return pp
	}
	return nil
}

// errMissingPartition: the response lacks a partition the request carried.
// The outcome is unknown (certainty PossiblySent); the batch is retried.
var errMissingPartition = errors.New("producer: ProduceResponse lacks a requested partition")

// complete applies one request's outcomes under the lock.
func (p *Producer) complete(r *inflightReq) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inflight[r.broker]--
	p.totalInflight--
	if p.idle != nil && p.totalInflight == 0 {
		close(p.idle)
		p.idle = nil
	}
	if p.closed {
		return // Close already gave every record its terminal
	}
	now := time.Now()
	for i, b := range r.batches {
		b.part.inflight--
		b.answered()
		p.lookAtLocked(b.part)
		p.onResultLocked(b.part, b, r.results[i], now)
	}
	p.recycleRequestLocked(r)
	p.admitWaitersLocked()
	p.wakeup()
}

// onResultLocked applies one batch's outcome: success (DUPLICATE_SEQUENCE_NUMBER
// included), retry, sequence reset or final failure.
func (p *Producer) onResultLocked(part *partState, b *batch, res batchResult, now time.Time) {
	err := res.err
	if err == nil || errors.Is(err, wire.ErrDuplicateSequenceNumber) {
		p.succeedLocked(part, b, res)
		return
	}
	b.lastErr = err
	if mayHaveWritten(err) {
		b.maybeWritten = true
	}
	if needsMetadata(err) {
		p.cl.InvalidateMetadata()
		part.leader = -1
		if res.leader >= 0 && res.leader != b.sentTo {
			part.leader = res.leader // the broker named the new leader (KIP-951)
		}
		p.meta.invalidate()
	}
	head := len(part.batches) > 0 && part.batches[0] == b
	exhausted := func() bool {
		return (p.cfg.retries >= 0 && b.attempts > p.cfg.retries) || !now.Before(b.deadline)
	}
	final := func() { p.endBatchLocked(part, b, err) }
	if errors.Is(err, wire.ErrOutOfOrderSequenceNumber) || errors.Is(err, wire.ErrUnknownProducerID) {
		if !head {
			// Behind an unresolved predecessor: resend in order once it resolves.
			part.retry = true
			if !now.Before(b.deadline) {
				final()
			}
			return
		}
		b.attempts++
		if p.restartContinuedLocked(part, b) {
			part.retry = true
			return
		}
		if b.maybeWritten || exhausted() || p.txn != nil {
			// A transactional producer cannot restart a sequence inside a
			// transaction: the transaction must abort.
			final()
			return
		}
		// The broker lost this producer's state for the partition: restart
		// the sequence at this batch under a new epoch (KIP-360).
		p.markGapLocked(part, b)
		part.retry = true
		return
	}
	if retriable(err) {
		b.attempts++
		if exhausted() {
			final()
			return
		}
		part.retry = true
		if t := now.Add(p.cfg.backoff); t.After(part.backoffUntil) {
			part.backoffUntil = t
		}
		return
	}
	b.attempts++
	final()
}

// succeedLocked gives every record of b its offset and removes b.
func (p *Producer) succeedLocked(part *partState, b *batch, res batchResult) {
	if part.acked == nil {
		part.acked = &outcome{topic: b.topic.name, partition: part.partition}
	}
	off := int64(-1) // unknown (a duplicate acknowledged without its offset)
	if res.baseOffset >= 0 {
		off = res.baseOffset
	}
	if p.hooks.Produce() {
		p.hooks.ProduceBatchAcked(client.BatchEvent{HighWatermark: -1, LastOffset: -1, Topic: b.topic.name, Partition: part.partition, Broker: part.leader, Records: b.live, Bytes: len(b.out), BaseOffset: off})
	}
	for k := range b.recs {
		r := &b.recs[k]
		if r.cancelled {
			continue
		}
		p.finishRecordLocked(r, part.acked, off, res.appendTime)
		if off >= 0 {
			off++
		}
	}
	part.producedRecords += uint64(b.live)
	part.producedBytes += uint64(len(b.out))
	b.live = 0
	part.ackedEnd = max(part.ackedEnd, off) // off: after the batch's last record, or -1 unknown
	part.lastRecs, part.lastStream, part.lastEncoded = len(b.recs), b.streamLen(), len(b.encoded)
	if b.pid == part.pid && b.epoch == part.epoch {
		part.confirmed = true
	}
	part.byName, part.continued = res.byName, false
	p.removeBatchPtrLocked(part, b)
	p.recycleLocked(b)
}

// mayHaveWritten reports whether an attempt that failed with err may still
// have appended the batch: client failures after bytes may have left, and
// broker errors outside wire.ClassNotAppended.
func mayHaveWritten(err error) bool {
	var kerr *wire.KafkaError
	if errors.As(err, &kerr) {
		return !wire.ClassOf(kerr.Code).Has(wire.ClassNotAppended)
	}
	if errors.Is(err, errNothingEncoded) || errors.Is(err, wire.ErrEmptyBatch) {
		return false
	}
	return client.CertaintyOf(err) == client.PossiblySent
}

// needsMetadata reports errors after which the partition's leader must be
// looked up again: wire.ClassStaleMetadata, of a Kafka code or of a
// transport failure (client.Classify).
func needsMetadata(err error) bool { return client.Classify(err).Has(wire.ClassStaleMetadata) }

// retriable reports whether resending can help: a Kafka code as the
// classifier says (wire.KafkaClass). Exception to client.Classify, for
// every other failure: the producer retries anything not known final
// (client.Fatal, an empty encoding, a cancelled context) until the batch's
// delivery timeout, as the Java producer does; ErrProtocol and
// ErrBackpressure included.
func retriable(err error) bool {
	if c, ok := wire.KafkaClass(err); ok {
		return c.Has(wire.ClassRetriable)
	}
	return !client.Fatal(err) && !errors.Is(err, errNothingEncoded) && !errors.Is(err, context.Canceled)
}
