package bench

import (
	"errors"
	"fmt"
	"testing"
	"time"

	ckafka "github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/gregor-kafka/gregor/wire"
)

func init() {
	peerProduceFns["confluent"] = benchConfluentProduce
	peerConsumeFns["confluent"] = benchConfluentConsume
}

func confluentBootstrap(b *testing.B) string {
	boot := bootstrap(b)
	s := boot[0]
	for _, a := range boot[1:] {
		s += "," + a
	}
	return s
}

// benchConfluentProduce: librdkafka with the shared settings (idempotent,
// acks=all, linger 5 ms, 1 MB batches, 5 in flight, 32 MiB / 1,000,000
// records buffered, lz4); delivery reports on the Events channel. A full
// queue (ErrQueueFull) waits for deliveries, as gregor's Send waits for
// room.
func benchConfluentProduce(b *testing.B, topic string, c produceCase) {
	codec := "none"
	if c.codec == wire.CompressionLZ4 {
		codec = "lz4"
	}
	p, err := ckafka.NewProducer(&ckafka.ConfigMap{
		"bootstrap.servers":                     confluentBootstrap(b),
		"client.id":                             "confluent-bench",
		"enable.idempotence":                    true,
		"acks":                                  "all",
		"linger.ms":                             int(benchLinger / time.Millisecond),
		"batch.size":                            benchBatchMaxBytes,
		"max.in.flight.requests.per.connection": benchInFlight,
		"queue.buffering.max.kbytes":            benchBufferBytes >> 10,
		"queue.buffering.max.messages":          benchBufferRecords,
		"message.max.bytes":                     benchRequestMaxBytes,
		"compression.type":                      codec,
		"go.delivery.report.fields":             "none",
	})
	if err != nil {
		b.Fatal(peerErr("confluent", err))
	}
	defer p.Close()
	value := c.values()
	tp := ckafka.TopicPartition{Topic: &topic, Partition: ckafka.PartitionAny}
	produce := func(n int) {
		done := make(chan error, 1)
		go func() {
			acked := 0
			for acked < n {
				switch e := (<-p.Events()).(type) {
				case *ckafka.Message:
					if e.TopicPartition.Error != nil {
						done <- e.TopicPartition.Error
						return
					}
					acked++
				case ckafka.Error:
					if e.IsFatal() {
						done <- e
						return
					}
				}
			}
			done <- nil
		}()
		for i := 0; i < n; i++ {
			m := &ckafka.Message{TopicPartition: tp, Value: value(i)}
			for {
				err := p.Produce(m, nil)
				var ke ckafka.Error
				if err == nil {
					break
				}
				if errors.As(err, &ke) && ke.Code() == ckafka.ErrQueueFull {
					p.Flush(1) // serve delivery reports for up to 1 ms
					continue
				}
				b.Fatal(peerErr("confluent", err))
			}
		}
		select {
		case err := <-done:
			if err != nil {
				b.Fatal(peerErr("confluent", err))
			}
		case <-time.After(5 * time.Minute):
			b.Fatal("confluent: records not acknowledged within 5 minutes")
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

// benchConfluentConsume: librdkafka's consumer with assigned partitions
// (it requires a group.id even then; nothing is committed), fetch limits
// as the others.
func benchConfluentConsume(b *testing.B, topic string, c consumeCase) {
	boot := confluentBootstrap(b)
	timedConsume(b, func() {
		cons, err := ckafka.NewConsumer(&ckafka.ConfigMap{
			"bootstrap.servers":         boot,
			"client.id":                 "confluent-bench",
			"group.id":                  fmt.Sprintf("confluent-bench-%d", time.Now().UnixNano()),
			"enable.auto.commit":        false,
			"fetch.wait.max.ms":         int(consumeMaxWait / time.Millisecond),
			"fetch.min.bytes":           1,
			"fetch.max.bytes":           50 << 20,
			"max.partition.fetch.bytes": 1 << 20,
		})
		if err != nil {
			b.Fatal(peerErr("confluent", err))
		}
		defer cons.Close()
		var tps []ckafka.TopicPartition
		for p := range c.partitions {
			tps = append(tps, ckafka.TopicPartition{Topic: &topic, Partition: p, Offset: ckafka.OffsetBeginning})
		}
		if err := cons.Assign(tps); err != nil {
			b.Fatal(peerErr("confluent", err))
		}
		n, bytes := 0, 0
		deadline := time.Now().Add(5 * time.Minute)
		for n < consumeRecords {
			if time.Now().After(deadline) {
				b.Fatalf("confluent: %d records after 5 minutes", n)
			}
			switch e := cons.Poll(100).(type) {
			case *ckafka.Message:
				if e.TopicPartition.Error != nil {
					b.Fatal(peerErr("confluent", e.TopicPartition.Error))
				}
				n++
				bytes += len(e.Value)
			case ckafka.Error:
				if e.IsFatal() || e.Code() != ckafka.ErrTransport && e.Code() != ckafka.ErrAllBrokersDown {
					b.Fatal(peerErr("confluent", e))
				}
			}
		}
		consumeCheck(b, n, bytes)
	})
}
