package txn

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

// TestTransactionsV2Unsupported: Config.TransactionVersion 2 on a cluster
// whose transaction.version is below 2 fails InitTransactions at once with
// ErrUnsupported and gregor.ErrUnsupportedFeature (naming the level and
// the way out), before any InitProducerId; TransactionVersion 0 on the
// same cluster falls back to transactions v1.
func TestTransactionsV2Unsupported(t *testing.T) {
	for _, tv := range []int16{0, 1} {
		b := newFakeBroker(t, tv)
		p, err := New(b.client(t), Config{TransactionalID: "tid", TransactionVersion: 2})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = p.InitTransactions(ctx)
		cancel()
		var ue *gregor.UnsupportedFeatureError
		if !errors.Is(err, ErrUnsupported) || !errors.Is(err, gregor.ErrUnsupportedFeature) || !errors.As(err, &ue) || ue.Remedy == "" {
			t.Fatalf("transaction.version %d: InitTransactions: %v", tv, err)
		}
		if n := len(b.requests(wire.KeyInitProducerId)); n != 0 {
			t.Fatalf("%d InitProducerId sent", n)
		}
		_ = p.Close(context.Background())

		v1 := fakeProducer(t, newFakeBroker(t, tv), 0, producer.Config{})
		if v1.v2 {
			t.Fatalf("transaction.version %d: TransactionVersion 0 chose v2", tv)
		}
	}
}
