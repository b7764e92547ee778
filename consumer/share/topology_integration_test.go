package share

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

// The share consumer's part of the topology-change suite (issue 36; the
// table in INTERNALS.md, "Topology changes"), on the shared broker.

// create creates the bed's topic with parts partitions, retrying while a
// deletion of it is still under way, and waits until every broker's
// metadata shows it.
func (b *bed) create(ctx context.Context, t *testing.T, parts int32) {
	t.Helper()
	for {
		res, err := admin.New(b.cl, admin.Config{}).CreateTopics(ctx, []admin.NewTopic{{Name: b.topic, Partitions: parts, ReplicationFactor: 1}}, admin.TopicOptions{WaitVisible: true})
		if err == nil {
			err = res[0].Err
		}
		if err == nil {
			return
		}
		if !errors.Is(err, wire.ErrTopicAlreadyExists) || ctx.Err() != nil {
			t.Fatalf("CreateTopics: %v", err)
		}
		time.Sleep(50 * time.Millisecond) // the deletion is still under way: ask again
	}
}

// remake deletes the bed's topic and, when parts > 0, creates it again
// with parts partitions (a new topic ID); both wait until every broker's
// metadata shows the change.
func (b *bed) remake(ctx context.Context, t *testing.T, parts int32) {
	t.Helper()
	adm := admin.New(b.cl, admin.Config{})
	res, err := adm.DeleteTopics(ctx, []admin.TopicRef{{Name: b.topic}}, admin.TopicOptions{WaitVisible: true})
	if err == nil {
		err = res[0].Err
	}
	if err != nil {
		t.Fatalf("DeleteTopics: %v", err)
	}
	if parts > 0 {
		b.create(ctx, t, parts)
	}
}

// produceNew writes n records "new-<i>" round-robin over parts partitions.
func (b *bed) produceNew(ctx context.Context, t *testing.T, n int, parts int32) {
	t.Helper()
	p, err := producer.New(b.cl, producer.Config{Linger: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(ctx)
	for i := range n {
		r, err := p.Produce(ctx, producer.Record{Topic: b.topic, Partition: producer.ToPartition(int32(i) % parts), Value: fmt.Appendf(nil, "new-%d", i)})
		if err == nil {
			err = r.Err
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// receiveNew receives until want records "new-..." arrived (older ones are
// skipped) and returns their values, sorted.
func receiveNew(ctx context.Context, t *testing.T, c *Consumer, want int) []string {
	t.Helper()
	var out []string
	for len(out) < want {
		rctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		recs, err := c.Receive(rctx)
		cancel()
		if err != nil {
			t.Fatalf("Receive after %d of %d new records: %v", len(out), want, err)
		}
		for _, r := range recs {
			if strings.HasPrefix(string(r.Value), "new-") {
				out = append(out, string(r.Value))
			}
		}
	}
	slices.Sort(out)
	return out
}

func newValues(n int) []string {
	out := make([]string, n)
	for i := range n {
		out[i] = fmt.Sprintf("new-%d", i)
	}
	slices.Sort(out)
	return out
}

// TestTopologyShare: a share consumer that read 10 records of a
// two-partition topic, then the topic changes.
func TestTopologyShare(t *testing.T) {
	{
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if !newBed(ctx, t, 1).shareGroups(ctx, t) {
			return
		}
	}
	setup := func(t *testing.T) (context.Context, *bed, *Consumer) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		t.Cleanup(cancel)
		cluster := kafkatest.Shared(t)
		cl, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cl.Close(context.Background()) })
		b := &bed{cluster: cluster, cl: cl, topic: kafkatest.UniqueName(t, "share-topo")}
		b.create(ctx, t, 2)
		g := b.newGroup(ctx, t)
		b.produce(ctx, t, 10, 2)
		c := b.consumer(t, Config{GroupID: g})
		receiveN(ctx, t, c, 10)
		return ctx, b, c
	}

	// Deleted: Receive delivers nothing and returns by the caller's
	// deadline: the deadline's error, or the broker's answer to a ShareFetch
	// still naming the deleted topic (Kafka 4.4 answers UNKNOWN_SERVER_ERROR
	// until the assignment drops it), a *wire.KafkaError; the consumer goes
	// on, and Close returns promptly (reporting the failed
	// acknowledgements of the deleted topic's records, if any).
	t.Run("deleted", func(t *testing.T) {
		ctx, b, c := setup(t)
		b.remake(ctx, t, 0)
		for range 3 {
			start := time.Now()
			rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			recs, err := c.Receive(rctx)
			cancel()
			var ke *wire.KafkaError
			if len(recs) > 0 || !errors.Is(err, client.ErrTimeout) && !errors.As(err, &ke) {
				t.Fatalf("Receive after the deletion: %d records, %v; want none and the deadline or a broker error", len(recs), err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Fatalf("Receive with a 2s deadline returned after %v", d)
			}
		}
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		// Acknowledgements of the deleted topic's records fail (the broker
		// answers them UNKNOWN_SERVER_ERROR): Close says so, in time.
		var ke *wire.KafkaError
		if err := c.Close(cctx); err != nil && !errors.As(err, &ke) || cctx.Err() != nil {
			t.Fatalf("Close after the deletion: %v (context: %v)", err, cctx.Err())
		}
	})

	// Recreated with more or fewer partitions: the share group starts the
	// new topic's partitions anew (share.auto.offset.reset, earliest here)
	// and every record of the new topic is delivered.
	for _, parts := range []int32{3, 1} {
		t.Run(fmt.Sprintf("recreated-%d-partitions", parts), func(t *testing.T) {
			ctx, b, c := setup(t)
			b.remake(ctx, t, parts)
			n := 5 * int(parts)
			b.produceNew(ctx, t, n, parts)
			if got, want := receiveNew(ctx, t, c, n), newValues(n); !slices.Equal(got, want) {
				t.Fatalf("new topic's records %v, want %v", got, want)
			}
		})
	}

	// Partitions added: the new partition is assigned and read.
	t.Run("partitions-added", func(t *testing.T) {
		ctx, b, c := setup(t)
		res, err := admin.New(b.cl, admin.Config{}).CreatePartitions(ctx, []admin.PartitionsIncrease{{Topic: b.topic, TotalCount: 3}}, admin.TopicOptions{WaitVisible: true})
		if err == nil {
			err = res[0].Err
		}
		if err != nil {
			t.Fatal(err)
		}
		b.produceNew(ctx, t, 3, 3)
		if got, want := receiveNew(ctx, t, c, 3), newValues(3); !slices.Equal(got, want) {
			t.Fatalf("records %v, want %v", got, want)
		}
	})
}
