package bench

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kgo"
)

// scaleConsumePartitions are the partition counts of the consume cost curve.
var scaleConsumePartitions = []int32{1, 16, 64, 256, 1024}

// BenchmarkScaleConsume is the consumer's cost curve over the partition
// count: consumeRecords 100-byte records pre-filled round-robin over 1 to
// 1,024 partitions (BenchmarkConsume's prefill), read from the beginning
// with a new client per op by gregor's assigned consumer and by franz-go
// (kgo.ConsumePartitions), both at their DEFAULT fetch configuration (no
// fetch option set: what a user who tunes nothing gets). gregor recycles
// every delivered slice. Metrics per record as BenchmarkConsume
// (records/s, cpu-ns/rec, allocs/rec, peak-RSS-MiB of the process).
//
// Compare with: benchstat -col /client
func BenchmarkScaleConsume(b *testing.B) {
	owner := b
	for i, parts := range scaleConsumePartitions {
		c := consumeCase{partitions: parts, codec: wire.CompressionNone}
		topicFn := func(b *testing.B) string { return scaleTopic(b, owner, c) }
		name := fmt.Sprintf("parts=%d", parts)
		runScaleCases(b, i, name, []scaleCase{
			{"gregor", func(b *testing.B) { benchGregorConsumeDefault(b, bootstrap(b), topicFn(b), c) }},
			{"franz", func(b *testing.B) { benchFranzConsumeDefault(b, bootstrap(b), topicFn(b), c) }},
		})
	}
}

// scaleDelay is the one-way delay of BenchmarkScaleConsumeDelay's link.
const scaleDelay = 10 * time.Millisecond

// BenchmarkScaleConsumeDelay is BenchmarkScaleConsume at 1 and 16
// partitions through a link of scaleDelay each way (20 ms round trip; a
// delayProxy in front of the test bed's Proxied listener): a consumer
// whose next Fetch waits for the last one's records to be delivered, or
// whose Fetches carry little, is bound by the round trip here.
func BenchmarkScaleConsumeDelay(b *testing.B) {
	owner := b
	boot := startDelayProxies(b, scaleDelay)
	for _, parts := range []int32{1, 16} {
		c := consumeCase{partitions: parts, codec: wire.CompressionNone}
		topicFn := func(b *testing.B) string { return scaleTopic(b, owner, c) }
		name := fmt.Sprintf("delay=%v/parts=%d", scaleDelay, parts)
		b.Run("client=gregor/"+name, func(b *testing.B) {
			benchGregorConsumeDefault(b, boot, topicFn(b), c)
		})
		b.Run("client=franz/"+name, func(b *testing.B) {
			benchFranzConsumeDefault(b, boot, topicFn(b), c)
		})
	}
}

// benchGregorConsumeDefault reads the topic with a gregor consumer at its
// default Config, recycling what it delivers.
func benchGregorConsumeDefault(b *testing.B, boot []string, topic string, c consumeCase) {
	ps := gregorPositions(topic, c, consumer.AtBeginning())
	ctx := ctxFor(b, 5*time.Minute)
	timedConsume(b, func() {
		cl, err := client.New(client.Config{Bootstrap: boot, ClientID: "gregor-bench"})
		if err != nil {
			b.Fatal(err)
		}
		defer cl.Close(context.Background())
		cons, err := consumer.New(cl, consumer.Config{})
		if err != nil {
			b.Fatal(err)
		}
		defer cons.Close(context.Background())
		if err := cons.Assign(ctx, ps); err != nil {
			b.Fatalf("Assign: %v", err)
		}
		gregorReadAll(b, ctx, cons, true)
	})
}

// benchFranzConsumeDefault reads the topic with a franz-go client at its
// default fetch options.
func benchFranzConsumeDefault(b *testing.B, boot []string, topic string, c consumeCase) {
	ctx := ctxFor(b, 5*time.Minute)
	offsets := make(map[int32]kgo.Offset, c.partitions)
	for p := int32(0); p < c.partitions; p++ {
		offsets[p] = kgo.NewOffset().AtStart()
	}
	timedConsume(b, func() {
		cl, err := kgo.NewClient(
			kgo.SeedBrokers(boot...),
			kgo.ClientID("franz-bench"),
			kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: offsets}),
		)
		if err != nil {
			b.Fatal(err)
		}
		defer cl.Close()
		franzReadAll(b, ctx, cl)
	})
}

// scaleTopic returns the pre-filled topic of c, shared by the scale
// benchmarks (created and filled on first use, deleted when owner ends).
func scaleTopic(b *testing.B, owner *testing.B, c consumeCase) string {
	topic := topicFor(b, owner, "scale-consume/"+c.name(), c.partitions)
	if _, done := filled.Load(topic); !done {
		prefill(b, topic, c)
		filled.Store(topic, true)
	}
	return topic
}
