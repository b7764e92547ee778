package producer

import (
	"context"
	"testing"
	"time"
)

// TestPoolsManyPartitions: with many partitions each batch holds a few
// records, and their record tables must still come from the pool. 512
// partitions get 3 records each per round (Linger an hour; Flush sends
// them), RetainedBytes 1 MiB bounds the recs pool at 256 KiB: 512 tables of
// 8 entries (192 B) fit, 512 of 64 entries (1.5 KiB) did not, and each
// round allocated ~340 tables again.
func TestPoolsManyPartitions(t *testing.T) {
	const parts = 512
	f := newFakeCluster(t, map[string]int{"t": parts}, 1)
	p := newTestProducer(t, f, Config{Linger: time.Hour, RetainedBytes: 1 << 20})
	m := &Record{Topic: "t", Value: []byte("v")}
	round := func() {
		sendAndFlush(t, p, 3*parts, func(i int) *Record {
			m.Partition = ToPartition(int32(i % parts))
			return m
		})
	}
	for range 3 {
		round()
	}
	p.mu.Lock()
	r0 := p.pools.recs.misses
	p.mu.Unlock()
	for range 5 {
		round()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := p.pools.recs.misses - r0; n > 2 {
		t.Fatalf("5 warm rounds over %d partitions allocated %d record tables", parts, n)
	}
}

// TestFreeBatchesBound: recycled batch structs are kept up to one open and
// one per request in flight for every partition, not one per partition.
func TestFreeBatchesBound(t *testing.T) {
	const parts = 100
	f := newFakeCluster(t, map[string]int{"t": parts}, 1)
	p := newTestProducer(t, f, Config{Linger: time.Hour, MaxInFlightPerBroker: 5})
	m := &Record{Topic: "t", Value: []byte("v")}
	for i := range int32(parts) { // state for every partition
		m.Partition = ToPartition(i)
		if _, err := p.Send(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.parts) < parts {
		t.Fatalf("%d partitions with state, want %d", len(p.parts), parts)
	}
	p.free = p.free[:0]
	want := len(p.parts) * (p.cfg.MaxInFlightPerBroker + 1)
	for range want + 10 {
		p.recycleLocked(&batch{})
	}
	if len(p.free) != want {
		t.Fatalf("%d free batches kept, want %d (partitions × (in flight + 1))", len(p.free), want)
	}
}
