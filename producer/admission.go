package producer

import (
	"context"
	"fmt"
	"time"
)

// now returns the current time for admission. It reads only the monotonic
// clock (time.Since) and derives the wall time from a base taken with
// time.Now at most a second earlier, which halves the clock cost of a
// record; the base is refreshed every second so wall-clock adjustments
// show up within a second. Called with p.mu held.
func (p *Producer) now() time.Time {
	el := time.Since(p.clockBase)
	if el >= time.Second || el < 0 || p.clockBase.IsZero() {
		p.clockBase = time.Now()
		return p.clockBase
	}
	return p.clockBase.Add(el)
}

// TrySend admits m at once or fails without waiting: with a backpressure
// error (errors.Is(err, client.ErrBackpressure)) when a limit is reached or
// earlier Send calls are waiting, ErrRecordTooLarge, ErrInvalidRecord or
// ErrProducerClosed. A refused record is untouched and nothing is lost.
func (p *Producer) TrySend(m *Record) (*Delivery, error) {
	size, err := p.check(m)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closing {
		return nil, ErrProducerClosed
	}
	if p.waitHead < len(p.waiters) {
		return nil, errWaiters
	}
	if err := p.room(size); err != nil {
		return nil, err
	}
	return p.admit(m, size, p.now()), nil
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
	if p.closing {
		p.mu.Unlock()
		return nil, ErrProducerClosed
	}
	if p.waitHead == len(p.waiters) && p.room(size) == nil {
		d := p.admit(m, size, p.now())
		p.mu.Unlock()
		return d, nil
	}
	if len(p.waiters)-p.waitHead+1 > p.cfg.WaitingRecords || p.waitingBytes+int64(size) > p.cfg.WaitingBytes {
		p.mu.Unlock()
		return nil, errWaitFull
	}
	w := p.newWaiter(m, size)
	p.waiters = append(p.waiters, w)
	p.waitingBytes += int64(size)
	p.mu.Unlock()

	select {
	case <-w.ready:
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.recycleWaiter(w)
	case <-ctx.Done():
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-w.ready: // admitted (or failed) meanwhile
		return p.recycleWaiter(w)
	default:
	}
	w.gone = true
	p.waitingBytes -= int64(size)
	p.compactWaiters()
	return nil, fmt.Errorf("%w: %w", errWaitAbandoned, ctx.Err())
}

var errWaitAbandoned = &backpressureError{"waiting for room ended"}

// waiter is a Send call waiting for room. Its ready channel (capacity 1)
// is signalled once per wait, so a waiter is recycled once its Send has
// the outcome: a Send that waits for room allocates nothing.
type waiter struct {
	m     *Record
	size  int
	ready chan struct{}
	d     *Delivery
	err   error
	gone  bool // its caller stopped waiting
}

// maxFreeWaiters bounds the waiters kept for reuse.
const maxFreeWaiters = 64

// newWaiter returns a recycled (or new) waiter for m. Called with p.mu held.
func (p *Producer) newWaiter(m *Record, size int) *waiter {
	if n := len(p.freeWaiters); n > 0 {
		w := p.freeWaiters[n-1]
		p.freeWaiters[n-1] = nil
		p.freeWaiters = p.freeWaiters[:n-1]
		w.m, w.size = m, size
		return w
	}
	return &waiter{m: m, size: size, ready: make(chan struct{}, 1)}
}

// recycleWaiter returns w's outcome and keeps w for reuse; its signal was
// received and no list refers to it any more. Called with p.mu held.
func (p *Producer) recycleWaiter(w *waiter) (*Delivery, error) {
	d, err := w.d, w.err
	*w = waiter{ready: w.ready}
	if len(p.freeWaiters) < maxFreeWaiters {
		p.freeWaiters = append(p.freeWaiters, w)
	}
	return d, err
}

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

// room reports whether a record of size bytes fits the active limits.
func (p *Producer) room(size int) error {
	if p.activeRecords+1 > p.cfg.InFlightRecords {
		return errFullRecords
	}
	if p.activeBytes+int64(size) > p.cfg.RetainedBytes {
		return errFullBytes
	}
	return nil
}

// admit copies m into its partition's open batch (or its topic's unassigned
// batch) and returns its Delivery. Called with p.mu held and room checked.
func (p *Producer) admit(m *Record, size int, now time.Time) *Delivery {
	d := p.slab.get()
	ts := now.UnixMilli()
	if !m.Timestamp.IsZero() {
		ts = m.Timestamp.UnixMilli()
	}
	d.p, d.ts, d.part = p, ts, m.Partition.requested()
	if p.cfg.PinTopicIDs && p.metadataChanged() {
		p.syncMetadata(now) // pin the record to the topic ID the client knows now
	}
	t := p.topic(m.Topic)
	partition := d.part
	if partition < 0 && t.numParts > 0 {
		partition = p.choose(t, m.Key, size)
	}
	var b *batch
	if partition >= 0 {
		part := p.part(t, partition)
		b = p.openBatch(part, size, now)
		b.add(&p.pools, m, d, ts, size)
		b.lastAdmit = now
		if p.full(b) {
			p.wakeup()
		}
	} else {
		if t.unassigned == nil {
			t.unassigned = p.newBatch(t, nil, now)
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

// choose partitions an unkeyed or keyed record of a topic with known metadata.
func (p *Producer) choose(t *topicState, key []byte, size int) int32 {
	if key != nil {
		return KeyPartition(key, t.numParts)
	}
	return t.sticky.next(size, p.cfg.BatchMaxBytes, t.numParts, t.avail)
}

// admitWaiters admits waiting Send calls in FIFO order while they fit.
func (p *Producer) admitWaiters() {
	for p.waitHead < len(p.waiters) {
		w := p.waiters[p.waitHead]
		if !w.gone {
			if p.room(w.size) != nil {
				return
			}
			w.d = p.admit(w.m, w.size, p.now())
			p.waitingBytes -= int64(w.size)
			w.ready <- struct{}{}
		}
		p.waiters[p.waitHead] = nil
		p.waitHead++
	}
	p.compactWaiters()
}

func (p *Producer) compactWaiters() {
	for p.waitHead < len(p.waiters) && p.waiters[p.waitHead].gone {
		p.waiters[p.waitHead] = nil
		p.waitHead++
	}
	if p.waitHead == len(p.waiters) {
		p.waiters = p.waiters[:0]
		p.waitHead = 0
	}
}

// failWaiters ends every waiting Send with err.
func (p *Producer) failWaiters(err error) {
	for _, w := range p.waiters[p.waitHead:] {
		if !w.gone {
			w.err = err
			p.waitingBytes -= int64(w.size)
			w.ready <- struct{}{}
		}
	}
	clear(p.waiters)
	p.waiters = p.waiters[:0]
	p.waitHead = 0
}

// waitingRecords counts Send calls waiting.
func (p *Producer) waitingRecords() int {
	n := 0
	for _, w := range p.waiters[p.waitHead:] {
		if !w.gone {
			n++
		}
	}
	return n
}
