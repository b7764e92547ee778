package producer

import (
	"context"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// BenchmarkAdmitEncode measures admission (copy into the producer's buffer,
// accounting, partition lookup, delivery handle) plus record batch encoding
// with sequence assignment and acknowledgement bookkeeping, for 100-byte
// values in batches of 100 records, with no network. One op is one record.
// The borrow/<codec> cases are the same with Config.BorrowSlices
// (references at admission, records encoded when the batch is sent).
func BenchmarkAdmitEncode(b *testing.B) {
	codecs := []wire.Compression{wire.CompressionNone, wire.CompressionGzip, wire.CompressionSnappy, wire.CompressionLZ4, wire.CompressionZstd}
	for _, codec := range codecs {
		b.Run(codec.String(), func(b *testing.B) { benchAdmitEncode(b, Config{Compression: codec}, nil) })
	}
	for _, codec := range codecs {
		b.Run("borrow/"+codec.String(), func(b *testing.B) { benchAdmitEncode(b, Config{Compression: codec, BorrowSlices: true}, nil) })
	}
}

// BenchmarkAdmitEncodeHooked is BenchmarkAdmitEncode (uncompressed) with a
// hook registered for record outcomes and batch acknowledgements, as the
// Prometheus and OpenTelemetry plugins register: the difference to
// BenchmarkAdmitEncode/none is what building and delivering the events
// costs per record (the hook itself only counts).
func BenchmarkAdmitEncodeHooked(b *testing.B) {
	h := &countingHook{}
	cl, err := client.New(client.Config{Bootstrap: []string{"127.0.0.1:1"}, Hooks: []client.Hook{h}})
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close(context.Background())
	benchAdmitEncode(b, Config{}, cl.Hooks())
	if h.records.Load() == 0 {
		b.Fatal("the hook saw no record")
	}
}

// countingHook counts record outcomes and acknowledged batches.
type countingHook struct{ records, batches atomic.Int64 }

func (h *countingHook) OnRecordOutcome(client.RecordEvent)    { h.records.Add(1) }
func (h *countingHook) OnProduceBatchAcked(client.BatchEvent) { h.batches.Add(1) }

// BenchmarkAdmitEncode1KiB is BenchmarkAdmitEncode with distinct 1 KiB
// values (slots of a 256 MiB ring, so a value is not in the cache when it
// is admitted, as an application's data produced a while ago is not) in
// batches of 1000 records, copied at admission or borrowed
// (Config.BorrowSlices, encoded when the batch is sent). It leaves out the
// socket write, where a batch encoded just before is read warm. One op is
// one record.
func BenchmarkAdmitEncode1KiB(b *testing.B) {
	const size = 1024
	ring := make([]byte, 256<<20)
	for i := range ring {
		ring[i] = byte('a' + i%7)
	}
	slots := len(ring) / size
	value := func(i int) []byte { j := i % slots * size; return ring[j : j+size : j+size] }
	for _, mode := range []string{"copy", "borrow"} {
		for _, codec := range []wire.Compression{wire.CompressionNone, wire.CompressionLZ4} {
			b.Run(mode+"/"+codec.String(), func(b *testing.B) {
				benchAdmitEncodeValues(b, Config{Compression: codec, BorrowSlices: mode == "borrow", BatchMaxRecords: 1000, BatchMaxBytes: 2 << 20}, nil, size, value)
			})
		}
	}
}

func benchAdmitEncode(b *testing.B, cfg Config, hooks *client.Hooks) {
	value := make([]byte, 100)
	for i := range value {
		value[i] = byte('a' + i%7)
	}
	cfg.BatchMaxRecords = 100
	benchAdmitEncodeValues(b, cfg, hooks, len(value), func(int) []byte { return value })
}

// benchAdmitEncodeValues admits record i with value(i), acknowledging each
// full batch (cfg.BatchMaxRecords) after encoding it.
func benchAdmitEncodeValues(b *testing.B, cfg Config, hooks *client.Hooks, size int, value func(i int) []byte) {
	{
		{
			f := newFakeCluster(nil, map[string]int{"t": 1}, 1)
			per := cfg.BatchMaxRecords
			p, err := buildProducer(f, cfg)
			if err != nil {
				b.Fatal(err)
			}
			p.hooks = hooks
			p.ident.set(1, 0)
			m := &Record{Topic: "t", Partition: ToPartition(0), Key: []byte("key-0123"),
				Headers: []wire.Header{{Key: "trace", Value: []byte("abc")}}}
			var offset int64
			drain := func() {
				p.mu.Lock()
				part := p.topics["t"].parts[0]
				bt := part.batches[0]
				p.assignSequenceLocked(part, bt)
				bt.send()
				p.mu.Unlock()
				if err := p.encode(bt); err != nil {
					b.Fatal(err)
				}
				p.mu.Lock()
				bt.releaseRefs(&p.pools) // as send does
				bt.answered()
				p.succeedLocked(part, bt, batchResult{baseOffset: offset, appendTime: -1})
				offset += int64(per)
				p.mu.Unlock()
			}
			// Warm up buffers and pools.
			for i := 0; i < 10*per; i++ {
				m.Value = value(i)
				if _, err := p.TrySend(m); err != nil {
					b.Fatal(err)
				}
				if (i+1)%per == 0 {
					drain()
				}
			}
			b.ReportAllocs()
			b.SetBytes(int64(size))
			b.ResetTimer()
			cpu0 := cpuTime()
			n := 0
			for i := 0; i < b.N; i++ {
				m.Value = value(10*per + i)
				if _, err := p.TrySend(m); err != nil {
					b.Fatal(err)
				}
				if n++; n == per {
					drain()
					n = 0
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
			if n > 0 {
				drain()
			}
			if p.activeRecords != 0 {
				b.Fatalf("%d records left", p.activeRecords)
			}
			p.mu.Lock()
			clockDone := p.clk.stopLocked() // buildProducer's producer is never closed
			p.mu.Unlock()
			<-clockDone
		}
	}
}

// cpuTime is this process's user+system CPU time (getrusage), which load
// from other processes on the machine does not inflate as it does wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
