package txn

import (
	"testing"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
)

// TestIntegrationReinitAfterLostEndTxn pins, on the real broker with
// transactions v1 and v2, the re-initialisation Commit does when EndTxn's
// outcome is unknown (initPID with the producer's ID and pre-EndTxn epoch,
// KIP-360): whether the EndTxn never arrived (the transaction is still
// ongoing: the coordinator aborts it) or completed with its answer lost (v2
// bumped the epoch already: the coordinator takes the request as a retry),
// the coordinator gives the producer a usable epoch and does not answer
// PRODUCER_FENCED. (A transactional producer in the soak was fenced once
// after EndTxn timeouts; neither single-bump case reproduces it.)
func TestIntegrationReinitAfterLostEndTxn(t *testing.T) {
	versions(t, func(t *testing.T, version int) {
		e := newEnv(t)
		topic := e.topic("txn-reinit", 1)
		for _, arrived := range []bool{false, true} {
			p := e.txnProducer(kafkatest.UniqueName(t, "tid"), version)
			must(t, p.Begin())
			e.send(p, topic, 0, "x")
			p.mu.Lock()
			pid, epoch := p.pid, p.epoch
			p.mu.Unlock()
			if arrived {
				must(t, p.Commit(e.ctx))
				p.mu.Lock()
				p.pid, p.epoch = pid, epoch // the answer (a v2 epoch bump) was lost
				p.mu.Unlock()
			}
			if err := p.initPID(e.ctx); err != nil {
				t.Fatalf("EndTxn arrived %v: re-initialising with epoch %d: %v", arrived, epoch, err)
			}
			p.mu.Lock()
			got := p.epoch
			p.mu.Unlock()
			if got <= epoch {
				t.Fatalf("EndTxn arrived %v: epoch %d after re-initialising from %d, want a newer one", arrived, got, epoch)
			}
			// The producer works at its new epoch.
			must(t, p.Begin())
			e.send(p, topic, 0, "y")
			must(t, p.Commit(e.ctx))
		}
	})
}
