package producer

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// inflightReq is one ProduceRequest: its batches (at most one per
// partition) and, after the response, each batch's outcome.
type inflightReq struct {
	broker   int32
	batches  []*batch
	results  []batchResult
	bytes    int
	deadline time.Time
	pending  client.Pending
	cancel   context.CancelFunc
	req      *wire.ProduceRequest // built by the sender, enqueued by the broker's goroutine
	err      error                // request-level failure (Enqueue or transport)
}

// batchResult is the broker's answer for one batch of a request.
type batchResult struct {
	err        error
	baseOffset int64
	appendTime int64
	leader     int32 // current leader from the response (KIP-951), -1 unknown
}

// run is the sender goroutine: it turns ready batches into ProduceRequests,
// in sequence order per partition, at most MaxInFlightPerBroker per broker.
func (p *Producer) run() {
	defer close(p.done)
	defer p.closeBrokerQueues()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var reqs []*inflightReq
	for {
		select {
		case <-p.quit:
			return
		case <-p.wake:
		case <-timer.C:
		}
		for {
			var needID bool
			var next time.Time
			needID, reqs, next = p.collect(time.Now(), reqs[:0])
			for i, r := range reqs {
				p.send(r)
				reqs[i] = nil
			}
			if needID {
				p.initProducerID(p.idDeadline)
				continue
			}
			if len(reqs) == 0 {
				timer.Reset(max(time.Until(next), time.Millisecond/10))
				break
			}
		}
	}
}

func (p *Producer) closeBrokerQueues() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for id, q := range p.brokerQ {
		close(q)
		delete(p.brokerQ, id)
	}
}

// collect expires, resets and selects batches to send now, building at most
// one request per broker. It returns whether a producer ID is needed first
// and when to look again.
func (p *Producer) collect(now time.Time, out []*inflightReq) (needID bool, _ []*inflightReq, next time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	next = now.Add(time.Hour)
	if p.closed {
		return false, out, next
	}
	soon := func(t time.Time) {
		if t.Before(next) {
			next = t
		}
	}
	p.syncMetadata(now, soon)
	start := len(out)
	for _, part := range p.parts {
		b := p.sendable(part, now, soon)
		if b == nil {
			continue
		}
		if !p.haveID {
			if now.Before(p.idBackoff) {
				soon(p.idBackoff)
			} else {
				if !needID || b.deadline.Before(p.idDeadline) {
					p.idDeadline = b.deadline
				}
				needID = true
			}
			continue
		}
		if part.leader < 0 {
			p.needMetadata(now, soon)
			continue
		}
		if p.inflight[part.leader] >= p.cfg.MaxInFlightPerBroker {
			continue // a response will wake the sender
		}
		var r *inflightReq
		for _, x := range out[start:] {
			if x.broker == part.leader {
				r = x
			}
		}
		size := b.est + batchOverhead + 64
		if r == nil {
			r = &inflightReq{broker: part.leader, deadline: now.Add(p.cfg.RequestTimeout)}
			out = append(out, r)
		} else if r.bytes+size > p.cfg.RequestMaxBytes {
			continue // next pass
		}
		p.assignSequence(part, b)
		b.topicID = part.topic.id
		b.sentTo = part.leader
		b.state = batchInFlight
		b.handed = true
		part.inflight++
		r.batches = append(r.batches, b)
		r.bytes += size
		if b.deadline.Before(r.deadline) {
			r.deadline = b.deadline
		}
	}
	for _, r := range out[start:] {
		p.inflight[r.broker]++
		p.totalInflight++
		p.m.PeakProduceInFlightRequests = max(p.m.PeakProduceInFlightRequests, p.totalInflight)
		p.m.PeakProduceInFlightPerBroker = max(p.m.PeakProduceInFlightPerBroker, p.inflight[r.broker])
	}
	return needID, out, next
}

// sendable returns the partition's next batch to send, or nil. On the way
// it drops emptied batches, expires batches past their delivery deadline
// and performs a pending sequence reset (KIP-360).
func (p *Producer) sendable(part *partState, now time.Time, soon func(time.Time)) *batch {
	for i := 0; i < len(part.batches); i++ {
		b := part.batches[i]
		if b.state == batchInFlight {
			continue
		}
		switch {
		case b.live == 0 && !b.sequenced:
			p.removeBatch(part, i)
			p.recycle(b)
			i--
		case !now.Before(b.deadline):
			p.markGap(part, b)
			p.failBatch(b, p.timeoutErr(b), certaintyOf(b))
			p.removeBatch(part, i)
			p.recycle(b)
			i--
		case !b.handed && p.fatalFor(b) != nil:
			p.failBatch(b, p.fatalFor(b), client.NotSent)
			p.removeBatch(part, i)
			p.recycle(b)
			i--
		default:
			soon(b.deadline)
		}
	}
	if part.gap && part.inflight == 0 {
		earlier := false
		for _, b := range part.batches {
			if b.sequenced && b.baseSeq < part.gapSeq {
				earlier = true
				break
			}
		}
		if !earlier {
			p.resetPartition(part)
		}
	}
	if part.retry {
		if part.inflight > 0 {
			return nil
		}
		part.retry = false
	}
	if now.Before(part.backoffUntil) {
		soon(part.backoffUntil)
		return nil
	}
	if !part.confirmed && part.inflight > 0 {
		return nil
	}
	for _, b := range part.batches {
		if b.state == batchInFlight {
			continue
		}
		if part.gap && !(b.sequenced && b.baseSeq < part.gapSeq) {
			return nil
		}
		if b.state == batchOpen {
			due := b.created.Add(p.cfg.linger)
			if !p.full(b) && now.Before(due) && p.flushing == 0 && !p.closing {
				soon(due)
				return nil
			}
			b.state = batchReady
		}
		return b
	}
	return nil
}

func (p *Producer) removeBatch(part *partState, i int) {
	copy(part.batches[i:], part.batches[i+1:])
	part.batches[len(part.batches)-1] = nil
	part.batches = part.batches[:len(part.batches)-1]
}

func (p *Producer) removeBatchPtr(part *partState, b *batch) {
	for i, x := range part.batches {
		if x == b {
			p.removeBatch(part, i)
			return
		}
	}
}

// fatalFor returns an error that dooms an unsent batch before any send:
// InitProducerId or the topic's metadata failed with a non-retriable broker
// error (e.g. CLUSTER_AUTHORIZATION_FAILED, TOPIC_AUTHORIZATION_FAILED), or
// metadata fetched after the batch was opened says the partition does not
// exist (as the Java client rejects an invalid partition). Retriable
// conditions return nil: the batch waits until its delivery deadline.
func (p *Producer) fatalFor(b *batch) error {
	if !p.haveID && isFatal(p.idErr) {
		return p.idErr
	}
	t := b.topic
	if isFatal(t.metaErr) {
		return t.metaErr
	}
	if part := b.part; part != nil && part.leader < 0 && t.numParts > 0 && part.partition >= t.numParts &&
		p.lastMeta != nil && p.lastMeta.Fetched.After(b.created) {
		return fmt.Errorf("%w: partition %d of %d", wire.ErrUnknownTopicOrPartition, part.partition, t.numParts)
	}
	return nil
}

// isFatal reports a broker error that retrying cannot cure.
func isFatal(err error) bool {
	var kerr *wire.KafkaError
	return errors.As(err, &kerr) && !kerr.Retriable
}

// certaintyOf is what is known about a batch that fails now: PossiblySent
// when it is in flight or some attempt ended with an unknown outcome.
func certaintyOf(b *batch) client.Certainty {
	if b.state == batchInFlight || b.maybeWritten {
		return client.PossiblySent
	}
	return client.NotSent
}

// timeoutErr is the delivery-timeout error of a batch, naming the last
// failure seen.
func (p *Producer) timeoutErr(b *batch) error {
	last := b.lastErr
	if last == nil && !p.haveID {
		last = p.idErr
	}
	if last == nil && b.part != nil && b.part.leader < 0 {
		last = b.topic.metaErr
	}
	if last == nil {
		return ErrDeliveryTimeout
	}
	return &timeoutError{last: last}
}

// timeoutError is ErrDeliveryTimeout with the last failure seen before it.
type timeoutError struct{ last error }

func (e *timeoutError) Error() string {
	return ErrDeliveryTimeout.Error() + " (last error: " + e.last.Error() + ")"
}
func (e *timeoutError) Unwrap() error        { return ErrDeliveryTimeout }
func (e *timeoutError) Last() error          { return e.last }
func (e *timeoutError) Is(target error) bool { return target == ErrDeliveryTimeout }

// markGap records that sequenced batch b will not complete: batches after it
// cannot be written under the current sequence (KIP-360). Unsequenced
// batches leave no gap.
func (p *Producer) markGap(part *partState, b *batch) {
	if part == nil || !b.sequenced {
		return
	}
	if !part.gap || b.baseSeq < part.gapSeq {
		part.gapSeq = b.baseSeq
	}
	part.gap = true
	part.gapUnknown = part.gapUnknown || b.maybeWritten
}

// resetPartition restarts a partition's sequence under a new epoch once
// nothing before its gap is outstanding (KIP-360). A remaining sequenced
// batch that may have been written after an unresolved gap cannot be resent
// without risking a duplicate, so it fails PossiblySent; the others, which
// the broker definitely rejected, are sequenced again.
func (p *Producer) resetPartition(part *partState) {
	for i := 0; i < len(part.batches); i++ {
		b := part.batches[i]
		if !b.sequenced {
			continue
		}
		if part.gapUnknown && b.maybeWritten {
			p.failBatch(b, ErrSequenceReset, client.PossiblySent)
			p.removeBatch(part, i)
			p.recycle(b)
			i--
			continue
		}
		b.sequenced = false
		b.maybeWritten = false
		b.encoded = b.encoded[:0]
	}
	part.gap, part.gapUnknown, part.retry = false, false, false
	if part.hasID && part.pid == p.pid && part.epoch >= p.epoch && p.haveID {
		p.bumpEpoch()
	}
	part.hasID = false
}

// bumpEpoch moves the producer to the next epoch locally, as KIP-360 lets an
// idempotent producer do; at epoch exhaustion it asks for a new producer ID.
func (p *Producer) bumpEpoch() {
	if p.epoch == math.MaxInt16 {
		p.haveID = false
		return
	}
	p.epoch++
}

// assignSequence gives b its sequence range on first send. An idle
// partition adopts the producer's current ID and epoch at sequence 0.
func (p *Producer) assignSequence(part *partState, b *batch) {
	if b.sequenced {
		return
	}
	if !part.hasID || part.pid != p.pid || part.epoch != p.epoch {
		idle := true
		for _, x := range part.batches {
			if x.sequenced {
				idle = false
				break
			}
		}
		if !part.hasID || idle {
			part.hasID, part.pid, part.epoch, part.nextSeq = true, p.pid, p.epoch, 0
			part.confirmed = false
		}
	}
	b.pid, b.epoch, b.baseSeq = part.pid, part.epoch, part.nextSeq
	b.numSeq = int32(b.live)
	b.sequenced = true
	b.encoded = b.encoded[:0]
	if need := b.est + batchOverhead + 64; cap(b.encoded) < need {
		p.pools.bytes.put(b.encoded)
		b.encoded = p.pools.bytes.get(need)
	}
	next := int64(part.nextSeq) + int64(b.numSeq)
	if next > math.MaxInt32 {
		next -= math.MaxInt32 + 1 // sequences wrap to 0 (Kafka DefaultRecordBatch.incrementSequence)
	}
	part.nextSeq = int32(next)
}

// send encodes r's batches, enqueues the ProduceRequest on the broker's
// connection (in call order, which keeps sequence order) and hands it to the
// broker's response goroutine. Called by the sender goroutine only.
func (p *Producer) send(r *inflightReq) {
	r.results = make([]batchResult, len(r.batches))
	req := &wire.ProduceRequest{Acks: -1}
	req.TimeoutMs = int32(max(time.Until(r.deadline), time.Millisecond) / time.Millisecond)
	encoded := 0
	records := 0
	for i, b := range r.batches {
		if err := p.encode(b); err != nil {
			r.results[i].err = err
			continue
		}
		encoded += len(b.encoded)
		records += int(b.numSeq)
		addPartition(req, b)
	}
	if len(req.TopicData) == 0 {
		r.err = errNothingEncoded
	} else {
		r.req = req
	}
	p.mu.Lock()
	p.m.ProduceRequests++
	p.m.ProduceBatches += uint64(len(r.batches))
	p.m.ProduceRecords += uint64(records)
	p.m.ProduceEncodedBytes += uint64(encoded)
	q := p.brokerQ[r.broker]
	if q == nil {
		q = make(chan *inflightReq, 8)
		p.brokerQ[r.broker] = q
		rq := make(chan *inflightReq, 8)
		go p.enqueueLoop(q, rq)
		go p.brokerLoop(rq)
	}
	p.mu.Unlock()
	q <- r // never blocks: at most MaxInFlightPerBroker requests per broker exist
}

// enqueueLoop hands one broker's requests to the client in order (so
// sequence numbers reach the broker in order) without stalling the sender
// or other brokers while this one's connection is slow or down; each
// attempt's wait is bounded by its deadline.
func (p *Producer) enqueueLoop(q <-chan *inflightReq, rq chan<- *inflightReq) {
	defer close(rq)
	for r := range q {
		if r.req != nil {
			ctx, cancel := context.WithDeadline(p.ctx, r.deadline)
			r.cancel = cancel
			r.pending, r.err = p.cl.Enqueue(ctx, r.broker, r.req)
			r.req = nil
		}
		rq <- r
	}
}

// encode encodes b's live records once per sequence assignment into
// b.encoded (retries resend the same bytes). Sender goroutine only.
func (p *Producer) encode(b *batch) error {
	if len(b.encoded) > 0 {
		return nil
	}
	h := wire.BatchHeader{
		Compression:   p.cfg.Compression,
		ProducerID:    b.pid,
		ProducerEpoch: b.epoch,
		BaseSequence:  b.baseSeq,
	}
	recs := b.wireRecords(&p.sc)
	if len(recs) > 0 {
		h.BaseTimestamp = recs[0].Timestamp
	}
	enc, err := p.enc.AppendBatch(b.encoded[:0], &h, recs)
	if err != nil {
		return err
	}
	b.encoded = enc
	return nil
}

var errNothingEncoded = errors.New("gregor/producer: no batch of the request could be encoded")

// addPartition appends b's encoded batch to req under its topic.
func addPartition(req *wire.ProduceRequest, b *batch) {
	t := b.topic
	var td *wire.ProduceRequestTopic
	for i := range req.TopicData {
		if req.TopicData[i].Name == t.name {
			td = &req.TopicData[i]
		}
	}
	if td == nil {
		req.TopicData = append(req.TopicData, wire.ProduceRequestTopic{Name: t.name, TopicID: b.topicID})
		td = &req.TopicData[len(req.TopicData)-1]
	}
	td.PartitionData = append(td.PartitionData, wire.ProduceRequestPartition{Index: b.part.partition, Records: b.encoded})
}

// brokerLoop receives one broker's requests in the order they were
// enqueued and applies each response in that order.
func (p *Producer) brokerLoop(q chan *inflightReq) {
	for r := range q {
		var resp wire.Response
		if r.pending != nil {
			<-r.pending.Done()
			resp, r.err = r.pending.Result()
		}
		if r.cancel != nil {
			r.cancel()
		}
		p.parseResponse(r, resp)
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
	for i, b := range r.batches {
		if r.results[i].err != nil {
			continue
		}
		found := false
		for ti := range pr.Responses {
			t := &pr.Responses[ti]
			if t.Name != b.topic.name && (t.Name != "" || t.TopicID != b.topicID) {
				continue
			}
			for pi := range t.PartitionResponses {
				pp := &t.PartitionResponses[pi]
				if pp.Index != b.part.partition {
					continue
				}
				found = true
				r.results[i] = batchResult{err: wire.ErrorForCode(pp.ErrorCode), baseOffset: pp.BaseOffset, appendTime: pp.LogAppendTimeMs, leader: -1}
				if pp.CurrentLeader.LeaderID >= 0 && pp.ErrorCode != 0 {
					r.results[i].leader = pp.CurrentLeader.LeaderID
				}
			}
		}
		if !found {
			r.results[i].err = errMissingPartition
		}
	}
}

// errMissingPartition: the response lacks a partition the request carried.
// The outcome is unknown (certainty PossiblySent); the batch is retried.
var errMissingPartition = errors.New("gregor/producer: ProduceResponse lacks a requested partition")

// complete applies one request's outcomes under the lock.
func (p *Producer) complete(r *inflightReq) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inflight[r.broker]--
	p.totalInflight--
	if p.closed {
		return // Close already gave every record its terminal
	}
	now := time.Now()
	for i, b := range r.batches {
		b.part.inflight--
		b.state = batchReady
		p.onResult(b.part, b, r.results[i], now)
	}
	p.admitWaiters()
	p.wakeup()
}

// onResult applies one batch's outcome: success (DUPLICATE_SEQUENCE_NUMBER
// included), retry, sequence reset or final failure.
func (p *Producer) onResult(part *partState, b *batch, res batchResult, now time.Time) {
	err := res.err
	if err == nil || errors.Is(err, wire.ErrDuplicateSequenceNumber) {
		p.succeed(part, b, res)
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
		if p.lastMeta != nil {
			p.staleMeta = p.lastMeta
		}
		p.lastMeta = nil
	}
	head := len(part.batches) > 0 && part.batches[0] == b
	exhausted := func() bool {
		return (p.cfg.MaxRetries >= 0 && b.attempts > p.cfg.MaxRetries) || !now.Before(b.deadline)
	}
	final := func() {
		p.markGap(part, b)
		p.failBatch(b, err, certaintyOf(b))
		p.removeBatchPtr(part, b)
		p.recycle(b)
	}
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
		if b.maybeWritten || exhausted() {
			final()
			return
		}
		// The broker lost this producer's state for the partition: restart
		// the sequence at this batch under a new epoch (KIP-360).
		p.markGap(part, b)
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

// succeed gives every record of b its offset and removes b.
func (p *Producer) succeed(part *partState, b *batch, res batchResult) {
	i := int64(0)
	for k := range b.recs {
		r := &b.recs[k]
		if r.cancelled {
			continue
		}
		off := int64(-1)
		if res.baseOffset >= 0 {
			off = res.baseOffset + i
		}
		ts := b.wrecs[k].Timestamp
		if res.appendTime >= 0 {
			ts = res.appendTime
		}
		i++
		p.finishRecord(b, r, Result{Topic: b.topic.name, Partition: part.partition, Offset: off, Timestamp: ts})
	}
	b.live = 0
	part.lastRecs = len(b.recs)
	if b.pid == part.pid && b.epoch == part.epoch {
		part.confirmed = true
	}
	p.removeBatchPtr(part, b)
	p.recycle(b)
}

// mayHaveWritten reports whether an attempt that failed with err may still
// have appended the batch: client failures after bytes may have left, and
// broker errors other than the definite rejections below.
func mayHaveWritten(err error) bool {
	var kerr *wire.KafkaError
	if errors.As(err, &kerr) {
		switch kerr.Code {
		case wire.ErrNotLeaderOrFollower.Code, wire.ErrUnknownTopicOrPartition.Code, wire.ErrLeaderNotAvailable.Code,
			wire.ErrNotEnoughReplicas.Code, wire.ErrOutOfOrderSequenceNumber.Code, wire.ErrUnknownProducerID.Code,
			wire.ErrInvalidProducerEpoch.Code, wire.ErrProducerFenced.Code, wire.ErrMessageTooLarge.Code,
			wire.ErrRecordListTooLarge.Code, wire.ErrInvalidRecord.Code, wire.ErrCorruptMessage.Code,
			wire.ErrTopicAuthorizationFailed.Code, wire.ErrClusterAuthorizationFailed.Code, wire.ErrInvalidTimestamp.Code,
			wire.ErrInvalidRequiredAcks.Code, wire.ErrUnsupportedForMessageFormat.Code, wire.ErrUnsupportedCompressionType.Code,
			wire.ErrFencedLeaderEpoch.Code, wire.ErrInvalidTopicException.Code, wire.ErrUnsupportedVersion.Code,
			wire.ErrInvalidRequest.Code:
			return false
		}
		return true
	}
	if errors.Is(err, errNothingEncoded) || errors.Is(err, wire.ErrEmptyBatch) {
		return false
	}
	return client.CertaintyOf(err) == client.PossiblySent
}

// needsMetadata reports errors after which the partition's leader must be
// looked up again.
func needsMetadata(err error) bool {
	return errors.Is(err, wire.ErrNotLeaderOrFollower) || errors.Is(err, wire.ErrUnknownTopicOrPartition) ||
		errors.Is(err, wire.ErrLeaderNotAvailable) || errors.Is(err, wire.ErrFencedLeaderEpoch) ||
		errors.Is(err, wire.ErrKafkaStorageError) || errors.Is(err, client.ErrTransport) ||
		errors.Is(err, client.ErrUnknownBroker) || errors.Is(err, client.ErrTimeout)
}

// retriable reports whether resending can help.
func retriable(err error) bool {
	var kerr *wire.KafkaError
	if errors.As(err, &kerr) {
		return kerr.Retriable
	}
	switch {
	case errors.Is(err, client.ErrClosed), errors.Is(err, client.ErrCancelled), errors.Is(err, client.ErrAuthentication),
		errors.Is(err, client.ErrUnsupportedVersion), errors.Is(err, client.ErrClusterIdentity), errors.Is(err, errNothingEncoded),
		errors.Is(err, context.Canceled):
		return false
	}
	return true
}
