package txn

import (
	"fmt"
	"time"

	"github.com/gregor-kafka/gregor/producer"
)

// Defaults (see the fields of Config).
const (
	DefaultTransactionTimeout = 60 * time.Second
	DefaultRetryBackoff       = 20 * time.Millisecond
)

// Config configures a transactional Producer.
type Config struct {
	// TransactionalID identifies the producer across restarts
	// (transactional.id). Required. A second producer initialised with the
	// same ID fences this one (KIP-98).
	TransactionalID string
	// TransactionTimeout bounds how long a transaction may stay open before
	// the coordinator aborts it (transaction.timeout.ms). Default 60s; the
	// broker rejects values above its transaction.max.timeout.ms (15 minutes
	// by default) with INVALID_TRANSACTION_TIMEOUT.
	TransactionTimeout time.Duration
	// TransactionVersion selects the transaction protocol: 0 (default)
	// follows the cluster's finalized transaction.version feature (2: KIP-890
	// transactions v2, else v1); 1 forces v1 (AddPartitionsToTxn, Produce
	// up to v11, EndTxn up to v4), which any 4.x cluster serves; 2 forces v2
	// and fails InitTransactions with ErrUnsupported on a cluster that has
	// not finalized transaction.version 2.
	TransactionVersion int
	// RetryBackoff is the wait between retries of coordinator requests
	// answered CONCURRENT_TRANSACTIONS, COORDINATOR_LOAD_IN_PROGRESS and the
	// like (retry.backoff.ms, with the Java client's 20ms for
	// CONCURRENT_TRANSACTIONS). Default 20ms.
	RetryBackoff time.Duration
	// Producer configures the record path (batching, linger, compression,
	// limits, DeliveryTimeout) as for the idempotent producer. Its
	// Transactional field is set by New.
	Producer producer.Config
}

// settings is a validated Config.
type settings struct {
	Config
}

func validate(cfg Config) (settings, error) {
	s := settings{Config: cfg}
	c := &s.Config
	if c.TransactionalID == "" {
		return s, fmt.Errorf("%w: TransactionalID is required", ErrConfig)
	}
	if c.TransactionTimeout < 0 || c.TransactionTimeout > time.Duration(1<<31-1)*time.Millisecond {
		return s, fmt.Errorf("%w: TransactionTimeout %v out of range", ErrConfig, c.TransactionTimeout)
	}
	if c.TransactionTimeout == 0 {
		c.TransactionTimeout = DefaultTransactionTimeout
	}
	if c.TransactionVersion < 0 || c.TransactionVersion > 2 {
		return s, fmt.Errorf("%w: TransactionVersion %d: 0 (cluster's), 1 or 2", ErrConfig, c.TransactionVersion)
	}
	if c.RetryBackoff <= 0 {
		c.RetryBackoff = DefaultRetryBackoff
	}
	if c.Producer.Transactional != nil {
		return s, fmt.Errorf("%w: Producer.Transactional is set by New", ErrConfig)
	}
	return s, nil
}
