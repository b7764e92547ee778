package producer

import (
	"context"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// TestPoolsSteadyState: once warm, producing 1 KiB records in full 1 MB
// batches reuses pooled buffers (fresh buffers cost page faults), also for
// lz4 batches, which stream (a chunk at a time) and size their compressed
// output from the last ratio. Linger is an hour, so batches are sealed by
// size and every round's six are alike. Without pooling the 10 measured
// rounds would allocate about 60 streams; with it, only a new peak of
// batches alive at once (goroutine timing) can add one. Such peaks come
// late under load (3 of 40 runs once reached 5 new buffers within 5
// rounds of a 3-round warm-up), so 10 more rounds settle the peak before
// the 10 measured ones.
func TestPoolsSteadyState(t *testing.T) {
	for _, codec := range []wire.Compression{wire.CompressionNone, wire.CompressionLZ4} {
		t.Run(codec.String(), func(t *testing.T) { testPoolsSteadyState(t, codec) })
	}
}

func testPoolsSteadyState(t *testing.T, codec wire.Compression) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	p := newTestProducer(t, f, Config{Linger: time.Hour, BatchMaxBytes: 1_000_000, Compression: codec})
	value := make([]byte, 1024)
	m := &Record{Topic: "t", Partition: ToPartition(0), Value: value}
	round := func() { sendAndFlush(t, p, 5000, func(int) *Record { return m }) }
	for range 13 {
		round()
	}
	p.mu.Lock()
	b0, r0 := p.pools.bytes.misses, p.pools.recs.misses
	p.mu.Unlock()
	for range 10 {
		round()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	t.Logf("misses: bytes %d -> %d, recs %d -> %d", b0, p.pools.bytes.misses, r0, p.pools.recs.misses)
	if p.pools.bytes.misses-b0 > 2 || p.pools.recs.misses-r0 > 2 {
		t.Fatalf("steady state allocated %d byte buffers and %d record tables", p.pools.bytes.misses-b0, p.pools.recs.misses-r0)
	}
}

// sendAndFlush sends n records (record(i) gives the i-th) and flushes.
func sendAndFlush(t *testing.T, p *Producer, n int, record func(i int) *Record) {
	t.Helper()
	for i := range n {
		if _, err := p.Send(context.Background(), record(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
}
