package producercheck

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/testlab/internal/labtest"
	"github.com/twmb/franz-go/pkg/kgo"
)

// bed is one test's view of a cluster, with the producer checks' helpers.
type bed struct{ *labtest.Bed }

func newBed(t *testing.T) *bed {
	t.Helper()
	return &bed{labtest.Shared(t)}
}

// topic creates a uniquely named topic with n partitions.
func (b *bed) topic(n int32) string {
	b.T.Helper()
	return b.Topic(labtest.Ctx(b.T, 30*time.Second), "pc", n, 1, nil)
}

// producer returns a gregor producer on its own gregor client.
func (b *bed) producer(cfg producer.Config) (*producer.Producer, *client.Client) {
	b.T.Helper()
	cl := b.Client(labtest.Ctx(b.T, 30*time.Second), client.Config{})
	p, err := producer.New(cl, cfg)
	if err != nil {
		b.T.Fatal(err)
	}
	b.T.Cleanup(func() { p.Close(labtest.Ctx(b.T, 10*time.Second)) })
	return p, cl
}

// readAll consumes topic from the start with franz-go until want records
// arrived (then for a short grace period, to catch extras) or 30s pass.
func (b *bed) readAll(topic string, want int) []*kgo.Record {
	b.T.Helper()
	kcl, err := kgo.NewClient(kgo.SeedBrokers(b.Boot...), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchIsolationLevel(kgo.ReadUncommitted()))
	if err != nil {
		b.T.Fatal(err)
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
				b.T.Logf("fetch %s/%d: %v", t, p, err)
			}
		})
		out = append(out, fs.Records()...)
	}
	return out
}

func key(r *kgo.Record) string { return fmt.Sprintf("%d@%d", r.Partition, r.Offset) }
