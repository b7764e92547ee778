package bench

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kgo"
)

// consumeRecords is how many 100-byte records a consume benchmark's topic
// holds (spread evenly over its partitions); one op reads all of them.
const (
	consumeRecords   = 300_000
	consumeValueSize = 100
	consumeMaxWait   = 500 * time.Millisecond // fetch.max.wait.ms for both clients
)

type consumeCase struct {
	partitions int32
	codec      wire.Compression
}

func (c consumeCase) name() string {
	return fmt.Sprintf("parts=%d/codec=%s", c.partitions, c.codec)
}

// filled remembers which topics were pre-filled (topics are cached across
// the testing package's repeated calls of a benchmark function).
var filled sync.Map // topic -> true

// BenchmarkConsume measures fetching, decoding and delivering records from a
// topic pre-filled (by franz-go, with 1 MB batches) with 100-byte values:
// gregor's assigned consumer beside franz-go consuming the same partitions
// directly (kgo.ConsumePartitions), with the same fetch limits: max wait
// 500ms and gregor's defaults for the rest (min bytes 1, 50 MiB per
// response, 8 MiB per partition; 1 MiB until 8599d58, as in run 18). One op
// reads every record of the topic from the beginning with a new client;
// MB/s counts value bytes. Metrics per record as BenchmarkProduce.
//
// The consumer=reused cases measure a long-lived consumer instead: the
// client and consumer are built (and read the topic once) before the timer,
// and each op seeks every partition back to offset 0 (gregor: Seek; franz-go:
// SetOffsets) and reads every record again, so per-consumer setup is not
// counted.
//
// Compare with: benchstat -col /client
func BenchmarkConsume(b *testing.B) {
	owner := b
	for _, c := range []consumeCase{
		{1, wire.CompressionNone}, {1, wire.CompressionLZ4},
		{4, wire.CompressionNone}, {4, wire.CompressionLZ4},
	} {
		topicFn := func(b *testing.B) string {
			topic := topicFor(b, owner, "consume/"+c.name(), c.partitions)
			if _, done := filled.Load(topic); !done {
				prefill(b, topic, c)
				filled.Store(topic, true)
			}
			return topic
		}
		b.Run("client=gregor/"+c.name(), func(b *testing.B) {
			benchGregorConsume(b, topicFn(b), c, true)
		})
		b.Run("client=gregor-norecycle/"+c.name(), func(b *testing.B) {
			benchGregorConsume(b, topicFn(b), c, false)
		})
		b.Run("client=franz/"+c.name(), func(b *testing.B) {
			benchFranzConsume(b, topicFn(b), c)
		})
		b.Run("client=gregor/consumer=reused/"+c.name(), func(b *testing.B) {
			benchGregorConsumeReused(b, topicFn(b), c)
		})
		b.Run("client=franz/consumer=reused/"+c.name(), func(b *testing.B) {
			benchFranzConsumeReused(b, topicFn(b), c)
		})
	}
}

// prefill writes consumeRecords records to topic round-robin over its
// partitions with franz-go (an independent producer) and waits for them.
func prefill(b *testing.B, topic string, c consumeCase) {
	b.Helper()
	codec := kgo.NoCompression()
	if c.codec == wire.CompressionLZ4 {
		codec = kgo.Lz4Compression()
	}
	cl, err := kgo.NewClient(
		kgo.SeedBrokers(bootstrap(b)...),
		kgo.DefaultProduceTopic(topic),
		kgo.ProducerLinger(benchLinger),
		kgo.ProducerBatchMaxBytes(benchBatchMaxBytes),
		kgo.ProducerBatchCompression(codec),
		kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.MaxBufferedBytes(benchBufferBytes),
		kgo.MaxBufferedRecords(benchBufferRecords),
	)
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	ctx := ctxFor(b, 2*time.Minute)
	value := payload(consumeValueSize)
	var mu sync.Mutex
	var firstErr error
	for i := 0; i < consumeRecords; i++ {
		cl.Produce(ctx, &kgo.Record{Value: value, Partition: int32(i) % c.partitions}, func(_ *kgo.Record, err error) {
			if err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		})
	}
	if err := cl.Flush(ctx); err != nil {
		b.Fatalf("prefill flush: %v", err)
	}
	if firstErr != nil {
		b.Fatalf("prefill: %v", firstErr)
	}
}

// benchGregorConsume reads the topic with gregor's consumer; with recycle
// every delivered slice is handed back (Consumer.Recycle) once counted.
func benchGregorConsume(b *testing.B, topic string, c consumeCase, recycle bool) {
	boot := bootstrap(b)
	ps := gregorPositions(topic, c, consumer.AtBeginning())
	ctx := ctxFor(b, 5*time.Minute)
	timedConsume(b, func() {
		cl, err := client.New(client.Config{Bootstrap: boot, ClientID: "gregor-bench"})
		if err != nil {
			b.Fatal(err)
		}
		defer cl.Close(context.Background())
		cons, err := consumer.New(cl, consumer.Config{MaxWait: consumeMaxWait})
		if err != nil {
			b.Fatal(err)
		}
		defer cons.Close(context.Background())
		if err := cons.Assign(ctx, ps); err != nil {
			b.Fatalf("Assign: %v", err)
		}
		gregorReadAll(b, ctx, cons, recycle)
	})
}

// benchGregorConsumeReused reads the topic again and again with one
// long-lived gregor client and consumer (recycling), seeking every
// partition back to offset 0 before each read.
func benchGregorConsumeReused(b *testing.B, topic string, c consumeCase) {
	ctx := ctxFor(b, 5*time.Minute)
	cl, err := client.New(client.Config{Bootstrap: bootstrap(b), ClientID: "gregor-bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close(context.Background())
	cons, err := consumer.New(cl, consumer.Config{MaxWait: consumeMaxWait})
	if err != nil {
		b.Fatal(err)
	}
	defer cons.Close(context.Background())
	ps := gregorPositions(topic, c, consumer.AtOffset(0))
	if err := cons.Assign(ctx, ps); err != nil {
		b.Fatalf("Assign: %v", err)
	}
	first := true
	timedConsume(b, func() {
		if !first {
			for _, p := range ps {
				if err := cons.Seek(ctx, p.TopicPartition, p.Position); err != nil {
					b.Fatalf("Seek %v: %v", p.TopicPartition, err)
				}
			}
		}
		first = false
		gregorReadAll(b, ctx, cons, true)
	})
}

// gregorPositions assigns every partition of topic at pos.
func gregorPositions(topic string, c consumeCase, pos consumer.Position) []consumer.PartitionPosition {
	ps := make([]consumer.PartitionPosition, c.partitions)
	for i := range ps {
		ps[i] = consumer.PartitionPosition{
			TopicPartition: gregor.TopicPartition{Topic: topic, Partition: int32(i)},
			Position:       pos,
		}
	}
	return ps
}

// gregorReadAll receives consumeRecords records from cons and checks their
// count and value bytes.
func gregorReadAll(b *testing.B, ctx context.Context, cons *consumer.Consumer, recycle bool) {
	n, bytes := 0, 0
	for n < consumeRecords {
		rs, err := cons.Receive(ctx)
		if err != nil {
			b.Fatalf("Receive after %d records: %v", n, err)
		}
		for i := range rs {
			bytes += len(rs[i].Value)
		}
		n += len(rs)
		if recycle {
			cons.Recycle(rs)
		}
	}
	consumeCheck(b, n, bytes)
}

func benchFranzConsume(b *testing.B, topic string, c consumeCase) {
	boot := bootstrap(b)
	ctx := ctxFor(b, 5*time.Minute)
	timedConsume(b, func() {
		cl := newFranzConsumer(b, boot, topic, c)
		defer cl.Close()
		franzReadAll(b, ctx, cl)
	})
}

// benchFranzConsumeReused is benchGregorConsumeReused for franz-go: one
// client, every partition set back to offset 0 (SetOffsets) before each
// read.
func benchFranzConsumeReused(b *testing.B, topic string, c consumeCase) {
	ctx := ctxFor(b, 5*time.Minute)
	cl := newFranzConsumer(b, bootstrap(b), topic, c)
	defer cl.Close()
	start := make(map[int32]kgo.EpochOffset, c.partitions)
	for p := int32(0); p < c.partitions; p++ {
		start[p] = kgo.EpochOffset{Epoch: -1, Offset: 0}
	}
	first := true
	timedConsume(b, func() {
		if !first {
			cl.SetOffsets(map[string]map[int32]kgo.EpochOffset{topic: start})
		}
		first = false
		franzReadAll(b, ctx, cl)
	})
}

// newFranzConsumer returns a franz-go client consuming every partition of
// topic directly from the start, with gregor's fetch limits.
func newFranzConsumer(b *testing.B, boot []string, topic string, c consumeCase) *kgo.Client {
	offsets := make(map[int32]kgo.Offset, c.partitions)
	for p := int32(0); p < c.partitions; p++ {
		offsets[p] = kgo.NewOffset().AtStart()
	}
	cl, err := kgo.NewClient(
		kgo.SeedBrokers(boot...),
		kgo.ClientID("franz-bench"),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: offsets}),
		kgo.FetchMaxWait(consumeMaxWait),
		kgo.FetchMinBytes(consumer.DefaultMinBytes),
		kgo.FetchMaxBytes(consumer.DefaultMaxBytes),
		kgo.FetchMaxPartitionBytes(consumer.DefaultPartitionMaxBytes),
	)
	if err != nil {
		b.Fatal(err)
	}
	return cl
}

// franzReadAll polls consumeRecords records from cl and checks their count
// and value bytes.
func franzReadAll(b *testing.B, ctx context.Context, cl *kgo.Client) {
	n, bytes := 0, 0
	for n < consumeRecords {
		fs := cl.PollFetches(ctx)
		if errs := fs.Errors(); len(errs) > 0 {
			b.Fatalf("PollFetches after %d records: %v", n, errs[0].Err)
		}
		fs.EachRecord(func(r *kgo.Record) {
			bytes += len(r.Value)
			n++
		})
	}
	consumeCheck(b, n, bytes)
}
