package bench

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/twmb/franz-go/pkg/kgo"
)

// latencyMaxWait is the idle consumer's fetch max wait (fetch.max.wait.ms,
// the Java and gregor default): with one connection per broker every
// produce would queue behind a Fetch held that long.
const latencyMaxWait = 500 * time.Millisecond

// latencyWarmup is how long, and at least how many sends, each case runs
// before the timer: connections, InitProducerId, metadata and the idle
// consumer's first Fetch are settled.
const (
	latencyWarmup      = time.Second
	latencyWarmupSends = 20
)

// BenchmarkProduceAckLatency measures produce acknowledgement latency: one
// op is one record sent alone (no linger) and waited for (acks=all,
// idempotent), sequentially, so every op is one Produce round trip. Cases:
// gregor and franz-go, each without a consumer and with an assigned
// consumer idle on another (empty) topic of the same broker on the same
// client, long-polling with max wait 500ms. Metrics: p50-us and p99-us
// over the op's b.N sends (run with -benchtime=Nx, N >= 200). Issue 15's
// targets: gregor's p50 with the consumer within 1.25x of its p50 without,
// and at most 1.2x franz-go's.
func BenchmarkProduceAckLatency(b *testing.B) {
	owner := b
	for _, withConsumer := range []bool{false, true} {
		name := "consumer=none"
		if withConsumer {
			name = "consumer=same-client"
		}
		b.Run("client=gregor/"+name, func(b *testing.B) {
			busy := topicFor(b, owner, "latency/busy/gregor/"+name, 1)
			idle := topicFor(b, owner, "latency/idle/gregor/"+name, 1)
			benchGregorLatency(b, busy, idle, withConsumer)
		})
		b.Run("client=franz/"+name, func(b *testing.B) {
			busy := topicFor(b, owner, "latency/busy/franz/"+name, 1)
			idle := topicFor(b, owner, "latency/idle/franz/"+name, 1)
			benchFranzLatency(b, busy, idle, withConsumer)
		})
	}
}

// timeSends runs send latencyWarmup (and latencyWarmupSends times), then
// b.N times under the timer, and reports the p50 and p99 of the timed sends.
func timeSends(b *testing.B, send func()) {
	for i, start := 0, time.Now(); i < latencyWarmupSends || time.Since(start) < latencyWarmup; i++ {
		send()
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		send()
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Nanoseconds()) / 1e3
	}
	b.ReportMetric(pct(0.50), "p50-us")
	b.ReportMetric(pct(0.99), "p99-us")
}

func benchGregorLatency(b *testing.B, busy, idle string, withConsumer bool) {
	cl := newGregorClient(b)
	defer cl.Close(context.Background())
	ctx := ctxFor(b, 5*time.Minute)
	var c *consumer.Consumer
	if withConsumer {
		var err error
		c, err = consumer.New(cl, consumer.Config{MaxWait: latencyMaxWait})
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close(context.Background())
		tp := gregor.TopicPartition{Topic: idle, Partition: 0}
		if err := c.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtEnd()}}); err != nil {
			b.Fatal(err)
		}
	}
	p, err := producer.New(cl, producer.Config{Linger: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close(ctx)
	m := &producer.Record{Topic: busy, Partition: producer.ToPartition(0), Value: payload(100)}
	timeSends(b, func() {
		d, err := p.Send(ctx, m)
		if err != nil {
			b.Fatalf("Send: %v", err)
		}
		r, err := d.Wait(ctx)
		if err == nil {
			err = r.Err
		}
		if err != nil {
			b.Fatalf("record: %v", err)
		}
	})
	if c != nil {
		// Every Fetch of the idle consumer is held for the max wait: at
		// least one per max wait of the timed loop was sent.
		if m := c.Metrics(); m.FetchRequests == 0 || m.FetchFailures != 0 {
			b.Fatalf("consumer fetches: %+v", m)
		}
		b.ReportMetric(float64(cl.Metrics().Lanes[client.LaneFetch].Connections), "fetch-conns")
	}
}

func benchFranzLatency(b *testing.B, busy, idle string, withConsumer bool) {
	opts := []kgo.Opt{
		kgo.SeedBrokers(bootstrap(b)...),
		kgo.ClientID("franz-bench"),
		kgo.DefaultProduceTopic(busy),
		kgo.RequiredAcks(kgo.AllISRAcks()),
		kgo.ProducerLinger(0),
		kgo.RecordPartitioner(kgo.ManualPartitioner()),
	}
	if withConsumer {
		opts = append(opts,
			kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{idle: {0: kgo.NewOffset().AtEnd()}}),
			kgo.FetchMaxWait(latencyMaxWait))
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	ctx := ctxFor(b, 5*time.Minute)
	var wg sync.WaitGroup
	pollCtx, stopPolling := context.WithCancel(ctx)
	if withConsumer {
		wg.Add(1)
		go func() { // franz-go fetches in the background; poll as an application would
			defer wg.Done()
			for pollCtx.Err() == nil {
				cl.PollFetches(pollCtx)
			}
		}()
	}
	defer wg.Wait()
	defer stopPolling()
	value := payload(100)
	timeSends(b, func() {
		if err := cl.ProduceSync(ctx, &kgo.Record{Value: value, Partition: 0}).FirstErr(); err != nil {
			b.Fatalf("ProduceSync: %v", err)
		}
	})
}
