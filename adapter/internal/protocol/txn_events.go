package protocol

// The transaction events of protocol v34 (§5.7).
type (
	// TransactionalProducerCreated is the transactional_producer_created event.
	TransactionalProducerCreated struct {
		ProducerID ID `json:"producer_id"`
	}
	// TransactionCompleted is the transaction_completed event.
	TransactionCompleted struct {
		TransactionID ID     `json:"transaction_id"`
		Disposition   string `json:"disposition"`
	}
	// TransactionalTransformCompleted is the
	// transactional_transform_completed event: Records is the input batch;
	// Topic, Partition and NextOffset the checkpoint transferred for the
	// partition of the batch's first record.
	TransactionalTransformCompleted struct {
		TransactionID ID               `json:"transaction_id"`
		Disposition   string           `json:"disposition"`
		ConsumerID    ID               `json:"consumer_id"`
		Records       []ConsumedRecord `json:"records"`
		GroupID       string           `json:"group_id"`
		Topic         string           `json:"topic"`
		Partition     int32            `json:"partition"`
		NextOffset    int64            `json:"next_offset"`
		GroupEpoch    GroupEpoch       `json:"group_epoch"`
	}
	// TransactionFenceCompleted is the transaction_fence_completed event;
	// CommitErrorCode is nil when the old commit unexpectedly succeeded.
	TransactionFenceCompleted struct {
		TransactionID   ID      `json:"transaction_id"`
		CommitErrorCode *string `json:"commit_error_code"`
	}
	// TransactionalProducerClosed is the transactional_producer_closed event.
	TransactionalProducerClosed struct {
		ProducerID ID `json:"producer_id"`
	}
)

// EventKind returns "transactional_producer_created": the "kind" its event line carries (§5).
func (TransactionalProducerCreated) EventKind() string { return "transactional_producer_created" }

// EventKind returns "transaction_completed": the "kind" its event line carries (§5).
func (TransactionCompleted) EventKind() string { return "transaction_completed" }

// EventKind returns "transactional_transform_completed": the "kind" its event line carries (§5).
func (TransactionalTransformCompleted) EventKind() string { return "transactional_transform_completed" }

// EventKind returns "transaction_fence_completed": the "kind" its event line carries (§5).
func (TransactionFenceCompleted) EventKind() string { return "transaction_fence_completed" }

// EventKind returns "transactional_producer_closed": the "kind" its event line carries (§5).
func (TransactionalProducerClosed) EventKind() string { return "transactional_producer_closed" }

// StatusTransactionStaged is the terminal status of a record written inside
// an open transaction (§3.10).
const StatusTransactionStaged = "transaction_staged"
