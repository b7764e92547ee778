package client

// MetricsSnapshot is a point-in-time copy of a client's counters and gauges.
// Its shape follows the adapter protocol's client metrics snapshot (§5.1 of
// the v34 spec) where it fits gregor: counters only grow; gauges are current.
type MetricsSnapshot struct {
	Calls    CallMetrics
	Failures FailureMetrics
	Mailbox  MailboxMetrics
	Latency  LatencyMetrics
	Producer ProducerMetrics
	Conns    ConnMetrics
	// Lanes holds connection metrics per workload lane, indexed by Lane.
	Lanes [NumLanes]LaneMetrics
	// Requests holds a request latency histogram and byte counts per
	// broker and lane that had a connection (connection setup requests
	// included).
	Requests map[BrokerLane]RequestLatency
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

// CallMetrics counts public calls (requests) by outcome.
type CallMetrics struct {
	Admitted          uint64
	Succeeded         uint64
	Failed            uint64
	ObserverAbandoned uint64 // caller stopped waiting before the outcome
	NotSent           uint64 // failed with certainty NotSent
	PossiblySent      uint64 // failed with certainty PossiblySent
}

// FailureMetrics counts failures by class.
type FailureMetrics struct {
	DNS, Connect, Transport, Negotiation, Authentication, Deadline, LocalRejection uint64
	ResponseCapacity, RouteCapacity                                                uint64
}

// MailboxMetrics describes request queues in front of connections.
type MailboxMetrics struct {
	CapacityPerLane, ByteCapacityPerLane, QueuedWork, QueuedWorkBytes, QueuedControl, QueuedControlBytes int
	WorkFull, WorkByteFull, ControlFull, ControlByteFull, ClosedRejections, WakeFailures                 uint64
}

// Latency accumulates durations of one stage.
type Latency struct {
	Samples uint64
	TotalNs uint64
	MaxNs   uint64
}

// LatencyMetrics holds per-stage latencies.
type LatencyMetrics struct {
	Mailbox, Routing, Preparation, WriterAdmission, InFlight, EndToEnd, DeadlineLateness Latency
}

// ProducerMetrics holds the producer's gauges and counters, summed over the
// producers registered on the client.
type ProducerMetrics struct {
	ActiveRecords, ActiveBytes, WaitingRecords, WaitingBytes  int
	PreparedBatches, PreparedBatchBytes, TerminalBacklog      int
	ProduceRequests, ProduceBatches, ProduceRecords           uint64
	ProduceEncodedBytes                                       uint64
	PeakProduceInFlightRequests, PeakProduceInFlightPerBroker int
	Accepting, Healthy                                        bool
}
