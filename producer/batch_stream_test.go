package producer

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// bigValue is record i's value: 3 KiB, different per record (so a wrong
// record, a wrong order or a corrupt decompression shows).
func bigValue(i int) []byte {
	v := bytes.Repeat([]byte(fmt.Sprintf("value-%04d|", i)), 3<<10/11)
	v[len(v)-1] = byte(i)
	return v
}

// openBatchState returns the partition's open batch's streaming state.
func openBatchState(p *Producer, topic string) (streaming bool, fed int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	bs := p.topics[topic].parts[0].batches
	b := bs[len(bs)-1]
	return b.zs != nil, b.fed
}

// TestStreamedBatchCancel: an lz4 batch compresses its records a chunk at a
// time while it fills; cancelling a record that was already compressed
// and one that was not still yields exactly the other records, in order,
// with contiguous sequence numbers and the offsets the deliveries report.
func TestStreamedBatchCancel(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	p := newTestProducer(t, f, Config{Linger: time.Hour, Compression: wire.CompressionLZ4, BatchMaxBytes: 1 << 20})
	const n = 100 // ~300 KiB: four whole chunks compressed before sending
	var ds []*Delivery
	for i := range n {
		ds = append(ds, mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Key: []byte(fmt.Sprint("k", i)), Value: bigValue(i),
			Headers: []wire.Header{{Key: "i", Value: []byte(fmt.Sprint(i))}}}))
	}
	streaming, fed := openBatchState(p, "t")
	if !streaming || fed < 4*wire.StreamChunk {
		t.Fatalf("batch streaming %v with %d bytes compressed, want at least %d", streaming, fed, 4*wire.StreamChunk)
	}
	cancelled := map[int]bool{3: true, 50: true, n - 1: true} // 3 and 50 are compressed already, n-1 is not
	for i := range cancelled {
		if o := ds[i].Cancel(); o != CancelledNotSent {
			t.Fatalf("cancel %d: %v", i, o)
		}
	}
	if err := p.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	log := f.log("t", 0)
	if len(log) != n-len(cancelled) {
		t.Fatalf("log has %d records, want %d", len(log), n-len(cancelled))
	}
	j := 0
	for i := range n {
		if cancelled[i] {
			continue
		}
		r := log[j]
		if !bytes.Equal(r.value, bigValue(i)) || string(r.key) != fmt.Sprint("k", i) || string(r.headers[0].Value) != fmt.Sprint(i) || r.seq != int32(j) {
			t.Fatalf("log[%d] = key %q seq %d, want record %d at seq %d", j, r.key, r.seq, i, j)
		}
		if res := waitResult(t, ds[i]); res.Err != nil || res.Offset != int64(j) {
			t.Fatalf("record %d: %+v, want offset %d", i, res, j)
		}
		j++
	}
}

// TestStreamedBatchResealedAfterReset: a streamed lz4 batch that the
// broker answers UNKNOWN_PRODUCER_ID is sent again under the next epoch
// from sequence 0; the compressed records are kept and the batch header
// re-stamped (its CRC too: the fake broker checks it).
func TestStreamedBatchResealedAfterReset(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	faults := unknownProducerIDOnce(f, 40)
	p := newTestProducer(t, f, Config{Compression: wire.CompressionLZ4, BatchMaxRecords: 40, MaxRetries: new(3), RetryBackoff: -1, Linger: time.Hour})
	var ds []*Delivery
	send := func(from, to int) {
		for i := from; i < to; i++ {
			ds = append(ds, mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: bigValue(i)}))
		}
	}
	send(0, 40)
	waitResult(t, ds[39])
	send(40, 80)
	if err := p.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if *faults != 1 {
		t.Fatalf("script faulted %d times", *faults)
	}
	log := f.log("t", 0)
	if len(log) != 80 {
		t.Fatalf("log has %d records, want 80", len(log))
	}
	for i, r := range log {
		if !bytes.Equal(r.value, bigValue(i)) {
			t.Fatalf("log[%d] holds another record's value", i)
		}
		if res := waitResult(t, ds[i]); res.Err != nil || res.Offset != int64(i) {
			t.Fatalf("record %d: %+v", i, res)
		}
	}
	if log[40].epoch != 1 || log[40].seq != 0 {
		t.Fatalf("record 40: epoch %d seq %d, want 1/0", log[40].epoch, log[40].seq)
	}
}

// TestStreamWorthIt: batches stream when their records average
// streamMinRecordBytes or more, judged by the partition's last
// acknowledged batch, else by the record opening the batch; an lz4 batch
// of 100-byte records does not stream.
func TestStreamWorthIt(t *testing.T) {
	for _, c := range []struct {
		lastStream, lastRecs, size int
		want                       bool
	}{
		{0, 0, streamMinRecordBytes - 1, false},
		{0, 0, streamMinRecordBytes, true},
		{100 * streamMinRecordBytes, 100, 10, true},       // last batch's records were large
		{100 * streamMinRecordBytes, 101, 1 << 20, false}, // ... or small, whatever this one is
	} {
		part := &partState{lastStream: c.lastStream, lastRecs: c.lastRecs}
		if got := streamWorthIt(part, c.size); got != c.want {
			t.Errorf("%+v: %v", c, got)
		}
	}
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	p := newTestProducer(t, f, Config{Linger: time.Hour, Compression: wire.CompressionLZ4})
	mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: make([]byte, 100)})
	if streaming, _ := openBatchState(p, "t"); streaming {
		t.Fatal("a batch of 100-byte records streams")
	}
}
