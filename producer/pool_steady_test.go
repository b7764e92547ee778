package producer

import (
	"context"
	"testing"
	"time"
)

// TestPoolsSteadyState: once warm, producing 1 KiB records in full 1 MB
// batches reuses pooled buffers: no batch stream or record table is
// allocated after the first rounds (fresh buffers cost page faults).
func TestPoolsSteadyState(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	p := newTestProducer(t, f, Config{Linger: time.Millisecond, BatchMaxBytes: 1_000_000})
	value := make([]byte, 1024)
	m := &Message{Topic: "t", Partition: 0, Value: value}
	round := func() {
		for range 5000 {
			if _, err := p.Send(context.Background(), m); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		round()
	}
	p.mu.Lock()
	b0, r0 := p.pools.bytes.misses, p.pools.recs.misses
	p.mu.Unlock()
	for range 5 {
		round()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	t.Logf("misses: bytes %d -> %d, recs %d -> %d", b0, p.pools.bytes.misses, r0, p.pools.recs.misses)
	if p.pools.bytes.misses != b0 || p.pools.recs.misses != r0 {
		t.Fatalf("steady state allocated %d byte buffers and %d record tables", p.pools.bytes.misses-b0, p.pools.recs.misses-r0)
	}
}
