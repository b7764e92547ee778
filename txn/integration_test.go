package txn

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
)

// TestIntegrationTransactionVisibility (the seed lab's transactionVisibility)
// on the real broker, with transactions v1 and v2: an aborted record is
// never visible to read_committed (but is to read_uncommitted); an open
// transaction holds back a later plain record until it commits.
func TestIntegrationTransactionVisibility(t *testing.T) {
	integrationVersions(t, func(t *testing.T, version int) {
		e := newEnv(t)
		topic := e.topic("txn-vis", 1)
		p := e.txnProducer(kafkatest.UniqueName(t, "tid"), version)

		must(t, p.Begin())
		e.send(p, topic, 0, "aborted")
		must(t, p.Abort(e.ctx))
		must(t, p.Begin())
		e.send(p, topic, 0, "committed")
		must(t, p.Commit(e.ctx))

		must(t, p.Begin())
		open := e.send(p, topic, 0, "open")
		plain, err := producer.New(e.cl, producer.Config{Linger: -1})
		must(t, err)
		defer plain.Close(context.Background())
		d, err := plain.Send(e.ctx, &producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: []byte("plain")})
		must(t, err)
		pr, err := d.Wait(e.ctx)
		if err != nil || pr.Err != nil {
			t.Fatalf("plain record: %v %v", err, pr.Err)
		}
		// The last stable offset stops at the open transaction's first record.
		if got := e.read(topic, 0, consumer.ReadCommitted, open.Offset); !slices.Equal(got, []string{"committed"}) {
			t.Fatalf("read_committed with a transaction open: %q, want only \"committed\" (the open transaction holds back the plain record)", got)
		}
		must(t, p.Commit(e.ctx))
		if got := e.read(topic, 0, consumer.ReadCommitted, pr.Offset+1); !slices.Equal(got, []string{"committed", "open", "plain"}) {
			t.Fatalf("read_committed: %q, want committed, open, plain", got)
		}
		if got := e.read(topic, 0, consumer.ReadUncommitted, pr.Offset+1); !slices.Equal(got, []string{"aborted", "committed", "open", "plain"}) {
			t.Fatalf("read_uncommitted: %q, want the aborted record too", got)
		}
	})
}

// TestIntegrationEOSOffsets (the seed lab's eosOffsets): aborting "output +
// offsets" moves no offset and shows no output; committing moves the offset
// to 2 and shows one output record.
func TestIntegrationEOSOffsets(t *testing.T) {
	integrationVersions(t, func(t *testing.T, version int) {
		e := newEnv(t)
		in, out := e.topic("txn-eos-in", 1), e.topic("txn-eos-out", 1)
		group := kafkatest.UniqueName(t, "eos-group")
		p := e.txnProducer(kafkatest.UniqueName(t, "tid"), version)
		gm := consumer.GroupMetadata{GroupID: group, GenerationID: -1}
		offsets := []Offset{{Topic: in, Partition: 0, Offset: 2}}

		must(t, p.Begin())
		aborted := e.send(p, out, 0, "out-aborted")
		must(t, p.SendOffsets(e.ctx, offsets, gm))
		must(t, p.Abort(e.ctx))
		if got := e.committedOffset(group, in, 0); got != -1 {
			t.Fatalf("after abort the committed offset is %d, want none (-1)", got)
		}
		if got := e.read(out, 0, consumer.ReadCommitted, aborted.Offset+2); len(got) != 0 {
			t.Fatalf("after abort read_committed shows %q", got)
		}

		must(t, p.Begin())
		ok := e.send(p, out, 0, "out-committed")
		must(t, p.SendOffsets(e.ctx, offsets, gm))
		must(t, p.Commit(e.ctx))
		if got := e.committedOffset(group, in, 0); got != 2 {
			t.Fatalf("after commit the committed offset is %d, want 2", got)
		}
		if got := e.read(out, 0, consumer.ReadCommitted, ok.Offset+1); !slices.Equal(got, []string{"out-committed"}) {
			t.Fatalf("after commit read_committed shows %q, want one output", got)
		}
	})
}

// TestIntegrationProducerFencing (the seed lab's producerFencing): two
// producers with one transactional ID; the second's InitTransactions fences
// the first, whose open transaction is aborted and whose end fails with
// ErrFenced (at Commit, or at the Abort an abortable Commit calls for);
// only the second's writes are visible.
func TestIntegrationProducerFencing(t *testing.T) {
	integrationVersions(t, func(t *testing.T, version int) {
		e := newEnv(t)
		topic := e.topic("txn-fence", 1)
		id := kafkatest.UniqueName(t, "tid")
		old := e.txnProducer(id, version)
		must(t, old.Begin())
		e.send(old, topic, 0, "old")

		newer := e.txnProducer(id, version) // fences old, aborts its transaction
		must(t, newer.Begin())
		nr := e.send(newer, topic, 0, "new")
		must(t, newer.Commit(e.ctx))

		// The old producer's next write and its commit fail fenced.
		d, err := old.Send(e.ctx, &producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: []byte("old-2")})
		if err == nil {
			r, _ := d.Wait(e.ctx)
			if r.Err == nil {
				t.Fatal("the fenced producer's record was acknowledged")
			}
		}
		// Commit fails fenced (EndTxn: PRODUCER_FENCED), or abortable when
		// the record failed INVALID_PRODUCER_EPOCH first (KIP-588): then
		// Abort's re-initialisation finds the producer fenced.
		err = old.Commit(e.ctx)
		if errors.Is(err, ErrAbortable) {
			t.Logf("Commit: %v", err)
			err = old.Abort(e.ctx)
		}
		if !errors.Is(err, ErrFenced) || !errors.Is(err, ErrFatal) {
			t.Fatalf("the fenced producer's Commit/Abort: %v, want ErrFenced", err)
		}
		if err := old.Begin(); !errors.Is(err, ErrFenced) {
			t.Fatalf("Begin after fencing: %v, want ErrFenced", err)
		}
		if got := e.read(topic, 0, consumer.ReadCommitted, nr.Offset+1); !slices.Equal(got, []string{"new"}) {
			t.Fatalf("read_committed: %q, want only the new producer's record", got)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := old.Close(ctx); err != nil {
			t.Fatalf("Close of the fenced producer: %v", err)
		}
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestIntegrationAbortAfterDeadline (issue 36) on the real broker, v1 and
// v2: Abort called with its ctx already ended (the adapter's abort after a
// command's deadline) once the transaction wrote a record returns a
// retriable error and completes in the background; Begin opens the next
// transaction at once (99dfb6c: "Begin inside a transaction" or
// "InitTransactions needed"), which commits; read_committed shows only its
// record.
func TestIntegrationAbortAfterDeadline(t *testing.T) {
	integrationVersions(t, func(t *testing.T, version int) {
		e := newEnv(t)
		topic := e.topic("txn-abort-late", 1)
		p := e.txnProducer(kafkatest.UniqueName(t, "tid"), version)
		must(t, p.Begin())
		e.send(p, topic, 0, "aborted")
		ended, cancel := context.WithCancel(e.ctx)
		cancel()
		if err := p.Abort(ended); err != nil && (errors.Is(err, ErrFatal) || errors.Is(err, ErrAbortable) || errors.Is(err, ErrNeedsInit)) {
			t.Fatalf("Abort with its ctx ended: %v, want nil or a retriable error", err)
		}
		if version == 1 {
			must(t, p.Abort(e.ctx)) // again: the same abort's result, once it ended
		}
		must(t, p.Begin())
		next := e.send(p, topic, 0, "next")
		must(t, p.Commit(e.ctx))
		if got := e.read(topic, 0, consumer.ReadCommitted, next.Offset+1); !slices.Equal(got, []string{"next"}) {
			t.Fatalf("read_committed: %q, want only the next transaction's record", got)
		}
		if got := e.read(topic, 0, consumer.ReadUncommitted, next.Offset+1); !slices.Equal(got, []string{"aborted", "next"}) {
			t.Fatalf("read_uncommitted: %q, want the aborted record, then the next", got)
		}
	})
}
