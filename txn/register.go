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
	if (t.st != stInTxn && t.st != stCommitting) || t.abortErr != nil || t.fatalErr != nil || t.end != nil || !t.haveID {
		return false // the previous transaction's end still runs (it wakes the producer)
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
		if t.reg == nil {
			t.reg = &registration{done: make(chan struct{})}
			go t.register(t.reg, t.gen)
		}
	}
	return false
}

// registration is one run of the registration goroutine of transaction
// number gen (Producer.gen).
type registration struct {
	done  chan struct{} // closed when the goroutine ends
	added bool          // a partition was added to the transaction (t.mu)
}

// register adds the pending partitions of transaction number gen to it
// (AddPartitionsToTxn v3 or lower, retried on CONCURRENT_TRANSACTIONS and
// coordinator moves) until none is pending or the transaction can no longer
// use them, then closes r.done. A failure makes the transaction abortable
// (or the producer fatal). It is never cancelled by Abort, whose end waits
// for it: an AddPartitionsToTxn still on its way after EndTxn would open a
// new transaction. Once a later transaction began it only records in r
// whether it added a partition (for the earlier transaction's end).
func (t *Producer) register(r *registration, gen uint64) {
	defer close(r.done)
	for {
		t.mu.Lock()
		if t.gen != gen || len(t.pending) == 0 || (t.st != stInTxn && t.st != stCommitting) || t.abortErr != nil || t.fatalErr != nil {
			if t.reg == r {
				t.reg = nil
			}
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
		current := t.gen == gen
		switch {
		case err != nil && current:
			t.failLocked(classifyAny(err))
		case err == nil:
			r.added = true
			if current {
				for _, k := range batch {
					delete(t.pending, k)
					t.registered[k] = struct{}{}
				}
				t.started = true
			}
		}
		if err != nil || !current {
			if t.reg == r {
				t.reg = nil
			}
			t.mu.Unlock()
			t.hooks.Wake()
			return
		}
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

// waitRegistration waits until r (nil: none) ended.
func waitRegistration(ctx context.Context, r *registration) error {
	if r == nil {
		return nil
	}
	select {
	case <-r.done:
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
		t.failLocked(classifyRecord(err))
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
	if needsReinit(err) {
		t.bump = true
	}
	if t.abortErr == nil {
		t.abortErr = err
	}
}

// classifyRecord classifies a record's failure as Java's TransactionManager
// does (maybeTransitionToErrorState): fencing, the authorisation of the
// cluster or of the transactional ID and an unsupported version are fatal;
// every other Produce error only dooms the transaction (ErrAbortable), among
// them INVALID_TXN_STATE, which a partition's transaction verification
// answers for a write it cannot match to an ongoing transaction (KIP-890),
// and INVALID_PRODUCER_ID_MAPPING.
func classifyRecord(err error) error {
	switch {
	case fenced(err):
		return join(ErrFenced, err)
	case errors.Is(err, wire.ErrTransactionalIDAuthorizationFailed), errors.Is(err, wire.ErrClusterAuthorizationFailed),
		errors.Is(err, wire.ErrUnsupportedVersion), errors.Is(err, ErrUnsupported):
		return join(ErrFatal, err)
	}
	return join(ErrAbortable, err)
}

// needsReinit reports the errors after which the coordinator no longer takes
// the producer's ID and epoch for this transaction, or holds it in a state
// the producer did not expect, so that only a re-initialisation with them
// (InitProducerId, KIP-360/KIP-588) ends it: INVALID_PRODUCER_EPOCH,
// INVALID_PRODUCER_ID_MAPPING, UNKNOWN_PRODUCER_ID, INVALID_TXN_STATE. The
// re-initialisation answers PRODUCER_FENCED if another producer did take
// over: such an error is no fence by itself.
func needsReinit(err error) bool {
	return errors.Is(err, wire.ErrInvalidProducerEpoch) || errors.Is(err, wire.ErrInvalidProducerIDMapping) ||
		errors.Is(err, wire.ErrUnknownProducerID) || errors.Is(err, wire.ErrInvalidTxnState)
}

// classifyAny is classify for any failure: broker errors by their class
// (needsReinit ones abortable), everything else (timeouts, transport)
// abortable.
func classifyAny(err error) error {
	switch {
	case errors.Is(err, ErrUnsupported):
		return join(ErrFatal, err)
	case needsReinit(err):
		return join(ErrAbortable, err)
	}
	return classify(err)
}
