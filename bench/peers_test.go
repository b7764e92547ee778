package bench

import (
	"fmt"
	"syscall"
	"testing"

	"github.com/gregor-kafka/gregor/wire"
)

// The peers: the other Go Kafka clients users choose between, run with the
// settings gregor and franz-go use in BenchmarkProduce and BenchmarkConsume
// wherever the client has them (each peer's file says what it cannot do).
//
//   - sarama (github.com/IBM/sarama): AsyncProducer, idempotent acks=all;
//     idempotence forces one request in flight per broker
//     (Net.MaxOpenRequests = 1); at most 100 retries (not unlimited); no
//     sticky partitioner (unkeyed records go to a random partition per
//     record).
//   - kafka-go (github.com/segmentio/kafka-go): Writer, acks=all but NOT
//     idempotent (kafka-go has no idempotent producer); round-robin
//     balancer; messages are handed over 1000 per WriteMessages call;
//     at most 10,000 messages per batch.
//   - confluent-kafka-go (github.com/confluentinc/confluent-kafka-go/v2,
//     librdkafka bundled, cgo): idempotent acks=all. Its record memory is
//     allocated in C: B/rec and allocs/rec count only the Go side; CPU
//     per record and peak RSS count both.
//
// One op is one record, as in BenchmarkProduce; only records acknowledged
// without error count (any error fails the benchmark). Consume reads the
// pre-filled topics of BenchmarkConsume (300,000 records of 100 B).
var peers = []string{"sarama", "kafkago", "confluent"}

// peerProduceFns and peerConsumeFns are filled by the peers' files.
var (
	peerProduceFns = map[string]func(b *testing.B, topic string, c produceCase){}
	peerConsumeFns = map[string]func(b *testing.B, topic string, c consumeCase){}
)

// BenchmarkPeerProduce runs BenchmarkProduce's cases with the peers.
//
// Compare with: benchstat -col /client (together with BenchmarkProduce's
// output).
func BenchmarkPeerProduce(b *testing.B) {
	owner := b
	for _, c := range produceCases() {
		for _, peer := range peers {
			b.Run("client="+peer+"/"+c.name(), func(b *testing.B) {
				topic := topicFor(b, owner, "produce/"+peer+"/"+c.name(), c.partitions)
				peerProduceFns[peer](b, topic, c)
			})
		}
	}
}

// BenchmarkPeerConsume runs BenchmarkConsume's cases with the peers.
func BenchmarkPeerConsume(b *testing.B) {
	owner := b
	for _, c := range consumeCases() {
		for _, peer := range peers {
			b.Run("client="+peer+"/"+c.name(), func(b *testing.B) {
				topic := topicFor(b, owner, "consume/"+c.name(), c.partitions)
				if _, done := filled.Load(topic); !done {
					prefill(b, topic, c)
					filled.Store(topic, true)
				}
				peerConsumeFns[peer](b, topic, c)
			})
		}
	}
}

// consumeCases are BenchmarkConsume's cases: 100 B values, 1 and 4
// partitions, none and lz4.
func consumeCases() []consumeCase {
	return []consumeCase{
		{1, wire.CompressionNone}, {1, wire.CompressionLZ4},
		{4, wire.CompressionNone}, {4, wire.CompressionLZ4},
	}
}

// reportPeakRSS reports the process's peak resident set (getrusage
// ru_maxrss) in MiB. It is the peak of the whole process so far: it means
// one client's peak only when the process ran that client's benchmarks
// alone (run.sh runs each client in a process of its own).
func reportPeakRSS(b *testing.B) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MiB")
	}
}

// consumeCheck fails b unless n records with total value bytes were read.
func consumeCheck(b *testing.B, n, bytes int) {
	if n != consumeRecords || bytes != consumeRecords*consumeValueSize {
		b.Fatalf("read %d records, %d value bytes; want %d, %d", n, bytes, consumeRecords, consumeRecords*consumeValueSize)
	}
}

// timedConsume runs readAll once to warm up, then b.N times timed, and
// reports the per-record metrics.
func timedConsume(b *testing.B, readAll func()) {
	readAll()
	b.ReportAllocs()
	b.SetBytes(consumeRecords * consumeValueSize)
	b.ResetTimer()
	start := readUsage()
	for i := 0; i < b.N; i++ {
		readAll()
	}
	b.StopTimer()
	report(b, start, b.N*consumeRecords)
}

func peerErr(peer string, err error) error { return fmt.Errorf("%s: %w", peer, err) }
