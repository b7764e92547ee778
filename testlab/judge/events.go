package judge

import (
	"fmt"
	"slices"
	"sort"
)

// One Go struct per event kind of §5, decoded strictly (strict.go): every
// key required (absent optionals are explicit null), no unknown key, JSON
// types exact. A nullable field is a pointer (nil = null). The envelope
// (protocol_version, command_id, kind) is checked apart.

// eventTypes makes the payload struct of each event kind.
var eventTypes = map[string]func() any{
	// §5.1
	"ready":                           func() any { return new(Ready) },
	"client_created":                  func() any { return new(ClientCreated) },
	"client_ready":                    func() any { return new(ClientReady) },
	"client_metrics_observed":         func() any { return new(ClientMetricsObserved) },
	"producer_created":                func() any { return new(ProducerCreated) },
	"operation_accepted":              func() any { return new(OperationAccepted) },
	"operation_rejected":              func() any { return new(OperationRejected) },
	"operation_terminal":              func() any { return new(OperationTerminal) },
	"producer_cancellation_completed": func() any { return new(ProducerCancellationCompleted) },
	"batch_completed":                 func() any { return new(BatchCompleted) },
	"flush_completed":                 func() any { return new(FlushCompleted) },
	"producer_closed":                 func() any { return new(ProducerClosed) },
	"client_shutdown":                 func() any { return new(ClientShutdown) },
	// §5.2
	"concurrent_actors_started":   func() any { return new(ConcurrentActorsStarted) },
	"concurrent_actor_completed":  func() any { return new(ConcurrentActorCompleted) },
	"concurrent_actors_completed": func() any { return new(ConcurrentActorsCompleted) },
	// §5.3
	"assigned_consumer_created":           func() any { return new(AssignedConsumerCreated) },
	"assignment_completed":                func() any { return new(AssignmentCompleted) },
	"assigned_consumer_control_completed": func() any { return new(AssignedConsumerControlCompleted) },
	"receive_completed":                   func() any { return new(ReceiveCompleted) },
	"assigned_consumer_closed":            func() any { return new(AssignedConsumerClosed) },
	// §5.4
	"group_consumer_created":            func() any { return new(GroupConsumerCreated) },
	"group_receive_completed":           func() any { return new(GroupReceiveCompleted) },
	"group_assignments_observed":        func() any { return new(GroupAssignmentsObserved) },
	"group_receive_set_completed":       func() any { return new(GroupReceiveSetCompleted) },
	"group_consumer_control_completed":  func() any { return new(GroupConsumerControlCompleted) },
	"group_consumer_shutdown_completed": func() any { return new(GroupConsumerShutdownCompleted) },
	"group_consumer_closed":             func() any { return new(GroupConsumerClosed) },
	// §5.5
	"share_consumer_created":          func() any { return new(ShareConsumerCreated) },
	"share_receive_completed":         func() any { return new(ShareReceiveCompleted) },
	"share_acknowledgement_completed": func() any { return new(ShareAcknowledgementCompleted) },
	"share_batch_dropped":             func() any { return new(ShareBatchDropped) },
	"share_consumer_closed":           func() any { return new(ShareConsumerClosed) },
	// §5.6
	"topic_created":                      func() any { return new(TopicCreated) },
	"topic_creation_validated":           func() any { return new(TopicCreationValidated) },
	"topics_creation_completed":          func() any { return new(TopicsCreationCompleted) },
	"topic_partitions_created":           func() any { return new(TopicPartitionsCreated) },
	"topic_partition_increase_validated": func() any { return new(TopicPartitionIncreaseValidated) },
	"topic_deleted":                      func() any { return new(TopicDeleted) },
	"topic_described":                    func() any { return new(TopicDescribed) },
	"topics_listed":                      func() any { return new(TopicsListed) },
	"offset_listed":                      func() any { return new(OffsetListed) },
	"records_deleted":                    func() any { return new(RecordsDeleted) },
	"topic_config_described":             func() any { return new(TopicConfigDescribed) },
	"topic_config_altered":               func() any { return new(TopicConfigAltered) },
	"topic_config_alteration_validated":  func() any { return new(TopicConfigAlterationValidated) },
	"cluster_described":                  func() any { return new(ClusterDescribed) },
	"consumer_groups_listed":             func() any { return new(ConsumerGroupsListed) },
	"consumer_group_described":           func() any { return new(ConsumerGroupDescribed) },
	"consumer_group_offset_listed":       func() any { return new(ConsumerGroupOffsetListed) },
	"consumer_group_offsets_listed":      func() any { return new(ConsumerGroupOffsetsListed) },
	"consumer_groups_offsets_listed":     func() any { return new(ConsumerGroupsOffsetsListed) },
	"consumer_group_offset_altered":      func() any { return new(ConsumerGroupOffsetAltered) },
	"consumer_group_offsets_altered":     func() any { return new(ConsumerGroupOffsetsAltered) },
	"consumer_group_offset_deleted":      func() any { return new(ConsumerGroupOffsetDeleted) },
	"consumer_group_offsets_deleted":     func() any { return new(ConsumerGroupOffsetsDeleted) },
	"consumer_group_deleted":             func() any { return new(ConsumerGroupDeleted) },
	"classic_groups_described":           func() any { return new(ClassicGroupsDescribed) },
	// §5.7
	"transactional_producer_created":    func() any { return new(TransactionalProducerCreated) },
	"transaction_completed":             func() any { return new(TransactionCompleted) },
	"transactional_transform_completed": func() any { return new(TransactionalTransformCompleted) },
	"transaction_fence_completed":       func() any { return new(TransactionFenceCompleted) },
	"transactional_producer_closed":     func() any { return new(TransactionalProducerClosed) },
	// §5.8
	"command_failed": func() any { return new(CommandFailed) },
	"finished":       func() any { return new(Finished) },
	"aborted":        func() any { return new(Aborted) },
	"fatal":          func() any { return new(Fatal) },
}

// EventKinds returns every event kind the judge knows, sorted.
func EventKinds() []string {
	out := make([]string, 0, len(eventTypes))
	for k := range eventTypes {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// §5.1 Session, client, producer

// Ready answers hello (§2.2).
type Ready struct {
	Descriptor Descriptor `json:"descriptor"`
}

// Descriptor is the adapter's self-description in ready.
type Descriptor struct {
	ID              ID       `json:"id"`
	Implementation  string   `json:"implementation"`
	Version         string   `json:"version"`
	ProtocolVersion uint16   `json:"protocol_version"`
	Capabilities    []string `json:"capabilities"`
}

// ClientCreated answers create_client and create_configured_client.
type ClientCreated struct {
	ClientID ID `json:"client_id"`
}

// ClientReady answers await_client_ready.
type ClientReady struct {
	ClientID ID `json:"client_id"`
}

// ClientMetricsObserved answers observe_client_metrics.
type ClientMetricsObserved struct {
	ClientID    ID              `json:"client_id"`
	OperationID ID              `json:"operation_id"`
	Snapshot    MetricsSnapshot `json:"snapshot"`
}

// MetricsSnapshot is client_metrics_observed's snapshot (§5.1).
type MetricsSnapshot struct {
	Calls struct {
		Admitted          uint64 `json:"admitted"`
		Succeeded         uint64 `json:"succeeded"`
		Failed            uint64 `json:"failed"`
		ObserverAbandoned uint64 `json:"observer_abandoned"`
		NotSent           uint64 `json:"not_sent"`
		PossiblySent      uint64 `json:"possibly_sent"`
	} `json:"calls"`
	Failures struct {
		DNS              uint64 `json:"dns"`
		Connect          uint64 `json:"connect"`
		Transport        uint64 `json:"transport"`
		Negotiation      uint64 `json:"negotiation"`
		Authentication   uint64 `json:"authentication"`
		Deadline         uint64 `json:"deadline"`
		LocalRejection   uint64 `json:"local_rejection"`
		ResponseCapacity uint64 `json:"response_capacity"`
		RouteCapacity    uint64 `json:"route_capacity"`
	} `json:"failures"`
	Mailbox struct {
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
	} `json:"mailbox"`
	Latency struct {
		Mailbox          LatencyStage `json:"mailbox"`
		Routing          LatencyStage `json:"routing"`
		Preparation      LatencyStage `json:"preparation"`
		WriterAdmission  LatencyStage `json:"writer_admission"`
		InFlight         LatencyStage `json:"in_flight"`
		EndToEnd         LatencyStage `json:"end_to_end"`
		DeadlineLateness LatencyStage `json:"deadline_lateness"`
	} `json:"latency"`
	Producer struct {
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
	} `json:"producer"`
}

// LatencyStage is one stage of the snapshot's latency block.
type LatencyStage struct {
	Samples uint64 `json:"samples"`
	TotalNs uint64 `json:"total_ns"`
	MaxNs   uint64 `json:"max_ns"`
}

// ProducerCreated answers create_producer.
type ProducerCreated struct {
	ProducerID ID `json:"producer_id"`
}

// OperationAccepted admits an operation.
type OperationAccepted struct {
	OperationID ID `json:"operation_id"`
}

// OperationRejected refuses an operation with a normalized code.
type OperationRejected struct {
	OperationID ID     `json:"operation_id"`
	Code        string `json:"code"`
}

// OperationTerminal is an accepted operation's one terminal: acknowledged
// and transaction_staged carry an offset and no code; definitely_not_sent
// and possibly_sent a code and no offset (§5.1).
type OperationTerminal struct {
	OperationID ID             `json:"operation_id"`
	Status      TerminalStatus `json:"status"`
	Code        *string        `json:"code"`
	Offset      *int64         `json:"offset"`
}

func (t *OperationTerminal) validate() error {
	if t.Offset != nil && *t.Offset < 0 {
		return fmt.Errorf("offset %d is negative", *t.Offset)
	}
	switch t.Status {
	case "acknowledged", "transaction_staged":
		if t.Code != nil || t.Offset == nil {
			return fmt.Errorf("status %s wants an offset and a null code", t.Status)
		}
	default:
		if t.Code == nil || t.Offset != nil {
			return fmt.Errorf("status %s wants a code and a null offset", t.Status)
		}
	}
	return nil
}

// ProducerCancellationCompleted ends cancel_producer_send with the two
// cancellation outcomes in call order.
type ProducerCancellationCompleted struct {
	OperationID ID                    `json:"operation_id"`
	Outcomes    []CancellationOutcome `json:"outcomes"`
}

func (c *ProducerCancellationCompleted) validate() error {
	if len(c.Outcomes) != 2 {
		return fmt.Errorf("outcomes: %d values, want exactly 2", len(c.Outcomes))
	}
	return nil
}

// BatchCompleted ends send_batch.
type BatchCompleted struct {
	ProducerID ID `json:"producer_id"`
}

// FlushCompleted answers flush.
type FlushCompleted struct {
	ProducerID ID `json:"producer_id"`
}

// ProducerClosed answers close_producer.
type ProducerClosed struct {
	ProducerID ID `json:"producer_id"`
}

// ClientShutdown answers shutdown_client.
type ClientShutdown struct {
	ClientID ID `json:"client_id"`
}

// §5.2 Concurrency

// ConcurrentActorsStarted answers start_concurrent_actors.
type ConcurrentActorsStarted struct {
	ConcurrencyID ID   `json:"concurrency_id"`
	ActorIDs      []ID `json:"actor_ids"`
}

// ConcurrentActorCompleted ends one actor during join_concurrent_actors.
type ConcurrentActorCompleted struct {
	ConcurrencyID ID `json:"concurrency_id"`
	ActorID       ID `json:"actor_id"`
	OperationID   ID `json:"operation_id"`
}

// ConcurrentActorsCompleted ends join_concurrent_actors.
type ConcurrentActorsCompleted struct {
	ConcurrencyID ID   `json:"concurrency_id"`
	ActorIDs      []ID `json:"actor_ids"`
}

// §5.3 Assigned consumer

// AssignedConsumerCreated answers create_assigned_consumer.
type AssignedConsumerCreated struct {
	ConsumerID ID `json:"consumer_id"`
}

// AssignmentCompleted answers assign_beginning and assign_beginning_batch.
type AssignmentCompleted struct {
	ConsumerID ID `json:"consumer_id"`
}

// AssignedConsumerControlCompleted answers control_assigned_consumer.
type AssignedConsumerControlCompleted struct {
	OperationID ID                  `json:"operation_id"`
	ConsumerID  ID                  `json:"consumer_id"`
	Control     AssignedControlKind `json:"control"`
}

// ReceiveCompleted answers receive (and a receive actor).
type ReceiveCompleted struct {
	ReceiveID ID               `json:"receive_id"`
	Records   []ConsumedRecord `json:"records"`
}

// AssignedConsumerClosed answers close_assigned_consumer.
type AssignedConsumerClosed struct {
	ConsumerID ID `json:"consumer_id"`
}

// §5.4 Groups

// GroupConsumerCreated answers create_group_consumer.
type GroupConsumerCreated struct {
	ConsumerID ID `json:"consumer_id"`
}

// GroupReceiveCompleted answers group_receive; GroupEpoch nil is null.
type GroupReceiveCompleted struct {
	ReceiveID  ID               `json:"receive_id"`
	Records    []ConsumedRecord `json:"records"`
	Committed  bool             `json:"committed"`
	GroupEpoch *GroupEpoch      `json:"group_epoch"`
}

// GroupAssignmentsObserved answers observe_group_assignments.
type GroupAssignmentsObserved struct {
	OperationID ID                `json:"operation_id"`
	Transitions []GroupTransition `json:"transitions"`
	Assignments []GroupAssignment `json:"assignments"`
}

func (g *GroupAssignmentsObserved) validate() error {
	if len(g.Assignments) == 0 {
		return fmt.Errorf("assignments: empty, want one per requested consumer")
	}
	return nil
}

// GroupTransition is one drained assignment transition.
type GroupTransition struct {
	ConsumerID      ID               `json:"consumer_id"`
	Kind            TransitionKind   `json:"kind"`
	AssignmentEpoch uint64           `json:"assignment_epoch"`
	Partitions      []TopicPartition `json:"partitions"`
}

// GroupAssignment is one consumer's current assignment snapshot.
type GroupAssignment struct {
	ConsumerID      ID               `json:"consumer_id"`
	GroupID         string           `json:"group_id"`
	MemberID        string           `json:"member_id"`
	GroupEpoch      GroupEpoch       `json:"group_epoch"`
	AssignmentEpoch uint64           `json:"assignment_epoch"`
	Partitions      []TopicPartition `json:"partitions"`
}

// GroupReceiveSetCompleted answers group_receive_set.
type GroupReceiveSetCompleted struct {
	ReceiveID ID                   `json:"receive_id"`
	Members   []GroupReceiveMember `json:"members"`
}

// GroupReceiveMember is one member's share of a group_receive_set.
type GroupReceiveMember struct {
	ConsumerID ID               `json:"consumer_id"`
	Records    []ConsumedRecord `json:"records"`
	Committed  bool             `json:"committed"`
	GroupEpoch *GroupEpoch      `json:"group_epoch"`
}

// GroupConsumerControlCompleted answers control_group_consumer.
type GroupConsumerControlCompleted struct {
	OperationID ID               `json:"operation_id"`
	ConsumerID  ID               `json:"consumer_id"`
	Control     GroupControlKind `json:"control"`
}

// GroupConsumerShutdownCompleted answers shutdown_group_consumer.
type GroupConsumerShutdownCompleted struct {
	OperationID  ID    `json:"operation_id"`
	ConsumerID   ID    `json:"consumer_id"`
	RequestCount uint8 `json:"request_count"`
}

// GroupConsumerClosed answers close_group_consumer.
type GroupConsumerClosed struct {
	ConsumerID ID `json:"consumer_id"`
}

// §5.5 Share

// ShareConsumerCreated answers create_share_consumer.
type ShareConsumerCreated struct {
	ConsumerID ID `json:"consumer_id"`
}

// ShareReceiveCompleted answers share_receive.
type ShareReceiveCompleted struct {
	ConsumerID       ID            `json:"consumer_id"`
	ReceiveID        ID            `json:"receive_id"`
	Records          []ShareRecord `json:"records"`
	AcquisitionCount uint64        `json:"acquisition_count"`
	MemberEpoch      *int32        `json:"member_epoch"`
	AssignmentEpoch  *uint64       `json:"assignment_epoch"`
}

// ShareRecord is one acquired record with its broker delivery count.
type ShareRecord struct {
	Record        ConsumedRecord `json:"record"`
	DeliveryCount int16          `json:"delivery_count"`
}

// ShareAcknowledgementCompleted answers share_acknowledge; Delivery and
// Code are nil (null) on success.
type ShareAcknowledgementCompleted struct {
	AcknowledgementID ID                 `json:"acknowledgement_id"`
	ReceiveID         ID                 `json:"receive_id"`
	Dispositions      []ShareDisposition `json:"dispositions"`
	Success           bool               `json:"success"`
	Delivery          *TerminalStatus    `json:"delivery"`
	Code              *string            `json:"code"`
}

// ShareBatchDropped answers drop_share_batch.
type ShareBatchDropped struct {
	ReceiveID ID `json:"receive_id"`
}

// ShareConsumerClosed answers close_share_consumer; Delivery and Code are
// nil (null) on success.
type ShareConsumerClosed struct {
	ConsumerID ID              `json:"consumer_id"`
	Success    bool            `json:"success"`
	Delivery   *TerminalStatus `json:"delivery"`
	Code       *string         `json:"code"`
}

// §5.6 Admin

// TopicCreated answers create_topic.
type TopicCreated struct {
	OperationID ID     `json:"operation_id"`
	Topic       string `json:"topic"`
}

// TopicCreationValidated answers create_topic with validate_only.
type TopicCreationValidated struct {
	OperationID ID     `json:"operation_id"`
	Topic       string `json:"topic"`
}

// TopicsCreationCompleted answers create_topics_batch, outcomes in request
// order.
type TopicsCreationCompleted struct {
	OperationID ID `json:"operation_id"`
	Outcomes    []struct {
		Topic     string  `json:"topic"`
		ErrorCode *string `json:"error_code"`
	} `json:"outcomes"`
}

// TopicPartitionsCreated answers create_partitions.
type TopicPartitionsCreated struct {
	OperationID ID     `json:"operation_id"`
	Topic       string `json:"topic"`
}

// TopicPartitionIncreaseValidated answers create_partitions with
// validate_only.
type TopicPartitionIncreaseValidated struct {
	OperationID ID     `json:"operation_id"`
	Topic       string `json:"topic"`
}

// TopicDeleted answers delete_topic.
type TopicDeleted struct {
	OperationID ID     `json:"operation_id"`
	Topic       string `json:"topic"`
}

// TopicDescribed answers describe_topic: partitions ascending, unique, >= 0.
type TopicDescribed struct {
	OperationID ID      `json:"operation_id"`
	Topic       string  `json:"topic"`
	Partitions  []int32 `json:"partitions"`
}

func (t *TopicDescribed) validate() error {
	for i, p := range t.Partitions {
		if p < 0 || i > 0 && p <= t.Partitions[i-1] {
			return fmt.Errorf("partitions %v: want ascending, unique, >= 0", t.Partitions)
		}
	}
	return nil
}

// TopicsListed answers list_topics: names byte-wise sorted and unique.
type TopicsListed struct {
	OperationID ID       `json:"operation_id"`
	Topics      []string `json:"topics"`
}

func (t *TopicsListed) validate() error {
	for i := 1; i < len(t.Topics); i++ {
		if t.Topics[i] <= t.Topics[i-1] {
			return fmt.Errorf("topics: %q after %q, want byte-wise sorted and unique", t.Topics[i], t.Topics[i-1])
		}
	}
	return nil
}

// OffsetListed answers list_offsets.
type OffsetListed struct {
	OperationID ID     `json:"operation_id"`
	Topic       string `json:"topic"`
	Partition   int32  `json:"partition"`
	Offset      *int64 `json:"offset"`
}

// RecordsDeleted answers delete_records.
type RecordsDeleted struct {
	OperationID  ID     `json:"operation_id"`
	Topic        string `json:"topic"`
	Partition    int32  `json:"partition"`
	LowWatermark int64  `json:"low_watermark"`
}

// TopicConfigDescribed answers describe_topic_config; Value nil is null
// (sensitive or unavailable).
type TopicConfigDescribed struct {
	OperationID ID      `json:"operation_id"`
	Topic       string  `json:"topic"`
	ConfigName  string  `json:"config_name"`
	Value       *string `json:"value"`
}

// TopicConfigAltered answers alter_topic_config.
type TopicConfigAltered struct {
	OperationID ID     `json:"operation_id"`
	Topic       string `json:"topic"`
	ConfigName  string `json:"config_name"`
}

// TopicConfigAlterationValidated answers alter_topic_config with
// validate_only.
type TopicConfigAlterationValidated struct {
	OperationID ID     `json:"operation_id"`
	Topic       string `json:"topic"`
	ConfigName  string `json:"config_name"`
}

// ClusterDescribed answers describe_cluster: broker ids sorted.
type ClusterDescribed struct {
	OperationID ID      `json:"operation_id"`
	ClusterID   *string `json:"cluster_id"`
	BrokerIDs   []int32 `json:"broker_ids"`
}

func (c *ClusterDescribed) validate() error {
	if !slices.IsSorted(c.BrokerIDs) {
		return fmt.Errorf("broker_ids %v: want sorted", c.BrokerIDs)
	}
	return nil
}

// ConsumerGroupsListed answers list_consumer_groups: group ids sorted,
// broker errors sorted by broker id with the raw Kafka error code.
type ConsumerGroupsListed struct {
	OperationID  ID       `json:"operation_id"`
	GroupIDs     []string `json:"group_ids"`
	BrokerErrors []struct {
		BrokerID int32 `json:"broker_id"`
		Code     int16 `json:"code"`
	} `json:"broker_errors"`
}

func (c *ConsumerGroupsListed) validate() error {
	if !slices.IsSorted(c.GroupIDs) {
		return fmt.Errorf("group_ids: want sorted")
	}
	for i := 1; i < len(c.BrokerErrors); i++ {
		if c.BrokerErrors[i].BrokerID <= c.BrokerErrors[i-1].BrokerID {
			return fmt.Errorf("broker_errors: want sorted by broker id, one per broker")
		}
	}
	return nil
}

// ConsumerGroupDescribed answers describe_consumer_group.
type ConsumerGroupDescribed struct {
	OperationID ID     `json:"operation_id"`
	GroupID     string `json:"group_id"`
	MemberCount uint32 `json:"member_count"`
}

// ConsumerGroupOffsetListed answers list_consumer_group_offsets; Offset nil
// means no committed offset.
type ConsumerGroupOffsetListed struct {
	OperationID ID     `json:"operation_id"`
	GroupID     string `json:"group_id"`
	Topic       string `json:"topic"`
	Partition   int32  `json:"partition"`
	Offset      *int64 `json:"offset"`
}

// GroupOffsetOutcome is one partition's listed committed offset.
type GroupOffsetOutcome struct {
	Topic     string  `json:"topic"`
	Partition int32   `json:"partition"`
	Offset    *int64  `json:"offset"`
	ErrorCode *string `json:"error_code"`
}

// ConsumerGroupOffsetsListed answers list_consumer_group_offsets_batch.
type ConsumerGroupOffsetsListed struct {
	OperationID ID                   `json:"operation_id"`
	GroupID     string               `json:"group_id"`
	Outcomes    []GroupOffsetOutcome `json:"outcomes"`
}

// ConsumerGroupsOffsetsListed answers list_consumer_groups_offsets.
type ConsumerGroupsOffsetsListed struct {
	OperationID ID `json:"operation_id"`
	Groups      []struct {
		GroupID   string               `json:"group_id"`
		ErrorCode *string              `json:"error_code"`
		Offsets   []GroupOffsetOutcome `json:"offsets"`
	} `json:"groups"`
}

// ConsumerGroupOffsetAltered answers alter_consumer_group_offset.
type ConsumerGroupOffsetAltered struct {
	OperationID ID     `json:"operation_id"`
	GroupID     string `json:"group_id"`
	Topic       string `json:"topic"`
	Partition   int32  `json:"partition"`
}

// PartitionOutcome is one partition's result in a plural group command.
type PartitionOutcome struct {
	Topic     string  `json:"topic"`
	Partition int32   `json:"partition"`
	ErrorCode *string `json:"error_code"`
}

// ConsumerGroupOffsetsAltered answers alter_consumer_group_offsets.
type ConsumerGroupOffsetsAltered struct {
	OperationID ID                 `json:"operation_id"`
	GroupID     string             `json:"group_id"`
	Outcomes    []PartitionOutcome `json:"outcomes"`
}

// ConsumerGroupOffsetDeleted answers delete_consumer_group_offset.
type ConsumerGroupOffsetDeleted struct {
	OperationID ID     `json:"operation_id"`
	GroupID     string `json:"group_id"`
	Topic       string `json:"topic"`
	Partition   int32  `json:"partition"`
}

// ConsumerGroupOffsetsDeleted answers delete_consumer_group_offsets.
type ConsumerGroupOffsetsDeleted struct {
	OperationID ID                 `json:"operation_id"`
	GroupID     string             `json:"group_id"`
	Outcomes    []PartitionOutcome `json:"outcomes"`
}

// ConsumerGroupDeleted answers delete_consumer_group.
type ConsumerGroupDeleted struct {
	OperationID ID     `json:"operation_id"`
	GroupID     string `json:"group_id"`
}

// ClassicGroupsDescribed answers describe_classic_groups, outcomes in
// request order.
type ClassicGroupsDescribed struct {
	OperationID ID `json:"operation_id"`
	Outcomes    []struct {
		GroupID     string  `json:"group_id"`
		MemberCount *uint32 `json:"member_count"`
		ErrorCode   *string `json:"error_code"`
	} `json:"outcomes"`
}

// §5.7 Transactions

// TransactionalProducerCreated answers create_transactional_producer (and
// the replacement of fence_transaction).
type TransactionalProducerCreated struct {
	ProducerID ID `json:"producer_id"`
}

// TransactionCompleted ends execute_transaction.
type TransactionCompleted struct {
	TransactionID ID                     `json:"transaction_id"`
	Disposition   TransactionDisposition `json:"disposition"`
}

// TransactionalTransformCompleted ends execute_transactional_transform;
// Records is the input batch, NextOffset the checkpoint transferred.
type TransactionalTransformCompleted struct {
	TransactionID ID                     `json:"transaction_id"`
	Disposition   TransactionDisposition `json:"disposition"`
	ConsumerID    ID                     `json:"consumer_id"`
	Records       []ConsumedRecord       `json:"records"`
	GroupID       string                 `json:"group_id"`
	Topic         string                 `json:"topic"`
	Partition     int32                  `json:"partition"`
	NextOffset    int64                  `json:"next_offset"`
	GroupEpoch    GroupEpoch             `json:"group_epoch"`
}

// TransactionFenceCompleted ends fence_transaction; CommitErrorCode nil
// (null) means the old commit unexpectedly succeeded.
type TransactionFenceCompleted struct {
	TransactionID   ID      `json:"transaction_id"`
	CommitErrorCode *string `json:"commit_error_code"`
}

// TransactionalProducerClosed answers close_transactional_producer.
type TransactionalProducerClosed struct {
	ProducerID ID `json:"producer_id"`
}

// §5.8 Terminal / failure

// CommandFailed completes any command with a normalized failure code.
type CommandFailed struct {
	Code       string `json:"code"`
	Diagnostic string `json:"diagnostic"`
}

// Finished answers finish.
type Finished struct{}

// Aborted answers abort.
type Aborted struct{}

// Fatal reports a broken adapter or protocol; the run is invalid.
type Fatal struct {
	Code       string `json:"code"`
	Diagnostic string `json:"diagnostic"`
}
