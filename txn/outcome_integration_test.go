package txn

import (
	"context"
	"github.com/gregor-kafka/gregor"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
)

// txnEvents records TxnOutcomeHook events.
type txnEvents struct {
	mu  sync.Mutex
	evs []client.TxnEvent
}

func (h *txnEvents) OnTxnOutcome(ev client.TxnEvent) {
	h.mu.Lock()
	h.evs = append(h.evs, ev)
	h.mu.Unlock()
}

func (h *txnEvents) events() []client.TxnEvent {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]client.TxnEvent(nil), h.evs...)
}

// TestIntegrationTxnOutcomeHookAndEnd, with transactions v1 and v2 on the
// real broker: a commit and an abort each reach the TxnOutcomeHook once,
// with the transactional ID and the identity they ran under; while a third
// transaction is open, a read_committed consumer's end of partition is the
// last stable offset (below the high watermark) and WaitEnd returns there;
// once it commits, its record is received and the end (past its commit
// marker) is reached again.
func TestIntegrationTxnOutcomeHookAndEnd(t *testing.T) {
	integrationVersions(t, func(t *testing.T, version int) {
		cluster := kafkatest.Shared(t)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		h := &txnEvents{}
		cl, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext), Hooks: []client.Hook{h}})
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close(context.Background())
		e := &env{t: t, ctx: ctx, cl: cl}
		topic := e.topic("txn-hook", 1)
		id := kafkatest.UniqueName(t, "tid")
		p := e.txnProducer(id, version)
		pid, epoch := p.identity()

		must(t, p.Begin())
		e.send(p, topic, 0, "committed")
		must(t, p.Commit(ctx))
		must(t, p.Begin())
		e.send(p, topic, 0, "aborted")
		must(t, p.Abort(ctx))
		evs := h.events()
		if len(evs) != 2 || !evs[0].Committed || evs[0].Err != nil || evs[1].Committed || evs[1].Err != nil {
			t.Fatalf("outcomes after a commit and an abort: %+v", evs)
		}
		for _, ev := range evs {
			if ev.TransactionalID != id || ev.ProducerID != pid {
				t.Errorf("outcome %+v: want transactional ID %s, producer ID %d", ev, id, pid)
			}
		}
		if evs[0].ProducerEpoch != epoch {
			t.Errorf("commit's epoch %d, want %d", evs[0].ProducerEpoch, epoch)
		}

		must(t, p.Begin())
		open := e.send(p, topic, 0, "open")
		c, err := consumer.New(cl, consumer.Config{Isolation: consumer.ReadCommitted})
		must(t, err)
		defer c.Close(context.Background())
		tp := gregor.TopicPartition{Topic: topic, Partition: 0}
		must(t, c.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtBeginning()}}))
		recs, err := c.Receive(ctx)
		if err != nil || len(recs) != 1 || string(recs[0].Value) != "committed" {
			t.Fatalf("Receive: %d records, %v", len(recs), err)
		}
		// The aborted record and the markers advance the position without
		// Receive: the end is reached at the open transaction's first record.
		must(t, c.WaitEnd(ctx, tp))
		pr := c.Progress()[0]
		if pr.End != open.Offset || pr.Position != open.Offset || pr.Lag != 0 {
			t.Fatalf("progress with a transaction open: %+v, want end and position %d (the last stable offset)", pr, open.Offset)
		}
		for _, pm := range cl.Metrics().Partitions {
			if pm.Topic == topic && (pm.LastStableOffset != open.Offset || pm.HighWatermark != open.Offset+1) {
				t.Errorf("snapshot %+v: want LastStableOffset %d, HighWatermark %d", pm, open.Offset, open.Offset+1)
			}
		}

		must(t, p.Commit(ctx))
		if evs := h.events(); len(evs) != 3 || !evs[2].Committed || evs[2].Err != nil {
			t.Fatalf("outcomes after the second commit: %+v", evs)
		}
		recs, err = c.Receive(ctx)
		if err != nil || len(recs) != 1 || string(recs[0].Value) != "open" {
			t.Fatalf("Receive after the commit: %d records, %v", len(recs), err)
		}
		must(t, c.WaitEnd(ctx, tp))
		if pr := c.Progress()[0]; pr.Position <= open.Offset+1 || !pr.AtEnd() {
			t.Fatalf("progress after the committed record: %+v", pr)
		}
	})
}
