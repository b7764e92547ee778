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
// before the first Begin, and again after an error matching ErrNeedsInit.
// Errors: ErrFenced/ErrFatal (e.g. TRANSACTIONAL_ID_AUTHORIZATION_FAILED),
// ErrUnsupported, or a retriable timeout (call again).
func (t *Producer) InitTransactions(ctx context.Context) error {
	t.op.Lock()
	defer t.op.Unlock()
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
// one, so the coordinator bumps it, KIP-360) and adopts the answer. On a
// fatal answer the producer becomes unusable; on any other failure it needs
// InitTransactions again.
func (t *Producer) initPID(ctx context.Context) error {
	t.mu.Lock()
	req := &wire.InitProducerIdRequest{TransactionalID: &t.cfg.TransactionalID,
		TransactionTimeoutMs: int32(t.cfg.TransactionTimeout.Milliseconds()), ProducerID: -1, ProducerEpoch: -1}
	if t.haveID {
		req.ProducerID, req.ProducerEpoch = t.pid, t.epoch
	}
	t.haveID = false
	t.st = stNeedsInit
	t.mu.Unlock()
	resp, err := t.coordCall(ctx, client.CoordinatorTransaction, t.cfg.TransactionalID, req, initPIDErr, true)
	if err != nil {
		if isBrokerFatal(err) {
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
	t.st = stReady
	if t.txnCancel != nil {
		t.txnCancel()
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

// Begin opens a transaction. It does no I/O. Errors: ErrState (a
// transaction is open, or ErrNeedsInit before InitTransactions), ErrFatal,
// ErrClosed.
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
	t.started, t.abortErr, t.bump = false, nil, false
	clear(t.registered)
	clear(t.pending)
	t.txnCtx, t.txnCancel = context.WithCancel(t.life)
	t.doomCtx, t.doom = context.WithCancel(t.txnCtx)
	return nil
}

// Commit flushes the transaction's records and commits it with the offsets
// given to SendOffsets (EndTxn; with transactions v2 the coordinator bumps
// the epoch). It returns nil once the transaction is committed. Errors:
//   - ErrAbortable: a record or the offsets failed, or the coordinator
//     answered TRANSACTION_ABORTABLE: call Abort.
//   - ErrCommitOutcomeUnknown: EndTxn was sent but its answer was lost; the
//     producer re-initialised before returning (see ErrCommitOutcomeUnknown).
//   - ErrFenced/ErrFatal: only Close is left.
//   - a retriable error (ctx ended while flushing or before EndTxn could be
//     sent): the transaction is still open; call Commit or Abort again.
func (t *Producer) Commit(ctx context.Context) error {
	t.op.Lock()
	defer t.op.Unlock()
	t.mu.Lock()
	if err := t.usableLocked(); err != nil {
		t.mu.Unlock()
		return err
	}
	if t.st != stInTxn {
		t.mu.Unlock()
		return stateErr("Commit outside a transaction")
	}
	if t.abortErr != nil {
		t.mu.Unlock()
		return t.abortErr
	}
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
		t.finish(-1, -1)
		t.outcome(true, pid, epoch, nil)
		return nil
	}
	resp, err := t.endTxn(ctx, true, v2)
	switch {
	case err == nil:
		r := resp.(*wire.EndTxnResponse)
		t.finish(r.ProducerID, r.ProducerEpoch)
		t.outcome(true, pid, epoch, nil)
		return nil
	case isBrokerFatal(err):
		err = t.classify(err)
		t.outcome(true, pid, epoch, err)
		if errors.Is(err, ErrFatal) {
			t.setFatal(err)
			return err
		}
		t.mu.Lock()
		t.failLocked(err)
		t.mu.Unlock()
		return t.reopen(err)
	case client.CertaintyOf(err) == client.PossiblySent:
		// EndTxn may have reached the coordinator: the outcome is unknown.
		// Re-initialise (completing or aborting whatever the coordinator
		// has) before reporting it (Jepsen, KIP-1050).
		unknown := join(ErrCommitOutcomeUnknown, err)
		t.outcome(true, pid, epoch, unknown)
		if rerr := t.initPID(ctx); rerr != nil {
			if errors.Is(rerr, ErrFatal) {
				return errors.Join(unknown, rerr)
			}
			return errors.Join(unknown, ErrNeedsInit, rerr)
		}
		return unknown
	default:
		return t.reopen(err)
	}
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

// finish closes the transaction: a v2 EndTxn's new ID and epoch (>= 0)
// become the producer's.
func (t *Producer) finish(pid int64, epoch int16) {
	if pid >= 0 && epoch >= 0 {
		t.hooks.SetIdentity(pid, epoch)
	}
	t.mu.Lock()
	if pid >= 0 && epoch >= 0 {
		t.pid, t.epoch = pid, epoch
	}
	t.st = stReady
	t.txnCancel()
	t.mu.Unlock()
}

// endTxn sends EndTxn (v5 for transactions v2, at most v4 for v1). A
// failure after it may have been sent is returned, not retried.
func (t *Producer) endTxn(ctx context.Context, commit, v2 bool) (wire.Response, error) {
	t.mu.Lock()
	req := &wire.EndTxnRequest{TransactionalID: t.cfg.TransactionalID, ProducerID: t.pid, ProducerEpoch: t.epoch, Committed: commit}
	t.mu.Unlock()
	if !v2 {
		req.VersionCap = 4
	}
	return t.coordCall(ctx, client.CoordinatorTransaction, t.cfg.TransactionalID, req, endTxnErr, false)
}

// Abort aborts the open transaction: records not yet sent fail with
// ErrAborted (NotSent) and are never written; records already written are
// aborted by the coordinator (EndTxn), and read_committed consumers never
// see them. With transactions v1 the producer then bumps its epoch
// (InitProducerId), so the next transaction's sequences start afresh.
// Abort after an ErrAbortable error is the normal path; after a fatal error
// it only fails the buffered records and returns the fatal error. A
// retriable error (ctx ended) leaves the transaction aborting: call Abort
// again.
func (t *Producer) Abort(ctx context.Context) error {
	t.op.Lock()
	defer t.op.Unlock()
	t.mu.Lock()
	if t.st == stClosed {
		t.mu.Unlock()
		return ErrClosed
	}
	if t.st != stInTxn && t.st != stAborting && t.fatalErr == nil {
		t.mu.Unlock()
		return stateErr("Abort outside a transaction")
	}
	t.mu.Unlock()
	return t.abortReported(ctx)
}

// abortLocked is Abort with t.op held.
func (t *Producer) abortLocked(ctx context.Context) error {
	t.mu.Lock()
	if t.st != stFatal {
		t.st = stAborting
	}
	if t.txnCancel != nil {
		t.txnCancel()
	}
	t.mu.Unlock()
	if err := t.waitSends(ctx); err != nil {
		return err
	}
	if err := t.hooks.Drain(ctx, ErrAborted); err != nil {
		return err
	}
	if err := t.waitRegistration(ctx); err != nil {
		return err
	}
	t.mu.Lock()
	fatalErr, started, v2, bump := t.fatalErr, t.started, t.v2, t.bump
	t.mu.Unlock()
	if fatalErr != nil {
		return fatalErr
	}
	if bump {
		// EndTxn would be refused: re-initialising with the current ID and
		// epoch aborts the transaction and bumps the epoch (KIP-588), or
		// reports PRODUCER_FENCED when a newer producer took over.
		return t.initPID(ctx)
	}
	if started {
		resp, err := t.endTxn(ctx, false, v2)
		if errors.Is(err, wire.ErrInvalidTxnState) && !v2 {
			// v1: the coordinator has no transaction to abort (a request
			// that may have opened one did not); the re-initialisation
			// below aborts anything it does have.
			err, resp = nil, nil
		}
		switch {
		case err == nil && resp == nil:
		case err == nil:
			if r := resp.(*wire.EndTxnResponse); v2 {
				t.finish(r.ProducerID, r.ProducerEpoch)
				return nil
			}
		case isBrokerFatal(err):
			err = t.classify(err)
			if errors.Is(err, ErrFatal) {
				t.setFatal(err)
			}
			return err
		case client.CertaintyOf(err) == client.PossiblySent:
			// Re-initialising aborts the transaction if EndTxn did not.
			return t.initPID(ctx)
		default:
			return err
		}
	}
	if v2 {
		t.finish(-1, -1)
		return nil
	}
	// v1: the drained partitions restart their sequences; they need a new
	// epoch (KIP-360).
	return t.initPID(ctx)
}
