package protocol

import "github.com/gregor-kafka/gregor/client"

// MetricsSnapshot is the snapshot of client_metrics_observed (§5.1), with
// exactly the spec's keys.
type MetricsSnapshot struct {
	Calls    CallsSnapshot    `json:"calls"`
	Failures FailuresSnapshot `json:"failures"`
	Mailbox  MailboxSnapshot  `json:"mailbox"`
	Latency  LatencySnapshot  `json:"latency"`
	Producer ProducerSnapshot `json:"producer"`
}

// CallsSnapshot is snapshot.calls.
type CallsSnapshot struct {
	Admitted          uint64 `json:"admitted"`
	Succeeded         uint64 `json:"succeeded"`
	Failed            uint64 `json:"failed"`
	ObserverAbandoned uint64 `json:"observer_abandoned"`
	NotSent           uint64 `json:"not_sent"`
	PossiblySent      uint64 `json:"possibly_sent"`
}

// FailuresSnapshot is snapshot.failures.
type FailuresSnapshot struct {
	DNS              uint64 `json:"dns"`
	Connect          uint64 `json:"connect"`
	Transport        uint64 `json:"transport"`
	Negotiation      uint64 `json:"negotiation"`
	Authentication   uint64 `json:"authentication"`
	Deadline         uint64 `json:"deadline"`
	LocalRejection   uint64 `json:"local_rejection"`
	ResponseCapacity uint64 `json:"response_capacity"`
	RouteCapacity    uint64 `json:"route_capacity"`
}

// MailboxSnapshot is snapshot.mailbox.
type MailboxSnapshot struct {
	CapacityPerLane     uint64 `json:"capacity_per_lane"`
	ByteCapacityPerLane uint64 `json:"byte_capacity_per_lane"`
	QueuedWork          uint64 `json:"queued_work"`
	QueuedWorkBytes     uint64 `json:"queued_work_bytes"`
	QueuedControl       uint64 `json:"queued_control"`
	QueuedControlBytes  uint64 `json:"queued_control_bytes"`
	WorkFull            uint64 `json:"work_full"`
	WorkByteFull        uint64 `json:"work_byte_full"`
	ControlFull         uint64 `json:"control_full"`
	ControlByteFull     uint64 `json:"control_byte_full"`
	ClosedRejections    uint64 `json:"closed_rejections"`
	WakeFailures        uint64 `json:"wake_failures"`
}

// LatencyStage is one stage of snapshot.latency.
type LatencyStage struct {
	Samples uint64 `json:"samples"`
	TotalNs uint64 `json:"total_ns"`
	MaxNs   uint64 `json:"max_ns"`
}

// LatencySnapshot is snapshot.latency.
type LatencySnapshot struct {
	Mailbox          LatencyStage `json:"mailbox"`
	Routing          LatencyStage `json:"routing"`
	Preparation      LatencyStage `json:"preparation"`
	WriterAdmission  LatencyStage `json:"writer_admission"`
	InFlight         LatencyStage `json:"in_flight"`
	EndToEnd         LatencyStage `json:"end_to_end"`
	DeadlineLateness LatencyStage `json:"deadline_lateness"`
}

// ProducerSnapshot is snapshot.producer.
type ProducerSnapshot struct {
	ActiveRecords                        uint64 `json:"active_records"`
	ActiveBytes                          uint64 `json:"active_bytes"`
	WaitingRecords                       uint64 `json:"waiting_records"`
	WaitingBytes                         uint64 `json:"waiting_bytes"`
	PreparedBatches                      uint64 `json:"prepared_batches"`
	PreparedBatchBytes                   uint64 `json:"prepared_batch_bytes"`
	TerminalBacklog                      uint64 `json:"terminal_backlog"`
	ProduceRequests                      uint64 `json:"produce_requests"`
	ProduceBatches                       uint64 `json:"produce_batches"`
	ProduceRecords                       uint64 `json:"produce_records"`
	ProduceEncodedBytes                  uint64 `json:"produce_encoded_bytes"`
	PeakProduceInFlightRequests          uint64 `json:"peak_produce_in_flight_requests"`
	PeakProduceInFlightRequestsPerBroker uint64 `json:"peak_produce_in_flight_requests_per_broker"`
	Accepting                            bool   `json:"accepting"`
	Healthy                              bool   `json:"healthy"`
}

// gauge converts a usize gauge; a negative value (a bug upstream) reads 0
// because the protocol type is unsigned.
func gauge(n int) uint64 {
	if n < 0 {
		return 0
	}
	return uint64(n)
}

func lat(d client.DurationStats) LatencyStage {
	return LatencyStage{Samples: d.Count, TotalNs: uint64(max(d.Total, 0)), MaxNs: uint64(max(d.Max, 0))}
}

// SnapshotFrom maps the client's metrics snapshot to the protocol's shape
// and names (§5.1). gregor has one request queue per connection, bounded by
// in-flight slots and not by bytes, and no separate control mailbox, so:
// mailbox.capacity_per_lane is Slots.MaxInFlight, queued_work Slots.Waiting,
// work_full Slots.Waited, closed_rejections Calls.RejectedClosed, and the
// byte and control keys and wake_failures are always 0 (nothing gregor
// does matches them). Latency stages: mailbox is SlotWait, routing Route,
// preparation Encode, writer_admission WriterWait, end_to_end Call,
// deadline_lateness DeadlineOverrun. Failures: local_rejection is
// Rejected, response_capacity ResponseTooLarge, route_capacity
// UnknownBroker.
func SnapshotFrom(m client.MetricsSnapshot) MetricsSnapshot {
	return MetricsSnapshot{
		Calls: CallsSnapshot{
			Admitted: m.Calls.Started, Succeeded: m.Calls.Succeeded, Failed: m.Calls.Failed,
			ObserverAbandoned: m.Calls.Abandoned, NotSent: m.Calls.NotSent, PossiblySent: m.Calls.PossiblySent,
		},
		Failures: FailuresSnapshot{
			DNS: m.Failures.DNS, Connect: m.Failures.Connect, Transport: m.Failures.Transport,
			Negotiation: m.Failures.Negotiation, Authentication: m.Failures.Authentication,
			Deadline: m.Failures.Deadline, LocalRejection: m.Failures.Rejected,
			ResponseCapacity: m.Failures.ResponseTooLarge, RouteCapacity: m.Failures.UnknownBroker,
		},
		Mailbox: MailboxSnapshot{
			CapacityPerLane: gauge(m.Slots.MaxInFlight), QueuedWork: gauge(m.Slots.Waiting),
			WorkFull: m.Slots.Waited, ClosedRejections: m.Calls.RejectedClosed,
		},
		Latency: LatencySnapshot{
			Mailbox: lat(m.Stages.SlotWait), Routing: lat(m.Stages.Route), Preparation: lat(m.Stages.Encode),
			WriterAdmission: lat(m.Stages.WriterWait), InFlight: lat(m.Stages.InFlight),
			EndToEnd: lat(m.Stages.Call), DeadlineLateness: lat(m.Stages.DeadlineOverrun),
		},
		Producer: ProducerSnapshot{
			ActiveRecords: gauge(m.Producer.BufferedRecords), ActiveBytes: gauge(m.Producer.BufferedBytes),
			WaitingRecords: gauge(m.Producer.WaitingRecords), WaitingBytes: gauge(m.Producer.WaitingBytes),
			PreparedBatches: gauge(m.Producer.SealedBatches), PreparedBatchBytes: gauge(m.Producer.SealedBatchBytes),
			TerminalBacklog: gauge(m.Producer.UnreadResults),
			ProduceRequests: m.Producer.Requests, ProduceBatches: m.Producer.Batches,
			ProduceRecords: m.Producer.Records, ProduceEncodedBytes: m.Producer.Bytes,
			PeakProduceInFlightRequests:          gauge(m.Producer.PeakInFlight),
			PeakProduceInFlightRequestsPerBroker: gauge(m.Producer.PeakInFlightPerBroker),
			Accepting:                            m.Producer.Accepting, Healthy: m.Producer.Healthy,
		},
	}
}
