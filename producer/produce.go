package producer

import (
	"context"
	"errors"

	"github.com/gregor-kafka/gregor/client"
)

// Produce sends r and waits for its outcome, the synchronous send (Send,
// then Await). It returns the record's Result and nil once the record is
// written. Every error it returns is a *RecordError carrying the certainty
// (errors.As; client.CertaintyOf; gregor.MayHaveBeenWritten), and errors.Is
// matches the cause underneath:
//   - Send refused r (ErrInvalidRecord, ErrRecordTooLarge, backpressure,
//     ErrProducerClosed, ctx ended while waiting for room): NotSent.
//   - The record failed (a broker rejection such as MESSAGE_TOO_LARGE,
//     ErrDeliveryTimeout, ...): its Result and failure, as Delivery.Wait
//     returns them.
//   - ctx ended while the record was in flight: Produce cancels it
//     (Delivery.Cancel). Removed before any byte of it left, the error is
//     NotSent and matches both ErrRecordCancelled and ctx's error; too late,
//     it is PossiblySent and matches ctx's error, and the record's outcome
//     is decided without the caller (use Send and Wait to keep its handle).
//
// One record per round trip (within Linger): to pipeline records use Send
// or TrySend and wait for their Deliveries later.
func (p *Producer) Produce(ctx context.Context, r Record) (Result, error) {
	d, err := p.Send(ctx, &r)
	return Await(ctx, &r, d, err)
}

// Await completes a synchronous send of r from what Send (or TrySend)
// returned for it, d and err, as Produce does: the Result and nil once r
// is written, else a *RecordError (see Produce). The transactional
// producer's Produce and wrappers of Send use it.
func Await(ctx context.Context, r *Record, d *Delivery, err error) (Result, error) {
	part := r.Partition.requested()
	if err != nil {
		return failed(r.Topic, part, client.NotSent, err)
	}
	res, err := d.Wait(ctx)
	if err == nil || errors.As(err, new(*RecordError)) {
		return res, err
	}
	switch d.Cancel() { // ctx ended with r in flight
	case CancelledNotSent:
		d.Result() // read: leaves the TerminalBacklog
		return failed(r.Topic, part, client.NotSent, errors.Join(ErrRecordCancelled, err))
	case AlreadyTerminal: // terminal meanwhile
		res, _ = d.Result()
		return res, recordError(&res)
	}
	return failed(r.Topic, part, client.PossiblySent, err)
}

// failed returns the Result and *RecordError of a record that has no
// terminal of its own (refused, or abandoned in flight).
func failed(topic string, part int32, cert client.Certainty, err error) (Result, error) {
	res := Result{Topic: topic, Partition: part, Offset: -1, Err: err, Certainty: cert}
	return res, recordError(&res)
}
