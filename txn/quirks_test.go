package txn

import (
	"errors"
	"testing"

	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

// TestEndTxnUnknownServerErrorNotCommitted: a Kafka-compatible broker
// answering EndTxn(commit) UNKNOWN_SERVER_ERROR (seen on some
// implementations when the commit fails internally) is never taken as a
// commit: Commit returns an error carrying the code.
func TestEndTxnUnknownServerErrorNotCommitted(t *testing.T) {
	for _, version := range []int{1, 2} {
		t.Run(map[int]string{1: "v1", 2: "v2"}[version], func(t *testing.T) {
			b := newFakeBroker(t, 2)
			b.script = countdown(wire.KeyEndTxn, 1000, func() wire.ResponseEncoder {
				return &wire.EndTxnResponse{ErrorCode: wire.ErrUnknownServerError.Code, ProducerID: -1, ProducerEpoch: -1}
			})
			p := fakeProducer(t, b, version, producer.Config{Linger: -1})
			ctx := testCtx(t)
			must(t, p.Begin())
			_, err := p.Send(ctx, &producer.Record{Topic: "out", Partition: producer.ToPartition(0), Value: []byte("x")})
			must(t, err)
			err = p.Commit(ctx)
			if err == nil || !errors.Is(err, wire.ErrUnknownServerError) {
				t.Fatalf("Commit: %v, want the UNKNOWN_SERVER_ERROR answer, never success", err)
			}
			t.Logf("Commit: %v (%d EndTxn)", err, len(b.requests(wire.KeyEndTxn)))
		})
	}
}
