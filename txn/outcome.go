package txn

import (
	"context"
	"log/slog"

	"github.com/gregor-kafka/gregor/client"
)

// identity returns the producer ID and epoch the current transaction runs
// under.
func (t *Producer) identity() (int64, int16) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.pid, t.epoch
}

// outcome reports a transaction's end to the client's TxnOutcomeHooks and
// its log (Debug: commits are the steady state; Warn for a failure): a
// commit or an abort (committed), under pid and epoch, with err the failure
// that ended it (nil when the outcome took effect). Called without t.mu.
func (t *Producer) outcome(committed bool, pid int64, epoch int16, err error) {
	t.cl.Hooks().TxnOutcome(client.TxnEvent{TransactionalID: t.cfg.TransactionalID, ProducerID: pid, ProducerEpoch: epoch, Committed: committed, Err: err})
	log := t.cl.Logger()
	if log == nil {
		return
	}
	what := "aborted"
	if committed {
		what = "committed"
	}
	if err != nil {
		log.Warn("gregor: transaction end failed", "transactional_id", t.cfg.TransactionalID, "commit", committed, "producer_id", pid, "epoch", epoch, "reason", err)
		return
	}
	if log.Enabled(context.Background(), slog.LevelDebug) {
		log.Debug("gregor: transaction "+what, "transactional_id", t.cfg.TransactionalID, "producer_id", pid, "epoch", epoch)
	}
}
