package protocol

import (
	"context"
	"fmt"
	"time"
)

// txnCommands are the transaction rows of the command table (§4.8).
var txnCommands = []command{
	handledBy("create_transactional_producer", (*Session).doCreateTxnProducer),
	handledBy("execute_transaction", (*Session).doExecuteTransaction),
	handledBy("execute_transactional_transform", (*Session).doExecuteTransactionalTransform),
	handledBy("fence_transaction", (*Session).doFenceTransaction),
	handledBy("close_transactional_producer", (*Session).doCloseTxnProducer),
}

// txnEntry is a transactional producer in the registry. Its id shares the
// producers' namespace (§4.8).
type txnEntry struct {
	clientID ID
	producer TransactionalProducer
}

func (s *Session) txnOf(id ID) (*txnEntry, error) {
	if err := s.needHello(); err != nil {
		return nil, err
	}
	p, ok := s.txns[id]
	if !ok {
		return nil, stateErr("unknown transactional producer %q", id)
	}
	return p, nil
}

// producerIDTaken reports whether id names a plain or transactional producer.
func (s *Session) producerIDTaken(id ID) bool {
	_, plain := s.producers[id]
	_, tx := s.txns[id]
	return plain || tx
}

func checkTxnBounds(transactionalID string, ms ...uint64) error {
	if n := len(transactionalID); n < 1 || n > 249 {
		return fatalf("adapter_state", "transactional_id of %d bytes (1..249)", n)
	}
	for _, v := range ms {
		if v < 100 || v > 600000 {
			return fatalf("adapter_state", "transactional timeout %d ms outside 100..=600000", v)
		}
	}
	return nil
}

// newTxnProducer creates and initialises a transactional producer on
// client clientID; failures are command_failed.
func (s *Session) newTxnProducer(clientID, producerID ID, transactionalID string, txnTimeoutMs, initTimeoutMs uint64) error {
	c, err := s.clientOf(clientID)
	if err != nil {
		return err
	}
	if s.producerIDTaken(producerID) {
		return stateErr("duplicate producer %q", producerID)
	}
	tc, ok := c.client.(TransactionalClient)
	if !ok {
		return fatalf("adapter_unsupported", "client %q cannot make transactional producers", clientID)
	}
	p, err := tc.NewTransactionalProducer(TransactionalConfig{TransactionalID: transactionalID,
		TransactionTimeout: time.Duration(txnTimeoutMs) * time.Millisecond})
	if err != nil {
		return &failedError{code: normalizeTxn(err), err: err}
	}
	ctx, cancel := timeout(initTimeoutMs)
	defer cancel()
	if err := p.Init(ctx); err != nil {
		_ = closeTxnQuietly(p)
		return &failedError{code: normalizeTxn(err), err: err}
	}
	if s.txns == nil {
		s.txns = map[ID]*txnEntry{}
	}
	s.txns[producerID] = &txnEntry{clientID: clientID, producer: p}
	return s.emit(TransactionalProducerCreated{ProducerID: producerID})
}

func (s *Session) doCreateTxnProducer(p *CreateTransactionalProducer) error {
	if err := checkTxnBounds(p.TransactionalID, p.TransactionTimeoutMs, p.InitializationTimeoutMs); err != nil {
		return err
	}
	return s.newTxnProducer(p.ClientID, p.ProducerID, p.TransactionalID, p.TransactionTimeoutMs, p.InitializationTimeoutMs)
}

// stage sends ops one by one into the open transaction: accepted, then the
// terminal once the broker has the record (transaction_staged with its
// offset) or the record failed. A refusal emits operation_rejected and
// returns its command_failed.
func (s *Session) stage(ctx context.Context, p TransactionalProducer, ops []BatchRecord) error {
	for i := range ops {
		rec, err := toProducerRecord(&ops[i].Record)
		if err != nil {
			return err
		}
		op := ops[i].OperationID
		d, err := p.TrySend(rec)
		if err != nil {
			code := normalizeTxn(err)
			if err := s.emit(OperationRejected{OperationID: op, Code: code}); err != nil {
				return err
			}
			return &failedError{code: code, err: err}
		}
		if err := s.emit(OperationAccepted{OperationID: op}); err != nil {
			return err
		}
		select {
		case <-d.Done():
		case <-ctx.Done():
			return &failedError{code: KindTimeout, err: fmt.Errorf("operation %s: no outcome in time: %w", op, ctx.Err())}
		}
		term := terminalEvent(op, d.Outcome())
		if term.Status == StatusAcknowledged {
			term.Status = StatusTransactionStaged
		}
		if err := s.emit(term); err != nil {
			return err
		}
	}
	return nil
}

func (s *Session) doExecuteTransaction(p *ExecuteTransaction) error {
	te, err := s.txnOf(p.ProducerID)
	if err != nil {
		return err
	}
	if n := len(p.Operations); n < 1 || n > 31 {
		return fatalf("adapter_state", "execute_transaction with %d operations (1..=31)", n)
	}
	if p.Disposition != DispositionCommit && p.Disposition != DispositionAbort {
		return fatalf("adapter_json", "disposition %q", p.Disposition)
	}
	ctx, cancel := timeout(p.TimeoutMs)
	defer cancel()
	tp := te.producer
	if err := s.beginStaged(ctx, tp, p.Operations); err != nil {
		return err
	}
	if err := endTxn(ctx, tp, p.Disposition); err != nil {
		return err
	}
	return s.emit(TransactionCompleted{TransactionID: p.TransactionID, Disposition: p.Disposition})
}

// beginStaged begins a transaction and stages ops in it (stage); a
// failed begin is command_failed, a failed stage aborts the transaction.
func (s *Session) beginStaged(ctx context.Context, tp TransactionalProducer, ops []BatchRecord) error {
	if err := tp.Begin(); err != nil {
		return &failedError{code: normalizeTxn(err), err: err}
	}
	if err := s.stage(ctx, tp, ops); err != nil {
		_ = tp.Abort(ctx)
		return err
	}
	return nil
}

// endTxn commits or aborts the open transaction as disposition says; a
// failure is command_failed (a commit that cannot complete is aborted).
func endTxn(ctx context.Context, tp TransactionalProducer, disposition string) error {
	var err error
	if disposition == DispositionCommit {
		err = tp.Commit(ctx)
	} else {
		err = tp.Abort(ctx)
	}
	if err != nil {
		code := normalizeTxn(err)
		_ = tp.Abort(ctx) // a commit that cannot complete leaves the transaction to abort
		return &failedError{code: code, err: err}
	}
	return nil
}

func (s *Session) doFenceTransaction(p *FenceTransaction) error {
	te, err := s.txnOf(p.ProducerID)
	if err != nil {
		return err
	}
	if err := checkTxnBounds(p.TransactionalID, p.TransactionTimeoutMs, p.InitializationTimeoutMs, p.TimeoutMs); err != nil {
		return err
	}
	ctx, cancel := timeout(p.TimeoutMs)
	defer cancel()
	old := te.producer
	if err := old.Begin(); err != nil {
		return &failedError{code: normalizeTxn(err), err: err}
	}
	if err := s.stage(ctx, old, []BatchRecord{p.Operation}); err != nil {
		_ = old.Abort(ctx)
		return err
	}
	if err := s.newTxnProducer(p.ReplacementClientID, p.ReplacementProducerID, p.TransactionalID,
		p.TransactionTimeoutMs, p.InitializationTimeoutMs); err != nil {
		_ = old.Abort(ctx)
		return err
	}
	var code *string
	if err := old.Commit(ctx); err != nil {
		c := normalizeTxn(err)
		code = &c
		_ = old.Abort(ctx)
	}
	return s.emit(TransactionFenceCompleted{TransactionID: p.TransactionID, CommitErrorCode: code})
}

func (s *Session) doCloseTxnProducer(p *CloseTransactionalProducer) error {
	te, err := s.txnOf(p.ProducerID)
	if err != nil {
		return err
	}
	delete(s.txns, p.ProducerID)
	if err := closeTxnQuietly(te.producer); err != nil {
		return &failedError{code: normalizeTxn(err), err: err}
	}
	return s.emit(TransactionalProducerClosed{ProducerID: p.ProducerID})
}

func closeTxnQuietly(p TransactionalProducer) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return p.Close(ctx)
}
