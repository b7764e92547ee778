package bench

import (
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
	"github.com/segmentio/kafka-go"
	"github.com/segmentio/kafka-go/compress"
)

func init() {
	peerProduceFns["kafkago"] = benchKafkaGoProduce
	peerConsumeFns["kafkago"] = benchKafkaGoConsume
}

// kafkaGoBatch is how many messages one WriteMessages call hands over.
const kafkaGoBatch = 1000

// benchKafkaGoProduce: kafka-go's Writer has no idempotent mode; acks=all,
// async with a completion callback counting acknowledged messages. Its
// async Writer has no bound on buffered bytes.
func benchKafkaGoProduce(b *testing.B, topic string, c produceCase) {
	var mu sync.Mutex
	acked, target := 0, 0
	var firstErr error
	done := make(chan struct{})
	// A Transport of its own: the shared default one caches metadata for
	// 6 s, so a topic created since is "unknown" to it.
	tr := &kafka.Transport{}
	defer tr.CloseIdleConnections()
	w := &kafka.Writer{
		Addr:         kafka.TCP(bootstrap(b)...),
		Transport:    tr,
		Topic:        topic,
		Balancer:     &kafka.RoundRobin{},
		RequiredAcks: kafka.RequireAll,
		BatchTimeout: benchLinger,
		BatchBytes:   benchBatchMaxBytes,
		// BatchSize: kafka-go allocates a batch's message slice at this
		// capacity up front (1,000,000 cost it 1.4 MB per record); 10,000
		// is gregor's BatchMaxRecords default.
		BatchSize:   10000,
		MaxAttempts: 1 << 20,
		Async:       true,
		Completion: func(msgs []kafka.Message, err error) {
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = err
			}
			if err == nil {
				acked += len(msgs)
			}
			if acked >= target || firstErr != nil {
				select {
				case <-done:
				default:
					close(done)
				}
			}
		},
	}
	if c.codec == wire.CompressionLZ4 {
		w.Compression = compress.Lz4
	}
	defer w.Close()
	ctx := ctxFor(b, 5*time.Minute)
	value := c.values()
	var msgs []kafka.Message
	produce := func(n int) {
		mu.Lock()
		acked, target, done = 0, n, make(chan struct{})
		d := done
		mu.Unlock()
		for i := 0; i < n; i += kafkaGoBatch {
			k := min(kafkaGoBatch, n-i)
			// The writer keeps the slice until the batch completes: a
			// fresh one per call.
			msgs = make([]kafka.Message, k)
			for j := range msgs {
				msgs[j].Value = value(i + j)
			}
			if err := w.WriteMessages(ctx, msgs...); err != nil {
				b.Fatal(peerErr("kafka-go", err))
			}
		}
		select {
		case <-d:
		case <-ctx.Done():
			b.Fatal("kafka-go: records not acknowledged in time")
		}
		mu.Lock()
		defer mu.Unlock()
		if firstErr != nil {
			b.Fatal(peerErr("kafka-go", firstErr))
		}
	}
	produce(warmupRecords)
	b.ReportAllocs()
	b.SetBytes(int64(c.valueSize))
	b.ResetTimer()
	start := readUsage()
	produce(b.N)
	b.StopTimer()
	report(b, start, b.N)
}

// benchKafkaGoConsume: one kafka.Reader per partition (kafka-go reads
// assigned partitions that way), MinBytes 1, MaxBytes 1 MiB, MaxWait as
// the others.
func benchKafkaGoConsume(b *testing.B, topic string, c consumeCase) {
	boot := bootstrap(b)
	per := consumeRecords / int(c.partitions)
	ctx := ctxFor(b, 5*time.Minute)
	timedConsume(b, func() {
		var wg sync.WaitGroup
		counts := make([][2]int, c.partitions)
		errs := make(chan error, c.partitions)
		for p := range c.partitions {
			r := kafka.NewReader(kafka.ReaderConfig{
				Brokers:   boot,
				Topic:     topic,
				Partition: int(p),
				MinBytes:  1,
				MaxBytes:  1 << 20,
				MaxWait:   consumeMaxWait,
			})
			if err := r.SetOffset(kafka.FirstOffset); err != nil {
				b.Fatal(peerErr("kafka-go", err))
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer r.Close()
				for counts[p][0] < per {
					m, err := r.ReadMessage(ctx)
					if err != nil {
						errs <- err
						return
					}
					counts[p][0]++
					counts[p][1] += len(m.Value)
				}
			}()
		}
		wg.Wait()
		select {
		case err := <-errs:
			b.Fatal(peerErr("kafka-go", err))
		default:
		}
		n, bytes := 0, 0
		for _, c := range counts {
			n, bytes = n+c[0], bytes+c[1]
		}
		consumeCheck(b, n, bytes)
	})
}
