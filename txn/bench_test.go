package txn

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

// BenchmarkTransactionFake measures the client's own cost of a committed
// transaction (Begin, n records to one partition, Commit: the partition
// added by AddPartitionsToTxn under v1 or implicitly by Produce under v2,
// the producer's flush and wake-ups, EndTxn) against the scripted fake
// broker, which answers at once, so the figures are the client's (and the
// fake's) CPU rather than a broker's latency. One op is one transaction;
// cpu-ns/op is the process's getrusage (the fake's share included);
// -cpuprofile shows the steps.
func BenchmarkTransactionFake(b *testing.B) {
	for _, tv := range []int{1, 2} {
		for _, n := range []int{1, 100} {
			for _, slow := range []time.Duration{0, 10 * time.Millisecond} {
				b.Run(fmt.Sprintf("tv=%d/records=%d/endtxn=%v", tv, n, slow), func(b *testing.B) {
					benchTxnFake(b, tv, n, slow)
				})
			}
		}
	}
}

// benchTxnFake runs BenchmarkTransactionFake's case: tv, n records per
// transaction, and an EndTxn answered after slow (a real coordinator
// writes the markers first: the client's wake-ups while it waits count).
func benchTxnFake(b *testing.B, tv, n int, slow time.Duration) {
	fb := newFakeBroker(b, int16(tv))
	if slow > 0 {
		fb.script = func(r fakeReq) (wire.ResponseEncoder, bool) {
			if r.hdr.Key == wire.KeyEndTxn {
				time.Sleep(slow) // the coordinator's latency, not synchronization
			}
			return nil, false
		}
	}
	p := fakeProducer(b, fb, tv, producer.Config{Linger: 5 * time.Millisecond, BatchMaxBytes: 1_000_000})
	ctx := context.Background()
	m := &producer.Record{Topic: "t", Partition: producer.ToPartition(0), Value: make([]byte, 100)}
	one := func() {
		if err := p.Begin(); err != nil {
			b.Fatal(err)
		}
		for range n {
			if _, err := p.Send(ctx, m); err != nil {
				b.Fatalf("Send: %v", err)
			}
		}
		if err := p.Commit(ctx); err != nil {
			b.Fatalf("Commit: %v", err)
		}
	}
	one()
	b.ReportAllocs()
	fb.mu.Lock()
	reqs0 := len(fb.log)
	fb.mu.Unlock()
	b.ResetTimer()
	cpu0 := processCPU()
	for b.Loop() {
		one()
	}
	b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
	fb.mu.Lock()
	b.ReportMetric(float64(len(fb.log)-reqs0)/float64(b.N), "reqs/op")
	if testing.Verbose() {
		byKey := map[wire.APIKey]int{}
		for _, r := range fb.log[reqs0:] {
			byKey[r.hdr.Key]++
		}
		b.Logf("requests per API key over %d transactions: %v", b.N, byKey)
	}
	fb.mu.Unlock()
}

// processCPU returns this process's user+sys CPU time (the fake broker's
// included).
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
