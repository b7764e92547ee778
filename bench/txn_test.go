package bench

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/txn"
	"github.com/twmb/franz-go/pkg/kgo"
)

// txnSizes are the records per transaction of BenchmarkTransaction.
var txnSizes = []int{1, 100, 10000}

// BenchmarkTransaction measures committed transactions of 1, 100 and
// 10,000 records of 100 B (one partition) against the shared test bed,
// gregor's txn.Producer beside franz-go's transactional producer with the
// same linger, batch size and in-flight limit. One op is one committed
// transaction (Begin, the records, Commit: every record acknowledged and
// EndTxn answered). Metrics: txn/s, records/s, client cpu-ns/rec, B/rec,
// allocs/rec (as BenchmarkProduce).
//
// Compare with: benchstat -col /client
func BenchmarkTransaction(b *testing.B) {
	owner := b
	for _, n := range txnSizes {
		name := fmt.Sprintf("records=%d", n)
		b.Run("client=gregor/"+name, func(b *testing.B) {
			benchGregorTxn(b, topicFor(b, owner, "txn/gregor/"+name, 1), n)
		})
		b.Run("client=franz/"+name, func(b *testing.B) {
			benchFranzTxn(b, topicFor(b, owner, "txn/franz/"+name, 1), n)
		})
	}
}

func benchGregorTxn(b *testing.B, topic string, n int) {
	cl := newGregorClient(b)
	defer cl.Close(context.Background())
	p, err := txn.New(cl, txn.Config{TransactionalID: kafkatest.UniqueName(b, "bench-tid"), Producer: producer.Config{
		Linger: benchLinger, BatchMaxBytes: benchBatchMaxBytes, MaxInFlightPerBroker: benchInFlight,
		RequestMaxBytes: benchRequestMaxBytes, RetainedBytes: benchBufferBytes, InFlightRecords: benchBufferRecords,
	}})
	if err != nil {
		b.Fatal(err)
	}
	ctx := ctxFor(b, 10*time.Minute)
	defer p.Close(ctx)
	if err := p.InitTransactions(ctx); err != nil {
		b.Fatal(err)
	}
	m := &producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: payload(100)}
	one := func() {
		if err := p.Begin(); err != nil {
			b.Fatal(err)
		}
		for range n {
			if _, err := p.Send(ctx, m); err != nil {
				b.Fatalf("Send: %v", err)
			}
		}
		if err := p.Commit(ctx); err != nil {
			b.Fatalf("Commit: %v", err)
		}
	}
	one() // warm-up: connections, coordinator, metadata
	b.ReportAllocs()
	b.ResetTimer()
	start := readUsage()
	t0 := time.Now()
	for range b.N {
		one()
	}
	b.StopTimer()
	report(b, start, b.N*n)
	b.ReportMetric(float64(b.N)/time.Since(t0).Seconds(), "txn/s")
}

func benchFranzTxn(b *testing.B, topic string, n int) {
	kcl, err := kgo.NewClient(kgo.SeedBrokers(bootstrap(b)...), kgo.TransactionalID(kafkatest.UniqueName(b, "bench-tid")),
		kgo.DefaultProduceTopic(topic), kgo.ProducerLinger(benchLinger), kgo.ProducerBatchMaxBytes(benchBatchMaxBytes),
		// benchInFlight is implied: idempotent franz-go allows 5 requests in
		// flight per broker and rejects MaxProduceRequestsInflightPerBroker.
		kgo.MaxBufferedBytes(benchBufferBytes), kgo.MaxBufferedRecords(benchBufferRecords),
		kgo.BrokerMaxWriteBytes(benchRequestMaxBytes), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		b.Fatal(err)
	}
	defer kcl.Close()
	ctx := ctxFor(b, 10*time.Minute)
	value := payload(100)
	one := func() {
		if err := kcl.BeginTransaction(); err != nil {
			b.Fatal(err)
		}
		for range n {
			kcl.Produce(ctx, &kgo.Record{Partition: 0, Value: value}, func(_ *kgo.Record, err error) {
				if err != nil {
					b.Errorf("record failed: %v", err)
				}
			})
		}
		if err := kcl.Flush(ctx); err != nil {
			b.Fatal(err)
		}
		if err := kcl.EndTransaction(ctx, kgo.TryCommit); err != nil {
			b.Fatalf("EndTransaction: %v", err)
		}
	}
	one()
	b.ReportAllocs()
	b.ResetTimer()
	start := readUsage()
	t0 := time.Now()
	for range b.N {
		one()
	}
	b.StopTimer()
	report(b, start, b.N*n)
	b.ReportMetric(float64(b.N)/time.Since(t0).Seconds(), "txn/s")
}
