package txn

import (
	"context"
	"errors"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// ending is the end of a transaction (its EndTxn, and the re-initialisation
// that follows or replaces it) once it runs on its own: after Abort failed
// the records held back, or after Commit's ctx ended with its EndTxn
// possibly applied. It runs in its own goroutine, bounded by
// TransactionTimeout and Close, so that it completes whatever the ctx of the
// call that started it. Meanwhile the next transaction may begin: maySend
// holds its batches back, and every other operation first waits for the
// end (awaitEnd).
type ending struct {
	commit bool
	pid    int64 // the transaction's producer ID and epoch
	epoch  int16
	v2     bool
	// req is the transaction's EndTxn, re-sent unchanged on every retry (a
	// v2 retry carries the epoch before the coordinator's bump, so that the
	// coordinator takes it as a retry).
	req *wire.EndTxnRequest
	// reached: an attempt of req may have reached the coordinator and taken
	// effect. Written by the one goroutine running the end at a time.
	reached bool
	// For an abort: what the transaction left (t.started, t.bump, its
	// registration goroutine).
	started, bump bool
	reg           *registration
	// failure is the transaction's failure when its outcome is not the one
	// asked for (a commit the coordinator refused in the background).
	failure error
	done    chan struct{}
	err     error // the end's result; set before done closes
}

// newEnding returns the end of the current transaction (committed or not)
// under pid and epoch.
func (t *Producer) newEnding(commit bool, pid int64, epoch int16, v2 bool) *ending {
	req := &wire.EndTxnRequest{TransactionalID: t.cfg.TransactionalID, ProducerID: pid, ProducerEpoch: epoch, Committed: commit}
	if !v2 {
		req.VersionCap = 4
	}
	return &ending{commit: commit, pid: pid, epoch: epoch, v2: v2, req: req, done: make(chan struct{})}
}

// startEnding makes e the producer's end and runs rest in its goroutine.
func (t *Producer) startEnding(e *ending, rest func(context.Context, *ending) error) {
	t.mu.Lock()
	t.end = e
	t.mu.Unlock()
	go t.runEnding(e, rest)
}

// runEnding runs rest within TransactionTimeout (Close stops it earlier).
// An end that does not complete leaves the producer without a usable ID:
// the coordinator may still hold the transaction, and InitTransactions
// (InitProducerId) aborts whatever it holds. A transaction begun meanwhile
// can then only abort. Finally it reports the outcome.
func (t *Producer) runEnding(e *ending, rest func(context.Context, *ending) error) {
	ctx, cancel := context.WithTimeout(t.life, t.cfg.TransactionTimeout)
	err := rest(ctx, e)
	cancel()
	t.mu.Lock()
	if err != nil && !errors.Is(err, ErrFatal) {
		err = errors.Join(ErrNeedsInit, err)
		t.haveID = false
		switch t.st {
		case stReady:
			t.st = stNeedsInit
		case stInTxn:
			t.failLocked(join(ErrAbortable, err))
		}
	}
	e.err = err
	t.end = nil
	t.mu.Unlock()
	failure := e.failure
	if failure == nil {
		failure = err
	}
	t.outcome(e.commit, e.pid, e.epoch, failure) // before the waiting call returns
	close(e.done)
	t.hooks.Wake()
}

// awaitEnd waits until the previous transaction's end (if one runs) is over;
// its result is in the producer's state. A ctx error is retriable.
func (t *Producer) awaitEnd(ctx context.Context) error {
	t.mu.Lock()
	e := t.end
	t.mu.Unlock()
	if e == nil {
		return nil
	}
	_, err := e.wait(ctx)
	return err
}

// wait returns e's result once e is over, or ctx's (retriable) error; the
// bool says whether e is over.
func (e *ending) wait(ctx context.Context) (bool, error) {
	select {
	case <-e.done:
		return true, nil
	case <-ctx.Done():
		return false, ctxErr(ctx)
	}
}

// result waits for e until ctx ends and returns its result, or a retriable
// error saying that e goes on in the background.
func (e *ending) result(ctx context.Context) error {
	over, err := e.wait(ctx)
	if !over {
		return err
	}
	return e.err
}

// endTxnRetry sends e's EndTxn until the coordinator answers it or ctx
// ends: attempts whose answer was lost are re-sent as well (EndTxn is
// idempotent at the coordinator, as for the Java client), and e.reached
// records whether one may have taken effect.
func (t *Producer) endTxnRetry(ctx context.Context, e *ending) (wire.Response, error) {
	return t.coordCallTracked(ctx, client.CoordinatorTransaction, t.cfg.TransactionalID, e.req, endTxnErr, true, &e.reached)
}

// commitRest is the background end of a Commit whose EndTxn may have taken
// effect: it retries that EndTxn until answered. A refusal other than a
// fence (the coordinator answers one only if no attempt took effect) leaves
// the transaction to abort, which re-initialising does (KIP-360).
func (t *Producer) commitRest(ctx context.Context, e *ending) error {
	resp, err := t.endTxnRetry(ctx, e)
	switch {
	case err == nil:
		t.adopt(resp)
		return nil
	case wire.Fatal(err):
		err = t.classifyEnd(err)
		if errors.Is(err, ErrFatal) {
			t.setFatal(err)
			return err
		}
		e.failure = err
		return t.initPID(ctx)
	}
	return err
}

// adopt makes the ID and epoch of an EndTxn v5 answer (KIP-890: the
// coordinator bumped the epoch) the producer's.
func (t *Producer) adopt(resp wire.Response) {
	r := resp.(*wire.EndTxnResponse)
	if r.ProducerID < 0 || r.ProducerEpoch < 0 {
		return
	}
	t.hooks.SetIdentity(r.ProducerID, r.ProducerEpoch)
	t.mu.Lock()
	t.pid, t.epoch = r.ProducerID, r.ProducerEpoch
	t.mu.Unlock()
}

// classifyEnd classifies an EndTxn refusal: one after which only
// re-initialising ends the transaction (needsReinit) is abortable, the
// others as classify.
func (t *Producer) classifyEnd(err error) error {
	if needsReinit(err) {
		return join(ErrAbortable, err)
	}
	return t.classify(err)
}
