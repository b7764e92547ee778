package producer

import (
	"context"
	"fmt"
)

// TrySend admits m at once or fails without waiting: with a backpressure
// error (errors.Is(err, client.ErrBackpressure)) when a limit is reached or
// earlier Send calls are waiting, ErrRecordTooLarge, ErrInvalidRecord or
// ErrProducerClosed (also when the client was closed first; the refusal's
// certainty is NotSent). A refused record is untouched and nothing is lost.
func (p *Producer) TrySend(m *Record) (*Delivery, error) {
	size, err := p.check(m)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.refusalLocked(); err != nil {
		return nil, err
	}
	if p.waiting.queued() {
		return nil, errWaiters
	}
	if err := p.roomLocked(size); err != nil {
		return nil, err
	}
	return p.admitLocked(m, size), nil
}

// Send admits m, waiting in FIFO order for room until ctx ends. It fails at
// once with a backpressure error when WaitingRecords/WaitingBytes are
// reached, and with an error matching both client.ErrBackpressure and ctx's
// error when ctx ends first (m is then not admitted).
func (p *Producer) Send(ctx context.Context, m *Record) (*Delivery, error) {
	size, err := p.check(m)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	if err := p.refusalLocked(); err != nil {
		p.mu.Unlock()
		return nil, err
	}
	if !p.waiting.queued() && p.roomLocked(size) == nil {
		d := p.admitLocked(m, size)
		p.mu.Unlock()
		return d, nil
	}
	if p.waiting.full(size, p.cfg.WaitingRecords, p.cfg.WaitingBytes) {
		p.mu.Unlock()
		return nil, errWaitFull
	}
	w := p.waiting.push(m, size)
	p.mu.Unlock()

	select {
	case <-w.ready:
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.waiting.recycle(w)
	case <-ctx.Done():
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-w.ready: // admitted (or failed) meanwhile
		return p.waiting.recycle(w)
	default:
	}
	p.waiting.abandon(w)
	return nil, fmt.Errorf("%w: %w", errWaitAbandoned, ctx.Err())
}

var errWaitAbandoned = &backpressureError{"waiting for room ended"}

// check validates m and returns its reserved size.
func (p *Producer) check(m *Record) (int, error) {
	if m == nil || m.Topic == "" {
		return 0, invalidRecord("empty topic")
	}
	if n, ok := m.Partition.Explicit(); ok && n < 0 {
		return 0, invalidRecord(fmt.Sprintf("partition %d (an explicit partition is >= 0)", n))
	}
	size := messageSize(m)
	if size+batchOverhead > p.cfg.RequestMaxBytes || int64(size) > p.cfg.RetainedBytes {
		return 0, fmt.Errorf("%w: about %d bytes, RequestMaxBytes %d", ErrRecordTooLarge, size, p.cfg.RequestMaxBytes)
	}
	return size, nil
}

// roomLocked reports whether a record of size bytes fits the active limits.
func (p *Producer) roomLocked(size int) error {
	if p.activeRecords+1 > p.cfg.InFlightRecords {
		return errFullRecords
	}
	if p.activeBytes+int64(size) > p.cfg.RetainedBytes {
		return errFullBytes
	}
	return nil
}

// admitLocked adds m to its partition's open batch (or its topic's unassigned
// batch): a copy, or references with BorrowSlices (see (*batch).add). It
// returns m's Delivery. Room checked.
func (p *Producer) admitLocked(m *Record, size int) *Delivery {
	d := p.slab.get()
	now, ts := p.clk.nowLocked()
	if !m.Timestamp.IsZero() {
		ts = m.Timestamp.UnixMilli()
	}
	d.p, d.ts, d.part = p, ts, m.Partition.requested()
	if p.cfg.PinTopicIDs {
		p.applyMetadataLocked() // pin the record to the topic ID the client knows now
	}
	t := p.topicLocked(m.Topic)
	partition := d.part
	// A record joins the topic's unassigned batch while one waits, so it
	// stays behind the records admitted before it; the sender places them
	// all in order (placeUnassignedLocked).
	if partition < 0 && t.numParts > 0 && t.unassigned == nil {
		partition = p.chooseLocked(t, m.Key, size)
	}
	var b *batch
	if partition >= 0 {
		part := p.partLocked(t, partition)
		b = p.openBatchLocked(part, size, now)
		b.add(&p.pools, m, d, ts, size)
		if b.lastAdmit != now { // a hot clock repeats now: skip the store (its Location is a pointer)
			b.lastAdmit = now
		}
		if p.fullLocked(b) {
			p.lookAtLocked(part)
			p.wakeup()
		}
	} else {
		if t.unassigned == nil || t.numParts > 0 {
			// A new waiting batch, or partitions known (PinTopicIDs applied
			// them here) while records wait: the sender places them now.
			if t.unassigned == nil {
				t.unassigned = p.newBatchLocked(t, nil, now)
			}
			p.wakeup()
		}
		b = t.unassigned
		b.add(&p.pools, m, d, ts, size)
		b.lastAdmit = now
	}
	p.activeRecords++
	p.activeBytes += int64(size)
	return d
}

// chooseLocked partitions an unkeyed or keyed record of a topic with known metadata.
func (p *Producer) chooseLocked(t *topicState, key []byte, size int) int32 {
	if key != nil {
		return KeyPartition(key, t.numParts)
	}
	avail := t.avail
	if len(t.availRack) > 0 { // KIP-1123
		avail = t.availRack
	}
	return t.sticky.next(size, p.cfg.BatchMaxBytes, t.numParts, avail)
}

// admitWaitersLocked admits waiting Send calls in FIFO order while they fit.
func (p *Producer) admitWaitersLocked() {
	q := &p.waiting
	for w := q.front(); w != nil; w = q.front() {
		if !w.gone {
			if p.roomLocked(w.size) != nil {
				return
			}
			q.signal(w, p.admitLocked(w.m, w.size), nil)
		}
		q.pop()
	}
	q.compact()
}
