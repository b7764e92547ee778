package consumer

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/producer"
)

// TestGroupIntegrationMemoryBound: on the real broker, a group member that
// reads many responses and never recycles holds no more record memory than
// MaxBufferedBytes plus the responses in flight and the slice the
// application holds: after every Receive (and a GC) the live heap stays
// within that of the member's first response. Delivered slices not handed
// back are left to the garbage collector; before, the ring that remembers
// them for Recycle kept the blocks of the last 64 alive (the whole topic
// here, 64 times the bound at the defaults).
func TestGroupIntegrationMemoryBound(t *testing.T) {
	const (
		parts     = 2
		records   = 8192
		valueSize = 1024
		bound     = 256 << 10 // MaxBufferedBytes
		partMax   = 64 << 10  // PartitionMaxBytes: a response is at most 2 of these (or a batch each)
		batchMax  = 16 << 10  // the producer's batches
		// slack: the runtime's and the client's own memory moving
		// between GCs (connection buffers, metadata, the test's slices).
		slack = 1 << 20
	)
	e := newGroupEnv(t, parts)
	e.waitFor("the topic's leaders", func() bool {
		e.cl.InvalidateMetadata()
		md, err := e.cl.Metadata(e.ctx, []string{e.topic})
		if err != nil || md.Topics[e.topic] == nil || md.Topics[e.topic].Err != nil || len(md.Topics[e.topic].Partitions) != parts {
			return false
		}
		for _, pm := range md.Topics[e.topic].Partitions {
			if pm.Leader < 0 || pm.Err != nil {
				return false
			}
		}
		return true
	})
	p, err := producer.New(e.cl, producer.Config{Linger: time.Millisecond, BatchMaxBytes: batchMax})
	if err != nil {
		t.Fatal(err)
	}
	value := make([]byte, valueSize)
	var ds []*producer.Delivery
	for i := range records {
		d, err := p.Send(e.ctx, &producer.Record{Topic: e.topic, Partition: producer.ToPartition(int32(i % parts)), Value: value})
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	for _, d := range ds {
		if r, err := d.Wait(e.ctx); err != nil || r.Err != nil {
			t.Fatalf("produce: %v %v", err, r.Err)
		}
	}
	p.Close(e.ctx)
	ds = nil

	m := e.join(e.topic+"-g", func(c *GroupConfig) {
		c.DisableAutoCommit = true
		c.MaxBufferedBytes = bound
		c.PartitionMaxBytes = partMax
	})
	live := func() int64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	got, receives := 0, 0
	base, peak := int64(0), int64(0)
	for got < records {
		ctx, cancel := context.WithTimeout(e.ctx, 15*time.Second)
		recs, err := m.Receive(ctx)
		cancel()
		if err != nil {
			t.Fatalf("Receive after %d of %d records: %v", got, records, err)
		}
		got += len(recs)
		receives++
		now := live()
		if base == 0 {
			base = now // the member, its client and its first response
			continue
		}
		peak = max(peak, now-base)
		runtime.KeepAlive(recs)
	}
	limit := int64(bound + 2*parts*partMax + slack)
	t.Logf("%d records in %d receives; live heap grew at most %d KiB over the first response's (limit %d KiB)", got, receives, peak>>10, limit>>10)
	if peak > limit {
		t.Fatalf("live heap grew %d KiB over the first response's while reading %d records without Recycle; MaxBufferedBytes is %d KiB (limit %d KiB)", peak>>10, got, bound>>10, limit>>10)
	}
}
