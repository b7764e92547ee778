package protocol

import "fmt"

// The command payloads of protocol v34 (§4). Each struct holds the fields
// that sit beside "kind" at the top level of a command line; the envelope
// (protocol_version, command_id, kind) is carried by Command.

// Hello opens the session (§2.1).
type Hello struct {
	RunID           ID       `json:"run_id"`
	ScenarioID      ID       `json:"scenario_id"`
	BrokerEndpoints []string `json:"broker_endpoints"`
	Security        Security `json:"security"`
}

// CreateClient creates a client with default producer policy (§4.1).
type CreateClient struct {
	ClientID ID `json:"client_id"`
}

// ProducerLimits is ProducerLimitsConfiguration (§4.1).
type ProducerLimits struct {
	RetainedBytes                uint64 `json:"retained_bytes"`
	InFlightRecords              uint32 `json:"in_flight_records"`
	WaitingRecords               uint32 `json:"waiting_records"`
	WaitingBytes                 uint64 `json:"waiting_bytes"`
	BatchRecords                 uint32 `json:"batch_records"`
	BatchBytes                   uint64 `json:"batch_bytes"`
	RequestBytes                 uint64 `json:"request_bytes"`
	MaxInFlightRequestsPerBroker uint8  `json:"max_in_flight_requests_per_broker"`
	LingerMs                     uint64 `json:"linger_ms"`
}

// ProducerConfiguration is the producer policy of create_configured_client (§4.1).
type ProducerConfiguration struct {
	DeliveryTimeoutMs uint64         `json:"delivery_timeout_ms"`
	Compression       Compression    `json:"compression"`
	MaxRetries        uint32         `json:"max_retries"`
	RetryBackoffMs    uint64         `json:"retry_backoff_ms"`
	Limits            ProducerLimits `json:"limits"`
}

// CreateConfiguredClient creates a client whose producers use Configuration.
type CreateConfiguredClient struct {
	ClientID      ID                    `json:"client_id"`
	Configuration ProducerConfiguration `json:"configuration"`
}

// AwaitClientReady probes client readiness.
type AwaitClientReady struct {
	ClientID ID `json:"client_id"`
}

// ObserveClientMetrics asks for a metrics snapshot.
type ObserveClientMetrics struct {
	ClientID    ID `json:"client_id"`
	OperationID ID `json:"operation_id"`
}

// CreateProducer creates a producer on a client.
type CreateProducer struct {
	ClientID   ID `json:"client_id"`
	ProducerID ID `json:"producer_id"`
}

// Send offers one record (§4.2).
type Send struct {
	ProducerID  ID         `json:"producer_id"`
	OperationID ID         `json:"operation_id"`
	Record      RecordSpec `json:"record"`
}

// CancelProducerSend offers one record and cancels it twice.
type CancelProducerSend struct {
	ProducerID  ID         `json:"producer_id"`
	OperationID ID         `json:"operation_id"`
	Record      RecordSpec `json:"record"`
	TimeoutMs   uint64     `json:"timeout_ms"`
}

// SendBatch offers 1..=31 records.
type SendBatch struct {
	ProducerID ID            `json:"producer_id"`
	Operations []BatchRecord `json:"operations"`
}

// Flush waits for every buffered record of a producer.
type Flush struct {
	ProducerID ID `json:"producer_id"`
}

// CloseProducer closes a producer.
type CloseProducer struct {
	ProducerID ID `json:"producer_id"`
}

// Actor kinds of start_concurrent_actors (§4.3).
const (
	ActorProducerSend    = "producer_send"
	ActorAssignedReceive = "assigned_receive"
)

// Actor is one concurrent actor: a producer_send (ProducerID, OperationID,
// Record) or an assigned_receive (ConsumerID, ReceiveID, TimeoutMs).
type Actor struct {
	Kind        string
	ActorID     ID
	ProducerID  ID
	OperationID ID
	Record      RecordSpec
	ConsumerID  ID
	ReceiveID   ID
	TimeoutMs   uint64
}

// UnmarshalJSON decodes the actor union strictly.
func (a *Actor) UnmarshalJSON(data []byte) error {
	kind, err := tagOf(data)
	if err != nil {
		return err
	}
	switch kind {
	case ActorProducerSend:
		var v struct {
			Kind        string     `json:"kind"`
			ActorID     ID         `json:"actor_id"`
			ProducerID  ID         `json:"producer_id"`
			OperationID ID         `json:"operation_id"`
			Record      RecordSpec `json:"record"`
		}
		if err := strictUnmarshal(data, &v); err != nil {
			return err
		}
		*a = Actor{Kind: kind, ActorID: v.ActorID, ProducerID: v.ProducerID, OperationID: v.OperationID, Record: v.Record}
	case ActorAssignedReceive:
		var v struct {
			Kind       string `json:"kind"`
			ActorID    ID     `json:"actor_id"`
			ConsumerID ID     `json:"consumer_id"`
			ReceiveID  ID     `json:"receive_id"`
			TimeoutMs  uint64 `json:"timeout_ms"`
		}
		if err := strictUnmarshal(data, &v); err != nil {
			return err
		}
		*a = Actor{Kind: kind, ActorID: v.ActorID, ConsumerID: v.ConsumerID, ReceiveID: v.ReceiveID, TimeoutMs: v.TimeoutMs}
	default:
		return fmt.Errorf("unknown actor kind %q", kind)
	}
	return nil
}

// StartConcurrentActors starts 2..=8 actors released through one barrier.
type StartConcurrentActors struct {
	ConcurrencyID ID      `json:"concurrency_id"`
	Actors        []Actor `json:"actors"`
}

// JoinConcurrentActors waits for the actors and reports them in order.
type JoinConcurrentActors struct {
	ConcurrencyID ID     `json:"concurrency_id"`
	TimeoutMs     uint64 `json:"timeout_ms"`
}

// CreateAssignedConsumer creates a directly assigned consumer (§4.4).
type CreateAssignedConsumer struct {
	ClientID   ID `json:"client_id"`
	ConsumerID ID `json:"consumer_id"`
}

// AssignBeginning assigns one partition at its beginning.
type AssignBeginning struct {
	ConsumerID ID     `json:"consumer_id"`
	Topic      string `json:"topic"`
	Partition  int32  `json:"partition"`
}

// AssignBeginningBatch replaces the assignment with partitions at their beginning.
type AssignBeginningBatch struct {
	ConsumerID ID               `json:"consumer_id"`
	Partitions []TopicPartition `json:"partitions"`
	TimeoutMs  uint64           `json:"timeout_ms"`
}

// Control kinds of control_assigned_consumer (§4.4).
const (
	ControlReplace = "replace"
	ControlAdd     = "add"
	ControlRemove  = "remove"
	ControlSeek    = "seek"
	ControlPause   = "pause"
	ControlResume  = "resume"
)

// AssignedControl is the control union of control_assigned_consumer:
// replace/add use Positions, remove uses Partitions, seek uses Partition and
// Position, pause/resume use Partition.
type AssignedControl struct {
	Kind       string
	Positions  []PartitionPosition
	Partitions []TopicPartition
	Partition  TopicPartition
	Position   StartPosition
}

// UnmarshalJSON decodes the control union strictly.
func (c *AssignedControl) UnmarshalJSON(data []byte) error {
	kind, err := tagOf(data)
	if err != nil {
		return err
	}
	out := AssignedControl{Kind: kind}
	switch kind {
	case ControlReplace, ControlAdd:
		var v struct {
			Kind       string              `json:"kind"`
			Partitions []PartitionPosition `json:"partitions"`
		}
		err = strictUnmarshal(data, &v)
		out.Positions = v.Partitions
	case ControlRemove:
		var v struct {
			Kind       string           `json:"kind"`
			Partitions []TopicPartition `json:"partitions"`
		}
		err = strictUnmarshal(data, &v)
		out.Partitions = v.Partitions
	case ControlSeek:
		out.Partition, out.Position, err = seekOf(data)
	case ControlPause, ControlResume:
		var v struct {
			Kind      string         `json:"kind"`
			Partition TopicPartition `json:"partition"`
		}
		err = strictUnmarshal(data, &v)
		out.Partition = v.Partition
	default:
		return fmt.Errorf("unknown control kind %q", kind)
	}
	if err != nil {
		return err
	}
	*c = out
	return nil
}

// seekOf decodes the seek arm of a control union (control_assigned_consumer,
// control_group_consumer): the partition and the position to move it to.
func seekOf(data []byte) (TopicPartition, StartPosition, error) {
	var v struct {
		Kind      string         `json:"kind"`
		Partition TopicPartition `json:"partition"`
		Position  StartPosition  `json:"position"`
	}
	err := strictUnmarshal(data, &v)
	return v.Partition, v.Position, err
}

// ControlAssignedConsumer changes an assigned consumer's assignment or positions.
type ControlAssignedConsumer struct {
	OperationID ID              `json:"operation_id"`
	ConsumerID  ID              `json:"consumer_id"`
	Control     AssignedControl `json:"control"`
	TimeoutMs   uint64          `json:"timeout_ms"`
}

// Receive waits for the first batch of an assigned consumer.
type Receive struct {
	ConsumerID ID     `json:"consumer_id"`
	ReceiveID  ID     `json:"receive_id"`
	TimeoutMs  uint64 `json:"timeout_ms"`
}

// CloseAssignedConsumer closes an assigned consumer.
type CloseAssignedConsumer struct {
	ConsumerID ID `json:"consumer_id"`
}

// ShutdownClient closes a client that has no open children (§4.9).
type ShutdownClient struct {
	ClientID ID `json:"client_id"`
}

// Finish ends the session after lifecycle checks.
type Finish struct{}

// Abort ends the session without checks.
type Abort struct{}
