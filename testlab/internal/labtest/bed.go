package labtest

import (
	"context"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
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
	b.T.Cleanup(func() { cl.Close() })
	if err := cl.Ready(ctx); err != nil {
		b.T.Fatalf("client ready: %v", err)
	}
	return cl
}
