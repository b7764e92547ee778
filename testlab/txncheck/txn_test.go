package txncheck

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/testlab/internal/labtest"
	"github.com/gregor-kafka/gregor/txn"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestCommittedAbortedSeenByFranz: gregor's transactional producer aborts
// one transaction (records and offsets) and commits the next, with
// transactions v1 and v2; franz-go reading read_committed sees exactly the
// committed records, read_uncommitted sees both transactions' records, and
// kadm finds the committed transaction's offset (not the aborted one's).
func TestCommittedAbortedSeenByFranz(t *testing.T) {
	bed := labtest.Shared(t)
	for _, version := range []int{1, 2} {
		t.Run(fmt.Sprintf("v%d", version), func(t *testing.T) {
			b := bed.For(t)
			ctx := labtest.Ctx(t, 90*time.Second)
			out := b.Topic(ctx, "txn-out", 2, 1, nil)
			in := b.Topic(ctx, "txn-in", 1, 1, nil)
			group := kafkatest.UniqueName(t, "txn-group")
			cl := b.Client(ctx, client.Config{})
			p, err := txn.New(cl, txn.Config{TransactionalID: kafkatest.UniqueName(t, "tid"), TransactionVersion: version,
				Producer: producer.Config{Linger: -1}})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close(labtest.Ctx(t, 10*time.Second))
			if err := p.InitTransactions(ctx); err != nil {
				t.Fatal(err)
			}
			gm := consumer.GroupMetadata{GroupID: group, GenerationID: -1}
			run := func(values []string, offset int64, commit bool) {
				t.Helper()
				if err := p.Begin(); err != nil {
					t.Fatal(err)
				}
				for i, v := range values {
					d, err := p.Send(ctx, &producer.Record{Topic: out, Partition: producer.ToPartition(int32(i % 2)), Value: []byte(v)})
					if err != nil {
						t.Fatal(err)
					}
					if r, err := d.Wait(ctx); err != nil || r.Err != nil {
						t.Fatalf("%s: %v %v", v, err, r.Err)
					}
				}
				if err := p.SendOffsets(ctx, []txn.Offset{{Topic: in, Partition: 0, Offset: offset}}, gm); err != nil {
					t.Fatal(err)
				}
				if commit {
					err = p.Commit(ctx)
				} else {
					err = p.Abort(ctx)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			run([]string{"a1", "a2", "a3"}, 7, false)
			run([]string{"c1", "c2", "c3"}, 3, true)

			if got := readFranz(t, b, out, kgo.ReadCommitted(), 3); !slices.Equal(got, []string{"c1", "c2", "c3"}) {
				t.Fatalf("franz-go read_committed: %q, want c1 c2 c3", got)
			}
			if got := readFranz(t, b, out, kgo.ReadUncommitted(), 6); !slices.Equal(got, []string{"a1", "a2", "a3", "c1", "c2", "c3"}) {
				t.Fatalf("franz-go read_uncommitted: %q, want the aborted and the committed records", got)
			}
			offs, err := b.Adm.FetchOffsets(ctx, group)
			if err != nil {
				t.Fatal(err)
			}
			o, ok := offs.Lookup(in, 0)
			if !ok || o.Err != nil || o.At != 3 {
				t.Fatalf("kadm committed offset of %s/0: %+v (found %v), want 3 (the aborted transaction's 7 never committed)", in, o, ok)
			}
		})
	}
}

// readFranz reads topic (both partitions) from the start with franz-go at
// isolation iso until want records arrived, then for a short grace period
// to catch extras (a read_committed reader must never see more); the
// values come back sorted.
func readFranz(t *testing.T, b *labtest.Bed, topic string, iso kgo.IsolationLevel, want int) []string {
	t.Helper()
	kcl, err := kgo.NewClient(kgo.SeedBrokers(b.Boot...), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchIsolationLevel(iso))
	if err != nil {
		t.Fatal(err)
	}
	defer kcl.Close()
	var out []string
	deadline := time.Now().Add(30 * time.Second)
	var grace time.Time
	for time.Now().Before(deadline) {
		if len(out) >= want && grace.IsZero() {
			grace = time.Now().Add(time.Second)
		}
		if !grace.IsZero() && time.Now().After(grace) {
			break
		}
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		fs := kcl.PollFetches(ctx)
		cancel()
		fs.EachRecord(func(r *kgo.Record) { out = append(out, string(r.Value)) })
	}
	slices.Sort(out)
	return out
}
