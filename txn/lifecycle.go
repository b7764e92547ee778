package txn

import (
	"context"
	"errors"
	"fmt"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// transactionVersionFeature is the feature naming the cluster's transaction
// protocol (KIP-890: 2 enables transactions v2).
const transactionVersionFeature = "transaction.version"

// InitTransactions obtains the producer ID and epoch for the transactional
// ID (InitProducerId), fencing any earlier producer with the same ID and
// completing or aborting the transaction it left open; it retries
// CONCURRENT_TRANSACTIONS and coordinator moves until ctx ends. It decides
// the transaction protocol first (Config.TransactionVersion). Call it once
// before the first Begin, and again after an error matching ErrNeedsInit
// (it first waits for a transaction's end still running in the background).
// Errors: ErrFenced/ErrFatal (e.g. TRANSACTIONAL_ID_AUTHORIZATION_FAILED),
// ErrUnsupported, or a retriable timeout (call again).
func (t *Producer) InitTransactions(ctx context.Context) error {
	t.op.Lock()
	defer t.op.Unlock()
	if err := t.awaitEnd(ctx); err != nil {
		return err
	}
	t.mu.Lock()
	if err := t.usableLocked(); err != nil {
		t.mu.Unlock()
		return err
	}
	if t.st != stNeedsInit {
		t.mu.Unlock()
		return stateErr("InitTransactions after initialisation")
	}
	versionSet := t.versionSet
	t.mu.Unlock()
	if !versionSet {
		if err := t.chooseVersion(ctx); err != nil {
			return err
		}
	}
	return t.initPID(ctx)
}

// chooseVersion decides between transactions v1 and v2 from the cluster's
// finalized transaction.version and Config.TransactionVersion.
func (t *Producer) chooseVersion(ctx context.Context) error {
	level := int16(0)
	resp, err := t.cl.Request(ctx, client.AnyBroker, &wire.ApiVersionsRequest{ClientSoftwareName: "gregor", ClientSoftwareVersion: "0", NodeID: -1})
	if err != nil {
		return err
	}
	for _, f := range resp.(*wire.ApiVersionsResponse).FinalizedFeatures {
		if f.Name == transactionVersionFeature {
			level = f.MaxVersionLevel
		}
	}
	v2 := level >= 2
	switch t.cfg.TransactionVersion {
	case 1:
		v2 = false
	case 2:
		if !v2 {
			return join(ErrUnsupported, &gregor.UnsupportedFeatureError{
				Feature: "transactions v2 (KIP-890, Config.TransactionVersion 2)",
				Broker:  fmt.Sprintf("the cluster's transaction.version is finalized at level %d, below 2", level),
				Remedy:  "use Config.TransactionVersion 0 (follow the cluster) or 1",
			})
		}
	}
	t.mu.Lock()
	t.v2, t.versionSet = v2, true
	if !v2 {
		// Written before the first SetIdentity, whose lock orders it before
		// any ProduceRequest the record path builds.
		t.hooks.ProduceVersionCap = 11
	}
	t.mu.Unlock()
	return nil
}

// initPID sends InitProducerId (with the current ID and epoch when there is
// one, so the coordinator bumps it, KIP-360) and adopts the answer; a
// producer needing initialisation becomes ready (a transaction's end leaves
// the state of the next one alone). On a fatal answer the producer becomes
// unusable; after any other failure it has no usable ID (haveID false).
func (t *Producer) initPID(ctx context.Context) error {
	t.mu.Lock()
	req := &wire.InitProducerIdRequest{TransactionalID: &t.cfg.TransactionalID,
		TransactionTimeoutMs: int32(t.cfg.TransactionTimeout.Milliseconds()), ProducerID: -1, ProducerEpoch: -1}
	if t.haveID {
		req.ProducerID, req.ProducerEpoch = t.pid, t.epoch
	}
	t.haveID = false
	t.mu.Unlock()
	resp, err := t.coordCall(ctx, client.CoordinatorTransaction, t.cfg.TransactionalID, req, initPIDErr, true)
	if err != nil {
		if wire.Fatal(err) {
			err = t.classify(err)
			if errors.Is(err, ErrFatal) {
				t.setFatal(err)
			}
		}
		return err
	}
	r := resp.(*wire.InitProducerIdResponse)
	t.hooks.SetIdentity(r.ProducerID, r.ProducerEpoch)
	t.mu.Lock()
	t.haveID, t.pid, t.epoch = true, r.ProducerID, r.ProducerEpoch
	if t.st == stNeedsInit {
		t.st = stReady
	}
	t.mu.Unlock()
	return nil
}

// setFatal makes the producer unusable with err.
func (t *Producer) setFatal(err error) {
	t.mu.Lock()
	if t.fatalErr == nil {
		t.fatalErr = err
	}
	t.st = stFatal
	t.mu.Unlock()
}

// Begin opens a transaction. It does no I/O; it may be called while the
// previous transaction's end still runs in the background (after an Abort
// or Commit whose ctx ended): the new transaction's records wait for it.
// Errors: ErrState (a transaction is open, or ErrNeedsInit before
// InitTransactions), ErrFatal, ErrClosed.
func (t *Producer) Begin() error {
	t.op.Lock()
	defer t.op.Unlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.usableLocked(); err != nil {
		return err
	}
	switch t.st {
	case stNeedsInit:
		return ErrNeedsInit
	case stReady:
	default:
		return stateErr("Begin inside a transaction")
	}
	t.st = stInTxn
	t.gen++
	t.reg = nil // an ended transaction's registration goroutine is its end's to wait for
	t.aborted = nil
	t.started, t.abortErr, t.bump = false, nil, false
	clear(t.registered)
	clear(t.pending)
	t.txnCtx, t.txnCancel = context.WithCancel(t.life)
	t.doomCtx, t.doom = context.WithCancel(t.txnCtx)
	return nil
}

// Commit flushes the transaction's records and commits it with the offsets
// given to SendOffsets (EndTxn; with transactions v2 the coordinator bumps
// the epoch). It first waits for the previous transaction's end if that
// still runs. EndTxn is retried, the same request each time, until the
// coordinator answers it (the coordinator answers a retry of an EndTxn it
// completed with that outcome) or ctx ends. It returns nil once the
// transaction is committed. Errors:
//   - ErrAbortable: a record or the offsets failed, or the coordinator
//     answered TRANSACTION_ABORTABLE: call Abort.
//   - ErrCommitOutcomeUnknown: ctx ended after EndTxn may have reached the
//     coordinator; the producer goes on retrying it in the background (see
//     ErrCommitOutcomeUnknown). The transaction is no longer open.
//   - ErrFenced/ErrFatal: only Close is left.
//   - a retriable error (ctx ended while flushing, or before any EndTxn could
//     take effect): the transaction is still open; call Commit or Abort
//     again.
func (t *Producer) Commit(ctx context.Context) error {
	t.op.Lock()
	defer t.op.Unlock()
	if err := t.openFor("Commit"); err != nil {
		return err
	}
	if err := t.awaitEnd(ctx); err != nil {
		return err
	}
	if err := t.openFor("Commit"); err != nil {
		return err
	}
	t.mu.Lock()
	t.st = stCommitting
	t.mu.Unlock()
	if err := t.waitSends(ctx); err != nil {
		return t.reopen(err)
	}
	if err := t.flush(ctx); err != nil {
		return t.reopen(err)
	}
	t.mu.Lock()
	err := t.usableLocked()
	if err == nil {
		err = t.abortErr
	}
	started, v2, pid, epoch := t.started, t.v2, t.pid, t.epoch
	t.mu.Unlock()
	if err != nil {
		return t.reopen(err)
	}
	if !started {
		t.closeTxn()
		t.outcome(true, pid, epoch, nil)
		return nil
	}
	e := t.newEnding(true, pid, epoch, v2)
	resp, err := t.endTxnRetry(ctx, e)
	switch {
	case err == nil:
		t.adopt(resp)
		t.closeTxn()
		t.outcome(true, pid, epoch, nil)
		return nil
	case wire.Fatal(err):
		err = t.classifyEnd(err)
		t.outcome(true, pid, epoch, err)
		if errors.Is(err, ErrFatal) {
			t.setFatal(err)
			return err
		}
		t.mu.Lock()
		t.failLocked(err)
		t.mu.Unlock()
		return t.reopen(err)
	case !e.reached:
		// No attempt can have taken effect: the transaction is still open.
		return t.reopen(err)
	}
	// EndTxn may have reached the coordinator: the outcome is unknown until
	// it answers. Retrying it goes on in the background (Java's client keeps
	// re-sending the same EndTxn, KIP-1050); the transaction is over for
	// the caller.
	t.mu.Lock()
	t.closeTxnLocked()
	t.mu.Unlock()
	t.startEnding(e, t.commitRest)
	return join(ErrCommitOutcomeUnknown, err)
}

// openFor returns the error of a call (what) that needs an open transaction
// that can still commit, if it has none.
func (t *Producer) openFor(what string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.usableLocked(); err != nil {
		return err
	}
	if t.st != stInTxn {
		return stateErr(what + " outside a transaction")
	}
	return t.abortErr
}

// flush waits until every record of the transaction is terminal, or ctx
// ends, or the transaction can no longer commit (then it returns the
// transaction's error: its held records would otherwise wait for their
// delivery timeout).
func (t *Producer) flush(ctx context.Context) error {
	t.mu.Lock()
	doomed := t.doomCtx
	t.mu.Unlock()
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(doomed, cancel)()
	err := t.p.Flush(fctx)
	if err == nil || ctx.Err() != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.fatalErr != nil {
		return t.fatalErr
	}
	if t.abortErr != nil {
		return t.abortErr
	}
	return err
}

// reopen returns the transaction to the open state after a Commit that did
// not end it, and returns err.
func (t *Producer) reopen(err error) error {
	t.mu.Lock()
	if t.st == stCommitting {
		t.st = stInTxn
	}
	t.mu.Unlock()
	return err
}

// closeTxn ends the current transaction locally: the producer is ready for
// the next Begin and blocked Sends give up.
func (t *Producer) closeTxn() {
	t.mu.Lock()
	t.closeTxnLocked()
	t.mu.Unlock()
}

func (t *Producer) closeTxnLocked() {
	if t.st != stFatal && t.st != stClosed {
		t.st = stReady
	}
	if t.txnCancel != nil {
		t.txnCancel()
	}
}
