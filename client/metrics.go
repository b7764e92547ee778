package client

import "time"

// MetricsSnapshot is a point-in-time copy of a client's counters (they only
// grow over the client's life) and gauges (current values). Durations are
// time.Duration; bytes are bytes; records are records.
type MetricsSnapshot struct {
	// Calls counts requests made through the client by outcome.
	Calls CallMetrics
	// Failures counts failed requests by the class of their failure.
	Failures FailureMetrics
	// Slots describes requests waiting for one of a connection's
	// MaxInFlightPerBroker in-flight slots.
	Slots SlotMetrics
	// Stages summarizes the time requests spent in each stage of their way
	// through the client.
	Stages StageLatencies
	// Producer sums the metrics of the producers built on the client.
	Producer ProducerMetrics
	// Conns counts broker connections.
	Conns ConnMetrics
	// Lanes holds connection metrics per workload lane, indexed by Lane.
	Lanes [NumLanes]LaneMetrics
	// Requests holds a request latency histogram and byte counts per
	// broker and lane that had a connection (connection setup requests
	// included).
	Requests map[BrokerLane]RequestLatency
	// Partitions holds per topic/partition produce and fetch counts,
	// consumer positions and lag, sorted by topic, then partition; one
	// entry per partition a producer or consumer on the client touched
	// (merged when several did; see PartitionMetrics).
	Partitions []PartitionMetrics
}

// LaneMetrics describes one workload lane's connections, summed over
// brokers.
type LaneMetrics struct {
	// Connections is how many connections of the lane are open now;
	// InFlight how many requests are outstanding on them (gauges).
	Connections, InFlight int
	// Opened and Closed count the lane's connections as ConnMetrics does.
	Opened, Closed uint64
}

// ConnMetrics counts broker connections over the client's life.
type ConnMetrics struct {
	// Opened counts connections that finished negotiation (ApiVersions,
	// SASL); Closed counts those that failed or were closed since.
	Opened, Closed uint64
	// Reauthentications counts SASL re-authentications on open
	// connections before the broker's session lifetime ended (KIP-368).
	Reauthentications uint64
	// Rebootstraps counts the times the client went back to its Bootstrap
	// addresses because no known broker could be reached for
	// RebootstrapTrigger or a broker answered REBOOTSTRAP_REQUIRED
	// (KIP-899, KIP-1102).
	Rebootstraps uint64
}

// CallMetrics counts requests (one per Request, StartCall or Enqueue, not
// per attempt) by outcome. Started = Succeeded + Failed + the calls still
// running.
type CallMetrics struct {
	Started   uint64
	Succeeded uint64
	Failed    uint64
	// Abandoned counts calls whose caller stopped waiting (context ended)
	// after the request was written, before its response.
	Abandoned uint64
	// NotSent and PossiblySent split Failed by certainty: NotSent calls
	// certainly wrote nothing to a broker.
	NotSent, PossiblySent uint64
	// RejectedClosed counts attempts refused because the client was
	// closed.
	RejectedClosed uint64
}

// FailureMetrics counts failed requests by the class of their error.
type FailureMetrics struct {
	// DNS: the broker's host did not resolve (ErrDNS).
	DNS uint64
	// Connect: TCP connect or TLS handshake failed.
	Connect uint64
	// Transport: a connection broke or a frame was malformed
	// (ErrTransport, ErrProtocol).
	Transport uint64
	// Negotiation: no common API version or a different cluster
	// (ErrUnsupportedVersion, ErrClusterIdentity).
	Negotiation uint64
	// Authentication: SASL or TLS authentication failed.
	Authentication uint64
	// Deadline: the call's deadline passed (ErrTimeout).
	Deadline uint64
	// Rejected: refused by the client itself (ErrBackpressure, ErrClosed).
	Rejected uint64
	// ResponseTooLarge: a response frame exceeded MaxResponseBytes.
	ResponseTooLarge uint64
	// UnknownBroker: the request named a broker metadata does not list
	// (ErrUnknownBroker).
	UnknownBroker uint64
}

// SlotMetrics describes requests waiting for an in-flight slot: each
// connection carries at most MaxInFlight requests at once.
type SlotMetrics struct {
	// MaxInFlight is Config.MaxInFlightPerBroker.
	MaxInFlight int
	// Waiting is how many requests wait for a slot now (gauge).
	Waiting int
	// Waited counts requests that found every slot taken and waited.
	Waited uint64
}

// DurationStats summarizes the durations of one stage: how many were
// observed, their sum and the largest.
type DurationStats struct {
	Count      uint64
	Total, Max time.Duration
}

// StageLatencies holds the time requests spent in each stage, in the order
// a request passes them.
type StageLatencies struct {
	// Route: finding (or dialing) the connection of the request's broker
	// and lane, metadata lookups included.
	Route DurationStats
	// SlotWait: waiting for an in-flight slot on the connection.
	SlotWait DurationStats
	// WriterWait: from the send to holding the connection's writer, the
	// slot wait included.
	WriterWait DurationStats
	// Encode: encoding the request frame.
	Encode DurationStats
	// InFlight: from the request's write to its response being read.
	InFlight DurationStats
	// Call: a call's whole life, from its start to its outcome, retries
	// included.
	Call DurationStats
	// DeadlineOverrun: for calls abandoned at their deadline, how late
	// after the deadline the client gave up on them.
	DeadlineOverrun DurationStats
}

// ProducerMetrics holds the producer's gauges and counters, summed over the
// producers registered on the client (peaks take the largest).
type ProducerMetrics struct {
	// BufferedRecords and BufferedBytes are the records admitted and not
	// yet terminal (the room Config.InFlightRecords and RetainedBytes
	// bound); gauges.
	BufferedRecords, BufferedBytes int
	// WaitingRecords and WaitingBytes are Send calls waiting for room
	// (bounded by Config.WaitingRecords and WaitingBytes); gauges.
	WaitingRecords, WaitingBytes int
	// SealedBatches and SealedBatchBytes are batches closed for appends
	// and not yet acknowledged, with their estimated size; gauges.
	SealedBatches, SealedBatchBytes int
	// UnreadResults counts records whose outcome is decided but not yet
	// read by Delivery.Result or Wait; gauge.
	UnreadResults int
	// Requests, Batches, Records and Bytes count Produce requests written
	// and the batches, records and encoded batch bytes in them (a retried
	// batch counts again).
	Requests, Batches, Records, Bytes uint64
	// PeakInFlight is the most Produce requests ever in flight at once;
	// PeakInFlightPerBroker the most to one broker.
	PeakInFlight, PeakInFlightPerBroker int
	// Accepting: every producer accepts Sends (none is closing).
	// Healthy: no producer is closed or failed to get its identity. Both
	// are false when no producer is registered.
	Accepting, Healthy bool
}

// PartitionMetrics is one partition's produce and fetch counts and a
// consumer's progress through it. When several producers or consumers on
// the client touch the same partition their counts and buffered amounts
// add up, HighWatermark and LastStableOffset take the newest (largest),
// and Position and Lag are those of the consumer furthest behind.
type PartitionMetrics struct {
	Topic     string
	Partition int32
	// ProducedRecords and ProducedBytes count records and encoded batch
	// bytes the broker acknowledged.
	ProducedRecords, ProducedBytes uint64
	// FetchedRecords and FetchedBytes count records Fetch responses
	// brought for delivery (after read_committed filtering) and the bytes
	// charged for them (compressed batches plus decompressed records).
	FetchedRecords, FetchedBytes uint64
	// BufferedRecords and BufferedBytes are fetched records waiting for
	// Receive (gauges).
	BufferedRecords int
	BufferedBytes   int64
	// HighWatermark and LastStableOffset are the partition's as the last
	// Fetch response reported them; -1 before the first.
	HighWatermark, LastStableOffset int64
	// Position is the next offset the consumer's Receive returns; -1 when
	// no consumer reads the partition.
	Position int64
	// Lag is the consumer's lag in offsets: the end (HighWatermark, or
	// LastStableOffset under read_committed) minus Position; -1 when
	// either is unknown. Control records and aborted transactions count.
	Lag int64
	// FromFollower reports that a consumer reads the partition from
	// ReadReplica, the preferred read replica its leader named (KIP-392,
	// consumer.Config.Rack), rather than from the leader; ReadReplica is
	// Java's preferred-read-replica metric (which is -1 for the leader).
	FromFollower bool
	ReadReplica  int32
}
