package producer

import (
	"fmt"
	"math"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/internal/txnhook"
	"github.com/gregor-kafka/gregor/wire"
)

// Config configures a Producer. Most fields map one knob of the Java
// producer, named in parentheses (e.g. linger.ms); the rest are gregor's
// own bounds on buffers, waits and timeouts. Zero values take the documented defaults, except where a field says that
// zero is literal.
type Config struct {
	// DeliveryTimeout bounds the time from admission of a record to its
	// terminal outcome, retries included (delivery.timeout.ms). Default 120s.
	// A record still unsent at its deadline fails with ErrDeliveryTimeout and
	// certainty NotSent; one whose bytes may have left fails PossiblySent.
	DeliveryTimeout time.Duration

	// Compression is the record batch codec (compression.type):
	// gregor.CompressionNone (default), CompressionGzip, CompressionSnappy,
	// CompressionLZ4 or CompressionZstd.
	Compression gregor.Compression
	// CompressionLevel is the codec's level (compression.<codec>.level);
	// 0 uses the codec's default.
	CompressionLevel int

	// MaxRetries is how many times a batch is resent after a retriable
	// failure (retries). nil, the default, means unlimited: a batch is
	// resent until it succeeds, fails for good or reaches DeliveryTimeout,
	// as the Java client's default (retries=MAX_INT bounded by
	// delivery.timeout.ms). A non-nil value is literal: &0 (new(0)) means no
	// resend, so a retriable failure is final and reported with the
	// certainty it really has (NotSent or PossiblySent, never better than
	// what is known); n > 0 allows at most n
	// resends, still within DeliveryTimeout. Negative is rejected with
	// ErrConfig. Resends forced by a predecessor's failure
	// (OUT_OF_ORDER_SEQUENCE_NUMBER behind a failed batch) do not count.
	MaxRetries *int
	// RetryBackoff is the wait before a partition's batches are resent
	// (retry.backoff.ms). 0: default 100ms. Negative: no wait.
	RetryBackoff time.Duration

	// Linger is how long a partition's open batch waits for more records
	// before it is sent (linger.ms). 0: default 5ms. Negative: no linger, a
	// batch is sent as soon as a request slot is free. A lingering batch
	// may go sooner: a request to its leader, once another partition of
	// that broker has a batch due, carries it too (as the Java client
	// drains a ready broker).
	Linger time.Duration
	// Rack is the producer's rack (client.rack), for RackAwarePartitioning.
	Rack string
	// RackAwarePartitioning makes the partitioner rack-aware
	// (partitioner.rack.aware, KIP-1123; Java client 4.4+): a record
	// without a key goes to a partition whose leader is in Rack (its
	// broker.rack) when the topic has one with a leader, and to any
	// partition with a leader otherwise; the sticky rule (KIP-794) is
	// unchanged within that set. Keyed records and ToPartition are not
	// affected. Default false, as in the Java client.
	RackAwarePartitioning bool

	// BatchMaxRecords bounds the records of one batch. Default 10000.
	BatchMaxRecords int
	// BatchMaxBytes bounds the (estimated, uncompressed) bytes of one batch
	// (batch.size). Default 1 MiB. A single record larger than this gets a
	// batch of its own, within RequestMaxBytes.
	BatchMaxBytes int
	// RequestMaxBytes bounds the bytes of one ProduceRequest
	// (max.request.size); a record that cannot fit is rejected at admission
	// with ErrRecordTooLarge. Default 4 MiB (capped by RetainedBytes when
	// that is set, and at least BatchMaxBytes), where the Java client's
	// max.request.size is 1 MiB: gregor's batches are 1 MiB (Java's
	// batch.size is 16 KiB), a request holds at most one batch per
	// partition, and a 1 MiB request held one full batch and little else,
	// so a broker leading several busy partitions got requests about 60 %
	// full and a round trip per batch (at 80 ms round trips, 16 partitions:
	// 0.59× franz-go's records/s, whose request cap is 100 MiB; with 4 MiB
	// 1.7×, bench BenchmarkDelay; larger requests cost CPU per record at
	// 1,024 partitions on loopback). A record over the broker's
	// message.max.bytes (1 MiB by default) but within RequestMaxBytes is
	// refused by the broker: errors.Is(err, wire.ErrMessageTooLarge). Must
	// be ≥ BatchMaxBytes, ≤ RetainedBytes and < 2 GiB (a request's size is
	// an int32 on the wire).
	RequestMaxBytes int
	// MaxInFlightPerBroker bounds ProduceRequests outstanding on one broker
	// (max.in.flight.requests.per.connection). 1..5; default 5 (more than 5
	// would break idempotent ordering, see KIP-98).
	MaxInFlightPerBroker int

	// RetainedBytes bounds the bytes of admitted, not yet terminal records the
	// producer keeps (buffer.memory). Default 32 MiB. Must be ≥ RequestMaxBytes.
	RetainedBytes int64
	// InFlightRecords bounds admitted, not yet terminal ("active") records.
	// Default 1,000,000. Must be ≥ BatchMaxRecords.
	InFlightRecords int
	// WaitingRecords bounds Send calls waiting for room in FIFO order; a Send
	// beyond it fails at once with a backpressure error. Default 10000.
	WaitingRecords int
	// WaitingBytes bounds the bytes of records waiting in Send. Default 32 MiB.
	WaitingBytes int64

	// Acks must be 0 (meaning the default) or -1 ("all"); gregor's producer is
	// always acks=all, as durability is never configurable down (acks 0 or
	// 1 would acknowledge records before they are replicated). Anything
	// else is rejected with ErrConfig.
	Acks int
	// Idempotence must be nil or true (enable.idempotence); false is rejected
	// with ErrConfig: gregor's producer is always idempotent (KIP-98).
	Idempotence *bool

	// RequestTimeout bounds one ProduceRequest attempt: the wait for a
	// connection and an in-flight slot, and for the response
	// (request.timeout.ms); it is also the request's timeout_ms. Default 30s.
	// Always capped by the batches' delivery deadline. An attempt that times
	// out counts as a retriable failure with the certainty it really has.
	RequestTimeout time.Duration

	// UnknownTopicRetries bounds how many metadata refreshes in a row may
	// report a record's topic as UNKNOWN_TOPIC_OR_PARTITION (counted from
	// when the record's batch was opened) before the record fails with
	// wire.ErrUnknownTopicOrPartition and certainty NotSent, instead of
	// waiting for DeliveryTimeout; a topic that appears meanwhile is
	// produced to normally. The refreshes back off from RetryBackoff
	// doubling up to 1s, so the default 6 is about 4.5s with the default
	// RetryBackoff. Negative: no bound (such a record waits for its topic
	// until DeliveryTimeout, as the Java producer waits max.block.ms).
	UnknownTopicRetries int

	// InitProducerIDTimeout bounds one InitProducerId attempt. Default 10s.
	InitProducerIDTimeout time.Duration

	// PinTopicIDs makes each record go only to the incarnation of its topic
	// that metadata showed when the record joined a batch: topics are told
	// apart by their topic IDs (KIP-516), which change when a topic is
	// deleted and created again under the same name. A record whose topic's
	// ID changed before it was written fails with ErrTopicIDChanged
	// (NotSent, or PossiblySent if an attempt's outcome was unknown)
	// instead of landing in the new topic; records admitted after the
	// change go to the new incarnation. Default false: records follow the
	// topic name, as the Java client's do. Metadata without topic IDs
	// (brokers before Kafka 2.8) pins nothing. Pinned or not, a recreated
	// topic's partitions start their idempotence sequences anew (at 0,
	// once none of their batches is in flight): nothing is written to the
	// new topic under the old one's sequence state. Brokers whose Produce
	// names topics (before v13: Kafka 4.0 and earlier) cannot tell the
	// incarnations apart: a record sent before the producer's metadata
	// showed the new ID is written to the new topic, pinned or not, and
	// the partition's sequences continue there (as the Java client's do).
	PinTopicIDs bool

	// BorrowSlices hands each record's Key, Value and Headers (the slice of
	// headers and every header's Value) to the producer instead of having
	// them copied at admission. The caller must not modify them, nor the
	// memory they point to, until the record is terminal (its Delivery
	// done: acknowledged, failed or cancelled); the producer never writes
	// to them and holds no reference to them after that. Records are then
	// encoded when their batch is first sent, so a value is read once,
	// just before it is written to the connection, instead of being copied
	// at admission and written from a buffer much later. Sizes, limits
	// (BatchMaxBytes, RequestMaxBytes, RetainedBytes) and the bytes sent
	// are the same as with copying. Default false: Send and TrySend copy,
	// and the caller may reuse its slices as soon as they return.
	BorrowSlices bool

	// Transactional is set by package txn, whose transactional producer
	// sends its records through this producer; other callers leave it nil
	// (they cannot build one: its type is internal to gregor).
	Transactional *txnhook.Hooks

	// ResolvePossiblySent makes the producer run Resolve on a batch that
	// fails PossiblySent before reporting its records' terminal: records
	// proven written are reported acknowledged (Err nil, with their
	// offsets), records proven not written fail with certainty NotSent, the
	// others keep PossiblySent. Cost per such batch: one DescribeProducers
	// and at most one log read (see Resolve), bounded by 30s and by Close;
	// meanwhile its records stay active (RetainedBytes, InFlightRecords)
	// and Flush waits for them. A batch that was never appended usually
	// stays PossiblySent (its epoch is not yet fenced) unless the partition
	// was written under a newer epoch by then. Default false.
	ResolvePossiblySent bool
}

// Defaults (see the fields of Config).
const (
	DefaultDeliveryTimeout      = 120 * time.Second
	DefaultRetryBackoff         = 100 * time.Millisecond
	DefaultLinger               = 5 * time.Millisecond
	DefaultBatchMaxRecords      = 10000
	DefaultBatchMaxBytes        = 1 << 20
	DefaultRequestMaxBytes      = 4 << 20
	DefaultMaxInFlightPerBroker = 5
	DefaultRetainedBytes        = 32 << 20
	DefaultInFlightRecords      = 1000000
	DefaultWaitingRecords       = 10000
	DefaultWaitingBytes         = 32 << 20
	DefaultUnknownTopicRetries  = 6
)

// settings is a validated Config with defaults applied and the "negative
// means none" durations resolved.
type settings struct {
	Config
	linger, backoff time.Duration
	retries         int // resends allowed after a retriable failure; -1 unlimited
}

func configError(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...)
}

// validate applies defaults and checks cfg; errors wrap ErrConfig.
func validate(cfg Config) (settings, error) {
	s := settings{Config: cfg}
	c := &s.Config
	if c.Acks != 0 && c.Acks != -1 {
		return s, configError("acks=%d: the producer is always acks=all (-1)", c.Acks)
	}
	c.Acks = -1
	if c.Idempotence != nil && !*c.Idempotence {
		return s, configError("idempotence cannot be disabled")
	}
	if c.ResolvePossiblySent && c.Transactional != nil {
		// A transactional batch found in the log is written but not yet
		// committed: Resolve's "written" would promise too much.
		return s, configError("ResolvePossiblySent is not available to a transactional producer")
	}
	if c.DeliveryTimeout < 0 {
		return s, configError("DeliveryTimeout %v is negative", c.DeliveryTimeout)
	}
	if c.DeliveryTimeout == 0 {
		c.DeliveryTimeout = DefaultDeliveryTimeout
	}
	switch c.Compression {
	case wire.CompressionNone, wire.CompressionGzip, wire.CompressionSnappy, wire.CompressionLZ4, wire.CompressionZstd:
	default:
		return s, configError("unknown compression %d", c.Compression)
	}
	switch {
	case c.RetryBackoff == 0:
		s.backoff = DefaultRetryBackoff
	case c.RetryBackoff > 0:
		s.backoff = c.RetryBackoff
	}
	switch {
	case c.Linger == 0:
		s.linger = DefaultLinger
	case c.Linger > 0:
		s.linger = c.Linger
	}
	if c.BatchMaxRecords < 0 || c.BatchMaxBytes < 0 || c.RequestMaxBytes < 0 || c.RetainedBytes < 0 ||
		c.InFlightRecords < 0 || c.WaitingRecords < 0 || c.WaitingBytes < 0 || c.MaxInFlightPerBroker < 0 {
		return s, configError("limits must not be negative")
	}
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.BatchMaxRecords, DefaultBatchMaxRecords)
	def(&c.BatchMaxBytes, DefaultBatchMaxBytes)
	reqDefault := DefaultRequestMaxBytes
	if c.RetainedBytes > 0 && c.RetainedBytes < int64(reqDefault) {
		reqDefault = int(c.RetainedBytes) // a set buffer.memory caps the default request
	}
	def(&c.RequestMaxBytes, max(reqDefault, c.BatchMaxBytes))
	def(&c.MaxInFlightPerBroker, DefaultMaxInFlightPerBroker)
	def(&c.InFlightRecords, max(DefaultInFlightRecords, c.BatchMaxRecords))
	def(&c.WaitingRecords, DefaultWaitingRecords)
	if c.RetainedBytes == 0 {
		c.RetainedBytes = max(DefaultRetainedBytes, int64(c.RequestMaxBytes))
	}
	if c.WaitingBytes == 0 {
		c.WaitingBytes = DefaultWaitingBytes
	}
	if c.RequestTimeout <= 0 {
		c.RequestTimeout = 30 * time.Second
	}
	if c.UnknownTopicRetries == 0 {
		c.UnknownTopicRetries = DefaultUnknownTopicRetries
	}
	if c.InitProducerIDTimeout <= 0 {
		c.InitProducerIDTimeout = 10 * time.Second
	}
	if c.MaxInFlightPerBroker > 5 {
		return s, configError("MaxInFlightPerBroker %d: at most 5 requests in flight keep idempotent order", c.MaxInFlightPerBroker)
	}
	if c.BatchMaxRecords > c.InFlightRecords {
		return s, configError("BatchMaxRecords %d exceeds InFlightRecords %d", c.BatchMaxRecords, c.InFlightRecords)
	}
	if c.RequestMaxBytes > math.MaxInt32 {
		return s, configError("RequestMaxBytes %d: a request's size is an int32", c.RequestMaxBytes)
	}
	if c.BatchMaxBytes > c.RequestMaxBytes {
		return s, configError("BatchMaxBytes %d exceeds RequestMaxBytes %d", c.BatchMaxBytes, c.RequestMaxBytes)
	}
	if int64(c.RequestMaxBytes) > c.RetainedBytes {
		return s, configError("RequestMaxBytes %d exceeds RetainedBytes %d", c.RequestMaxBytes, c.RetainedBytes)
	}
	s.retries = -1
	if c.MaxRetries != nil {
		if *c.MaxRetries < 0 {
			return s, configError("MaxRetries %d is negative (nil means unlimited within DeliveryTimeout)", *c.MaxRetries)
		}
		s.retries = *c.MaxRetries
	}
	return s, nil
}
