package producer

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
) // inflightReq is one ProduceRequest: its batches (at most one per
// partition) and, after the response, each batch's outcome.
type inflightReq struct {
	broker   int32
	batches  []*batch
	results  []batchResult
	bytes    int
	deadline time.Time
	call     client.Call          // the request's call once enqueued; released after its response is applied
	actx     *attemptCtx          // the attempt's context (reused with the inflightReq); armed while enqueued
	req      *wire.ProduceRequest // &prq once built by the sender; enqueued by the broker's goroutine
	prq      wire.ProduceRequest  // reused with the inflightReq
	resp     wire.ProduceResponse // prq's responses decode here (SetResponseInto), reusing its arrays
	ix       answerIndex          // resp's answers by partition when not in request order (parseResponse)
	err      error                // request-level failure (StartCall or transport)
}

// batchResult is the broker's answer for one batch of a request.
type batchResult struct {
	err        error
	baseOffset int64
	appendTime int64
	leader     int32 // current leader from the response (KIP-951), -1 unknown
	byName     bool  // the answer named the topic, not its ID (Produce before v13)
}

// run is the sender goroutine: it turns ready batches into Requests,
// in sequence order per partition, at most MaxInFlightPerBroker per broker.
func (p *Producer) run() {
	defer close(p.done)
	defer p.closeBrokerQueues()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var reqs []*inflightReq
	clientDone := p.clientDone
	for {
		select {
		case <-p.quit:
			return
		case <-p.wake:
		case <-timer.C:
		case <-clientDone:
			clientDone = nil
			p.clientClosed()
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
				p.initProducerID(p.ident.deadline)
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
//
// It drains as the Java client's RecordAccumulator does: a broker is ready
// when a partition it leads has a due batch (full, lingered, flushed,
// closing, or sealed for a resend), and then the request takes the next
// sendable batch of every partition of that broker, open ones sealed, up
// to RequestMaxBytes, in the order of the broker's queue (ready.go), where
// a drained partition goes to the tail so that no partition starves. A
// pass costs O(partitions that changed + partitions drained) (readyLocked).
func (p *Producer) collect(now time.Time, out []*inflightReq) (needID bool, _ []*inflightReq, next time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.next = now.Add(time.Hour)
	if p.closed {
		return false, out, p.next
	}
	if p.gone {
		p.failUnsentLocked(errClientClosed) // e.g. a batch put back for a retry after the client closed
		return false, out, p.next
	}
	p.syncMetadataLocked(now)
	needID = p.readyLocked(now)
	start := len(out)
	for i, br := range p.ready {
		if r := p.drainLocked(br, now); r != nil {
			out = append(out, r)
		}
		p.ready[i] = nil
	}
	p.ready = p.ready[:0]
	p.encoding += len(out) - start
	for _, r := range out[start:] {
		p.inflight[r.broker]++
		p.totalInflight++
		p.m.PeakInFlight = max(p.m.PeakInFlight, p.totalInflight)
		p.m.PeakInFlightPerBroker = max(p.m.PeakInFlightPerBroker, p.inflight[r.broker])
	}
	return needID, out, p.next
}

// drainLocked builds br's request: the next sendable batch of each
// partition in br's queue, from the head, until the next would exceed
// RequestMaxBytes; each partition drained moves to the queue's tail. The
// broker stays due when the request stopped at RequestMaxBytes, and is
// idle when nothing could be sent. It returns nil when no batch may be sent
// (all waiting for responses or backoffs, or txn MaySend).
func (p *Producer) drainLocked(br *brokerReady, now time.Time) *inflightReq {
	var r *inflightReq
	stopped := false
	end := br.q.tail
	for part := br.q.head; part != nil; {
		next, last := part.qNext, part == end
		if part.leader != br.id {
			p.requeueLocked(part, false) // metadata moved it; its broker's pass takes it
			p.lookAtLocked(part)
		} else if b, _ := p.sendableLocked(part, now); b == nil {
			p.requeueLocked(part, false) // leaves the queue once nothing is unsent
		} else if size := b.est + batchOverhead + 64; r != nil && r.bytes+size > p.cfg.RequestMaxBytes {
			stopped = true
			break
		} else if p.txn == nil || p.txn.MaySend(part.topic.name, part.partition) { // else txn calls Wake
			if r == nil {
				r = p.newRequestLocked(br.id, now.Add(p.cfg.RequestTimeout))
			}
			p.addBatchLocked(r, part, b, size)
			p.requeueLocked(part, true)
		}
		if last {
			break
		}
		part = next
	}
	br.due, br.idle = stopped, r == nil
	return r
}

// addBatchLocked seals b (if open), gives it its sequence numbers and puts
// it in r.
func (p *Producer) addBatchLocked(r *inflightReq, part *partState, b *batch, size int) {
	if b.phase == batchOpen {
		b.seal()
	}
	p.assignSequenceLocked(part, b)
	b.topicID = part.topic.id
	b.sentTo = part.leader
	b.send()
	part.inflight++
	r.batches = append(r.batches, b)
	r.bytes += size
	if b.deadline.Before(r.deadline) {
		r.deadline = b.deadline
	}
}

// newRequestLocked returns a recycled (or new) request for broker.
func (p *Producer) newRequestLocked(broker int32, deadline time.Time) *inflightReq {
	var r *inflightReq
	if n := len(p.freeReqs); n > 0 {
		r = p.freeReqs[n-1]
		p.freeReqs[n-1] = nil
		p.freeReqs = p.freeReqs[:n-1]
	} else {
		r = &inflightReq{}
	}
	r.broker, r.deadline = broker, deadline
	return r
}

// recycleRequestLocked keeps r for reuse once its outcome was applied; it drops
// every reference to batches, responses and errors.
// A request that failed as a whole is not kept: it may have been abandoned
// while written, and its response, arriving late, would be decoded into
// r.resp (SetResponseInto) while r served another request.
func (p *Producer) recycleRequestLocked(r *inflightReq) {
	if r.err != nil {
		if r.actx != nil {
			r.actx.release()
		}
		return
	}
	clear(r.batches)
	clear(r.results)
	for i := range r.prq.TopicData {
		clear(r.prq.TopicData[i].PartitionData)
		r.prq.TopicData[i].PartitionData = r.prq.TopicData[i].PartitionData[:0]
	}
	*r = inflightReq{
		batches: r.batches[:0],
		results: r.results[:0],
		prq:     wire.ProduceRequest{TopicData: r.prq.TopicData[:0]},
		resp:    wire.ProduceResponse{Responses: r.resp.Responses[:0]},
		ix:      r.ix,
		actx:    r.actx,
	}
	if len(p.freeReqs) < 64 {
		p.freeReqs = append(p.freeReqs, r)
	} else if r.actx != nil {
		r.actx.release()
	}
}

// soonLocked makes the sender look again no later than t (during collect).
func (p *Producer) soonLocked(t time.Time) {
	if t.Before(p.next) {
		p.next = t
	}
}

// sendableLocked returns the partition's next batch to send, or nil, and
// whether it is due: sealed, or open and full, past its linger, flushed or
// closing. An open batch is returned unsealed (drainLocked seals it if it
// goes). On the way it drops emptied batches, expires batches past their
// delivery deadline and performs a pending sequence reset (KIP-360).
func (p *Producer) sendableLocked(part *partState, now time.Time) (*batch, bool) {
	for i := 0; i < len(part.batches); i++ {
		b := part.batches[i]
		if b.inFlight() {
			continue
		}
		p.pinUnpinnedLocked(b)
		switch {
		case b.live == 0 && !b.sequenced():
			p.removeBatchLocked(part, i)
			p.recycleLocked(b)
			i--
		case !now.Before(b.deadline):
			p.endBatchLocked(part, b, p.timeoutErrLocked(b))
			i--
		case idChanged(b) != nil:
			p.endBatchLocked(part, b, idChanged(b))
			i--
		default:
			if !b.handed {
				if err := p.fatalForLocked(b, now); err != nil {
					p.failBatchLocked(b, err, client.NotSent)
					p.removeBatchLocked(part, i)
					p.recycleLocked(b)
					i--
					continue
				}
			}
			p.walkByLocked(b.deadline)
		}
	}
	if part.gap && part.inflight == 0 {
		earlier := false
		for _, b := range part.batches {
			if b.sequenced() && b.baseSeq < part.gapSeq {
				earlier = true
				break
			}
		}
		if !earlier {
			p.resetPartitionLocked(part)
		}
	}
	if part.retry {
		if part.inflight > 0 {
			return nil, false
		}
		part.retry = false
	}
	if now.Before(part.backoffUntil) {
		p.walkByLocked(part.backoffUntil)
		return nil, false
	}
	if !part.confirmed && part.inflight > 0 {
		return nil, false
	}
	for _, b := range part.batches {
		if b.inFlight() {
			continue
		}
		if part.gap && !(b.sequenced() && b.baseSeq < part.gapSeq) {
			return nil, false
		}
		if b.phase == batchOpen {
			due := b.created.Add(p.cfg.linger)
			if !p.fullLocked(b) && now.Before(due) && p.flushing == 0 && !p.closing {
				p.soonLocked(due)
				return b, false
			}
		}
		return b, true
	}
	return nil, false
}

// endBatchLocked fails part's batch b with err and the certainty its attempts
// leave, and drops it; a sequenced batch leaves a gap (markGapLocked).
func (p *Producer) endBatchLocked(part *partState, b *batch, err error) {
	p.markGapLocked(part, b)
	p.failBatchLocked(b, err, certaintyOf(b))
	p.removeBatchPtrLocked(part, b)
	p.recycleLocked(b)
}

func (p *Producer) removeBatchLocked(part *partState, i int) {
	copy(part.batches[i:], part.batches[i+1:])
	part.batches[len(part.batches)-1] = nil
	part.batches = part.batches[:len(part.batches)-1]
}

func (p *Producer) removeBatchPtrLocked(part *partState, b *batch) {
	for i, x := range part.batches {
		if x == b {
			p.removeBatchLocked(part, i)
			return
		}
	}
}

// fatalForLocked returns an error that dooms an unsent batch before any send:
// InitProducerId or the topic's metadata failed with a non-retriable broker
// error (e.g. CLUSTER_AUTHORIZATION_FAILED, TOPIC_AUTHORIZATION_FAILED), or
// metadata fetched after the batch was opened says the partition does not
// exist (as the Java client rejects an invalid partition). Retriable
// conditions return nil: the batch waits until its delivery deadline.
//
// A non-retriable error fails only batches whose every record was admitted
// by the time the error was observed. A record admitted later gets a fresh
// look first (an ACL may have been granted meanwhile): the metadata lookup
// is started here, and InitProducerId is retried by collect once its
// backoff passes; the batch fails only if the fresh answer is the same.
func (p *Producer) fatalForLocked(b *batch, now time.Time) error {
	if err := p.ident.fatalFor(b.lastAdmit); err != nil {
		return err
	}
	t := b.topic
	if wire.Fatal(t.metaErr) {
		if !b.lastAdmit.After(t.metaErrAt) {
			return t.metaErr
		}
		p.needMetadataLocked(now)
	}
	if n := t.unknown - b.unknownBase; p.cfg.UnknownTopicRetries >= 0 && n > p.cfg.UnknownTopicRetries &&
		errors.Is(t.metaErr, wire.ErrUnknownTopicOrPartition) && !b.lastAdmit.After(t.metaErrAt) {
		return &unknownTopicError{topic: t.name, refreshes: n, retries: p.cfg.UnknownTopicRetries}
	}
	if part := b.part; part != nil && part.leader < 0 && t.numParts > 0 && part.partition >= t.numParts &&
		p.meta.fetchedAfter(b.created) {
		return fmt.Errorf("%w: partition %d of %d", wire.ErrUnknownTopicOrPartition, part.partition, t.numParts)
	}
	return nil
}

// certaintyOf is what is known about a batch that fails now: PossiblySent
// when it is in flight or some attempt ended with an unknown outcome.
func certaintyOf(b *batch) client.Certainty {
	if b.inFlight() || b.maybeWritten {
		return client.PossiblySent
	}
	return client.NotSent
}

// timeoutErrLocked is the delivery-timeout error of a batch, naming the last
// failure seen: the batch's last send error, else the last InitProducerId
// failure, else (for a record still waiting for its topic's partitions or
// its partition's leader) the last metadata condition of its topic.
func (p *Producer) timeoutErrLocked(b *batch) error {
	last := b.lastErr
	if last == nil {
		last = p.ident.lastErr()
	}
	if last == nil && b.topic.metaErr != nil {
		if b.part == nil || b.topic.numParts == 0 {
			last = &metadataError{what: "topic " + strconv.Quote(b.topic.name) + " not present in metadata", err: b.topic.metaErr}
		} else if b.part.leader < 0 {
			last = &metadataError{what: "no leader for " + b.topic.name + "/" + strconv.Itoa(int(b.part.partition)) + " in metadata", err: b.topic.metaErr}
		}
	}
	if last == nil {
		return ErrDeliveryTimeout
	}
	return &timeoutError{last: last}
}

// unknownTopicError is the terminal of a record whose topic stayed unknown
// for more than UnknownTopicRetries metadata refreshes in a row. It wraps
// wire.ErrUnknownTopicOrPartition, but the producer already retried, so it
// is not retriable (gregor.IsRetriable).
type unknownTopicError struct {
	topic              string
	refreshes, retries int
}

func (e *unknownTopicError) Error() string {
	return fmt.Sprintf("topic %q still unknown after UnknownTopicRetries (%d) retries (%d metadata refreshes in a row): %v",
		e.topic, e.retries, e.refreshes, wire.ErrUnknownTopicOrPartition)
}
func (e *unknownTopicError) Unwrap() error   { return wire.ErrUnknownTopicOrPartition }
func (e *unknownTopicError) Retriable() bool { return false }

// metadataError is the metadata condition that kept a record from being sent:
// what was missing and the last metadata error for its topic.
type metadataError struct {
	what string
	err  error
}

func (e *metadataError) Error() string { return e.what + ": " + e.err.Error() }
func (e *metadataError) Unwrap() error { return e.err }

// timeoutError is ErrDeliveryTimeout with the last failure seen before it.
// Unwrap gives only ErrDeliveryTimeout (so errors.As finds no
// *wire.KafkaError and callers classify the failure as a timeout), but Is
// also matches the broker error codes (*wire.KafkaError) of the last
// failure: errors.Is(err, wire.ErrUnknownTopicOrPartition) holds when
// metadata said so. Last returns the last failure itself.
type timeoutError struct{ last error }

func (e *timeoutError) Error() string {
	return ErrDeliveryTimeout.Error() + " (last error: " + e.last.Error() + ")"
}
func (e *timeoutError) Unwrap() error { return ErrDeliveryTimeout }
func (e *timeoutError) Last() error   { return e.last }
func (e *timeoutError) Is(target error) bool {
	if target == ErrDeliveryTimeout {
		return true
	}
	_, broker := target.(*wire.KafkaError)
	return broker && errors.Is(e.last, target)
}

// send encodes r's batches, enqueues the ProduceRequest on the broker's
// connection (in call order, which keeps sequence order) and hands it to the
// broker's response goroutine. Called by the sender goroutine only.
func (p *Producer) send(r *inflightReq) {
	r.results = r.results[:0]
	for range r.batches {
		r.results = append(r.results, batchResult{leader: -1})
	}
	req := &r.prq
	req.SetResponseInto(&r.resp)
	req.Acks = -1
	if p.txn != nil {
		req.TransactionalID = &p.txn.TransactionalID
		req.VersionCap = p.txn.ProduceVersionCap
	}
	req.TimeoutMs = int32(max(time.Until(r.deadline), time.Millisecond) / time.Millisecond)
	encoded := 0
	records := 0
	for i, b := range r.batches {
		if err := p.encode(b); err != nil {
			r.results[i].err = err
			continue
		}
		encoded += len(b.out)
		records += int(b.numSeq)
		addPartition(req, b)
		if p.hooks.Produce() {
			p.hooks.ProduceBatchWritten(client.BatchEvent{HighWatermark: -1, LastOffset: -1, Topic: b.topic.name, Partition: b.part.partition, Broker: r.broker, Records: int(b.numSeq), Bytes: len(b.out), BaseOffset: -1})
		}
	}
	if len(req.TopicData) == 0 {
		r.err = errNothingEncoded
	} else {
		r.req = req
	}
	p.mu.Lock()
	for _, b := range r.batches {
		b.releaseStream(&p.pools)
		b.releaseRefs(&p.pools)
	}
	p.encodedLocked()
	p.m.Requests++
	p.m.Batches += uint64(len(r.batches))
	p.m.Records += uint64(records)
	p.m.Bytes += uint64(encoded)
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

// encodedLocked counts a request collect took as encoded, waking a Close
// waiting for the last one (waitEncodedLocked).
func (p *Producer) encodedLocked() {
	if p.encoding--; p.encoding == 0 && p.encodedCh != nil {
		close(p.encodedCh)
		p.encodedCh = nil
	}
}

// enqueueLoop hands one broker's requests to the client in order (so
// sequence numbers reach the broker in order) without stalling the sender
// or other brokers while this one's connection is slow or down; each
// attempt's wait is bounded by its deadline.
func (p *Producer) enqueueLoop(q <-chan *inflightReq, rq chan<- *inflightReq) {
	defer close(rq)
	for r := range q {
		if r.req != nil {
			if r.actx == nil {
				r.actx = newAttemptCtx(p.ctx)
			}
			r.actx.arm(r.deadline)
			r.call, r.err = p.cl.StartCall(r.actx, r.broker, r.req)
			r.req = nil
		}
		rq <- r
	}
}

// encode finishes b's record batch once per sequence assignment into b.out
// (retries resend the same bytes): in place in the stream when
// uncompressed, else compressed into b.encoded. A borrowing batch's records
// are first encoded into its stream (build), on its first send only.
// Sender goroutine only.
func (p *Producer) encode(b *batch) error {
	if b.encodedOK {
		return nil
	}
	if b.zsErr != nil {
		return b.zsErr
	}
	if len(b.refs) > 0 {
		b.build(&p.pools) // BorrowSlices: the records are encoded now, once
	}
	h := wire.BatchHeader{
		Compression:   p.cfg.Compression,
		ProducerID:    b.pid,
		ProducerEpoch: b.epoch,
		BaseSequence:  b.baseSeq,
		BaseTimestamp: b.baseTS,
		Transactional: p.txn != nil,
	}
	if b.zs != nil || b.streamed {
		if !b.streamed {
			b.finishStream()
		}
		if err := wire.SealBatch(b.encoded, &h, b.numSeq, b.maxTS); err != nil {
			return err
		}
		b.out, b.encodedOK = b.encoded, true
		return nil
	}
	var out []byte
	var err error
	if p.pools.runningCRC && len(b.stream)-wire.BatchHeaderLen >= combineMinLen {
		b.updateCRC()
		out, err = p.enc.FinishBatchCRC(b.encoded[:0], b.stream, &h, b.numSeq, b.maxTS, b.crc)
	} else {
		out, err = p.enc.FinishBatch(b.encoded[:0], b.stream, &h, b.numSeq, b.maxTS)
	}
	if err != nil {
		return err
	}
	if p.cfg.Compression != wire.CompressionNone {
		b.encoded = out
	}
	b.out, b.encodedOK = out, true
	return nil
}

var errNothingEncoded = errors.New("producer: no batch of the request could be encoded")

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
		n := len(req.TopicData)
		if n < cap(req.TopicData) { // reuse a recycled topic entry and its partition list
			req.TopicData = req.TopicData[:n+1]
			td = &req.TopicData[n]
			*td = wire.ProduceRequestTopic{Name: t.name, TopicID: b.topicID, PartitionData: td.PartitionData[:0]}
		} else {
			req.TopicData = append(req.TopicData, wire.ProduceRequestTopic{Name: t.name, TopicID: b.topicID})
			td = &req.TopicData[n]
		}
	}
	td.PartitionData = append(td.PartitionData, wire.ProduceRequestPartition{Index: b.part.partition, Records: b.out})
}
