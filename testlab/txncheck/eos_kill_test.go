package txncheck

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/testlab/internal/labtest"
	"github.com/gregor-kafka/gregor/txn"
	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestExactlyOnceUnderKills starts its own 1+3 cluster (RF 3, min ISR 2)
// and runs a consume-transform-produce copy job (gregor's read_committed
// consumer, gregor's transactional producer with SendOffsets) of N input
// records while the transaction coordinator's broker and then the output
// partition's leader are SIGKILLed and restarted. Aborted or unknown
// transactions rewind the job to the committed input offset. An
// independent franz-go read_committed reader then finds every input
// exactly once in the output, and the committed input offset is N. Runs
// with transactions v2 and v1 (forced) on transaction.version 2, then with
// the cluster downgraded to transaction.version 1 (v1 chosen by the
// producer itself).
func TestExactlyOnceUnderKills(t *testing.T) {
	ctx, cluster, b := labtest.ThreeBrokers(t, 15*time.Minute)
	for _, tc := range []struct {
		name    string
		version int
		tv      string
	}{{"tv2-v2", 0, "2"}, {"tv2-v1", 1, "2"}, {"tv1-auto", 0, "1"}} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.tv == "1" {
				downgradeTV(ctx, t, cluster)
			}
			eosRun(ctx, t, cluster, b.For(t), tc.version)
		})
	}
}

// downgradeTV finalizes transaction.version 1 (FeatureCommand) and waits
// until the brokers report it.
func downgradeTV(ctx context.Context, t *testing.T, cluster *kafkatest.Cluster) {
	t.Helper()
	boot := strings.Join(cluster.Bootstrap(kafkatest.Plaintext), ",")
	if out, err := cluster.RunTool(ctx, "org.apache.kafka.tools.FeatureCommand", "--bootstrap-server", boot,
		"downgrade", "--feature", "transaction.version=1"); err != nil {
		t.Fatalf("FeatureCommand downgrade transaction.version=1: %v\n%s", err, out)
	}
	for {
		f, err := cluster.Features(ctx)
		if err == nil && f["transaction.version"] == "1" {
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("transaction.version stays %q: %v", f["transaction.version"], err)
		}
		time.Sleep(200 * time.Millisecond) // polling interval of a condition wait
	}
}

func eosRun(ctx context.Context, t *testing.T, cluster *kafkatest.Cluster, b *labtest.Bed, version int) {
	const n = int64(600)
	minISR := "2"
	cfg := map[string]*string{"min.insync.replicas": &minISR}
	in, out := b.Topic(ctx, "eos-in", 1, 3, cfg), b.Topic(ctx, "eos-out", 1, 3, cfg)
	group, tid := kafkatest.UniqueName(t, "eos-group"), kafkatest.UniqueName(t, "eos-tid")
	cl := b.Client(ctx, client.Config{RetryBackoff: 50 * time.Millisecond, RetryBackoffMax: 500 * time.Millisecond, RequestTimeout: 10 * time.Second})

	// Input: n records, value "in-<i>".
	var inRecs []*kgo.Record
	for i := range n {
		inRecs = append(inRecs, &kgo.Record{Topic: in, Partition: 0, Value: []byte(fmt.Sprintf("in-%d", i))})
	}
	if err := b.Kcl.ProduceSync(ctx, inRecs...).FirstErr(); err != nil {
		t.Fatal(err)
	}

	// The job copies up to limit; each outage is entered with the job
	// held at a limit and raised while the broker is down, so every outage
	// has transactions running through it (under load a restart can take
	// longer than the whole copy).
	var committed, limit atomic.Int64
	limit.Store(n / 5)
	jobErr := make(chan error, 1)
	jobCtx, stopJob := context.WithCancel(ctx)
	defer stopJob()
	go func() { jobErr <- copyJob(jobCtx, t, cl, in, out, group, tid, version, int(n), &committed, &limit) }()

	waitProgress := func(target int64) {
		t.Helper()
		for committed.Load() < target {
			select {
			case err := <-jobErr:
				if err == nil && committed.Load() >= target {
					jobErr <- nil // done: the final check reads it again
					return
				}
				t.Fatalf("copy job ended at %d/%d: %v", committed.Load(), n, err)
			case <-ctx.Done():
				t.Fatalf("copy job stuck at %d/%d", committed.Load(), n)
			case <-time.After(50 * time.Millisecond): // polling interval of a condition wait
			}
		}
	}
	killRestart := func(what string, id int32, upTo int64) {
		t.Helper()
		t.Logf("SIGKILL broker %d (%s) at %d/%d committed", id, what, committed.Load(), n)
		if err := cluster.KillBroker(ctx, id); err != nil {
			t.Fatal(err)
		}
		limit.Store(upTo)
		waitProgress(upTo) // the job goes on while the broker is down
		if err := cluster.RestartBroker(ctx, id); err != nil {
			t.Fatal(err)
		}
		t.Logf("broker %d restarted at %d/%d", id, committed.Load(), n)
	}
	waitProgress(n / 5)
	coord, err := cl.Coordinator(ctx, client.CoordinatorTransaction, tid)
	if err != nil {
		t.Fatal(err)
	}
	killRestart("transaction coordinator", coord, n/2)
	leader, _, err := cl.Leader(ctx, out, 0)
	if err != nil {
		t.Fatal(err)
	}
	killRestart("leader of the output partition", leader, 4*n/5)
	limit.Store(n)
	waitProgress(n)
	stopJob()
	if err := <-jobErr; err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("copy job: %v", err)
	}

	// The independent check: franz-go read_committed, kadm offsets.
	got := readFranz(t, b, out, kgo.ReadCommitted(), int(n))
	seen := map[string]int{}
	for _, v := range got {
		seen[v]++
	}
	for i := range n {
		if c := seen[fmt.Sprintf("out-in-%d", i)]; c != 1 {
			t.Errorf("input %d appears %d times in the committed output", i, c)
		}
	}
	if int64(len(got)) != n {
		t.Errorf("committed output has %d records, want %d", len(got), n)
	}
	// The observer's own connections may still point at a broker the test
	// killed (EOF on first use): it retries a transport failure, a few
	// times, before it gives up.
	var offs kadm.OffsetResponses
	for try := 0; ; try++ {
		offs, err = b.Adm.FetchOffsets(ctx, group)
		if err == nil || try == 5 || ctx.Err() != nil {
			break
		}
		t.Logf("observer FetchOffsets: %v (retrying)", err)
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	if o, ok := offs.Lookup(in, 0); !ok || o.At != n {
		t.Errorf("committed input offset %+v, want %d (every input copied once)", o, n)
	}
}

// copyJob copies in/0 to out/0 in transactions of up to 20 records below
// limit, committing the input offsets with them; it rewinds to the
// committed offset whenever a transaction aborts or its outcome is unknown.
// It stores the committed offset in committed and returns once it reaches
// n.
func copyJob(ctx context.Context, t *testing.T, cl *client.Client, in, out, group, tid string, version, n int, committed, limit *atomic.Int64) error {
	p, err := txn.New(cl, txn.Config{TransactionalID: tid, TransactionVersion: version, TransactionTimeout: 30 * time.Second,
		Producer: producer.Config{Linger: time.Millisecond, DeliveryTimeout: 60 * time.Second, RequestTimeout: 5 * time.Second}})
	if err != nil {
		return err
	}
	defer p.Close(context.Background())
	for err := p.InitTransactions(ctx); err != nil; err = p.InitTransactions(ctx) {
		if ctx.Err() != nil || errors.Is(err, txn.ErrFatal) {
			return err
		}
	}
	c, err := consumer.New(cl, consumer.Config{Isolation: consumer.ReadCommitted, MaxWait: 100 * time.Millisecond})
	if err != nil {
		return err
	}
	defer c.Close(context.Background())
	tp := gregor.TopicPartition{Topic: in, Partition: 0}
	if err := c.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtBeginning()}}); err != nil {
		return err
	}
	gm := consumer.GroupMetadata{GroupID: group, GenerationID: -1}
	var buf []consumer.Record
	pos := int64(0)
	rewind := func(why error) error {
		off, err := committedOffset(ctx, cl, group, in)
		if err != nil {
			return err
		}
		t.Logf("rewinding from %d to committed %d after: %v", pos, off, why)
		pos, buf = off, nil
		committed.Store(off)
		return c.Seek(ctx, tp, consumer.AtOffset(off))
	}
	for committed.Load() < int64(n) {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if len(buf) == 0 {
			rctx, cancel := context.WithTimeout(ctx, time.Second)
			recs, err := c.Receive(rctx)
			cancel()
			if err != nil && ctx.Err() == nil && !errors.Is(err, context.DeadlineExceeded) {
				t.Logf("Receive: %v", err)
			}
			buf = recs
			continue
		}
		take := 0
		for take < min(20, len(buf)) && buf[take].Offset < limit.Load() {
			take++
		}
		if take == 0 {
			time.Sleep(20 * time.Millisecond) // held at the limit: polling interval
			continue
		}
		batch := buf[:take]
		buf = buf[take:]
		if err := p.Begin(); err != nil {
			return fmt.Errorf("Begin: %w", err)
		}
		var sendErr error
		for _, r := range batch {
			if _, err := p.Send(ctx, &producer.Record{Topic: out, Partition: producer.ToPartition(0), Value: append([]byte("out-"), r.Value...)}); err != nil {
				sendErr = err
				break
			}
		}
		next := batch[len(batch)-1].Offset + 1
		err := sendErr
		if err == nil {
			err = p.SendOffsets(ctx, []txn.Offset{{Topic: in, Partition: 0, Offset: next}}, gm)
		}
		if err == nil {
			err = p.Commit(ctx)
		}
		switch {
		case err == nil:
			pos = next
			committed.Store(next)
			continue
		case errors.Is(err, txn.ErrFatal):
			return err
		case errors.Is(err, txn.ErrCommitOutcomeUnknown):
			if errors.Is(err, txn.ErrNeedsInit) {
				for ierr := p.InitTransactions(ctx); ierr != nil; ierr = p.InitTransactions(ctx) {
					if ctx.Err() != nil || errors.Is(ierr, txn.ErrFatal) {
						return ierr
					}
				}
			}
		default:
			for aerr := p.Abort(ctx); aerr != nil; aerr = p.Abort(ctx) {
				if ctx.Err() != nil || errors.Is(aerr, txn.ErrFatal) {
					return aerr
				}
				if errors.Is(aerr, txn.ErrNeedsInit) {
					if ierr := p.InitTransactions(ctx); ierr == nil {
						break
					}
				}
			}
		}
		if err := rewind(err); err != nil {
			return err
		}
	}
	return nil
}

// committedOffset is group's committed offset of topic/0 (0 when none),
// read with OffsetFetch RequireStable through cl.
func committedOffset(ctx context.Context, cl *client.Client, group, topic string) (int64, error) {
	for {
		id, err := cl.Coordinator(ctx, client.CoordinatorGroup, group)
		if err == nil {
			var r wire.Response
			r, err = cl.RequestVersion(ctx, id, &wire.OffsetFetchRequest{GroupID: group, RequireStable: true,
				Topics: []wire.OffsetFetchRequestTopic{{Name: topic, PartitionIndexes: []int32{0}}}}, 7)
			if err == nil {
				resp := r.(*wire.OffsetFetchResponse)
				err = wire.ErrorForCode(resp.ErrorCode)
				if err == nil {
					p := resp.Topics[0].Partitions[0]
					if err = wire.ErrorForCode(p.ErrorCode); err == nil {
						return max(p.CommittedOffset, 0), nil
					}
				}
				if errors.Is(err, wire.ErrNotCoordinator) || errors.Is(err, wire.ErrCoordinatorNotAvailable) {
					cl.InvalidateCoordinator(client.CoordinatorGroup, group)
				}
			}
		}
		if ctx.Err() != nil {
			return 0, err
		}
		time.Sleep(100 * time.Millisecond) // retry backoff (coordinator moving, UNSTABLE_OFFSET_COMMIT)
	}
}
