package txn

import (
	"errors"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// Error classes of the transactional producer (KIP-1050). Every error a
// method returns matches (errors.Is) at most one of ErrAbortable, ErrFenced,
// ErrFatal and ErrCommitOutcomeUnknown, and wraps its cause (a
// *wire.KafkaError, a client error or ctx's error). Errors matching none of
// them are retriable: the call may be repeated (e.g. after ctx ended, or a
// coordinator stayed unavailable).
var (
	// ErrConfig wraps every configuration error returned by New.
	ErrConfig = errors.New("txn: invalid configuration")
	// ErrAbortable: the current transaction cannot commit (a record failed,
	// the coordinator answered TRANSACTION_ABORTABLE, the group rejected the
	// offsets, INVALID_PRODUCER_EPOCH after the coordinator timed the
	// transaction out, KIP-588). Call Abort, then Begin again; the producer
	// stays usable unless Abort finds it fenced.
	ErrAbortable = errors.New("txn: transaction must be aborted")
	// ErrFenced: another producer with the same transactional ID was
	// initialised (PRODUCER_FENCED, TRANSACTION_COORDINATOR_FENCED): this
	// producer can do nothing but Close. errors.Is(ErrFenced, ErrFatal)
	// holds. (INVALID_PRODUCER_EPOCH is abortable, KIP-588/KIP-1050: Abort
	// re-initialises, which reports PRODUCER_FENCED if a newer producer took
	// over.)
	ErrFenced error = &classErr{msg: "txn: producer fenced by a newer instance of its transactional ID", is: errFatal}
	// ErrFatal: the producer cannot continue (fenced, not authorised for
	// its transactional ID or the cluster, unsupported broker). Only Close
	// is allowed. (INVALID_TXN_STATE, from a partition's transaction
	// verification or a coordinator holding the transaction in another
	// state, is ErrAbortable: Abort re-initialises, which reports
	// PRODUCER_FENCED if another producer took over.)
	ErrFatal = errFatal
	// ErrCommitOutcomeUnknown: Commit's ctx ended after its EndTxn may have
	// reached the coordinator, before the coordinator answered it; the
	// transaction may have committed or aborted. The producer goes on
	// re-sending that same EndTxn in the background (within
	// TransactionTimeout; the coordinator answers a retry of an EndTxn it
	// completed with that outcome, which the TxnOutcomeHook then reports).
	// The transaction is no longer open: the next Begin opens a new one,
	// whose records wait until the EndTxn is answered, and the next Commit,
	// SendOffsets, Abort or InitTransactions waits for it first. If it stays
	// unanswered the producer needs InitTransactions (ErrNeedsInit), which
	// completes or aborts whatever the coordinator holds.
	ErrCommitOutcomeUnknown = errors.New("txn: commit outcome unknown")
	// ErrNeedsInit: the producer has no usable producer ID and epoch:
	// InitTransactions was not called yet, or a re-initialisation failed, or
	// a transaction's end that went on in the background (see Abort and
	// ErrCommitOutcomeUnknown) could not complete. Call InitTransactions (after
	// Abort if a transaction is open).
	ErrNeedsInit = errors.New("txn: InitTransactions needed")
	// ErrState: the call does not fit the producer's state (Begin inside a
	// transaction, Send or Commit outside one, a call after Close).
	ErrState = errors.New("txn: invalid state for this call")
	// ErrUnsupported: the cluster lacks what the configured transaction
	// protocol needs (e.g. TransactionVersion 2 on a cluster whose
	// transaction.version is below 2). Fatal for InitTransactions.
	ErrUnsupported = errors.New("txn: transaction protocol not supported by the cluster")
	// ErrAborted is the terminal error of a record whose transaction
	// aborted before the record was written: it was still buffered, or its
	// batch came back from a request for a retry. Its certainty is NotSent,
	// or PossiblySent when an earlier attempt of its batch may have been
	// written (the abort makes such a write invisible to read_committed
	// consumers); it is never written into a later transaction. Once the
	// client is closed, a record the abort fails also matches
	// client.ErrClosed.
	ErrAborted = errors.New("txn: record not sent: its transaction aborted")
	// ErrClosed: the producer is closed. errors.Is(ErrClosed,
	// client.ErrClosed) holds.
	ErrClosed error = closedError("txn: producer closed")
)

// closedError is ErrClosed's type: it also matches client.ErrClosed.
type closedError string

func (e closedError) Error() string        { return string(e) }
func (e closedError) Is(target error) bool { return target == client.ErrClosed }

var errFatal = errors.New("txn: producer-fatal error")

// classErr is a sentinel that also matches a broader class.
type classErr struct {
	msg string
	is  error
}

func (e *classErr) Error() string        { return e.msg }
func (e *classErr) Is(target error) bool { return target == e.is }

// fenced reports broker errors that mean another producer took over the
// transactional ID.
func fenced(err error) bool {
	return errors.Is(err, wire.ErrProducerFenced) || errors.Is(err, wire.ErrTransactionCoordinatorFenced)
}

// fatal reports broker errors after which the producer cannot continue.
// Exception to the classifier (wire.Classify): fenced and fatal keep their
// own list, because KIP-1050 sorts a transaction's failures into fenced,
// fatal and abortable (every other error), not into retriable or not.
func fatal(err error) bool {
	return fenced(err) || errors.Is(err, wire.ErrTransactionalIDAuthorizationFailed) ||
		errors.Is(err, wire.ErrInvalidTxnState) || errors.Is(err, wire.ErrClusterAuthorizationFailed) ||
		errors.Is(err, wire.ErrUnsupportedVersion) || errors.Is(err, wire.ErrInvalidProducerIDMapping) ||
		errors.Is(err, wire.ErrInvalidTransactionTimeout) || errors.Is(err, wire.ErrUnsupportedForMessageFormat)
}

// classify wraps a broker or client error in its class: ErrFenced or
// ErrFatal for fatal ones, else ErrAbortable.
func classify(err error) error {
	switch {
	case err == nil:
		return nil
	case fenced(err):
		return join(ErrFenced, err)
	case fatal(err):
		return join(ErrFatal, err)
	}
	return join(ErrAbortable, err)
}

// join returns an error matching class and cause, reading "class: cause".
func join(class, cause error) error { return &wrapped{class: class, cause: cause} }

type wrapped struct{ class, cause error }

func (e *wrapped) Error() string   { return e.class.Error() + ": " + e.cause.Error() }
func (e *wrapped) Unwrap() []error { return []error{e.class, e.cause} }

// AuthorizationError is TRANSACTIONAL_ID_AUTHORIZATION_FAILED for the
// producer's transactional ID: the principal lacks Write (or Describe) on
// that TransactionalId resource. It is fatal (errors.Is(err, ErrFatal)),
// never retried, and matches wire.ErrTransactionalIDAuthorizationFailed;
// other producers with other transactional IDs are not affected.
type AuthorizationError struct {
	// TransactionalID is the resource the broker refused.
	TransactionalID string
	// Err is the classified cause (ErrFatal joined with the broker error).
	Err error
}

// Error names the transactional ID and the cause.
func (e *AuthorizationError) Error() string {
	return "transactional ID " + e.TransactionalID + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *AuthorizationError) Unwrap() error { return e.Err }

// classify is the package's classify plus the transactional ID of an
// authorization failure.
func (t *Producer) classify(err error) error {
	err = classify(err)
	if errors.Is(err, wire.ErrTransactionalIDAuthorizationFailed) {
		return &AuthorizationError{TransactionalID: t.cfg.TransactionalID, Err: err}
	}
	return err
}
