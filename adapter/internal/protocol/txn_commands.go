package protocol

// The transaction commands of protocol v34 (§4.8).

// CreateTransactionalProducer creates a transactional producer on a client
// and initialises it (InitTransactions within InitializationTimeoutMs).
type CreateTransactionalProducer struct {
	ClientID                ID     `json:"client_id"`
	ProducerID              ID     `json:"producer_id"`
	TransactionalID         string `json:"transactional_id"`
	TransactionTimeoutMs    uint64 `json:"transaction_timeout_ms"`
	InitializationTimeoutMs uint64 `json:"initialization_timeout_ms"`
}

// ExecuteTransaction stages 1..=31 records in one transaction and commits
// or aborts it.
type ExecuteTransaction struct {
	ProducerID    ID            `json:"producer_id"`
	TransactionID ID            `json:"transaction_id"`
	Operations    []BatchRecord `json:"operations"`
	Disposition   string        `json:"disposition"`
	TimeoutMs     uint64        `json:"timeout_ms"`
}

// FenceTransaction stages one record in a transaction of ProducerID, then
// initialises a replacement producer with the same transactional ID and
// tries to commit the old transaction.
type FenceTransaction struct {
	ProducerID              ID          `json:"producer_id"`
	TransactionID           ID          `json:"transaction_id"`
	Operation               BatchRecord `json:"operation"`
	ReplacementClientID     ID          `json:"replacement_client_id"`
	ReplacementProducerID   ID          `json:"replacement_producer_id"`
	TransactionalID         string      `json:"transactional_id"`
	TransactionTimeoutMs    uint64      `json:"transaction_timeout_ms"`
	InitializationTimeoutMs uint64      `json:"initialization_timeout_ms"`
	TimeoutMs               uint64      `json:"timeout_ms"`
}

// ExecuteTransactionalTransform receives one batch from the group consumer
// ConsumerID, stages the output Operations in one transaction of
// ProducerID, adds the batch's checkpoint to it (SendOffsets, KIP-447) and
// commits or aborts it.
type ExecuteTransactionalTransform struct {
	ProducerID    ID            `json:"producer_id"`
	ConsumerID    ID            `json:"consumer_id"`
	TransactionID ID            `json:"transaction_id"`
	Operations    []BatchRecord `json:"operations"`
	Disposition   string        `json:"disposition"`
	TimeoutMs     uint64        `json:"timeout_ms"`
}

// CloseTransactionalProducer closes a transactional producer.
type CloseTransactionalProducer struct {
	ProducerID ID `json:"producer_id"`
}

// Dispositions of execute_transaction (§4.8).
const (
	DispositionCommit = "commit"
	DispositionAbort  = "abort"
)
