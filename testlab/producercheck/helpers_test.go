package producercheck

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// bed is one test's view of the shared cluster.
type bed struct {
	t    *testing.T
	boot []string
	adm  *kadm.Client
}

func newBed(t *testing.T) *bed {
	t.Helper()
	cl := kafkatest.Shared(t)
	boot := cl.Bootstrap(kafkatest.Plaintext)
	kcl, err := kgo.NewClient(kgo.SeedBrokers(boot...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kcl.Close)
	return &bed{t: t, boot: boot, adm: kadm.NewClient(kcl)}
}

func ctxFor(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// topic creates a uniquely named topic with n partitions.
func (b *bed) topic(n int32) string {
	b.t.Helper()
	name := kafkatest.UniqueName(b.t, "pc")
	if _, err := b.adm.CreateTopic(ctxFor(b.t, 30*time.Second), n, 1, nil, name); err != nil {
		b.t.Fatalf("create topic %s: %v", name, err)
	}
	return name
}

// producer returns a gregor producer on its own gregor client.
func (b *bed) producer(cfg producer.Config) (*producer.Producer, *client.Client) {
	b.t.Helper()
	cl, err := client.New(client.Config{Bootstrap: b.boot})
	if err != nil {
		b.t.Fatal(err)
	}
	if err := cl.Ready(ctxFor(b.t, 30*time.Second)); err != nil {
		b.t.Fatalf("client ready: %v", err)
	}
	p, err := producer.New(cl, cfg)
	if err != nil {
		b.t.Fatal(err)
	}
	b.t.Cleanup(func() {
		p.Close(ctxFor(b.t, 10*time.Second))
		cl.Close()
	})
	return p, cl
}

// readAll consumes topic from the start with franz-go until want records
// arrived (then for a short grace period, to catch extras) or 30s pass.
func (b *bed) readAll(topic string, want int) []*kgo.Record {
	b.t.Helper()
	kcl, err := kgo.NewClient(kgo.SeedBrokers(b.boot...), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchIsolationLevel(kgo.ReadUncommitted()))
	if err != nil {
		b.t.Fatal(err)
	}
	defer kcl.Close()
	var out []*kgo.Record
	deadline := time.Now().Add(30 * time.Second)
	var grace time.Time
	for time.Now().Before(deadline) {
		if len(out) >= want && grace.IsZero() {
			grace = time.Now().Add(500 * time.Millisecond)
		}
		if !grace.IsZero() && time.Now().After(grace) {
			break
		}
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		fs := kcl.PollFetches(ctx)
		cancel()
		fs.EachError(func(t string, p int32, err error) {
			if ctx.Err() == nil {
				b.t.Logf("fetch %s/%d: %v", t, p, err)
			}
		})
		out = append(out, fs.Records()...)
	}
	return out
}

func key(r *kgo.Record) string { return fmt.Sprintf("%d@%d", r.Partition, r.Offset) }
