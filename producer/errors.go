package producer

import (
	"errors"
	"fmt"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
)

// Producer-side failures. Broker rejections are *wire.KafkaError values (wrapped
// with the batch's context); client failures are client.Err* values. Every
// error of a failed Result says through Result.Certainty whether the record
// may have been written.
var (
	// ErrConfig wraps every configuration error returned by New.
	ErrConfig = errors.New("producer: invalid configuration")
	// ErrRecordTooLarge: a record cannot fit in one ProduceRequest
	// (RequestMaxBytes) or in RetainedBytes. Returned by TrySend/Send; the
	// record is not admitted (adapter kind "invalid_record").
	ErrRecordTooLarge = errors.New("producer: record too large")
	// ErrInvalidRecord: the record is unusable (empty topic, negative explicit
	// partition). TrySend/Send return an error matching it (errors.Is) whose
	// certainty is NotSent (client.CertaintyOf); nothing is admitted.
	ErrInvalidRecord = errors.New("producer: invalid record")
	// ErrRecordCancelled is the terminal error of a record removed by
	// Delivery.Cancel before any byte of it could reach a broker (certainty
	// NotSent). errors.Is(ErrRecordCancelled, client.ErrCancelled) holds.
	ErrRecordCancelled error = &wrapErr{msg: "producer: record cancelled before send", is: client.ErrCancelled}
	// ErrDeliveryTimeout: DeliveryTimeout passed before the record's outcome
	// was known. errors.Is(ErrDeliveryTimeout, client.ErrTimeout) holds.
	ErrDeliveryTimeout error = &wrapErr{msg: "producer: delivery timeout", is: client.ErrTimeout}
	// ErrProducerClosed: the producer was closed (before admission, or Close's
	// deadline passed with the record unresolved). errors.Is(ErrProducerClosed,
	// client.ErrClosed) holds.
	ErrProducerClosed error = &wrapErr{msg: "producer: producer closed", is: client.ErrClosed}
	// ErrSequenceReset: the record's batch was sent but its outcome can no
	// longer be resolved because an earlier batch of its partition failed
	// with an unknown outcome; resending it with a new epoch could duplicate
	// it (KIP-360). Certainty PossiblySent.
	ErrSequenceReset = errors.New("producer: partition sequence reset after an unresolved batch")
	// ErrTopicIDChanged: with Config.PinTopicIDs, the record's topic was
	// deleted and created again (its topic ID changed, KIP-516) before the
	// record was written; it was not sent to the new topic. The error names
	// both IDs; its certainty says whether the old topic may have it.
	ErrTopicIDChanged = errors.New("producer: topic ID changed (topic deleted and recreated)")
)

// wrapErr is a sentinel that also matches a client sentinel with errors.Is.
type wrapErr struct {
	msg string
	is  error
}

func (e *wrapErr) Error() string        { return e.msg }
func (e *wrapErr) Is(target error) bool { return target == e.is }

// invalidRecordError is the refusal of an unusable record: it matches
// ErrInvalidRecord and carries certainty NotSent.
type invalidRecordError struct{ why string }

func invalidRecord(why string) error { return &invalidRecordError{why} }

// Error is "producer: invalid record: <why>".
func (e *invalidRecordError) Error() string               { return ErrInvalidRecord.Error() + ": " + e.why }
func (e *invalidRecordError) Is(target error) bool        { return target == ErrInvalidRecord }
func (e *invalidRecordError) Certainty() client.Certainty { return client.NotSent }
func (e *invalidRecordError) MayHaveBeenWritten() bool    { return false }

// backpressureError is the typed refusal of TrySend/Send: which bound was hit.
type backpressureError struct{ what string }

// Error names the bound that was reached.
func (e *backpressureError) Error() string { return "producer: backpressure: " + e.what }
func (e *backpressureError) Is(target error) bool {
	return target == client.ErrBackpressure
}
func (e *backpressureError) Certainty() client.Certainty { return client.NotSent }
func (e *backpressureError) MayHaveBeenWritten() bool    { return false }

var (
	errFullRecords = &backpressureError{"in-flight records limit reached"}
	errFullBytes   = &backpressureError{"retained bytes limit reached"}
	errWaiters     = &backpressureError{"earlier Send calls are waiting for room"}
	errWaitFull    = &backpressureError{"waiting records/bytes limit reached"}
)

// BatchError wraps the error that failed a record's batch with the context
// of the attempt: topic, partition and the number of attempts made. It is
// the Err of a failed Result (except for a record closed before any attempt
// or still waiting for its topic's partition); errors.Is/As see through it
// to the cause.
type BatchError struct {
	// Topic and Partition name the batch's partition.
	Topic     string
	Partition int32
	// Attempts is the number of ProduceRequest attempts that carried the
	// batch and were counted against MaxRetries (0: it never left).
	Attempts int
	// Err is the cause: a *wire.KafkaError, a client error (client.ErrTimeout,
	// client.ErrTransport, ...) or a producer sentinel (ErrDeliveryTimeout,
	// ErrSequenceReset, ErrProducerClosed).
	Err error
}

// Error describes the failure as "producer: <topic>/<partition>
// after <n> attempt(s): <cause>".
func (e *BatchError) Error() string {
	return fmt.Sprintf("producer: %s after %d attempt(s): %v", gregor.TopicPartition{Topic: e.Topic, Partition: e.Partition}, e.Attempts, e.Err)
}

// Unwrap returns the cause (a *wire.KafkaError, client error or producer sentinel).
func (e *BatchError) Unwrap() error { return e.Err }

// RecordError is the failure of one record as Delivery.Wait and Produce
// return it: the record's destination, whether it may have been written,
// and the cause (Err: a *BatchError, *wire.KafkaError, client error or
// producer sentinel; errors.Is/As see through to it, so
// errors.Is(err, wire.ErrMessageTooLarge) holds for that broker rejection).
// Find it with errors.As(err, &recErr); client.CertaintyOf(err) and
// gregor.MayHaveBeenWritten(err) read its Certainty.
type RecordError struct {
	// Topic and Partition name the record's destination (Partition -1: not
	// chosen yet by the partitioner).
	Topic     string
	Partition int32
	// Certainty says whether the record may have been written:
	// client.NotSent or client.PossiblySent.
	Certainty client.Certainty
	// Sent identifies the idempotent batch of a record that may have been
	// written, for Producer.Resolve (as Result.Sent).
	Sent SentBatch
	// Err is the cause (a failed Result's Err).
	Err error
}

// Error describes the failure as "producer: record to
// <topic>/<partition> failed (<certainty>): <cause>".
func (e *RecordError) Error() string {
	return fmt.Sprintf("producer: record to %s failed (%s): %v", gregor.TopicPartition{Topic: e.Topic, Partition: e.Partition}, e.Certainty, e.Err)
}

// Unwrap returns the cause.
func (e *RecordError) Unwrap() error { return e.Err }

// MayHaveBeenWritten reports Certainty != client.NotSent: the question
// gregor.MayHaveBeenWritten(err) asks.
func (e *RecordError) MayHaveBeenWritten() bool { return e.Certainty != client.NotSent }

// Retriable reports false: a record's failure is its terminal, reached
// after the producer's own retries (within DeliveryTimeout,
// UnknownTopicRetries), whatever broker error it carries; sending the
// record again is the caller's choice. gregor.IsRetriable(err) asks it.
func (e *RecordError) Retriable() bool { return false }

// recordError returns the error of a failed Result, nil for a delivered one.
func recordError(r *Result) error {
	if r.Err == nil {
		return nil
	}
	return &RecordError{Topic: r.Topic, Partition: r.Partition, Certainty: r.Certainty, Sent: r.Sent, Err: r.Err}
}
