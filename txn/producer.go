package txn

import (
	"context"
	"errors"
	"sync"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/txnhook"
	"github.com/gregor-kafka/gregor/producer"
)

// state is where a Producer is in its life.
type state uint8

const (
	stNeedsInit  state = iota // no producer ID yet (or a re-initialisation failed)
	stReady                   // initialised, no transaction open
	stInTxn                   // Begin was called
	stCommitting              // Commit is flushing or ending the transaction
	stAborting                // Abort is draining or ending the transaction
	stFatal                   // fenced or otherwise unusable; only Close
	stClosed
)

// tp is a topic partition.
type tp struct {
	topic     string
	partition int32
}

// Producer is a transactional producer (KIP-98; KIP-890 transactions v2
// when the cluster finalizes transaction.version 2): records sent between
// Begin and Commit become visible to read_committed consumers together, with
// the consumer offsets given to SendOffsets, or not at all. Safe for
// concurrent use; InitTransactions, Begin, SendOffsets, Commit, Abort and
// Close run one at a time, Send may run concurrently with any of them.
type Producer struct {
	cfg   settings
	cl    *client.Client
	p     *producer.Producer
	hooks *txnhook.Hooks

	life context.Context // ends at Close: bounds background registration
	stop context.CancelFunc

	op sync.Mutex // serialises the transaction operations

	mu sync.Mutex // guards the fields below
	st state
	// v2: the transaction protocol is KIP-890 v2 (decided by InitTransactions).
	v2         bool
	versionSet bool
	haveID     bool
	pid        int64
	epoch      int16
	// started: the coordinator knows the current transaction (a partition
	// or the group's offsets were added, or in v2 a batch was sent), so it
	// must end with EndTxn.
	started  bool
	abortErr error // why the current transaction cannot commit (ErrAbortable class)
	// bump: the coordinator no longer accepts the current epoch
	// (INVALID_PRODUCER_EPOCH, KIP-588): Abort re-initialises instead of
	// sending EndTxn.
	bump     bool
	fatalErr error // why the producer cannot continue (ErrFatal class)
	// registered and pending are the current transaction's partitions that
	// AddPartitionsToTxn added, and those waiting for it (v1).
	registered map[tp]struct{}
	pending    map[tp]struct{}
	reg        *registration // the current transaction's registration goroutine (v1), nil when none runs
	// gen numbers the transactions (Begin increments it).
	gen uint64
	// end is the previous transaction's end while it still runs
	// (ending.go); nil when none runs.
	end *ending
	// aborted is the last Abort's end until the next Begin: Abort again
	// returns its result.
	aborted   *ending
	sending   int           // Send calls in progress
	sendsIdle chan struct{} // closed when sending drops to 0 (made by a waiter)
	txnCtx    context.Context
	txnCancel context.CancelFunc // ends blocked Sends when the transaction ends
	doomCtx   context.Context
	doom      context.CancelFunc // called when the transaction can no longer commit (ends Commit's flush)
}

// New returns a transactional producer sending through c. It validates cfg
// (errors wrap ErrConfig) and starts the record path; it does no I/O until
// InitTransactions. Close stops it; the client stays the caller's.
func New(c *client.Client, cfg Config) (*Producer, error) {
	if c == nil {
		return nil, errors.Join(ErrConfig, errors.New("nil client"))
	}
	s, err := validate(cfg)
	if err != nil {
		return nil, err
	}
	t := &Producer{cfg: s, cl: c, registered: map[tp]struct{}{}, pending: map[tp]struct{}{}}
	t.hooks = &txnhook.Hooks{TransactionalID: s.TransactionalID, MaySend: t.maySend, Failed: t.onFailed}
	pc := s.Producer
	pc.Transactional = t.hooks
	t.p, err = producer.New(c, pc)
	if err != nil {
		return nil, err
	}
	t.life, t.stop = context.WithCancel(context.Background())
	return t, nil
}

// Send admits m into the current transaction as the idempotent producer's
// Send does (same admission, backpressure, cancellation and certainty
// rules; see producer.Producer.Send), and returns its Delivery. A record
// is written only inside its transaction: when the transaction aborts
// before the record was written, its terminal error is ErrAborted (NotSent,
// or PossiblySent after an attempt that may have been written, see
// ErrAborted).
// A delivered record is visible to read_committed consumers only once
// Commit succeeds. Send fails with ErrState outside a transaction, with
// the transaction's ErrAbortable error once it cannot commit, and with
// ErrFatal/ErrFenced after a fatal error. A Send waiting for room gives up
// when the transaction ends.
func (t *Producer) Send(ctx context.Context, m *producer.Record) (*producer.Delivery, error) {
	txnCtx, err := t.enterSend()
	if err != nil {
		return nil, err
	}
	defer t.exitSend()
	d, err := t.p.TrySend(m)
	if err == nil || !errors.Is(err, client.ErrBackpressure) {
		return d, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(txnCtx, cancel)()
	return t.p.Send(ctx, m)
}

// Produce sends r into the current transaction and waits for its outcome
// (Send, then producer.Await): the synchronous send of
// producer.Producer.Produce. Every error is a *producer.RecordError
// carrying the certainty; a refusal by Send (ErrState, ErrAbortable, ...)
// is one with certainty NotSent, matching the refusal. A written record is
// visible to read_committed consumers only once Commit succeeds.
func (t *Producer) Produce(ctx context.Context, r producer.Record) (producer.Result, error) {
	d, err := t.Send(ctx, &r)
	return producer.Await(ctx, &r, d, err)
}

// TrySend is Send without waiting for room (see producer.Producer.TrySend).
func (t *Producer) TrySend(m *producer.Record) (*producer.Delivery, error) {
	if _, err := t.enterSend(); err != nil {
		return nil, err
	}
	defer t.exitSend()
	return t.p.TrySend(m)
}

// enterSend admits a Send call into the current transaction.
func (t *Producer) enterSend() (context.Context, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.usableLocked(); err != nil {
		return nil, err
	}
	if t.st != stInTxn {
		return nil, stateErr("Send outside a transaction")
	}
	if t.abortErr != nil {
		return nil, t.abortErr
	}
	t.sending++
	return t.txnCtx, nil
}

func (t *Producer) exitSend() {
	t.mu.Lock()
	t.sending--
	if t.sending == 0 && t.sendsIdle != nil {
		close(t.sendsIdle)
		t.sendsIdle = nil
	}
	t.mu.Unlock()
}

// waitSends waits until no Send call is in progress.
func (t *Producer) waitSends(ctx context.Context) error {
	t.mu.Lock()
	if t.sending == 0 {
		t.mu.Unlock()
		return nil
	}
	if t.sendsIdle == nil {
		t.sendsIdle = make(chan struct{})
	}
	ch := t.sendsIdle
	t.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctxErr(ctx)
	}
}

// usableLocked returns the error of a closed or fatally failed producer.
func (t *Producer) usableLocked() error {
	switch {
	case t.st == stClosed:
		return ErrClosed
	case t.fatalErr != nil:
		return t.fatalErr
	}
	return nil
}

func stateErr(what string) error { return errors.Join(ErrState, errors.New(what)) }

// ctxErr wraps ctx's error as the client does (client.ErrTimeout or
// client.ErrCancelled): a retriable outcome of the call.
func ctxErr(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return errors.Join(client.ErrTimeout, ctx.Err())
	}
	return errors.Join(client.ErrCancelled, ctx.Err())
}

// Close ends the producer: an open transaction is aborted as Abort does (its
// buffered records fail with ErrAborted; if the coordinator cannot be told
// within ctx, it aborts the transaction when TransactionTimeout passes),
// then the record path is closed within ctx. A second Close returns nil.
// The client is not closed.
func (t *Producer) Close(ctx context.Context) error {
	t.op.Lock()
	defer t.op.Unlock()
	t.mu.Lock()
	st := t.st
	if st == stClosed {
		t.mu.Unlock()
		return nil
	}
	t.mu.Unlock()
	var abortErr error
	if st == stInTxn || st == stCommitting || st == stAborting {
		abortErr = t.abortLocked(ctx)
	} else {
		abortErr = t.awaitEnd(ctx) // the previous transaction's end, within ctx
		// A fatal error may have left records held (never sent).
		t.hooks.FailHeld(t.abortCause())
	}
	err := t.p.Close(ctx)
	t.mu.Lock()
	t.st = stClosed
	if t.txnCancel != nil {
		t.txnCancel()
	}
	e := t.end
	t.mu.Unlock()
	t.stop()
	if e != nil {
		<-e.done // stopped by t.stop: it ends at once
	}
	if err != nil {
		return err
	}
	if abortErr != nil && !errors.Is(abortErr, ErrFatal) {
		return abortErr
	}
	return nil
}
