package producer

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/gregor-kafka/gregor/client"
)

// Result is the terminal outcome of one record.
//
// On success Err is nil and Partition, Offset and Timestamp are the broker's
// (Timestamp is Unix milliseconds: the log append time when the topic uses
// LogAppendTime, else the record's create time; Offset is -1 when the broker
// acknowledged a duplicate without its offset). On failure Err says why and
// Certainty says whether the record may have been written: client.NotSent
// (no byte of it can have reached a broker, or the broker definitely
// rejected every attempt) or client.PossiblySent.
type Result struct {
	Topic     string
	Partition int32
	Offset    int64
	Timestamp int64
	Err       error
	Certainty client.Certainty
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

// Delivery is the handle of one admitted record. Every admitted record
// reaches exactly one terminal outcome (delivered, failed or cancelled),
// reported once through its Result and never changed afterwards, whether or
// not the caller reads it. Safe for concurrent use. Deliveries are
// allocated in slabs, so holding one keeps a few hundred bytes of its
// neighbours alive.
type Delivery struct {
	state   atomic.Uint32 // pending, then terminal once res is written (res is immutable after), then observed
	watched atomic.Bool   // Done was called: finish must close done
	idx     int32         // index of the record in b.recs (producer's lock)
	closed  bool          // done was closed (mu)
	mu      sync.Mutex    // guards done and closed
	done    chan struct{}
	res     Result

	// Owned by the producer's lock.
	p *Producer
	b *batch // the batch holding the record; nil once terminal
}

// Delivery states (Delivery.state).
const (
	statePending  uint32 = iota // no terminal yet
	stateTerminal               // terminal, not yet read by Result or Wait (counted in TerminalBacklog)
	stateObserved               // terminal and read
)

// isTerminal reports whether the record has its terminal outcome.
func (d *Delivery) isTerminal() bool { return d.state.Load() != statePending }

// observe marks the terminal as read by the caller, leaving the producer's
// TerminalBacklog once.
func (d *Delivery) observe() {
	if d.state.Load() == stateTerminal && d.state.CompareAndSwap(stateTerminal, stateObserved) {
		d.p.backlog.Add(-1)
	}
}

// Done returns a channel closed when the record is terminal. Receiving
// from it does not count as reading the terminal (see Result).
func (d *Delivery) Done() <-chan struct{} {
	if d.isTerminal() {
		return closedChan
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.done == nil {
		d.done = make(chan struct{})
	}
	d.watched.Store(true)
	// finish may have stored terminal before it could see watched.
	if d.isTerminal() && !d.closed {
		d.closed = true
		close(d.done)
	}
	return d.done
}

// Result returns the terminal outcome and true, or a zero Result and false
// when the record is not terminal yet. It never blocks. The first call that
// returns the terminal (here or through Wait) takes the record out of the
// producer's TerminalBacklog metric.
func (d *Delivery) Result() (Result, bool) {
	if !d.isTerminal() {
		return Result{}, false
	}
	d.observe()
	return d.res, true
}

// Wait waits for the terminal outcome until ctx ends. When ctx ends first it
// returns ctx's error (the record stays in flight and its terminal can still
// be read later).
func (d *Delivery) Wait(ctx context.Context) (Result, error) {
	if r, ok := d.Result(); ok {
		return r, nil
	}
	select {
	case <-d.Done():
		r, _ := d.Result()
		return r, nil
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

// finish sets the terminal outcome. The producer calls it exactly once per
// record, under its lock (so never concurrently for one Delivery); it
// reports whether the record was not yet terminal. The record joins the
// producer's TerminalBacklog until Result or Wait returns it.
func (d *Delivery) finish(r Result) bool {
	if d.isTerminal() {
		return false
	}
	d.res = r
	d.p.backlog.Add(1) // before the state is visible, so observe never runs first
	d.state.Store(stateTerminal)
	if d.watched.Load() { // sequentially consistent with Done's Store/Load pair
		d.mu.Lock()
		if d.done != nil && !d.closed {
			d.closed = true
			close(d.done)
		}
		d.mu.Unlock()
	}
	return true
}

// deliverySlab hands out Deliveries from slabs so admission costs no
// allocation per record once amortized.
type deliverySlab struct {
	slab []Delivery
}

const slabSize = 512

func (s *deliverySlab) get() *Delivery {
	if len(s.slab) == 0 {
		s.slab = make([]Delivery, slabSize)
	}
	d := &s.slab[0]
	s.slab = s.slab[1:]
	return d
}
