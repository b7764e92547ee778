// Package txn is gregor's transactional producer (KIP-98): records and
// consumed offsets that become visible together, or not at all.
//
// # Quick start
//
// Copy records to topic "out" in one transaction (the package Example has the
// whole program):
//
//	p, err := txn.New(cl, txn.Config{TransactionalID: "copier-1"}) // cl: a *client.Client
//	// ... handle err; defer p.Close(ctx)
//	err = p.InitTransactions(ctx) // fences older producers with this ID
//	err = p.Begin()
//	d, err := p.Send(ctx, &producer.Record{Topic: "out", Value: v})
//	err = p.SendOffsets(ctx, offsets, groupMetadata) // optional: consume-transform-produce
//	err = p.Commit(ctx)                              // or p.Abort(ctx)
//	// errors.Is(err, txn.ErrAbortable): Abort and go on; ErrFenced, ErrFatal: Close
//
// It speaks the transaction protocol v2 of KIP-890 when the cluster
// finalizes transaction.version 2, and sorts its errors into the classes
// of KIP-1050. The contract follows (what commits, errors, aborts, how a
// transaction ends); which protocol version does what comes last.
//
// # Life of a transaction
//
// Records go through the idempotent producer's record path (package
// producer: batching, admission, backpressure, cancellation, certainty);
// their batches are marked transactional and carry the transactional ID.
// Records sent between Begin and Commit become visible to read_committed
// consumers together with the offsets SendOffsets added, when Commit
// returns nil (a moment later: the coordinator writes the commit markers
// after answering EndTxn), or never.
//
// # Errors (KIP-1050)
//
// Coordinator answers that retrying cures (CONCURRENT_TRANSACTIONS,
// COORDINATOR_LOAD_IN_PROGRESS, NOT_COORDINATOR, ...) are retried until the
// call's ctx ends. Other failures come in classes (errors.Is):
// ErrAbortable (abort, then go on; a record's failure is abortable unless
// it is a fence or an authorisation failure, and INVALID_TXN_STATE always
// is: the abort re-initialises),
// ErrFenced/ErrFatal (close), and ErrCommitOutcomeUnknown. A failure in none
// of these classes (ctx ended) leaves the state as it was: the call may be
// repeated (an Abort whose ctx ended goes on in the background, see Abort).
//
// # Abort
//
// Abort first fails every record not yet in a ProduceRequest with
// ErrAborted (certainty NotSent unless an earlier attempt of its batch may
// have been written, then PossiblySent), waits for the outstanding
// requests (a batch they return for a retry fails too), and only then ends
// the transaction: no record of it is ever written afterwards, nor into the
// next transaction. If Abort's ctx ends first (records stuck retrying, a
// coordinator moving) it returns a retriable error at once and the abort
// completes in the background within TransactionTimeout: Begin may open
// the next transaction right away; that transaction's records wait for the
// abort, and its Commit, SendOffsets and Abort wait for it first.
//
// # Ending a transaction
//
// EndTxn is re-sent, the same request each time, until the coordinator
// answers it: a lost answer (a request timeout during a broker restart) is
// not a reason to re-initialise, and with transactions v2 the retry carries
// the epoch of the first attempt, the answer the epoch the coordinator
// bumped to. The producer re-initialises (InitProducerId with its ID and
// epoch) only where the coordinator says so (INVALID_PRODUCER_EPOCH,
// INVALID_PRODUCER_ID_MAPPING, UNKNOWN_PRODUCER_ID, INVALID_TXN_STATE) or
// after a v1 abort.
// When Commit's ctx ends after its EndTxn may have reached the coordinator,
// Commit returns ErrCommitOutcomeUnknown and the retries go on in the
// background; the outcome is reported to the TxnOutcomeHook when known.
//
// # Transactions v1 and v2
//
// With v1 a partition is added to the transaction (AddPartitionsToTxn)
// before its first batch is sent, Produce is sent at v11 or lower, offsets
// need AddOffsetsToTxn before TxnOffsetCommit (v4 or lower), and the epoch
// stays for the producer's life (bumped with InitProducerId after an abort,
// KIP-360). With v2 Produce (v12+) and TxnOffsetCommit (v5) add partitions
// and groups themselves, and EndTxn (v5) bumps the epoch at every
// transaction's end. Config.TransactionVersion can force v1.
package txn
