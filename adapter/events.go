package adapter

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
	Ready struct {
		Descriptor Descriptor `json:"descriptor"`
	}
	ClientCreated struct {
		ClientID ID `json:"client_id"`
	}
	ClientReady struct {
		ClientID ID `json:"client_id"`
	}
	ClientShutdown struct {
		ClientID ID `json:"client_id"`
	}
	ClientMetricsObserved struct {
		ClientID    ID              `json:"client_id"`
		OperationID ID              `json:"operation_id"`
		Snapshot    MetricsSnapshot `json:"snapshot"`
	}
	ProducerCreated struct {
		ProducerID ID `json:"producer_id"`
	}
	OperationAccepted struct {
		OperationID ID `json:"operation_id"`
	}
	OperationRejected struct {
		OperationID ID     `json:"operation_id"`
		Code        string `json:"code"`
	}
	OperationTerminal struct {
		OperationID ID      `json:"operation_id"`
		Status      string  `json:"status"`
		Code        *string `json:"code"`
		Offset      *int64  `json:"offset"`
	}
	ProducerCancellationCompleted struct {
		OperationID ID       `json:"operation_id"`
		Outcomes    []string `json:"outcomes"`
	}
	BatchCompleted struct {
		ProducerID ID `json:"producer_id"`
	}
	FlushCompleted struct {
		ProducerID ID `json:"producer_id"`
	}
	ProducerClosed struct {
		ProducerID ID `json:"producer_id"`
	}

	ConcurrentActorsStarted struct {
		ConcurrencyID ID   `json:"concurrency_id"`
		ActorIDs      []ID `json:"actor_ids"`
	}
	ConcurrentActorCompleted struct {
		ConcurrencyID ID `json:"concurrency_id"`
		ActorID       ID `json:"actor_id"`
		OperationID   ID `json:"operation_id"`
	}
	ConcurrentActorsCompleted struct {
		ConcurrencyID ID   `json:"concurrency_id"`
		ActorIDs      []ID `json:"actor_ids"`
	}

	AssignedConsumerCreated struct {
		ConsumerID ID `json:"consumer_id"`
	}
	AssignmentCompleted struct {
		ConsumerID ID `json:"consumer_id"`
	}
	AssignedConsumerControlCompleted struct {
		OperationID ID     `json:"operation_id"`
		ConsumerID  ID     `json:"consumer_id"`
		Control     string `json:"control"`
	}
	ReceiveCompleted struct {
		ReceiveID ID               `json:"receive_id"`
		Records   []ConsumedRecord `json:"records"`
	}
	AssignedConsumerClosed struct {
		ConsumerID ID `json:"consumer_id"`
	}

	CommandFailed struct {
		Code       string `json:"code"`
		Diagnostic string `json:"diagnostic"`
	}
	Finished struct{}
	Aborted  struct{}
	Fatal    struct {
		Code       string `json:"code"`
		Diagnostic string `json:"diagnostic"`
	}
)

func (Ready) EventKind() string                         { return "ready" }
func (ClientCreated) EventKind() string                 { return "client_created" }
func (ClientReady) EventKind() string                   { return "client_ready" }
func (ClientShutdown) EventKind() string                { return "client_shutdown" }
func (ClientMetricsObserved) EventKind() string         { return "client_metrics_observed" }
func (ProducerCreated) EventKind() string               { return "producer_created" }
func (OperationAccepted) EventKind() string             { return "operation_accepted" }
func (OperationRejected) EventKind() string             { return "operation_rejected" }
func (OperationTerminal) EventKind() string             { return "operation_terminal" }
func (ProducerCancellationCompleted) EventKind() string { return "producer_cancellation_completed" }
func (BatchCompleted) EventKind() string                { return "batch_completed" }
func (FlushCompleted) EventKind() string                { return "flush_completed" }
func (ProducerClosed) EventKind() string                { return "producer_closed" }
func (ConcurrentActorsStarted) EventKind() string       { return "concurrent_actors_started" }
func (ConcurrentActorCompleted) EventKind() string      { return "concurrent_actor_completed" }
func (ConcurrentActorsCompleted) EventKind() string     { return "concurrent_actors_completed" }
func (AssignedConsumerCreated) EventKind() string       { return "assigned_consumer_created" }
func (AssignmentCompleted) EventKind() string           { return "assignment_completed" }
func (AssignedConsumerControlCompleted) EventKind() string {
	return "assigned_consumer_control_completed"
}
func (ReceiveCompleted) EventKind() string       { return "receive_completed" }
func (AssignedConsumerClosed) EventKind() string { return "assigned_consumer_closed" }
func (CommandFailed) EventKind() string          { return "command_failed" }
func (Finished) EventKind() string               { return "finished" }
func (Aborted) EventKind() string                { return "aborted" }
func (Fatal) EventKind() string                  { return "fatal" }

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
