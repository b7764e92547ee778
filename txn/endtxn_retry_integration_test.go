package txn

import (
	"errors"
	"testing"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/wire"
)

// TestIntegrationEndTxnRetriedAfterLostAnswer pins, on the real broker with
// transactions v1 and v2, what Commit and Abort rely on when an EndTxn's
// answer is lost: re-sending the same EndTxn (same ID, epoch and result)
// after the coordinator completed it is answered without error — with v2
// by the epoch the coordinator bumped to, which the producer adopts — and
// the producer goes on. With v2 it also pins why a Commit whose EndTxn may
// have taken effect must not be followed by an abort under the old epoch:
// the coordinator answers INVALID_TXN_STATE (the soak's producer-fatal
// error).
func TestIntegrationEndTxnRetriedAfterLostAnswer(t *testing.T) {
	integrationVersions(t, func(t *testing.T, version int) {
		e := newEnv(t)
		topic := e.topic("txn-endretry", 1)
		p := e.txnProducer(kafkatest.UniqueName(t, "tid"), version)
		v2 := version == 2
		for _, commit := range []bool{true, false} {
			if !commit && !v2 {
				continue // a v1 abort re-initialises after EndTxn, bumping the epoch
			}
			must(t, p.Begin())
			e.send(p, topic, 0, "x")
			pid, epoch := p.identity()
			if commit {
				must(t, p.Commit(e.ctx))
			} else {
				must(t, p.Abort(e.ctx))
			}
			_, now := p.identity()
			// The answer was lost: the same EndTxn again.
			resp, err := p.endTxnRetry(e.ctx, p.newEnding(commit, pid, epoch, v2))
			if err != nil {
				t.Fatalf("commit %v: EndTxn re-sent with epoch %d after it completed: %v", commit, epoch, err)
			}
			r := resp.(*wire.EndTxnResponse)
			if v2 && (r.ProducerID != pid || r.ProducerEpoch != now || now != epoch+1) {
				t.Fatalf("commit %v: retry answered %d/%d, want the bumped %d/%d (and %d = %d+1)", commit, r.ProducerID, r.ProducerEpoch, pid, now, now, epoch)
			}
			if v2 && commit {
				_, err := p.endTxnRetry(e.ctx, p.newEnding(false, pid, epoch, v2))
				if !errors.Is(err, wire.ErrInvalidTxnState) {
					t.Fatalf("EndTxn(abort) with the pre-commit epoch after the commit: %v, want INVALID_TXN_STATE", err)
				}
			}
			// The producer works on.
			must(t, p.Begin())
			e.send(p, topic, 0, "y")
			must(t, p.Commit(e.ctx))
		}
	})
}
