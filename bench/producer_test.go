package bench

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kgo"
)

// produceCase is one producer configuration, run by both clients.
type produceCase struct {
	valueSize  int
	distinct   bool // every record's value has its own bytes (see values)
	partitions int32
	codec      wire.Compression
}

func (c produceCase) name() string {
	data := "shared"
	if c.distinct {
		data = "distinct"
	}
	return fmt.Sprintf("value=%d/data=%s/parts=%d/codec=%s", c.valueSize, data, c.partitions, c.codec)
}

// produceCases: 100 B and 1 KiB values, 1 and 12 partitions, none and lz4,
// each record's value one shared slice; with GREGOR_BENCH_DISTINCT=1 also at
// 1 KiB with distinct values (data=distinct), as an application producing
// new data per record has them.
func produceCases() []produceCase {
	var cs []produceCase
	for _, v := range []int{100, 1024} {
		for _, distinct := range []bool{false, true} {
			if distinct && (v != 1024 || os.Getenv("GREGOR_BENCH_DISTINCT") != "1") {
				continue
			}
			for _, p := range []int32{1, 12} {
				for _, codec := range []wire.Compression{wire.CompressionNone, wire.CompressionLZ4} {
					cs = append(cs, produceCase{valueSize: v, distinct: distinct, partitions: p, codec: codec})
				}
			}
		}
	}
	return cs
}

// valueRingBytes is the size of the distinct values' ring: larger than the
// caches (this machine's L3 is 260 MiB), so a value read long after it
// was written comes from memory, as an application's freshly produced
// data would be by the time a client that copies late gets to it.
const valueRingBytes = 512 << 20

// values returns the value of record i: one shared slice, or for distinct
// cases the i-th slot of a ring of valueRingBytes (each slot the payload
// with its slot number in front, built once per size).
func (c produceCase) values() func(i int) []byte {
	if !c.distinct {
		v := payload(c.valueSize)
		return func(int) []byte { return v }
	}
	ring := valueRing(c.valueSize)
	n := len(ring) / c.valueSize
	return func(i int) []byte {
		j := i % n * c.valueSize
		return ring[j : j+c.valueSize : j+c.valueSize]
	}
}

var rings = map[int][]byte{}

func valueRing(size int) []byte {
	if r, ok := rings[size]; ok {
		return r
	}
	p := payload(size)
	r := make([]byte, valueRingBytes/size*size)
	for j := 0; j+size <= len(r); j += size {
		copy(r[j:], p)
		binary.BigEndian.PutUint32(r[j:], uint32(j/size))
	}
	rings[size] = r
	return r
}

// warmupRecords are produced and flushed before the timer starts, so the
// connection, InitProducerId, metadata and the clients' buffers are warm.
const warmupRecords = 2000

// BenchmarkProduce measures end-to-end idempotent acks=all production of
// unkeyed records (sticky partitioning) against the shared test bed, gregor
// beside franz-go with the same linger, batch size, in-flight limit and
// buffer bounds. One op is one record; the timed interval ends when every
// record is acknowledged (Flush). Metrics: records/s, client cpu-ns/rec
// (getrusage user+sys of this process), B/rec and allocs/rec (whole
// process, every goroutine).
//
// client=gregor-borrow (1 KiB cases only) is gregor with
// producer.Config.BorrowSlices: the values are handed to the producer, not
// copied at admission (franz-go keeps its records' slices too).
//
// Compare with: benchstat -col /client
func BenchmarkProduce(b *testing.B) {
	owner := b
	for _, c := range produceCases() {
		b.Run("client=gregor/"+c.name(), func(b *testing.B) {
			topic := topicFor(b, owner, "produce/gregor/"+c.name(), c.partitions)
			benchGregorProduce(b, topic, c, false)
		})
		if c.valueSize == 1024 {
			b.Run("client=gregor-borrow/"+c.name(), func(b *testing.B) {
				topic := topicFor(b, owner, "produce/gregor-borrow/"+c.name(), c.partitions)
				benchGregorProduce(b, topic, c, true)
			})
		}
		b.Run("client=franz/"+c.name(), func(b *testing.B) {
			topic := topicFor(b, owner, "produce/franz/"+c.name(), c.partitions)
			benchFranzProduce(b, topic, c)
		})
	}
}

func benchGregorProduce(b *testing.B, topic string, c produceCase, borrow bool) {
	cl := newGregorClient(b)
	defer cl.Close(context.Background())
	p := newGregorProducer(b, cl, c.codec, borrow)
	ctx := ctxFor(b, 5*time.Minute)
	defer p.Close(ctx)
	value := c.values()
	m := &producer.Record{Topic: topic}

	// check samples deliveries (every 1024th and the last) so a failing
	// producer cannot pass for a fast one; holding all would add the
	// benchmark's own allocations to the figures. Terminal samples are
	// checked and dropped as the loop goes (every 64 samples), as franz-go's
	// promise checks each record and keeps none: a held Delivery keeps its
	// slab of 512 alive.
	check := make([]*producer.Delivery, 0, 128)
	verify := func(d *producer.Delivery) bool {
		r, ok := d.Result()
		if ok && r.Err != nil {
			b.Fatalf("record failed: %v", r.Err)
		}
		return ok
	}
	produce := func(n int, sample bool) {
		for i := 0; i < n; i++ {
			m.Value = value(i)
			d, err := p.Send(ctx, m)
			if err != nil {
				b.Fatalf("Send: %v", err)
			}
			if sample && (i%1024 == 0 || i == n-1) {
				check = append(check, d)
				if len(check) >= 64 {
					check = slices.DeleteFunc(check, verify)
				}
			}
		}
		if err := p.Flush(ctx); err != nil {
			b.Fatalf("Flush: %v", err)
		}
	}
	produce(warmupRecords, false)

	b.ReportAllocs()
	b.SetBytes(int64(c.valueSize))
	reqs0 := cl.Metrics().Producer.Requests
	b.ResetTimer()
	start := readUsage()
	produce(b.N, true)
	b.StopTimer()
	report(b, start, b.N)
	if reqs := cl.Metrics().Producer.Requests - reqs0; reqs > 0 {
		b.ReportMetric(float64(b.N)/float64(reqs), "recs/req")
	}
	for _, d := range check {
		if !verify(d) {
			b.Fatal("record not terminal after Flush")
		}
	}
}

// newGregorProducer returns gregor's producer at the benchmarks' settings
// (acks=all and idempotence are gregor's only mode).
func newGregorProducer(b *testing.B, cl *client.Client, codec wire.Compression, borrow bool) *producer.Producer {
	// MaxRetries nil: unlimited retries within DeliveryTimeout, as franz-go.
	p, err := producer.New(cl, producer.Config{
		Compression:          codec,
		Linger:               benchLinger,
		BatchMaxBytes:        benchBatchMaxBytes,
		MaxInFlightPerBroker: benchInFlight,
		RequestMaxBytes:      benchRequestMaxBytes,
		RetainedBytes:        benchBufferBytes,
		InFlightRecords:      benchBufferRecords,
		BorrowSlices:         borrow, // the values are never modified
	})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// newFranzProducer returns a franz-go client producing to topic at the
// benchmarks' settings (the same as newGregorProducer's).
func newFranzProducer(b *testing.B, topic string, c wire.Compression) *kgo.Client {
	codec := kgo.NoCompression()
	if c == wire.CompressionLZ4 {
		codec = kgo.Lz4Compression()
	}
	cl, err := kgo.NewClient(
		kgo.SeedBrokers(bootstrap(b)...),
		kgo.ClientID("franz-bench"),
		kgo.DefaultProduceTopic(topic),
		kgo.RequiredAcks(kgo.AllISRAcks()), // idempotence is franz-go's default
		kgo.ProducerLinger(benchLinger),
		kgo.ProducerBatchMaxBytes(benchBatchMaxBytes),
		kgo.ProducerBatchCompression(codec),
		// Idempotent franz-go always allows 5 produce requests in flight per
		// broker (Kafka >= 1.0); MaxProduceRequestsInflightPerBroker is
		// rejected with idempotence, so benchInFlight is implied.
		kgo.MaxBufferedBytes(benchBufferBytes),
		kgo.MaxBufferedRecords(benchBufferRecords),
		kgo.BrokerMaxWriteBytes(benchRequestMaxBytes),
		kgo.WithHooks(&produceWrites),
	)
	if err != nil {
		b.Fatal(err)
	}
	return cl
}

func benchFranzProduce(b *testing.B, topic string, c produceCase) {
	cl := newFranzProducer(b, topic, c.codec)
	defer cl.Close()
	ctx := ctxFor(b, 5*time.Minute)
	value := c.values()

	// One shared promise: no per-record closure. The record itself is
	// allocated per call, as franz-go's API requires (it keeps the *Record
	// until the promise runs).
	var failed atomic.Int64
	var firstErr atomic.Value
	promise := func(_ *kgo.Record, err error) {
		if err != nil && failed.Add(1) == 1 {
			firstErr.Store(err)
		}
	}
	produce := func(n int) {
		for i := 0; i < n; i++ {
			cl.Produce(ctx, &kgo.Record{Value: value(i)}, promise)
		}
		if err := cl.Flush(ctx); err != nil {
			b.Fatalf("Flush: %v", err)
		}
		if failed.Load() != 0 {
			b.Fatalf("%d records failed, first: %v", failed.Load(), firstErr.Load())
		}
	}
	produce(warmupRecords)

	b.ReportAllocs()
	b.SetBytes(int64(c.valueSize))
	reqs0 := produceWrites.n.Load()
	b.ResetTimer()
	start := readUsage()
	produce(b.N)
	b.StopTimer()
	report(b, start, b.N)
	if reqs := produceWrites.n.Load() - reqs0; reqs > 0 {
		b.ReportMetric(float64(b.N)/float64(reqs), "recs/req")
	}
}

// produceWrites counts the ProduceRequests franz-go writes (a kgo hook), for
// the recs/req metric gregor takes from its producer metrics.
var produceWrites = requestWriteCounter{key: int16(wire.KeyProduce)}

// requestWriteCounter counts the requests of one API key that a client
// writes: a kgo.HookBrokerWrite for franz-go, a client hook for gregor.
type requestWriteCounter struct {
	key int16
	n   atomic.Int64
}

// OnBrokerWrite implements kgo.HookBrokerWrite.
func (c *requestWriteCounter) OnBrokerWrite(_ kgo.BrokerMetadata, key int16, _ int, _, _ time.Duration, err error) {
	if key == c.key && err == nil {
		c.n.Add(1)
	}
}

// OnRequestWritten implements gregor's client request hook.
func (c *requestWriteCounter) OnRequestWritten(ev client.RequestEvent) {
	if int16(ev.Key) == c.key && ev.Err == nil {
		c.n.Add(1)
	}
}
