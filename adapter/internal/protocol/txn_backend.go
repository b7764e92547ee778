package protocol

import (
	"context"
	"time"

	"github.com/gregor-kafka/gregor/consumer"
)

// TransactionalClient is implemented by a KafkaClient that can make
// transactional producers (§4.8); a client without it fails
// create_transactional_producer with command_failed.
type TransactionalClient interface {
	NewTransactionalProducer(cfg TransactionalConfig) (TransactionalProducer, error)
}

// TransactionalConfig configures a transactional producer.
type TransactionalConfig struct {
	TransactionalID    string
	TransactionTimeout time.Duration
}

// TransactionalProducer is the public transactional producer surface the
// adapter uses (package txn).
type TransactionalProducer interface {
	// Init obtains the producer ID and epoch (fencing older producers with
	// the same transactional ID).
	Init(ctx context.Context) error
	Begin() error
	// TrySend admits rec into the open transaction or refuses it.
	TrySend(rec *ProducerRecord) (Delivery, error)
	// SendOffsets adds a group's checkpoint (per partition, the next offset
	// to consume) to the open transaction, fenced by gm (KIP-447).
	SendOffsets(ctx context.Context, offsets map[TopicPartition]int64, gm consumer.GroupMetadata) error
	Commit(ctx context.Context) error
	Abort(ctx context.Context) error
	Close(ctx context.Context) error
}
