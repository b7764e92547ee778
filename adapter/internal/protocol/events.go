package protocol

// The events of protocol v34 (§5). Each struct holds exactly the keys the
// spec lists beside kind; nullable values are pointers (encoded as null),
// arrays are never nil (encoded as []). EventKind names the event.

// Event is one event payload.
type Event interface{ EventKind() string }

// Descriptor is ready.descriptor (§2.2).
type Descriptor struct {
	ID              ID       `json:"id"`
	Implementation  string   `json:"implementation"`
	Version         string   `json:"version"`
	ProtocolVersion uint16   `json:"protocol_version"`
	Capabilities    []string `json:"capabilities"`
}

type (
	// Ready is the ready event.
	Ready struct {
		Descriptor Descriptor `json:"descriptor"`
	}
	// ClientCreated is the client_created event.
	ClientCreated struct {
		ClientID ID `json:"client_id"`
	}
	// ClientReady is the client_ready event.
	ClientReady struct {
		ClientID ID `json:"client_id"`
	}
	// ClientShutdown is the client_shutdown event.
	ClientShutdown struct {
		ClientID ID `json:"client_id"`
	}
	// ClientMetricsObserved is the client_metrics_observed event.
	ClientMetricsObserved struct {
		ClientID    ID              `json:"client_id"`
		OperationID ID              `json:"operation_id"`
		Snapshot    MetricsSnapshot `json:"snapshot"`
	}
	// ProducerCreated is the producer_created event.
	ProducerCreated struct {
		ProducerID ID `json:"producer_id"`
	}
	// OperationAccepted is the operation_accepted event.
	OperationAccepted struct {
		OperationID ID `json:"operation_id"`
	}
	// OperationRejected is the operation_rejected event.
	OperationRejected struct {
		OperationID ID     `json:"operation_id"`
		Code        string `json:"code"`
	}
	// OperationTerminal is the operation_terminal event.
	OperationTerminal struct {
		OperationID ID      `json:"operation_id"`
		Status      string  `json:"status"`
		Code        *string `json:"code"`
		Offset      *int64  `json:"offset"`
	}
	// ProducerCancellationCompleted is the producer_cancellation_completed event.
	ProducerCancellationCompleted struct {
		OperationID ID       `json:"operation_id"`
		Outcomes    []string `json:"outcomes"`
	}
	// BatchCompleted is the batch_completed event.
	BatchCompleted struct {
		ProducerID ID `json:"producer_id"`
	}
	// FlushCompleted is the flush_completed event.
	FlushCompleted struct {
		ProducerID ID `json:"producer_id"`
	}
	// ProducerClosed is the producer_closed event.
	ProducerClosed struct {
		ProducerID ID `json:"producer_id"`
	}

	// ConcurrentActorsStarted is the concurrent_actors_started event.
	ConcurrentActorsStarted struct {
		ConcurrencyID ID   `json:"concurrency_id"`
		ActorIDs      []ID `json:"actor_ids"`
	}
	// ConcurrentActorCompleted is the concurrent_actor_completed event.
	ConcurrentActorCompleted struct {
		ConcurrencyID ID `json:"concurrency_id"`
		ActorID       ID `json:"actor_id"`
		OperationID   ID `json:"operation_id"`
	}
	// ConcurrentActorsCompleted is the concurrent_actors_completed event.
	ConcurrentActorsCompleted struct {
		ConcurrencyID ID   `json:"concurrency_id"`
		ActorIDs      []ID `json:"actor_ids"`
	}

	// AssignedConsumerCreated is the assigned_consumer_created event.
	AssignedConsumerCreated struct {
		ConsumerID ID `json:"consumer_id"`
	}
	// AssignmentCompleted is the assignment_completed event.
	AssignmentCompleted struct {
		ConsumerID ID `json:"consumer_id"`
	}
	// AssignedConsumerControlCompleted is an element of an event array (§5).
	AssignedConsumerControlCompleted struct {
		OperationID ID     `json:"operation_id"`
		ConsumerID  ID     `json:"consumer_id"`
		Control     string `json:"control"`
	}
	// ReceiveCompleted is the receive_completed event.
	ReceiveCompleted struct {
		ReceiveID ID               `json:"receive_id"`
		Records   []ConsumedRecord `json:"records"`
	}
	// AssignedConsumerClosed is the assigned_consumer_closed event.
	AssignedConsumerClosed struct {
		ConsumerID ID `json:"consumer_id"`
	}

	// CommandFailed is the command_failed event.
	CommandFailed struct {
		Code       string `json:"code"`
		Diagnostic string `json:"diagnostic"`
	}
	// Finished is the finished event.
	Finished struct{}
	// Aborted is the aborted event.
	Aborted struct{}
	// Fatal is the fatal event.
	Fatal struct {
		Code       string `json:"code"`
		Diagnostic string `json:"diagnostic"`
	}
)

// EventKind returns "ready": the "kind" its event line carries (§5).
func (Ready) EventKind() string { return "ready" }

// EventKind returns "client_created": the "kind" its event line carries (§5).
func (ClientCreated) EventKind() string { return "client_created" }

// EventKind returns "client_ready": the "kind" its event line carries (§5).
func (ClientReady) EventKind() string { return "client_ready" }

// EventKind returns "client_shutdown": the "kind" its event line carries (§5).
func (ClientShutdown) EventKind() string { return "client_shutdown" }

// EventKind returns "client_metrics_observed": the "kind" its event line carries (§5).
func (ClientMetricsObserved) EventKind() string { return "client_metrics_observed" }

// EventKind returns "producer_created": the "kind" its event line carries (§5).
func (ProducerCreated) EventKind() string { return "producer_created" }

// EventKind returns "operation_accepted": the "kind" its event line carries (§5).
func (OperationAccepted) EventKind() string { return "operation_accepted" }

// EventKind returns "operation_rejected": the "kind" its event line carries (§5).
func (OperationRejected) EventKind() string { return "operation_rejected" }

// EventKind returns "operation_terminal": the "kind" its event line carries (§5).
func (OperationTerminal) EventKind() string { return "operation_terminal" }

// EventKind returns "producer_cancellation_completed": the "kind" its event line carries (§5).
func (ProducerCancellationCompleted) EventKind() string { return "producer_cancellation_completed" }

// EventKind returns "batch_completed": the "kind" its event line carries (§5).
func (BatchCompleted) EventKind() string { return "batch_completed" }

// EventKind returns "flush_completed": the "kind" its event line carries (§5).
func (FlushCompleted) EventKind() string { return "flush_completed" }

// EventKind returns "producer_closed": the "kind" its event line carries (§5).
func (ProducerClosed) EventKind() string { return "producer_closed" }

// EventKind returns "concurrent_actors_started": the "kind" its event line carries (§5).
func (ConcurrentActorsStarted) EventKind() string { return "concurrent_actors_started" }

// EventKind returns "concurrent_actor_completed": the "kind" its event line carries (§5).
func (ConcurrentActorCompleted) EventKind() string { return "concurrent_actor_completed" }

// EventKind returns "concurrent_actors_completed": the "kind" its event line carries (§5).
func (ConcurrentActorsCompleted) EventKind() string { return "concurrent_actors_completed" }

// EventKind returns "assigned_consumer_created": the "kind" its event line carries (§5).
func (AssignedConsumerCreated) EventKind() string { return "assigned_consumer_created" }

// EventKind returns "assignment_completed": the "kind" its event line carries (§5).
func (AssignmentCompleted) EventKind() string { return "assignment_completed" }

// EventKind returns "assigned_consumer_control_completed": the "kind" its event line carries (§5).
func (AssignedConsumerControlCompleted) EventKind() string {
	return "assigned_consumer_control_completed"
}

// EventKind returns "receive_completed": the "kind" its event line carries (§5).
func (ReceiveCompleted) EventKind() string { return "receive_completed" }

// EventKind returns "assigned_consumer_closed": the "kind" its event line carries (§5).
func (AssignedConsumerClosed) EventKind() string { return "assigned_consumer_closed" }

// EventKind returns "command_failed": the "kind" its event line carries (§5).
func (CommandFailed) EventKind() string { return "command_failed" }

// EventKind returns "finished": the "kind" its event line carries (§5).
func (Finished) EventKind() string { return "finished" }

// EventKind returns "aborted": the "kind" its event line carries (§5).
func (Aborted) EventKind() string { return "aborted" }

// EventKind returns "fatal": the "kind" its event line carries (§5).
func (Fatal) EventKind() string { return "fatal" }

// Terminal statuses (§3.10).
const (
	StatusAcknowledged      = "acknowledged"
	StatusDefinitelyNotSent = "definitely_not_sent"
	StatusPossiblySent      = "possibly_sent"
)

// Cancellation outcomes (§3.10).
const (
	CancelledNotSent = "cancelled_not_sent"
	TooLate          = "too_late"
	AlreadyTerminal  = "already_terminal"
)
