package producer

import (
	"syscall"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// BenchmarkAdmitEncode measures admission (copy into the producer's buffer,
// accounting, partition lookup, delivery handle) plus record batch encoding
// with sequence assignment and acknowledgement bookkeeping, for 100-byte
// values in batches of 100 records, with no network. One op is one record.
func BenchmarkAdmitEncode(b *testing.B) {
	for _, codec := range []wire.Compression{wire.CompressionNone, wire.CompressionGzip, wire.CompressionSnappy, wire.CompressionLZ4, wire.CompressionZstd} {
		b.Run(codec.String(), func(b *testing.B) {
			f := newFakeCluster(nil, map[string]int{"t": 1}, 1)
			p, err := buildProducer(f, Config{Compression: codec, BatchMaxRecords: 100})
			if err != nil {
				b.Fatal(err)
			}
			p.haveID, p.pid = true, 1
			value := make([]byte, 100)
			for i := range value {
				value[i] = byte('a' + i%7)
			}
			m := &Record{Topic: "t", Partition: ToPartition(0), Key: []byte("key-0123"), Value: value,
				Headers: []wire.Header{{Key: "trace", Value: []byte("abc")}}}
			var offset int64
			drain := func() {
				p.mu.Lock()
				part := p.topics["t"].parts[0]
				bt := part.batches[0]
				p.assignSequence(part, bt)
				bt.state = batchInFlight
				p.mu.Unlock()
				if err := p.encode(bt); err != nil {
					b.Fatal(err)
				}
				p.mu.Lock()
				bt.state = batchReady
				p.succeed(part, bt, batchResult{baseOffset: offset, appendTime: -1})
				offset += 100
				p.mu.Unlock()
			}
			// Warm up buffers and pools.
			for i := 0; i < 1000; i++ {
				if _, err := p.TrySend(m); err != nil {
					b.Fatal(err)
				}
				if (i+1)%100 == 0 {
					drain()
				}
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(value)))
			b.ResetTimer()
			cpu0 := cpuTime()
			n := 0
			for i := 0; i < b.N; i++ {
				if _, err := p.TrySend(m); err != nil {
					b.Fatal(err)
				}
				if n++; n == 100 {
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
		})
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
