// Package bench holds benchmarks that set gregor beside peer clients
// (franz-go, sarama, segmentio/kafka-go and confluent-kafka-go with
// librdkafka) on the same broker and settings: BenchmarkProduce and
// BenchmarkConsume (gregor and franz-go), BenchmarkPeerProduce and
// BenchmarkPeerConsume (the others), offline decode comparisons. gregor
// and franz-go also in BenchmarkGroupConsume (consumer group),
// BenchmarkTransaction (transactions/s), BenchmarkShareConsume (share
// group), BenchmarkProduceAckLatency (one record at a time) and the paced
// latency benchmarks below. BenchmarkPerfTools sets both beside Apache
// Kafka's own ProducerPerformance and ConsumerPerformance (a JVM per op,
// its CPU and peak RSS from the child's getrusage). run.sh runs them
// interleaved, suite by suite (SUITES: produce consume latency group txn
// share scale tools), and cmd/charts draws the results (RESULTS.md).
//
// # Latency at a fixed offered rate
//
// BenchmarkProduceLatencyAtRate (acknowledgement latency; 1k, 10k and 100k
// records/s; 1 partition and 12, record i to partition i mod 12) and
// BenchmarkEndToEndLatency (produce on one client, receive on another; 1k
// and 10k records/s; 1 partition) offer 100-byte records, idempotent
// acks=all, at each client's default linger (gregor 5ms, franz-go 10ms)
// and with none. Records are offered on an open-loop
// schedule: record i is due at start + i/rate, however long earlier
// records took, and a sender that falls behind sends every overdue record
// at once. Each record's latency runs from its due time, not from when it
// was sent, to its acknowledgement (Delivery done; franz-go's promise) or
// to its receipt by the consuming application, so a stall counts against
// every record it held up (no coordinated omission). Latencies go into an
// HdrHistogram (1 µs to 60 s, 3 significant digits).
//
// Metrics: p50-us, p99-us and p99.9-us (µs); late-p99-us, the p99 of the
// sender's lag behind the schedule when it calls Send/Produce (timer
// overshoot, the machine's load and time blocked in earlier sends: a large
// value says the offered rate was not met on time, and the percentiles
// include it); records/s, the records over the time from the schedule's
// start to the last acknowledgement or receipt (the achieved rate); and
// cpu-ns/rec, the process's CPU (both clients in the end-to-end case)
// per record over the run. One op is one run of 3s (GREGOR_BENCH_LATENCY_RUN)
// after a 1s warm-up at the same rate: run them with -benchtime=1x.
package bench
