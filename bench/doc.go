// Package bench holds benchmarks that set gregor beside peer clients
// (franz-go, sarama, segmentio/kafka-go and confluent-kafka-go with
// librdkafka) on the same broker and settings: BenchmarkProduce and
// BenchmarkConsume (gregor and franz-go), BenchmarkPeerProduce and
// BenchmarkPeerConsume (the others), offline decode comparisons. run.sh
// runs them interleaved and cmd/charts draws the results (RESULTS.md).
package bench
