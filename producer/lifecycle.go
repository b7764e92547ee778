package producer

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/gregor-kafka/gregor/client"
)

// finishRecordLocked gives record r its terminal (see Delivery.finish) and
// releases what it reserved.
func (p *Producer) finishRecordLocked(r *rec, o *outcome, off, appendTime int64) {
	d := r.d
	if d == nil || d.isTerminal() {
		return
	}
	r.d = nil
	if p.hooks.Produce() {
		p.hooks.RecordOutcome(client.RecordEvent{Topic: o.topic, Partition: o.partition, Offset: off, Err: o.err, Certainty: o.cert})
	}
	p.backlog.Add(1) // before the terminal is visible, so observe never runs first
	d.finish(o, off, appendTime)
	p.activeRecords--
	p.activeBytes -= int64(r.size)
}

// cancel implements Delivery.Cancel.
func (p *Producer) cancel(d *Delivery) CancelOutcome {
	p.mu.Lock()
	defer p.mu.Unlock()
	if d.isTerminal() {
		return AlreadyTerminal
	}
	b := d.b
	if b == nil {
		return TooLate // held for an automatic resolution (holdForResolveLocked)
	}
	if b.handed || b.inFlight() {
		return TooLate
	}
	r := &b.recs[d.idx]
	b.dropRef(int(d.idx))
	r.cancelled = true
	b.cancelled++
	b.live--
	b.est -= int(r.size)
	partition := int32(-1) // unassigned: the Delivery's requested partition
	if b.part != nil {
		partition = b.part.partition
		p.lookAtLocked(b.part) // its queue may change: the batch may hold nothing now
	}
	p.finishRecordLocked(r, &outcome{topic: b.topic.name, partition: partition, recordTS: true, err: ErrRecordCancelled, cert: client.NotSent}, -1, -1)
	p.admitWaitersLocked()
	return CancelledNotSent
}

// Flush waits until every record admitted before the call is terminal, or
// ctx ends (then it returns an error matching client.ErrTimeout or
// client.ErrCancelled and ctx's error). Lingering batches are sent at once.
// It never hangs on a dead broker beyond the records' DeliveryTimeout.
// When the client is or becomes closed, the records not yet delivered fail
// at once (see Close) and Flush returns an error matching
// ErrProducerClosed and client.ErrClosed; records all delivered before the
// client closed make a Flush that returns nil.
func (p *Producer) Flush(ctx context.Context) error {
	p.mu.Lock()
	p.flushing++
	p.walk = true // the next pass looks at every partition, whatever its broker's state
	goneAtStart := p.gone || p.clientIsClosed()
	var wait []*Delivery
	for _, part := range p.parts {
		for _, b := range part.batches {
			if d := b.anyLive(); d != nil {
				wait = append(wait, d)
			}
		}
	}
	for _, t := range p.topics {
		if t.unassigned != nil {
			for i := range t.unassigned.recs {
				if d := t.unassigned.recs[i].d; d != nil {
					wait = append(wait, d)
				}
			}
		}
	}
	wait = p.heldDeliveriesLocked(wait)
	p.mu.Unlock()
	p.wakeup()
	defer func() {
		p.mu.Lock()
		p.flushing--
		p.mu.Unlock()
	}()
	for _, d := range wait {
		select {
		case <-d.Done():
		case <-ctx.Done():
			return ctxError(ctx)
		}
	}
	return flushResult(goneAtStart, wait)
}

// anyLive returns the Delivery of a non-terminal record of b (records of a
// batch reach their terminal together, except cancelled ones).
func (b *batch) anyLive() *Delivery {
	for i := range b.recs {
		if d := b.recs[i].d; d != nil {
			return d
		}
	}
	return nil
}

func ctxError(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w: %w", client.ErrTimeout, ctx.Err())
	}
	return fmt.Errorf("%w: %w", client.ErrCancelled, ctx.Err())
}

// Close stops admission (waiting Send calls fail with ErrProducerClosed),
// flushes until ctx ends, then stops the producer. When ctx ends first every
// record left fails with ErrProducerClosed and the certainty it really has
// (NotSent if no byte of it can have reached a broker, else PossiblySent),
// and Close returns ctx's error wrapped as in Flush. A second Close returns nil.
// The client is not closed.
//
// Closing the client first ends the producer's work at once: waiting Send
// calls and every record not in a request fail with an error matching
// ErrProducerClosed and client.ErrClosed (NotSent, or PossiblySent for a
// record an earlier attempt may have written), records in a request fail
// as the client completes it (PossiblySent), later Send calls are refused
// (NotSent), and Flush and Close return an error matching both.
func (p *Producer) Close(ctx context.Context) error {
	p.mu.Lock()
	if p.closing {
		p.mu.Unlock()
		<-p.done
		return nil
	}
	p.closing = true
	p.waiting.failAll(errRefusedClosed)
	p.mu.Unlock()
	err := p.Flush(ctx)
	p.mu.Lock()
	p.closed = true
	if err != nil {
		p.waitEncodedLocked()
		p.failAllLocked(ErrProducerClosed)
	}
	p.mu.Unlock()
	close(p.quit)
	p.stop()
	<-p.done
	p.mu.Lock()
	clockDone := p.clk.stopLocked()
	p.mu.Unlock()
	<-clockDone
	p.resolving.Wait() // automatic resolutions end with p.ctx
	p.unregister()
	if p.unregisterParts != nil {
		p.unregisterParts()
	}
	return err
}

var (
	// errClientClosed is the terminal of the records the producer fails
	// because its client was closed first (clientClosed), and Flush's and
	// Close's error then.
	errClientClosed = fmt.Errorf("%w: the client was closed first", ErrProducerClosed)
	// errRefusedClosed and errRefusedClientClosed are Send's refusals once
	// the producer is closing or its client closed: certainty NotSent.
	errRefusedClosed       = &refusalError{ErrProducerClosed}
	errRefusedClientClosed = &refusalError{errClientClosed}
)

// refusalError is a record Send refused: nothing of it was admitted, so
// its certainty is NotSent whatever the cause says.
type refusalError struct{ err error }

func (e *refusalError) Error() string               { return e.err.Error() }
func (e *refusalError) Unwrap() error               { return e.err }
func (e *refusalError) Certainty() client.Certainty { return client.NotSent }
func (e *refusalError) MayHaveBeenWritten() bool    { return false }

// refusalLocked is Send's refusal once the producer is closing or its
// client is closed, else nil.
func (p *Producer) refusalLocked() error {
	switch {
	case p.gone:
		return errRefusedClientClosed
	case p.closing:
		return errRefusedClosed
	}
	return nil
}

// clientIsClosed reports whether the client's Close has begun, which the
// sender notices (p.gone) only on its next pass: Flush on an idle producer
// right after the client closed must not answer nil in between.
func (p *Producer) clientIsClosed() bool {
	if p.clientDone == nil {
		return false
	}
	select {
	case <-p.clientDone:
		return true
	default:
		return false
	}
}

// flushResult is Flush's answer once every record it waited for is
// terminal: the client-closed error when the client was gone before Flush
// began or a record it waited for failed because the client closed, else
// nil. A client closed after the last of them was delivered does not turn a
// complete flush into a failure. Each Delivery in waited is terminal, so
// its outcome is immutable.
func flushResult(goneAtStart bool, waited []*Delivery) error {
	if goneAtStart {
		return errClientClosed
	}
	for _, d := range waited {
		if err := d.o.err; errors.Is(err, ErrProducerClosed) || errors.Is(err, client.ErrClosed) {
			return errClientClosed
		}
	}
	return nil
}

// clientClosed ends the producer's work when its client was closed first
// (the client fails every request with client.ErrClosed from then on):
// waiting Send calls and every record not in a request fail now; those in
// a request fail as the client completes it. Sender goroutine only.
func (p *Producer) clientClosed() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.gone = true
	p.waiting.failAll(errRefusedClientClosed)
	p.failUnsentLocked(errClientClosed)
}

// failUnsentLocked fails every record that is not in a request with err
// and the certainty its batch's attempts leave.
func (p *Producer) failUnsentLocked(err error) {
	for _, part := range p.parts {
		for _, b := range slices.Clone(part.batches) {
			if !b.inFlight() {
				p.endBatchLocked(part, b, err)
			}
		}
	}
	for _, t := range p.topics {
		if u := t.unassigned; u != nil {
			t.unassigned = nil
			p.failBatchLocked(u, err, client.NotSent)
			p.recycleLocked(u)
		}
	}
}

// waitEncodedLocked waits, with BorrowSlices, until the sender encoded
// every batch it took (collect takes none once closed is set), so failing
// in-flight records cannot race with the sender reading their slices.
// It releases p.mu while waiting.
func (p *Producer) waitEncodedLocked() {
	for p.pools.borrow && p.encoding > 0 {
		if p.encodedCh == nil {
			p.encodedCh = make(chan struct{})
		}
		ch := p.encodedCh
		p.mu.Unlock()
		<-ch
		p.mu.Lock()
	}
}

// failAllLocked fails every record left, each with its true certainty.
func (p *Producer) failAllLocked(err error) {
	for _, part := range p.parts {
		for _, b := range part.batches {
			cert := client.NotSent
			if b.inFlight() || b.maybeWritten {
				cert = client.PossiblySent
			}
			p.failBatchLocked(b, err, cert)
		}
		part.batches = part.batches[:0]
	}
	for _, t := range p.topics {
		if t.unassigned != nil {
			p.failBatchLocked(t.unassigned, err, client.NotSent)
			t.unassigned = nil
		}
	}
}

// failBatchLocked fails every live record of b.
func (p *Producer) failBatchLocked(b *batch, err error, cert client.Certainty) {
	b.releaseRefs(&p.pools) // never in flight with references (waitEncodedLocked)
	topic := b.topic.name
	var partition int32 = -1
	if b.part != nil {
		partition = b.part.partition
		if !errors.Is(err, ErrProducerClosed) || b.attempts > 0 {
			err = &BatchError{Topic: topic, Partition: partition, Attempts: b.attempts, Err: err}
		}
	}
	if p.txn != nil && !(p.draining && b.handed) && b.live > 0 { // a drain fails the aborted transaction's batches; others still count
		p.txn.Failed(err)
	}
	o := &outcome{topic: topic, partition: partition, err: err, cert: cert}
	if p.hooks.Produce() && b.live > 0 {
		p.hooks.ProduceBatchAcked(client.BatchEvent{HighWatermark: -1, LastOffset: -1, Topic: topic, Partition: partition, Broker: -1, Records: b.live, Bytes: len(b.out), BaseOffset: -1, Err: err, Certainty: cert})
	}
	if cert == client.PossiblySent && b.sequenced() && b.part != nil {
		o.sent = b.sentBatch()
	}
	if o.sent.Records > 0 && p.cfg.ResolvePossiblySent {
		p.holdForResolveLocked(b, o)
		b.live = 0
		p.admitWaitersLocked()
		return
	}
	delta := int64(0)
	for i := range b.recs {
		off := int64(-1)
		if o.sent.Records > 0 && !b.recs[i].cancelled {
			off, delta = delta, delta+1 // the record's offset delta (see Delivery.result)
		}
		p.finishRecordLocked(&b.recs[i], o, off, -1)
	}
	b.live = 0
	p.admitWaitersLocked()
}

// fillMetrics adds the producer's gauges and counters to a snapshot.
func (p *Producer) fillMetrics(m *client.ProducerMetrics) {
	p.mu.Lock()
	defer p.mu.Unlock()
	m.BufferedRecords += p.activeRecords
	m.BufferedBytes += int(p.activeBytes)
	m.WaitingRecords += p.waiting.count()
	m.WaitingBytes += int(p.waiting.bytes)
	for _, part := range p.parts {
		for _, b := range part.batches {
			if b.phase != batchOpen {
				m.SealedBatches++
				m.SealedBatchBytes += b.est
			}
		}
	}
	m.UnreadResults += int(p.backlog.Load())
	m.Requests += p.m.Requests
	m.Batches += p.m.Batches
	m.Records += p.m.Records
	m.Bytes += p.m.Bytes
	m.PeakInFlight = max(m.PeakInFlight, p.m.PeakInFlight)
	m.PeakInFlightPerBroker = max(m.PeakInFlightPerBroker, p.m.PeakInFlightPerBroker)
	m.Accepting = m.Accepting || !p.closing
	m.Healthy = m.Healthy || (!p.closed && p.ident.err == nil)
}

// partitionMetrics appends the acknowledged records and bytes of every
// partition that had any (client.PartitionMetrics).
func (p *Producer) partitionMetrics(dst []client.PartitionMetrics) []client.PartitionMetrics {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, t := range p.topics {
		for _, part := range t.parts {
			if part == nil || part.producedRecords == 0 {
				continue
			}
			dst = append(dst, client.PartitionMetrics{Topic: t.name, Partition: part.partition, ProducedRecords: part.producedRecords,
				ProducedBytes: part.producedBytes, HighWatermark: -1, LastStableOffset: -1, Position: -1, Lag: -1})
		}
	}
	return dst
}
