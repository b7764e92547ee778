package adapter

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

// EventKind returns "transaction_fence_completed": the "kind" its event line carries (§5).
func (TransactionFenceCompleted) EventKind() string { return "transaction_fence_completed" }

// EventKind returns "transactional_producer_closed": the "kind" its event line carries (§5).
func (TransactionalProducerClosed) EventKind() string { return "transactional_producer_closed" }

// StatusTransactionStaged is the terminal status of a record written inside
// an open transaction (§3.10).
const StatusTransactionStaged = "transaction_staged"
