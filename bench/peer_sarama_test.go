package bench

import (
	"sync"
	"testing"
	"time"

	"github.com/IBM/sarama"
	"github.com/gregor-kafka/gregor/wire"
)

func init() {
	peerProduceFns["sarama"] = benchSaramaProduce
	peerConsumeFns["sarama"] = benchSaramaConsume
}

// saramaConfig: the shared settings as far as sarama has them. Idempotence
// requires Net.MaxOpenRequests = 1 (one produce request in flight per
// broker, where the others have 5).
func saramaConfig(codec wire.Compression) *sarama.Config {
	cfg := sarama.NewConfig()
	cfg.ClientID = "sarama-bench"
	cfg.Version = sarama.V3_9_0_0
	cfg.Producer.Idempotent = true
	cfg.Producer.RequiredAcks = sarama.WaitForAll
	cfg.Net.MaxOpenRequests = 1
	// Retry.Max sizes a per-partition slice (Retry.Max+1 entries): not
	// "unlimited" as the others; 100 retries of 100 ms cover their delivery
	// timeouts.
	cfg.Producer.Retry.Max = 100
	cfg.Producer.Return.Successes = true
	cfg.Producer.Return.Errors = true
	cfg.Producer.Flush.Frequency = benchLinger
	cfg.Producer.Flush.Bytes = benchBatchMaxBytes
	cfg.Producer.MaxMessageBytes = benchBatchMaxBytes
	cfg.ChannelBufferSize = 4096
	if codec == wire.CompressionLZ4 {
		cfg.Producer.Compression = sarama.CompressionLZ4
	}
	cfg.Consumer.Fetch.Min = 1
	cfg.Consumer.Fetch.Default = 1 << 20 // per partition, as max.partition.fetch.bytes
	cfg.Consumer.MaxWaitTime = consumeMaxWait
	return cfg
}

func benchSaramaProduce(b *testing.B, topic string, c produceCase) {
	p, err := sarama.NewAsyncProducer(bootstrap(b), saramaConfig(c.codec))
	if err != nil {
		b.Fatal(peerErr("sarama", err))
	}
	defer p.Close()
	value := c.values()
	produce := func(n int) {
		done := make(chan error, 1)
		go func() {
			acked := 0
			for acked < n {
				select {
				case <-p.Successes():
					acked++
				case e := <-p.Errors():
					done <- e.Err
					return
				}
			}
			done <- nil
		}()
		for i := 0; i < n; i++ {
			p.Input() <- &sarama.ProducerMessage{Topic: topic, Value: sarama.ByteEncoder(value(i))}
		}
		select {
		case err := <-done:
			if err != nil {
				b.Fatal(peerErr("sarama", err))
			}
		case <-time.After(5 * time.Minute):
			b.Fatal("sarama: records not acknowledged within 5 minutes")
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

func benchSaramaConsume(b *testing.B, topic string, c consumeCase) {
	boot := bootstrap(b)
	per := consumeRecords / int(c.partitions)
	timedConsume(b, func() {
		cons, err := sarama.NewConsumer(boot, saramaConfig(c.codec))
		if err != nil {
			b.Fatal(peerErr("sarama", err))
		}
		defer cons.Close()
		var wg sync.WaitGroup
		counts := make([][2]int, c.partitions)
		errs := make(chan error, c.partitions)
		for p := range c.partitions {
			pc, err := cons.ConsumePartition(topic, p, sarama.OffsetOldest)
			if err != nil {
				b.Fatal(peerErr("sarama", err))
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer pc.AsyncClose()
				for counts[p][0] < per {
					select {
					case m := <-pc.Messages():
						counts[p][0]++
						counts[p][1] += len(m.Value)
					case e := <-pc.Errors():
						errs <- e.Err
						return
					}
				}
			}()
		}
		wg.Wait()
		select {
		case err := <-errs:
			b.Fatal(peerErr("sarama", err))
		default:
		}
		n, bytes := 0, 0
		for _, c := range counts {
			n, bytes = n+c[0], bytes+c[1]
		}
		consumeCheck(b, n, bytes)
	})
}
