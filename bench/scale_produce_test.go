package bench

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kgo"
)

// scaleRecords and scaleValueSize are one op of the scale suite's produce
// cases: 100,000 records of 100 B, round-robin over the topic's partitions.
const (
	scaleRecords   = 100_000
	scaleValueSize = 100
)

// scalePartitions are the partition counts of the cost curves;
// GREGOR_BENCH_SCALE_PARTS (comma-separated) replaces them.
func scalePartitions(b *testing.B) []int32 {
	s := os.Getenv("GREGOR_BENCH_SCALE_PARTS")
	if s == "" {
		return []int32{1, 16, 64, 256, 1024, 4096}
	}
	var ps []int32
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			b.Fatalf("GREGOR_BENCH_SCALE_PARTS: bad count %q", f)
		}
		ps = append(ps, int32(n))
	}
	return ps
}

// BenchmarkScaleProduce is the produce side of the scale cost curves:
// gregor beside franz-go, both at their default configurations (franz-go
// with its manual partitioner, so that the record's partition is used),
// idempotent acks=all, 100,000 records of 100 B sent round-robin to
// explicit partitions of a topic of parts partitions. Before any case the
// broker's index files are warmed (warmIndexes); before each case's timer
// the topic is warmed: one record per partition, flushed, so every
// partition is led and known to the client, and its producer ID is set. One op is
// the 100,000 records, ending when every record is acknowledged (Flush);
// run.sh runs one op per case and process run.
//
// The defaults differ in one way that decides the curve past ~100
// partitions on a single loopback broker: gregor's codec is none (the Java
// client's compression.type default), franz-go's snappy. So each client
// also runs with the other's codec, everything else at its defaults:
// client=gregor-snappy and client=franz-none.
//
// Metrics: records/s, cpu-ns/rec, B/rec and allocs/rec (whole process),
// recs/req, peak-RSS-MiB (the process's peak so far: cases run in
// increasing partition count, so it is the peak up to this count),
// heap-MiB (heap in use after the op, before the client closes) and
// heap-KiB/part (heap in use after the warm-up, after a GC, less the heap
// before the client was made, per partition: the client's state per
// partition once every partition was used).
//
// Compare with: benchstat -col /client
func BenchmarkScaleProduce(b *testing.B) {
	owner := b
	for i, parts := range scalePartitions(b) {
		name := fmt.Sprintf("parts=%d", parts)
		var cases []scaleCase
		for _, snappy := range []bool{false, true} {
			client := "gregor"
			if snappy {
				client = "gregor-snappy"
			}
			cases = append(cases, scaleCase{client, func(b *testing.B) {
				topic := warmedTopic(b, owner, "scale-produce/"+name, parts)
				benchScaleGregorProduce(b, bootstrap(b), topic, parts, snappy)
			}})
		}
		for _, none := range []bool{false, true} {
			client := "franz"
			if none {
				client = "franz-none"
			}
			cases = append(cases, scaleCase{client, func(b *testing.B) {
				topic := warmedTopic(b, owner, "scale-produce/"+name, parts)
				benchScaleFranzProduce(b, bootstrap(b), topic, parts, none)
			}})
		}
		runScaleCases(b, i, name, cases)
	}
}

// scaleCase is one client's case at one partition count.
type scaleCase struct {
	client string
	run    func(b *testing.B)
}

// runScaleCases runs the cases of the i-th partition count, in reverse
// order when GREGOR_BENCH_RUN + i is odd, so that over runs and counts
// neither client always goes first on a topic (the first meets the broker
// and page cache as the case before left them).
func runScaleCases(b *testing.B, i int, name string, cases []scaleCase) {
	run, _ := strconv.Atoi(os.Getenv("GREGOR_BENCH_RUN"))
	if (run+i)%2 == 1 {
		slices.Reverse(cases)
	}
	for _, c := range cases {
		b.Run("client="+c.client+"/"+name, c.run)
	}
}

// smallIndexBytes is the produce topics' segment.index.bytes (256 KiB; the
// broker's default is 10 MiB): the size of each partition's preallocated,
// memory-mapped offset and time index files. With this machine's 8 MiB
// read_ahead_kb the broker's first touch of an index file faulted in 8 MiB
// of it: at 4,096 partitions 2 x 4,096 x 8 MiB, about 64 GB, against 24 GB
// of RAM, so the broker thrashed the page cache (80 % of its samples in
// page faults, records/s of either client swinging 2k-180k from process
// to process; bench/RESULTS.md, session 18). At 256 KiB all index files
// of 4,096 partitions take 2 GiB, and a segment still rolls only after
// about 85 MiB of a partition's log (the time index's 12-byte entries, one
// per index.interval.bytes, 4,096 B), more than a process writes to one.
const smallIndexBytes = "262144"

// warmedTopic is topicFor's topic for key, with smallIndexBytes, warmed by
// warmIndexes once, when first asked for.
func warmedTopic(b *testing.B, owner *testing.B, key string, parts int32) string {
	b.Helper()
	indexBytes := smallIndexBytes
	topic := topicWith(b, owner, key, parts, map[string]*string{"segment.index.bytes": &indexBytes})
	topics.Lock()
	done := topics.warmed[topic]
	topics.Unlock()
	if !done {
		warmIndexes(b, topic, parts)
		topics.Lock()
		if topics.warmed == nil {
			topics.warmed = map[string]bool{}
		}
		topics.warmed[topic] = true
		topics.Unlock()
	}
	return topic
}

// warmIndexes writes every partition of topic its first offset- and
// time-index entry before any case runs: two appends per partition, the
// first larger than the broker's index.interval.bytes (4,096 B). The
// broker's first write into a fresh log's preallocated, memory-mapped index
// files costs it about a millisecond per partition on this machine (0.6 to
// 1 s of a Produce's local time at 1,024 partitions, read from the broker's
// request log), paid once per segment; without this the case that ran
// first on the topic paid it alone, and only with batches over 4 KiB per
// partition (uncompressed, so gregor's default and franz-none, not
// franz-go's snappy): gregor then franz-none on one fresh topic, 1,024
// partitions, measured 27k and 608k records/s, each alone on a fresh topic
// about 20k and 2k.
func warmIndexes(b *testing.B, topic string, parts int32) {
	b.Helper()
	cl := newGregorClientAt(b, bootstrap(b))
	defer cl.Close(context.Background())
	p, err := producer.New(cl, producer.Config{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := ctxFor(b, 5*time.Minute)
	defer p.Close(ctx)
	m := &producer.Record{Topic: topic, Value: payload(scaleValueSize)}
	for _, perPartition := range []int{48, 1} { // 48 records of 100 B: over 4,096 B
		for i := 0; i < perPartition*int(parts); i++ {
			m.Partition = producer.ToPartition(int32(i) % parts)
			if _, err := p.Send(ctx, m); err != nil {
				b.Fatalf("warm %s: %v", topic, err)
			}
		}
		if err := p.Flush(ctx); err != nil {
			b.Fatalf("warm %s: %v", topic, err)
		}
	}
}

// benchScaleGregorProduce runs the gregor case of BenchmarkScaleProduce on
// boot and returns its records/s.
func benchScaleGregorProduce(b *testing.B, boot []string, topic string, parts int32, snappy bool) float64 {
	heap0 := heapInuse()
	cl := newGregorClientAt(b, boot)
	defer cl.Close(context.Background())
	var cfg producer.Config // the defaults
	if snappy {
		cfg.Compression = wire.CompressionSnappy // franz-go's default codec
	}
	p, err := producer.New(cl, cfg)
	if err != nil {
		b.Fatal(err)
	}
	ctx := ctxFor(b, 10*time.Minute)
	defer p.Close(ctx)
	m := &producer.Record{Topic: topic, Value: payload(scaleValueSize)}
	// Every 1024th record and the last are checked after Flush, so a
	// failing producer cannot pass for a fast one.
	check := make([]*producer.Delivery, 0, scaleRecords/1024+2)
	produce := func(n int) {
		check = check[:0]
		for i := 0; i < n; i++ {
			m.Partition = producer.ToPartition(int32(i) % parts)
			d, err := p.Send(ctx, m)
			if err != nil {
				b.Fatalf("Send: %v", err)
			}
			if i%1024 == 0 || i == n-1 {
				check = append(check, d)
			}
		}
		if err := p.Flush(ctx); err != nil {
			b.Fatalf("Flush: %v", err)
		}
		for _, d := range check {
			if r, ok := d.Result(); !ok || r.Err != nil {
				b.Fatalf("record: terminal %v, err %v", ok, r.Err)
			}
		}
	}
	produce(int(parts)) // warm-up: one record per partition
	heapPart := heapPerPartition(heap0, parts)
	m0 := cl.Metrics()
	rate := scaleTimed(b, func() { produce(scaleRecords) })
	b.ReportMetric(heapPart, "heap-KiB/part")
	m1 := cl.Metrics()
	pm := m1.Producer
	if reqs := pm.Requests - m0.Producer.Requests; reqs > 0 {
		b.ReportMetric(float64(b.N*scaleRecords)/float64(reqs), "recs/req")
	}
	b.ReportMetric(float64(pm.PeakInFlightPerBroker), "peak-inflight")
	reportInFlight(b, m0.Stages.InFlight, m1.Stages.InFlight)
	return rate
}

// reportInFlight reports inflight-ms, the mean time from a request's write
// to its response being read over the op (before and after: the client's
// Stages.InFlight; nearly all of them Produce requests). On loopback the
// round trip is ~0.05 ms, so this is the broker's time per request: with
// recs/req and peak-inflight it bounds the records/s the producer can
// reach, peak-inflight * recs/req / inflight-ms.
func reportInFlight(b *testing.B, before, after client.DurationStats) {
	if n := after.Count - before.Count; n > 0 {
		b.ReportMetric(float64(after.Total-before.Total)/float64(n)/1e6, "inflight-ms")
	}
}

// benchScaleFranzProduce runs the franz-go case of BenchmarkScaleProduce
// on boot and returns its records/s.
func benchScaleFranzProduce(b *testing.B, boot []string, topic string, parts int32, none bool) float64 {
	opts := []kgo.Opt{
		kgo.SeedBrokers(boot...),
		kgo.ClientID("franz-bench"),
		kgo.DefaultProduceTopic(topic),
		kgo.RecordPartitioner(kgo.ManualPartitioner()), // explicit partitions
		kgo.WithHooks(&produceWrites),
	}
	heap0 := heapInuse()
	if none {
		opts = append(opts, kgo.ProducerBatchCompression(kgo.NoCompression())) // gregor's default codec
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	ctx := ctxFor(b, 10*time.Minute)
	value := payload(scaleValueSize)
	var failed atomic.Int64
	var firstErr atomic.Value
	promise := func(_ *kgo.Record, err error) {
		if err != nil && failed.Add(1) == 1 {
			firstErr.Store(err)
		}
	}
	produce := func(n int) {
		for i := 0; i < n; i++ {
			cl.Produce(ctx, &kgo.Record{Value: value, Partition: int32(i) % parts}, promise)
		}
		if err := cl.Flush(ctx); err != nil {
			b.Fatalf("Flush: %v", err)
		}
		if failed.Load() != 0 {
			b.Fatalf("%d records failed, first: %v", failed.Load(), firstErr.Load())
		}
	}
	produce(int(parts)) // warm-up: one record per partition
	heapPart := heapPerPartition(heap0, parts)
	reqs0 := produceWrites.n.Load()
	rate := scaleTimed(b, func() { produce(scaleRecords) })
	b.ReportMetric(heapPart, "heap-KiB/part")
	if reqs := produceWrites.n.Load() - reqs0; reqs > 0 {
		b.ReportMetric(float64(int64(b.N)*scaleRecords)/float64(reqs), "recs/req")
	}
	return rate
}

// scaleTimed runs op (scaleRecords records) b.N times under the timer,
// reports the per-record metrics and the heap in use after the last op and
// returns the records/s.
func scaleTimed(b *testing.B, op func()) float64 {
	b.ReportAllocs()
	b.SetBytes(scaleRecords * scaleValueSize)
	b.ResetTimer()
	start := readUsage()
	for i := 0; i < b.N; i++ {
		op()
	}
	b.StopTimer()
	rate := report(b, start, b.N*scaleRecords)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MiB")
	return rate
}

// heapInuse is the heap in use after a collection.
func heapInuse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// heapPerPartition is the heap in use now, after a collection, less heap0,
// per partition, in KiB (reported after the timer: ResetTimer drops
// metrics reported before it).
func heapPerPartition(heap0 uint64, parts int32) float64 {
	return (float64(heapInuse()) - float64(heap0)) / 1024 / float64(parts)
}
