package txnhook

import "context"

// Hooks is the contract between a transactional producer's record path
// (package producer) and its transaction manager (package txn).
//
// The functions txn provides are called with the producer's lock held:
// they must not block and must not call into the producer (Wake excepted,
// which only signals).
type Hooks struct {
	// TransactionalID goes into every ProduceRequest; the producer marks
	// its record batches transactional.
	TransactionalID string
	// ProduceVersionCap is the highest Produce version to send (11 for
	// transactions v1, which must not let the broker add partitions
	// itself), or 0 for none.
	ProduceVersionCap int16
	// MaySend reports whether a batch of topic/partition may be put in a
	// ProduceRequest now: the partition is part of the current transaction
	// (registering it if need be) and the transaction is not ending. When
	// it returns false the batch waits (until its delivery deadline) and
	// txn calls Wake once that changes.
	MaySend func(topic string, partition int32) bool
	// Failed is told of every batch that fails for good with err (records
	// Drain fails excepted): the transaction can no longer commit.
	Failed func(err error)

	// SetIdentity makes pid and epoch the producer ID and epoch of the
	// batches that start a partition's sequence from now on (after
	// InitProducerId, or an EndTxn v5 epoch bump). Filled by the producer.
	SetIdentity func(pid int64, epoch int16)
	// Wake makes the producer look at its batches again. Filled by the
	// producer.
	Wake func()
	// FailHeld fails every record not yet in a ProduceRequest with err
	// (certainty NotSent, or PossiblySent for a batch an earlier attempt may
	// have written), at once. Filled by the producer.
	FailHeld func(err error)
	// Drain waits until no ProduceRequest is outstanding, failing with err
	// the batches those return for a retry, and restarts every partition's
	// sequence. Batches never handed to a request are left alone (txn holds
	// the next transaction's back, MaySend, until the abort ended). It
	// returns ctx's error if ctx ends first. Filled by the producer.
	Drain func(ctx context.Context, err error) error
}
