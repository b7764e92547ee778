package consumer

import (
	"fmt"
	"time"
)

// IsolationLevel selects which records a Fetch may return (isolation.level,
// the isolation_level field of FetchRequest v4+ and ListOffsetsRequest v2+).
type IsolationLevel int8

const (
	// ReadUncommitted returns every record up to the high watermark,
	// including records of open and aborted transactions. Default.
	ReadUncommitted IsolationLevel = 0
	// ReadCommitted returns records only up to the last stable offset and
	// drops records of aborted transactions (KIP-98).
	ReadCommitted IsolationLevel = 1
)

// String returns "read_uncommitted" or "read_committed".
func (l IsolationLevel) String() string {
	switch l {
	case ReadUncommitted:
		return "read_uncommitted"
	case ReadCommitted:
		return "read_committed"
	}
	return fmt.Sprintf("IsolationLevel(%d)", int8(l))
}

// ResetPolicy says what the consumer does when its position is out of range
// of the log (OFFSET_OUT_OF_RANGE) or the log was truncated below it
// (auto.offset.reset).
type ResetPolicy int8

const (
	// ResetEarliest moves the position to the log start offset. Default.
	ResetEarliest ResetPolicy = iota
	// ResetLatest moves the position to the log end offset (the last stable
	// offset under ReadCommitted).
	ResetLatest
	// ResetNone stops the partition and makes Receive return an
	// *OffsetOutOfRangeError (or *LogTruncationError) naming it; a Seek or
	// a new assignment of the partition clears the condition.
	ResetNone
)

// String returns "earliest", "latest" or "none".
func (p ResetPolicy) String() string {
	switch p {
	case ResetEarliest:
		return "earliest"
	case ResetLatest:
		return "latest"
	case ResetNone:
		return "none"
	}
	return fmt.Sprintf("ResetPolicy(%d)", int8(p))
}

// Defaults applied by New to zero fields of Config, chosen so that a
// consumer needs no tuning from one partition to thousands, on loopback or
// across a round trip of tens of milliseconds (the reasons are on Config's
// fields).
const (
	DefaultMaxWait           = 500 * time.Millisecond // fetch.max.wait.ms
	DefaultMinBytes          = 1                      // fetch.min.bytes
	DefaultMaxBytes          = 50 << 20               // fetch.max.bytes (52428800)
	DefaultPartitionMaxBytes = 8 << 20                // max.partition.fetch.bytes (the Java client's is 1 MiB)
	DefaultMaxBufferedBytes  = 64 << 20               // gregor's bound on buffered record memory
	DefaultRequestTimeout    = 30 * time.Second       // request.timeout.ms
)

// Config configures a Consumer. Zero values take the documented defaults.
type Config struct {
	// Isolation is the read isolation (isolation.level). Default
	// ReadUncommitted.
	Isolation IsolationLevel
	// MaxWait is how long a broker may hold a Fetch waiting for MinBytes
	// (fetch.max.wait.ms, the max_wait_ms field). Default 500ms, as the
	// Java client: it only bounds how long a caught-up consumer's Fetch
	// waits for new records (records are answered as soon as MinBytes are
	// there), so a longer wait saves idle requests and a shorter one only
	// helps a consumer that shares a broker's Fetch with idle partitions;
	// must be within [1ms, 1h] after defaults.
	MaxWait time.Duration
	// MinBytes is the least data a broker gathers before answering a Fetch
	// early (fetch.min.bytes). Default 1, as the Java client: a record is
	// delivered as soon as it is there; a consumer behind the log end gets
	// full responses anyway, so a larger value only trades latency for
	// fewer requests when caught up.
	MinBytes int32
	// MaxBytes bounds the data of one Fetch response (fetch.max.bytes). The
	// broker still returns the first batch of the first non-empty partition
	// when it is larger (KIP-74). Default 50 MiB, as the Java client. A
	// Fetch asks for less when the buffer has less room: at most a quarter of
	// MaxBufferedBytes (so one response is processed while another waits
	// and the next is fetched) in buffer charge, converted to records-field bytes at the
	// last response's charge per byte (before the first, that of 100-byte
	// records, 2), so what the broker sends is decoded
	// rather than fetched twice.
	MaxBytes int32
	// PartitionMaxBytes bounds the data returned for one partition
	// (max.partition.fetch.bytes); as with MaxBytes, one oversized batch is
	// still returned. Default 8 MiB (the Java client's is 1 MiB): a
	// partition moves at most this much per round trip, and at 1 MiB a
	// one-partition consumer is bound by the round trip (about 9,000
	// 100-byte records each: ~450k records/s at 20 ms); 8 MiB moves more
	// than one consumer decodes even at 20 ms, while MaxBytes and
	// MaxBufferedBytes still bound the memory, and with many partitions
	// the response's bound (MaxBytes) is reached first anyway.
	PartitionMaxBytes int32
	// MaxBufferedBytes bounds the memory of fetched records held for
	// delivery, in bytes: the records field of each response, the
	// decompressed bytes of its compressed batches and 112 bytes per
	// Record value (Metrics.BufferedBytes). While it is reached no Fetch is
	// sent; a Fetch in flight asks for at most the remaining room (at least
	// one batch, KIP-74) and decodes no more than that room, so the buffer
	// can exceed the bound by at most one batch per broker. A partition is
	// fetched one response ahead of delivery (the prefetch depth: one
	// response buffered and the next in flight, or two buffered), within
	// this bound. Recycled memory kept for reuse is bounded by it
	// separately. Default 64 MiB: Fetches of up to 16 MiB charge (about
	// 8 MiB of 100-byte records, 70,000 records: more than one consumer
	// decodes in a 20 ms round trip), several of them buffered.
	MaxBufferedBytes int64
	// OffsetReset is the out-of-range policy (auto.offset.reset). Default
	// ResetEarliest.
	OffsetReset ResetPolicy
	// Rack is the consumer's rack (client.rack), "" for none. It is sent
	// in every Fetch (v11+), so that a broker with a replica selector
	// (replica.selector.class, e.g. RackAwareReplicaSelector) can name a
	// replica in the same rack as the partition's preferred read replica:
	// the partition is then fetched from that follower (KIP-392) until the
	// choice expires after the client's MetadataMaxAge
	// (metadata.max.age.ms), the follower fails or is out of range of the
	// position, or metadata no longer lists it, and from the leader
	// otherwise; Metrics and the client's PartitionMetrics say which
	// replica each partition is read from. A Group also sends it to the
	// coordinator for rack-aware assignment (KIP-881): in its
	// subscription (classic protocol, v3) and its heartbeat (KIP-848).
	Rack string
	// RequestTimeout bounds each background reset (ListOffsets, with its
	// retries) and position validation (OffsetForLeaderEpoch) the fetch
	// loop starts (request.timeout.ms); one that runs out is tried again
	// after a backoff. Other partitions are fetched meanwhile. Default
	// 30s, as the Java client; must not be negative.
	RequestTimeout time.Duration
}

// withDefaults returns cfg with zero fields defaulted, or an error naming
// the first invalid field.
func (cfg Config) withDefaults() (Config, error) {
	if cfg.MaxWait == 0 {
		cfg.MaxWait = DefaultMaxWait
	}
	if cfg.MinBytes == 0 {
		cfg.MinBytes = DefaultMinBytes
	}
	if cfg.MaxBytes == 0 {
		cfg.MaxBytes = DefaultMaxBytes
	}
	if cfg.PartitionMaxBytes == 0 {
		cfg.PartitionMaxBytes = DefaultPartitionMaxBytes
	}
	if cfg.MaxBufferedBytes == 0 {
		cfg.MaxBufferedBytes = DefaultMaxBufferedBytes
	}
	if cfg.RequestTimeout == 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	switch {
	case cfg.Isolation != ReadUncommitted && cfg.Isolation != ReadCommitted:
		return cfg, fmt.Errorf("consumer: invalid Isolation %d", cfg.Isolation)
	case cfg.OffsetReset < ResetEarliest || cfg.OffsetReset > ResetNone:
		return cfg, fmt.Errorf("consumer: invalid OffsetReset %d", cfg.OffsetReset)
	case cfg.MaxWait < time.Millisecond || cfg.MaxWait > time.Hour:
		return cfg, fmt.Errorf("consumer: MaxWait %v outside [1ms, 1h]", cfg.MaxWait)
	case cfg.MinBytes < 0:
		return cfg, fmt.Errorf("consumer: negative MinBytes %d", cfg.MinBytes)
	case cfg.MaxBytes < 0:
		return cfg, fmt.Errorf("consumer: negative MaxBytes %d", cfg.MaxBytes)
	case cfg.PartitionMaxBytes < 0:
		return cfg, fmt.Errorf("consumer: negative PartitionMaxBytes %d", cfg.PartitionMaxBytes)
	case cfg.MaxBufferedBytes < 0:
		return cfg, fmt.Errorf("consumer: negative MaxBufferedBytes %d", cfg.MaxBufferedBytes)
	case cfg.RequestTimeout < 0:
		return cfg, fmt.Errorf("consumer: negative RequestTimeout %v", cfg.RequestTimeout)
	}
	return cfg, nil
}
