package gregor

import (
	"errors"
	"strconv"

	"github.com/gregor-kafka/gregor/wire"
)

//go:generate go run ./internal/generrors/cmd/generrors

// TopicPartition names one partition of a topic. The producer, consumer
// (assigned, group, share), admin and txn packages all use this type.
type TopicPartition struct {
	Topic     string
	Partition int32
}

// String returns "topic/partition", e.g. "orders/3", or for a negative
// partition (a record whose partition is not chosen yet) "orders (no
// partition yet)".
func (tp TopicPartition) String() string {
	if tp.Partition < 0 {
		return tp.Topic + " (no partition yet)"
	}
	return tp.Topic + "/" + strconv.FormatInt(int64(tp.Partition), 10)
}

// TopicID is a topic's ID (KIP-516): 16 bytes the controller assigns when
// the topic is created, zero when unknown or when the broker predates topic
// IDs. A topic deleted and created again under the same name has a new ID.
// It is wire.UUID, named here so that programs need not import wire.
type TopicID = wire.UUID

// Header is a record header: Key, and Value where nil is null, distinct
// from empty. Headers keep their order; duplicates are allowed.
type Header = wire.Header

// Compression is a record batch compression codec (producer.Config's
// Compression).
type Compression = wire.Compression

// The compression codecs.
const (
	CompressionNone   = wire.CompressionNone
	CompressionGzip   = wire.CompressionGzip
	CompressionSnappy = wire.CompressionSnappy
	CompressionLZ4    = wire.CompressionLZ4
	CompressionZstd   = wire.CompressionZstd
)

// KafkaError is an error code a broker returned: Code, Kafka's Name (e.g.
// NOT_LEADER_OR_FOLLOWER), Message and Retriable. The Err* values of this
// package are one per code; errors.Is matches on the code.
type KafkaError = wire.KafkaError

// IsRetriable reports whether a retry of the failed operation can cure
// err: err's chain holds a Kafka error of a retriable code (Java's
// RetriableException: NOT_LEADER_OR_FOLLOWER, REQUEST_TIMED_OUT,
// COORDINATOR_LOAD_IN_PROGRESS, ...) and no terminal error. A terminal
// error, one that has a Retriable() bool method answering false, ends the
// question however retriable its cause: every failed record's error
// (producer.RecordError, from Produce, Delivery.Wait or Result), reached
// after the producer's own retries, e.g. UNKNOWN_TOPIC_OR_PARTITION after
// UnknownTopicRetries. It is false for nil and for errors carrying no
// Kafka error: client-side failures (timeouts, transport errors,
// backpressure) are retried by gregor itself within its deadlines, and
// whether to try again after it gave up is the caller's choice.
func IsRetriable(err error) bool {
	if err == nil {
		return false
	}
	var r interface{ Retriable() bool }
	if errors.As(err, &r) && !r.Retriable() {
		return false
	}
	return wire.Classify(err).Has(wire.ClassRetriable)
}

// MayHaveBeenWritten reports whether the record (or records) whose failure
// err is may have been written anyway. For errors that carry the answer, a
// MayHaveBeenWritten() bool method (producer.RecordError, the producer's
// refusals), it is theirs; false for nil (nothing failed); false for a
// Kafka error whose code means the broker appended nothing (a Produce
// partition answered e.g. MESSAGE_TOO_LARGE, NOT_LEADER_OR_FOLLOWER);
// otherwise true: what cannot be proved unwritten may have been written.
func MayHaveBeenWritten(err error) bool {
	if err == nil {
		return false
	}
	var w interface{ MayHaveBeenWritten() bool }
	if errors.As(err, &w) {
		return w.MayHaveBeenWritten()
	}
	return !wire.Classify(err).Has(wire.ClassNotAppended)
}
