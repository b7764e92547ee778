package labtest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/testlab/invariant"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Bed is one test's view of a cluster: the bootstrap addresses of its
// plaintext listener and an independent franz-go client (Kcl, with Adm the
// admin client over it) seeded with them.
type Bed struct {
	T    *testing.T
	Boot []string
	Adm  *kadm.Client
	Kcl  *kgo.Client
}

// Shared returns a Bed on the shared cluster (kafkatest.Shared: fails t when
// GREGOR_KAFKA_STATE names no live cluster).
func Shared(t *testing.T) *Bed {
	t.Helper()
	return On(t, kafkatest.Shared(t).Bootstrap(kafkatest.Plaintext))
}

// On returns a Bed on the brokers at boot. Its franz-go client is closed at
// t's cleanup; a failure to create it fails t.
func On(t *testing.T, boot []string) *Bed {
	t.Helper()
	kcl, err := kgo.NewClient(kgo.SeedBrokers(boot...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kcl.Close)
	return &Bed{T: t, Boot: boot, Adm: kadm.NewClient(kcl), Kcl: kcl}
}

// ThreeBrokers starts a 1+3 cluster (kafkatest.ThreeBrokers) of t's own,
// logging progress to t, and returns a context bounding the whole test by
// timeout, the cluster and a Bed on it. At t's cleanup the Bed's client is
// closed, then the cluster, then the context is cancelled. A failed start
// fails t.
func ThreeBrokers(t *testing.T, timeout time.Duration) (context.Context, *kafkatest.Cluster, *Bed) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	cluster, err := kafkatest.Start(ctx, kafkatest.Options{Shape: kafkatest.ThreeBrokers, Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cluster.Close() })
	return ctx, cluster, On(t, cluster.Bootstrap(kafkatest.Plaintext))
}

// Ctx returns a context that ends after d or at t's cleanup.
func Ctx(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// For returns a Bed on the same cluster and clients for t (a subtest).
func (b *Bed) For(t *testing.T) *Bed {
	c := *b
	c.T = t
	return &c
}

// Topic creates a topic named kafkatest.UniqueName(b.T, prefix) with
// partitions partitions of replicas replicas each and configs (nil: broker
// defaults), and returns its name. A failure fails b.T.
func (b *Bed) Topic(ctx context.Context, prefix string, partitions int32, replicas int16, configs map[string]*string) string {
	b.T.Helper()
	name := kafkatest.UniqueName(b.T, prefix)
	if _, err := b.Adm.CreateTopic(ctx, partitions, replicas, configs, name); err != nil {
		b.T.Fatalf("create topic %s: %v", name, err)
	}
	return name
}

// Client returns a gregor client of its own on the Bed's brokers (cfg with
// Bootstrap set to b.Boot), ready (client.Ready within ctx) and closed at
// b.T's cleanup. A failure fails b.T.
func (b *Bed) Client(ctx context.Context, cfg client.Config) *client.Client {
	b.T.Helper()
	cfg.Bootstrap = b.Boot
	cl, err := client.New(cfg)
	if err != nil {
		b.T.Fatal(err)
	}
	b.T.Cleanup(func() { cl.Close(context.Background()) })
	if err := cl.Ready(ctx); err != nil {
		b.T.Fatalf("client ready: %v", err)
	}
	return cl
}

// ReadLog reads topic's partition p with franz-go (read_uncommitted, control
// records dropped) from its log start to its log end, as the invariant
// checker's final log (record IDs are the values). Bounded by 60s.
func (b *Bed) ReadLog(ctx context.Context, topic string, p int32) (invariant.Log, error) {
	l := invariant.Log{TP: invariant.TP{Topic: topic, Partition: p}}
	starts, err := b.Adm.ListStartOffsets(ctx, topic)
	if err != nil {
		return l, err
	}
	ends, err := b.Adm.ListEndOffsets(ctx, topic)
	if err != nil {
		return l, err
	}
	s, _ := starts.Lookup(topic, p)
	en, _ := ends.Lookup(topic, p)
	if s.Err != nil || en.Err != nil {
		return l, fmt.Errorf("listing offsets of %s[%d]: %v %v", topic, p, s.Err, en.Err)
	}
	l.Start, l.End = s.Offset, en.Offset
	if l.End <= l.Start {
		return l, nil
	}
	kcl, err := kgo.NewClient(kgo.SeedBrokers(b.Boot...), kgo.KeepControlRecords(),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {p: kgo.NewOffset().At(l.Start)}}),
		kgo.FetchIsolationLevel(kgo.ReadUncommitted()))
	if err != nil {
		return l, err
	}
	defer kcl.Close()
	rctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	for next := l.Start; next < l.End; {
		fs := kcl.PollFetches(rctx)
		if rctx.Err() != nil {
			return l, fmt.Errorf("reading %s[%d] [%d, %d): stopped at %d: %v", topic, p, l.Start, l.End, next, rctx.Err())
		}
		for _, fe := range fs.Errors() {
			return l, fmt.Errorf("reading %s[%d]: %v", topic, p, fe.Err)
		}
		fs.EachRecord(func(r *kgo.Record) {
			next = r.Offset + 1
			if !r.Attrs.IsControl() && r.Offset < l.End {
				l.Records = append(l.Records, invariant.LogRecord{Offset: r.Offset, ID: string(r.Value)})
			}
		})
	}
	return l, nil
}
