package producer

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/gregor-kafka/gregor/client"
)

// Result is the terminal outcome of one record.
//
// On success Err is nil and Partition, Offset and Timestamp are the broker's
// (Timestamp, millisecond precision: the log append time when the topic
// uses LogAppendTime, else the record's create time; the zero time when the
// record failed before it had one; Offset is -1 when the broker
// acknowledged a duplicate without its offset). On failure Err says why and
// Certainty says whether the record may have been written: client.NotSent
// (no byte of it can have reached a broker, or the broker definitely
// rejected every attempt) or client.PossiblySent.
type Result struct {
	Topic     string
	Partition int32
	Offset    int64
	Timestamp time.Time
	Err       error
	Certainty client.Certainty
	// Sent identifies the idempotent batch of a failed record that may have
	// been written (Certainty PossiblySent), for Producer.Resolve; its
	// Records is 0 otherwise.
	Sent SentBatch
}

// CancelOutcome is what Delivery.Cancel achieved.
type CancelOutcome uint8

const (
	// CancelledNotSent: the record was removed before any byte of it could
	// reach a broker; its terminal is ErrRecordCancelled with certainty NotSent.
	CancelledNotSent CancelOutcome = iota + 1
	// TooLate: the record's batch may already be on the wire; its terminal
	// stays whatever the broker decides.
	TooLate
	// AlreadyTerminal: the record already had its terminal outcome.
	AlreadyTerminal
)

// String returns "cancelled_not_sent", "too_late" or "already_terminal".
func (o CancelOutcome) String() string {
	switch o {
	case CancelledNotSent:
		return "cancelled_not_sent"
	case TooLate:
		return "too_late"
	case AlreadyTerminal:
		return "already_terminal"
	}
	return "unknown"
}

// closedChan is returned by Done once a record is terminal.
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// outcome is the part of a terminal that records share: every record a
// partition gets acknowledged (partState.acked, made once), every record of
// a failed batch, or one cancelled record. Immutable once a Delivery points
// to it.
type outcome struct {
	topic     string
	partition int32 // -1: the record's requested partition (Delivery.part)
	recordTS  bool  // failed: Result.Timestamp is the record's (else 0)
	err       error
	cert      client.Certainty
	sent      SentBatch // failed PossiblySent after sequencing: the batch (OffsetDelta per record)
}

// Delivery is the handle of one admitted record. Every admitted record
// reaches exactly one terminal outcome (delivered, failed or cancelled),
// reported once through its Result and never changed afterwards, whether or
// not the caller reads it. Safe for concurrent use. Deliveries are
// allocated in slabs of 512 (56 bytes each), so holding one keeps its
// neighbours' slab alive.
type Delivery struct {
	state atomic.Uint32 // phase (pending, terminal, observed) | watchedBit
	idx   int32         // index of the record in b.recs (producer's lock)
	p     *Producer
	b     *batch   // the batch holding the record (producer's lock); nil once terminal
	o     *outcome // the terminal, written before the phase becomes terminal
	ts    int64    // the record's timestamp, Unix ms (acknowledged: the broker's LogAppendTime when the topic uses it)
	off   int64    // acknowledged: the record's offset (-1 unknown)
	part  int32    // the requested partition (-1: partitioner)
}

// Delivery states (Delivery.state): a phase in the low bits and watchedBit.
const (
	statePending  uint32 = iota // no terminal yet
	stateTerminal               // terminal, not yet read by Result or Wait (counted in UnreadResults)
	stateObserved               // terminal and read

	phaseMask  uint32 = 3
	watchedBit uint32 = 4 // Done was called: finish must close the record's channel in Producer.watch
)

// isTerminal reports whether the record has its terminal outcome.
func (d *Delivery) isTerminal() bool { return d.state.Load()&phaseMask != statePending }

// observe marks the terminal as read by the caller, leaving the producer's
// UnreadResults once.
func (d *Delivery) observe() {
	for {
		old := d.state.Load()
		if old&phaseMask != stateTerminal {
			return
		}
		if d.state.CompareAndSwap(old, old&^phaseMask|stateObserved) {
			d.p.backlog.Add(-1)
			return
		}
	}
}

// Done returns a channel closed when the record is terminal. Receiving
// from it does not count as reading the terminal (see Result).
func (d *Delivery) Done() <-chan struct{} {
	if d.isTerminal() {
		return closedChan
	}
	p := d.p
	p.watchMu.Lock()
	defer p.watchMu.Unlock()
	ch := p.watch[d]
	if ch == nil {
		ch = make(chan struct{})
		if p.watch == nil {
			p.watch = map[*Delivery]chan struct{}{}
		}
		p.watch[d] = ch
	}
	if old := d.state.Or(watchedBit); old&phaseMask != statePending {
		// finish has run. Whoever finds ch in the map under watchMu closes
		// it: finish may still be waiting for the lock (an earlier Done set
		// the bit and got ch) and will then find it gone.
		close(ch)
		delete(p.watch, d)
		return closedChan
	}
	return ch
}

// Result returns the terminal outcome and true, or a zero Result and false
// when the record is not terminal yet. It never blocks. The first call that
// returns the terminal (here or through Wait) takes the record out of the
// producer's UnreadResults metric.
func (d *Delivery) Result() (Result, bool) {
	if !d.isTerminal() {
		return Result{}, false
	}
	d.observe()
	return d.result(), true
}

// result builds the terminal Result from the shared outcome. d is terminal.
func (d *Delivery) result() Result {
	o := d.o
	r := Result{Topic: o.topic, Partition: o.partition, Offset: -1, Err: o.err, Certainty: o.cert}
	if r.Partition < 0 {
		r.Partition = d.part
	}
	switch {
	case o.err == nil:
		r.Offset, r.Timestamp = d.off, time.UnixMilli(d.ts)
	case o.recordTS:
		r.Timestamp = time.UnixMilli(d.ts)
	case o.sent.Records > 0:
		r.Sent = o.sent
		r.Sent.OffsetDelta = int32(d.off) // failBatchLocked keeps the record's offset delta in off
	}
	return r
}

// Wait waits for the terminal outcome until ctx ends and returns it. A
// record that failed returns its Result and a *RecordError (the Result's
// Err with its Certainty; errors.Is matches the Kafka or client error
// underneath). When ctx ends first Wait returns a zero Result and ctx's
// error itself (context.Canceled or context.DeadlineExceeded, never a
// *RecordError): the record stays in flight and its terminal can still be
// read later. So errors.As(err, new(*producer.RecordError)) tells a record
// failure from the wait ending.
func (d *Delivery) Wait(ctx context.Context) (Result, error) {
	if r, ok := d.Result(); ok {
		return r, recordError(&r)
	}
	select {
	case <-d.Done():
		r, _ := d.Result()
		return r, recordError(&r)
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
}

// Cancel removes the record if no byte of it can have reached a broker
// (CancelledNotSent; its siblings are unaffected and it consumes no sequence
// number), else reports TooLate, or AlreadyTerminal when the outcome is
// known. Calling it again is safe and consistent: after CancelledNotSent it
// returns AlreadyTerminal; after TooLate it returns TooLate until the
// terminal, then AlreadyTerminal.
func (d *Delivery) Cancel() CancelOutcome {
	if d.isTerminal() {
		return AlreadyTerminal
	}
	return d.p.cancel(d)
}

// finish sets the terminal: the shared outcome o and, when acknowledged,
// the record's offset (off) and the broker's LogAppendTime (appendTime, -1
// when the topic uses CreateTime). The producer calls it at most once per
// record, under its lock, after adding the record to its UnreadResults
// (so observe never runs first). The record stays in the backlog until
// Result or Wait returns it.
func (d *Delivery) finish(o *outcome, off, appendTime int64) {
	d.o, d.off, d.b = o, off, nil
	if appendTime >= 0 {
		d.ts = appendTime
	}
	if old := d.state.Or(stateTerminal); old&watchedBit != 0 {
		p := d.p
		p.watchMu.Lock()
		if ch := p.watch[d]; ch != nil {
			close(ch)
			delete(p.watch, d)
		}
		p.watchMu.Unlock()
	}
}

// deliverySlab hands out Deliveries from slabs so admission costs no
// allocation per record once amortized. A slab (512 × 56 bytes) is a small
// object the heap recycles warm; the Delivery itself is kept small because
// the first write to a fresh slab dominated admission's cost.
//
// The slab is indexed rather than resliced: a store of the slice (a
// pointer) per record would take the GC's write barrier while a collection
// runs, and the slab's allocation rate keeps collections running often.
type deliverySlab struct {
	slab *[slabSize]Delivery
	n    int // handles given out of slab
}

const slabSize = 512

func (s *deliverySlab) get() *Delivery {
	if s.slab == nil || s.n == slabSize {
		s.slab, s.n = new([slabSize]Delivery), 0
	}
	d := &s.slab[s.n]
	s.n++
	return d
}
