package share

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// TestRecycleReusesOnlyHandedBack checks the share consumer's Recycle: a
// slice handed back is reused by a later Receive (its record slots and the
// arena its lz4 batches were decompressed into), while one kept by the
// application still holds its own values after later Receives.
func TestRecycleReusesOnlyHandedBack(t *testing.T) {
	c, err := newConsumer(newBenchT(t, wire.CompressionLZ4), Config{GroupID: "g", Topics: []string{fakeTopic}, MaxWait: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Close(context.Background()) }()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	receive := func() []Record {
		t.Helper()
		recs, err := c.Receive(ctx)
		if err != nil || len(recs) != benchRecords {
			t.Fatalf("Receive: %d records, %v", len(recs), err)
		}
		return recs
	}
	kept := receive()
	want := bytes.Clone(kept[0].Value)
	first := receive()
	if &first[0] == &kept[0] {
		t.Fatal("a slice not handed back was reused")
	}
	c.Recycle(first)
	c.Recycle(first) // twice: ignored
	second := receive()
	if &second[0] != &first[0] {
		t.Fatal("the recycled slice was not reused")
	}
	if &second[0].Value[0] != &first[0].Value[0] {
		t.Fatal("the recycled arena was not reused")
	}
	third := receive()
	if &third[0] == &second[0] || &third[0] == &kept[0] {
		t.Fatal("a slice in use was reused")
	}
	if !bytes.Equal(kept[0].Value, want) || kept[0].Offset != 0 {
		t.Fatalf("a kept record changed: offset %d value %q, want offset 0 value %q", kept[0].Offset, kept[0].Value, want)
	}
}

// TestRecycleConcurrentWithReceive hands slices back from another
// goroutine while Receive runs (Recycle takes only the pool's lock), for
// the race detector (a block reused while a chunk of it is out would be
// written while that goroutine reads it), and checks each slice's records
// agree with their offsets.
func TestRecycleConcurrentWithReceive(t *testing.T) {
	c, err := newConsumer(newBenchT(t, wire.CompressionSnappy), Config{GroupID: "g", Topics: []string{fakeTopic}, MaxWait: 10 * time.Millisecond, MaxRecords: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Close(context.Background()) }()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	back := make(chan []Record, 8)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for recs := range back {
			for i := range recs {
				if want := "k" + fmt.Sprintf("%05d", recs[i].Offset); string(recs[i].Key) != want {
					t.Errorf("offset %d has key %q, want %q", recs[i].Offset, recs[i].Key, want)
				}
			}
			c.Recycle(recs)
		}
	}()
	for range 50 {
		recs, err := c.Receive(ctx)
		if err != nil {
			t.Fatal(err)
		}
		back <- recs
	}
	close(back)
	<-done
}
