package txn

import (
	"context"
	"errors"
	"sort"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// maySend implements txnhook.Hooks.MaySend (called with the record path's
// lock held; takes only t.mu). With transactions v2 the Produce request
// itself adds the partition (KIP-890), so a batch may go whenever the
// transaction is open or committing; with v1 the partition must first be
// added with AddPartitionsToTxn, which a registration goroutine sends.
func (t *Producer) maySend(topic string, partition int32) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if (t.st != stInTxn && t.st != stCommitting) || t.abortErr != nil || t.fatalErr != nil {
		return false
	}
	if t.v2 {
		t.started = true
		return true
	}
	k := tp{topic, partition}
	if _, ok := t.registered[k]; ok {
		return true
	}
	if _, ok := t.pending[k]; !ok {
		t.pending[k] = struct{}{}
		if t.regDone == nil {
			t.regDone = make(chan struct{})
			go t.register(t.regDone)
		}
	}
	return false
}

// register adds the pending partitions to the transaction (AddPartitionsToTxn
// v3 or lower, retried on CONCURRENT_TRANSACTIONS and coordinator moves)
// until none is pending or the transaction can no longer use them, then
// closes done. A failure makes the transaction abortable (or the producer
// fatal). It is never cancelled by Abort, which waits for it: an
// AddPartitionsToTxn still on its way after EndTxn would open a new
// transaction.
func (t *Producer) register(done chan struct{}) {
	defer close(done)
	for {
		t.mu.Lock()
		if len(t.pending) == 0 || (t.st != stInTxn && t.st != stCommitting) || t.abortErr != nil || t.fatalErr != nil {
			t.regDone = nil
			t.mu.Unlock()
			return
		}
		batch := make([]tp, 0, len(t.pending))
		for k := range t.pending {
			batch = append(batch, k)
		}
		req := &wire.AddPartitionsToTxnRequest{TransactionalID: t.cfg.TransactionalID, ProducerID: t.pid, ProducerEpoch: t.epoch,
			Topics: groupTopics(batch), VersionCap: 3}
		t.mu.Unlock()
		ctx, cancel := context.WithTimeout(t.life, t.cfg.TransactionTimeout)
		_, err := t.coordCall(ctx, client.CoordinatorTransaction, t.cfg.TransactionalID, req, addPartitionsErr, true)
		cancel()
		t.mu.Lock()
		if err != nil {
			t.failLocked(classifyAny(err))
			t.regDone = nil
			t.mu.Unlock()
			t.hooks.Wake()
			return
		}
		for _, k := range batch {
			delete(t.pending, k)
			t.registered[k] = struct{}{}
		}
		t.started = true
		t.mu.Unlock()
		t.hooks.Wake()
	}
}

// groupTopics turns partitions into AddPartitionsToTxn topics, sorted.
func groupTopics(ps []tp) []wire.AddPartitionsToTxnTopic {
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].topic != ps[j].topic {
			return ps[i].topic < ps[j].topic
		}
		return ps[i].partition < ps[j].partition
	})
	var out []wire.AddPartitionsToTxnTopic
	for _, p := range ps {
		if n := len(out); n == 0 || out[n-1].Name != p.topic {
			out = append(out, wire.AddPartitionsToTxnTopic{Name: p.topic})
		}
		last := &out[len(out)-1]
		last.Partitions = append(last.Partitions, p.partition)
	}
	return out
}

// waitRegistration waits until no registration goroutine runs.
func (t *Producer) waitRegistration(ctx context.Context) error {
	t.mu.Lock()
	done := t.regDone
	t.mu.Unlock()
	if done == nil {
		return nil
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctxErr(ctx)
	}
}

// onFailed implements txnhook.Hooks.Failed: a record of the transaction
// failed for good, so the transaction cannot commit.
func (t *Producer) onFailed(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.st == stInTxn || t.st == stCommitting {
		t.failLocked(classifyAny(err))
	}
}

// failLocked records a transaction failure of class ErrAbortable or
// ErrFatal (the first of each is kept). Called with t.mu held.
func (t *Producer) failLocked(err error) {
	if t.doom != nil {
		t.doom()
	}
	if errors.Is(err, ErrFatal) {
		if t.fatalErr == nil {
			t.fatalErr = err
		}
		t.st = stFatal
		return
	}
	if errors.Is(err, wire.ErrInvalidProducerEpoch) {
		t.bump = true
	}
	if t.abortErr == nil {
		t.abortErr = err
	}
}

// classifyAny is classify for any failure: broker errors by their class,
// everything else (timeouts, transport) abortable.
func classifyAny(err error) error {
	if errors.Is(err, ErrUnsupported) {
		return join(ErrFatal, err)
	}
	return classify(err)
}
