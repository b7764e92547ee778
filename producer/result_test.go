package producer

import (
	"context"
	"testing"
	"time"
)

// TestResultOffsetsAndTimestamps: acknowledged records report consecutive
// offsets from their batch's base offset, skipping none for a cancelled
// sibling, and their own create time; when the broker answers with a
// LogAppendTime, every record of the batch reports it instead.
func TestResultOffsetsAndTimestamps(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 2}, 1)
	p := newTestProducer(t, f, Config{Linger: time.Hour})
	base := time.UnixMilli(1_700_000_000_000)
	send := func(partition int32, i int) *Delivery {
		return mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(partition), Value: []byte{byte(i)}, Timestamp: base.Add(time.Duration(i) * time.Millisecond)})
	}
	var ds []*Delivery
	for i := range 4 {
		ds = append(ds, send(0, i))
	}
	if o := ds[1].Cancel(); o != CancelledNotSent {
		t.Fatalf("cancel: %v", o)
	}
	if err := p.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := []struct{ off, ts int64 }{{0, 1_700_000_000_000}, {-1, 1_700_000_000_001}, {1, 1_700_000_000_002}, {2, 1_700_000_000_003}}
	for i, d := range ds {
		r, ok := d.Result()
		if !ok || r.Offset != want[i].off || r.Timestamp.UnixMilli() != want[i].ts || r.Partition != 0 || r.Topic != "t" {
			t.Fatalf("record %d: %+v %v, want offset %d timestamp %d", i, r, ok, want[i].off, want[i].ts)
		}
	}

	f.mu.Lock()
	f.logAppendTime = 1_800_000_000_000
	f.mu.Unlock()
	ds = ds[:0]
	for i := range 3 {
		ds = append(ds, send(1, i))
	}
	if err := p.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i, d := range ds {
		r, ok := d.Result()
		if !ok || r.Err != nil || r.Offset != int64(i) || r.Timestamp.UnixMilli() != 1_800_000_000_000 || r.Partition != 1 {
			t.Fatalf("LogAppendTime record %d: %+v %v", i, r, ok)
		}
	}
}
