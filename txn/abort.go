package txn

import (
	"context"
	"errors"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// Abort aborts the open transaction: records not yet in a ProduceRequest
// fail with ErrAborted at once (certainty NotSent, or PossiblySent when an
// earlier attempt of their batch may have been written, which the abort
// makes invisible); records in outstanding requests fail the same way when
// those return them for a retry. Once no request is outstanding the
// coordinator aborts the transaction (EndTxn; read_committed consumers
// never see its records) and, with transactions v1, the producer bumps its
// epoch (InitProducerId) so that the next transaction's sequences start
// afresh. Nothing of the transaction is written afterwards.
//
// Abort returns nil once all that is done. If ctx ends first it returns a
// retriable error and the abort completes in the background (within
// TransactionTimeout): Begin may open the next transaction at once, whose
// records wait for it, and Abort again (before the next Begin) waits for it
// and returns its result. Abort after an ErrAbortable error is the normal
// path; after a fatal error it only fails the buffered records and returns
// the fatal error.
func (t *Producer) Abort(ctx context.Context) error {
	t.op.Lock()
	defer t.op.Unlock()
	t.mu.Lock()
	st, aborted, fatal := t.st, t.aborted, t.fatalErr != nil
	t.mu.Unlock()
	switch {
	case st == stClosed:
		return ErrClosed
	case aborted != nil && st != stInTxn:
		return aborted.result(ctx) // Abort again: the earlier Abort's end
	case st != stInTxn && !fatal:
		return stateErr("Abort outside a transaction")
	}
	return t.abortLocked(ctx)
}

// abortLocked is Abort with t.op held: it fails the held records, then
// hands the rest to the transaction's end (abortRest) and waits for it
// until ctx ends.
func (t *Producer) abortLocked(ctx context.Context) error {
	if err := t.awaitEnd(ctx); err != nil {
		return err
	}
	t.mu.Lock()
	if t.st != stFatal {
		t.st = stAborting
	}
	if t.txnCancel != nil {
		t.txnCancel()
	}
	t.mu.Unlock()
	// Sends in progress give up at once (txnCancel); what they admitted
	// belongs to this transaction and fails below.
	_ = t.waitSends(t.life)
	t.hooks.FailHeld(t.abortCause())
	t.mu.Lock()
	pid, epoch := t.pid, t.epoch
	if err := t.fatalErr; err != nil {
		t.mu.Unlock()
		t.outcome(false, pid, epoch, err)
		return err
	}
	if !t.haveID {
		// An earlier end failed: nothing of this transaction was sent.
		t.st = stNeedsInit
		t.mu.Unlock()
		t.outcome(false, pid, epoch, nil)
		return errors.Join(ErrNeedsInit, errors.New("the previous transaction did not end: re-initialise"))
	}
	e := t.newEnding(false, pid, epoch, t.v2)
	e.started, e.bump, e.reg = t.started, t.bump, t.reg
	t.aborted = e
	t.closeTxnLocked()
	t.mu.Unlock()
	t.startEnding(e, t.abortRest)
	return e.result(ctx)
}

// abortRest is the end of an aborted transaction: it waits for the
// outstanding ProduceRequests (failing what they return for a retry) and
// for the registration goroutine (an AddPartitionsToTxn after EndTxn would
// open a new transaction), then aborts at the coordinator: EndTxn, retried
// until answered (v2 adopts the bumped epoch of its answer); with v1, or
// when the coordinator no longer takes the epoch (KIP-588), InitProducerId
// with the current ID and epoch.
func (t *Producer) abortRest(ctx context.Context, e *ending) error {
	if err := t.hooks.Drain(ctx, t.abortCause()); err != nil {
		return err
	}
	if err := waitRegistration(ctx, e.reg); err != nil {
		return err
	}
	t.mu.Lock()
	started := e.started || (e.reg != nil && e.reg.added)
	t.mu.Unlock()
	if e.bump {
		return t.initPID(ctx)
	}
	if started {
		resp, err := t.endTxnRetry(ctx, e)
		switch {
		case err == nil && e.v2:
			t.adopt(resp)
			return nil
		case err == nil:
		case wire.Fatal(err):
			if err = t.classifyEnd(err); errors.Is(err, ErrFatal) {
				t.setFatal(err)
				return err
			}
			// The coordinator no longer takes this ID and epoch, or has no
			// such transaction to abort (INVALID_TXN_STATE: with v1 a
			// request that may have opened one did not): re-initialising
			// with them aborts whatever it has.
			return t.initPID(ctx)
		default:
			return err
		}
	} else if e.v2 {
		return nil
	}
	// v1: the drained partitions restart their sequences; they need a new
	// epoch (KIP-360).
	return t.initPID(ctx)
}

// abortCause is the terminal error of a record an abort fails: ErrAborted,
// joined with client.ErrClosed once the client is closed. Closing the
// client fails the producer's records with client.ErrClosed; when the
// producer is closed (or aborts) right after, the abort can reach a record
// first, and the record must still say that its client closed, whichever
// came first.
func (t *Producer) abortCause() error {
	select {
	case <-t.cl.Closed():
		return errors.Join(ErrAborted, client.ErrClosed)
	default:
		return ErrAborted
	}
}
