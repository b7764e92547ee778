package featuretest

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/consumer/share"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/txn"
)

// failBound is how soon a missing feature must be reported.
const failBound = 5 * time.Second

// TestUnsupportedFeaturesOnOldestRelease: on Kafka 3.7 (no KIP-848 consumer
// groups, no share groups, transaction.version 0) a ProtocolConsumer group,
// a share consumer, TransactionVersion 2 and the share-group admin API
// each fail within 5 s with gregor.ErrUnsupportedFeature naming the way
// out; the default group protocol picks classic and joins; TransactionVersion
// 0 falls back to v1; after Close no goroutine is left.
func TestUnsupportedFeaturesOnOldestRelease(t *testing.T) {
	version := kafkatest.SupportedVersions[0]
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bed, err := kafkatest.Start(ctx, kafkatest.Options{Version: version, Log: t.Logf})
	if err != nil {
		t.Fatalf("cannot start Kafka %s: %v", version, err)
	}
	defer bed.Close()
	topic := kafkatest.UniqueName(t, "t")
	if err := bed.CreateTopic(ctx, topic, 2, 1); err != nil {
		t.Fatal(err)
	}
	baseline := runtime.NumGoroutine()
	cl, err := client.New(client.Config{Bootstrap: bed.Bootstrap(kafkatest.Plaintext)})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("KIP-848 group", func(t *testing.T) {
		g, err := consumer.NewGroup(cl, consumer.GroupConfig{GroupID: kafkatest.UniqueName(t, "g"), Topics: []string{topic}, Protocol: consumer.ProtocolConsumer})
		if err != nil {
			t.Fatal(err)
		}
		defer g.Close(context.Background())
		within(t, func(ctx context.Context) error { _, err := g.Receive(ctx); return err })
	})
	t.Run("default protocol follows the cluster", func(t *testing.T) {
		assigned := make(chan struct{}, 1)
		g, err := consumer.NewGroup(cl, consumer.GroupConfig{GroupID: kafkatest.UniqueName(t, "g"), Topics: []string{topic},
			OnAssignment: func(_ context.Context, ev consumer.AssignmentEvent) {
				if ev.Kind == consumer.Assigned {
					select {
					case assigned <- struct{}{}:
					default:
					}
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		defer g.Close(context.Background())
		rctx, rcancel := context.WithTimeout(ctx, 60*time.Second)
		defer rcancel()
		go func() { _, _ = g.Receive(rctx) }() // drives nothing; the member runs on its own
		select {
		case <-assigned:
		case <-rctx.Done():
			t.Fatal("the default-protocol group was not assigned within 60s")
		}
	})
	t.Run("share group", func(t *testing.T) {
		c, err := share.New(cl, share.Config{GroupID: kafkatest.UniqueName(t, "s"), Topics: []string{topic}})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close(context.Background())
		within(t, c.AwaitJoined)
	})
	t.Run("share group admin", func(t *testing.T) {
		a := admin.New(cl, admin.Config{})
		within(t, func(ctx context.Context) error {
			d, err := a.DescribeShareGroups(ctx, []string{"s"})
			if err == nil && len(d) == 1 {
				err = d[0].Err // per group
			}
			return err
		})
	})
	t.Run("transactions v2", func(t *testing.T) {
		p, err := txn.New(cl, txn.Config{TransactionalID: kafkatest.UniqueName(t, "tx"), TransactionVersion: 2})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close(context.Background())
		within(t, p.InitTransactions)
	})
	t.Run("transactions fall back to v1", func(t *testing.T) {
		p, err := txn.New(cl, txn.Config{TransactionalID: kafkatest.UniqueName(t, "tx")})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close(context.Background())
		ictx, icancel := context.WithTimeout(ctx, 30*time.Second)
		defer icancel()
		if err := p.InitTransactions(ictx); err != nil {
			t.Fatalf("InitTransactions (TransactionVersion 0) on %s: %v", version, err)
		}
	})

	if err := cl.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > baseline && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond) // polling for goroutines to end, not synchronization
	}
	if n := runtime.NumGoroutine(); n > baseline {
		buf := make([]byte, 1<<16)
		t.Fatalf("%d goroutines left after Close (baseline %d):\n%s", n, baseline, buf[:runtime.Stack(buf, true)])
	}
}

// within runs call with a deadline of failBound and checks that it failed
// with gregor.ErrUnsupportedFeature, with a remedy, before the deadline.
func within(t *testing.T, call func(context.Context) error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), failBound)
	defer cancel()
	start := time.Now()
	err := call(ctx)
	took := time.Since(start)
	var ue *gregor.UnsupportedFeatureError
	if !errors.Is(err, gregor.ErrUnsupportedFeature) || !errors.As(err, &ue) {
		t.Fatalf("after %v: %v, want gregor.ErrUnsupportedFeature", took, err)
	}
	if ctx.Err() != nil {
		t.Fatalf("took the whole %v: %v", failBound, err)
	}
	t.Logf("%v: %v", took.Round(time.Millisecond), err)
}
