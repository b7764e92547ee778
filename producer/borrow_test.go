package producer

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// Config.BorrowSlices: the producer keeps the caller's slices and encodes
// them when the batch is first sent. These tests compare it with copying.

var allCodecs = []wire.Compression{wire.CompressionNone, wire.CompressionGzip, wire.CompressionSnappy, wire.CompressionLZ4, wire.CompressionZstd}

// borrowRecords are records of every shape: null and empty keys and
// values, headers with null and empty values, duplicates, values large
// enough to cross the running CRC's chunks and (with lz4) the streaming
// threshold in copy mode, and timestamps that go backwards.
func borrowRecords(topic string, n int, partition func(i int) PartitionChoice) []Record {
	base := time.UnixMilli(1_700_000_000_000)
	var out []Record
	for i := range n {
		r := Record{Topic: topic, Partition: partition(i), Timestamp: base.Add(time.Duration((i*37)%23-5) * time.Millisecond)}
		switch i % 5 {
		case 0:
			r.Key, r.Value = nil, nil
		case 1:
			r.Key, r.Value = []byte{}, []byte{}
		case 2:
			r.Key = []byte(fmt.Sprint("key-", i))
			r.Value = bytes.Repeat([]byte{byte('a' + i%26)}, 700+i%300)
			r.Headers = []wire.Header{{Key: "h", Value: nil}, {Key: "", Value: []byte{}}, {Key: "dup", Value: []byte("1")}, {Key: "dup", Value: []byte("2")}}
		case 3:
			r.Key = []byte(fmt.Sprint("k", i))
			r.Value = []byte(fmt.Sprint("value-", i))
		case 4:
			r.Value = bytes.Repeat([]byte{byte(i)}, 2000)
			r.Headers = []wire.Header{{Key: "trace", Value: []byte(fmt.Sprint(i))}}
		}
		out = append(out, r)
	}
	return out
}

// encodeOffline admits recs into a producer that is not started (as
// BenchmarkAdmitEncode does), cancels the records whose index cancel
// names, lets the topic's metadata arrive if it was hidden (unassigned
// records then move to partition batches), and returns every partition's
// encoded batches, as the sender would send them, in batch order.
func encodeOffline(t *testing.T, codec wire.Compression, borrow, hideMetadata bool, nparts int, recs []Record, cancel map[int]bool) (_ map[string][][]byte, streamed int) {
	t.Helper()
	f := newFakeCluster(t, map[string]int{"t": nparts}, 1)
	if hideMetadata {
		f.md = nil
	}
	p, err := buildProducer(f, Config{Compression: codec, BorrowSlices: borrow, BatchMaxBytes: 100 << 10})
	if err != nil {
		t.Fatal(err)
	}
	p.ident.set(7, 3)
	var ds []*Delivery
	for i := range recs {
		d, err := p.TrySend(&recs[i])
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	for i := range cancel {
		if got := ds[i].Cancel(); got != CancelledNotSent {
			t.Fatalf("cancel record %d: %v", i, got)
		}
	}
	if hideMetadata {
		f.mu.Lock()
		f.rebuildMetadata()
		f.mu.Unlock()
		p.mu.Lock()
		p.syncMetadataLocked(time.Now())
		if p.topics["t"].unassigned != nil {
			t.Fatal("records still unassigned after metadata")
		}
		p.mu.Unlock()
	}
	out := map[string][][]byte{}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, part := range p.parts {
		for _, b := range part.batches {
			if b.live == 0 {
				continue
			}
			p.assignSequenceLocked(part, b)
			if b.zs != nil && b.fed > 0 {
				streamed++ // compressed as it filled (copying, lz4)
			}
			b.send()
			p.mu.Unlock()
			err := p.encode(b)
			p.mu.Lock()
			if err != nil {
				t.Fatal(err)
			}
			b.releaseRefs(&p.pools)
			key := fmt.Sprint(part.topic.name, "/", part.partition)
			out[key] = append(out[key], append([]byte(nil), b.out...))
		}
	}
	return out, streamed
}

// TestBorrowBytesIdentical: for every codec, batches built from borrowed
// slices are byte for byte the batches built by copying, with records of
// every shape, with cancelled records (the first of a batch among them,
// so timestamps are rebased) and with records that waited for their
// topic's metadata before being moved to partition batches (by key to
// three partitions when every record has a key; the sticky partitioner's
// random choice would differ between the two producers, so unkeyed
// records move to a topic of one partition). Borrowing never streams lz4;
// a copying batch that did gives the same bytes.
func TestBorrowBytesIdentical(t *testing.T) {
	for _, codec := range allCodecs {
		explicit := func(i int) PartitionChoice { return ToPartition(int32(i % 2)) }
		first := func(int) PartitionChoice { return ToPartition(0) }
		partitioner := func(int) PartitionChoice { return PartitionChoice{} }
		for _, tc := range []struct {
			name   string
			hide   bool
			nparts int
			keyed  bool
			cancel map[int]bool
			parts  func(i int) PartitionChoice
		}{
			{"explicit", false, 3, false, nil, explicit},
			{"cancelled", false, 3, false, map[int]bool{0: true, 1: true, 7: true, 64: true, 101: true}, explicit},
			{"unassigned", true, 1, false, nil, partitioner},
			{"unassigned-cancelled", true, 1, false, map[int]bool{0: true, 3: true, 50: true}, partitioner},
			{"unassigned-keyed", true, 3, true, map[int]bool{2: true, 9: true}, partitioner},
			{"large-first", false, 1, false, nil, first},
		} {
			t.Run(codec.String()+"/"+tc.name, func(t *testing.T) {
				recs := borrowRecords("t", 240, tc.parts)
				if tc.name == "large-first" {
					recs = recs[4:] // starts with a 2000-byte value: copying lz4 streams
				}
				if tc.keyed {
					for i := range recs {
						if recs[i].Key == nil {
							recs[i].Key = []byte(fmt.Sprint("nil-", i))
						}
					}
				}
				want, streamed := encodeOffline(t, codec, false, tc.hide, tc.nparts, recs, tc.cancel)
				got, streamedB := encodeOffline(t, codec, true, tc.hide, tc.nparts, recs, tc.cancel)
				if streamedB > 0 || (tc.name == "large-first" && codec == wire.CompressionLZ4 && streamed == 0) {
					t.Fatalf("batches streamed: %d copying, %d borrowing", streamed, streamedB)
				}
				if len(want) == 0 {
					t.Fatal("nothing encoded")
				}
				batches := 0
				for key, wb := range want {
					gb := got[key]
					if len(gb) != len(wb) {
						t.Fatalf("%s: %d batches borrowing, %d copying", key, len(gb), len(wb))
					}
					for i := range wb {
						if !bytes.Equal(gb[i], wb[i]) {
							t.Fatalf("%s batch %d: %d bytes borrowing differ from %d bytes copying", key, i, len(gb[i]), len(wb[i]))
						}
						batches++
					}
				}
				if len(got) != len(want) {
					t.Fatalf("borrowing encoded partitions %v, copying %v", keys(got), keys(want))
				}
				if batches < 2 {
					t.Fatalf("only %d batches compared", batches)
				}
			})
		}
	}
}

func keys(m map[string][][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestBorrowSizesMatchCopy: a borrowing batch counts the same estimated
// bytes (BatchMaxBytes, RetainedBytes) as a copying one, and its exact
// encoded size (wire.RecordLen) is the copying batch's stream length, so
// its stream is reserved once, at the size it is built to.
func TestBorrowSizesMatchCopy(t *testing.T) {
	recs := borrowRecords("t", 100, func(int) PartitionChoice { return ToPartition(0) })
	type sizes struct {
		est, stream int
		active      int64
	}
	measure := func(borrow bool) sizes {
		f := newFakeCluster(t, map[string]int{"t": 1}, 1)
		p, err := buildProducer(f, Config{BorrowSlices: borrow})
		if err != nil {
			t.Fatal(err)
		}
		for i := range recs {
			mustSend(t, p, &recs[i])
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		b := p.topics["t"].parts[0].batches[0]
		if !borrow {
			return sizes{b.est, b.streamLen(), p.activeBytes}
		}
		if len(b.stream) != 0 {
			t.Fatalf("borrowing batch has a %d-byte stream before it is sent", len(b.stream))
		}
		p.ident.set(1, 0)
		p.assignSequenceLocked(b.part, b)
		if c := cap(b.stream); c < wire.BatchHeaderLen+b.borrowed {
			t.Fatalf("reserved %d bytes for %d", c, wire.BatchHeaderLen+b.borrowed)
		}
		s := sizes{b.est, wire.BatchHeaderLen + b.borrowed, p.activeBytes}
		b.send()
		before := &b.stream[:1][0]
		b.build(&p.pools)
		if len(b.stream) != s.stream || &b.stream[0] != before {
			t.Fatalf("built %d bytes (moved: %v), counted %d", len(b.stream), &b.stream[0] != before, s.stream)
		}
		return s
	}
	c, b := measure(false), measure(true)
	if c != b {
		t.Fatalf("copying: %+v, borrowing: %+v", c, b)
	}
}

// TestBorrowNotReadAfterTerminal: once a borrowed record is terminal the
// caller may reuse its slices: the buffer of an acknowledged record,
// overwritten and sent again, reaches the log with its new content while
// the first record keeps its old one; a cancelled record's buffer,
// overwritten, never reaches the log. No batch keeps a reference to a
// caller's slice after its records are terminal. Run with -race: the
// caller's writes would race with a late read by the sender.
func TestBorrowNotReadAfterTerminal(t *testing.T) {
	for _, codec := range []wire.Compression{wire.CompressionNone, wire.CompressionLZ4} {
		t.Run(codec.String(), func(t *testing.T) {
			f := newFakeCluster(t, map[string]int{"t": 1}, 1)
			p := newTestProducer(t, f, Config{Compression: codec, BorrowSlices: true, Linger: -1})
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			buf := bytes.Repeat([]byte("A"), 1500)
			hv := []byte("h1")
			hs := []wire.Header{{Key: "h", Value: hv}}
			var want [][]byte
			for round := range 20 {
				d := mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Key: buf[:8], Value: buf, Headers: hs})
				if _, err := d.Wait(ctx); err != nil {
					t.Fatal(err)
				}
				want = append(want, append([]byte(nil), buf...))
				fill := byte('B' + round%20)
				for i := range buf {
					buf[i] = fill
				}
				hv[1] = fill
				hs[0].Key = string(fill)
			}
			// A cancelled record: its buffer is overwritten after Cancel.
			p2 := newTestProducer(t, f, Config{Compression: codec, BorrowSlices: true, Linger: time.Hour})
			gone := bytes.Repeat([]byte("C"), 300)
			dc := mustSend(t, p2, &Record{Topic: "t", Partition: ToPartition(0), Value: gone})
			kept := []byte("kept")
			dk := mustSend(t, p2, &Record{Topic: "t", Partition: ToPartition(0), Value: kept})
			if got := dc.Cancel(); got != CancelledNotSent {
				t.Fatalf("Cancel: %v", got)
			}
			p2.mu.Lock()
			b := p2.topics["t"].parts[0].batches[0]
			cancelledRef, liveRef := b.refs[0].value, b.refs[1].value
			p2.mu.Unlock()
			if cancelledRef != nil || liveRef == nil {
				t.Fatal("the cancelled record's reference was kept (or the live one's dropped)")
			}
			for i := range gone {
				gone[i] = 'X'
			}
			if err := p2.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := dk.Wait(ctx); err != nil {
				t.Fatal(err)
			}
			want = append(want, kept)
			log := f.log("t", 0)
			if len(log) != len(want) {
				t.Fatalf("%d records in the log, want %d", len(log), len(want))
			}
			for i, r := range log {
				if !bytes.Equal(r.value, want[i]) {
					t.Fatalf("record %d: value %.20q..., want %.20q...", i, r.value, want[i])
				}
			}
			for _, p := range []*Producer{p, p2} {
				p.mu.Lock()
				kept := keptRefs(p)
				p.mu.Unlock()
				if kept != "" {
					t.Fatal(kept)
				}
			}
		})
	}
}

// keptRefs describes a reference to a caller's slice that a batch, a
// pooled table or a free batch of p still holds ("" when none).
func keptRefs(p *Producer) string {
	check := func(where string, refs []recRef) string {
		for i, r := range refs[:cap(refs)] {
			if r.key != nil || r.value != nil || r.headers != nil {
				return fmt.Sprintf("%s: reference %d kept (%d-byte value)", where, i, len(r.value))
			}
		}
		return ""
	}
	var found []string
	for _, part := range p.parts {
		for _, b := range part.batches {
			found = append(found, check("partition batch", b.refs))
		}
	}
	for _, b := range p.free {
		found = append(found, check("free batch", b.refs))
	}
	for c, l := range p.pools.refs.classes {
		for _, refs := range l {
			found = append(found, check(fmt.Sprint("pool class ", c), refs))
		}
	}
	for _, s := range found {
		if s != "" {
			return s
		}
	}
	return ""
}

// TestBorrowRetryResendsSameBytes: a borrowing batch that fails
// retriably (not appended, then appended but answered REQUEST_TIMED_OUT)
// is resent with the same bytes (same sequence); the broker keeps one
// copy of each record, with its content.
func TestBorrowRetryResendsSameBytes(t *testing.T) {
	for _, codec := range []wire.Compression{wire.CompressionNone, wire.CompressionLZ4, wire.CompressionZstd} {
		t.Run(codec.String(), func(t *testing.T) {
			f := newFakeCluster(t, map[string]int{"t": 1}, 1)
			var mu sync.Mutex
			var sent [][]byte
			f.raw = func(topic string, partition int32, records []byte) {
				mu.Lock()
				sent = append(sent, append([]byte(nil), records...))
				mu.Unlock()
			}
			attempts := 0
			f.script = func(broker int32, topic string, partition int32, b *wire.RecordBatch) fault {
				attempts++
				switch attempts {
				case 1:
					return fault{code: wire.ErrNotLeaderOrFollower.Code}
				case 2:
					return fault{code: wire.ErrRequestTimedOut.Code, appendFirst: true}
				}
				return fault{}
			}
			p := newTestProducer(t, f, Config{Compression: codec, BorrowSlices: true, RetryBackoff: -1, Linger: time.Hour})
			recs := borrowRecords("t", 40, func(int) PartitionChoice { return ToPartition(0) })
			var ds []*Delivery
			for i := range recs {
				ds = append(ds, mustSend(t, p, &recs[i]))
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := p.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			for i, d := range ds {
				if r := waitResult(t, d); r.Err != nil || r.Offset != int64(i) {
					t.Fatalf("record %d: %+v", i, r)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if len(sent) != 3 {
				t.Fatalf("%d attempts, want 3", len(sent))
			}
			for i := 1; i < len(sent); i++ {
				if !bytes.Equal(sent[i], sent[0]) {
					t.Fatalf("attempt %d sent different bytes than attempt 1", i+1)
				}
			}
			log := f.log("t", 0)
			if len(log) != len(recs) {
				t.Fatalf("%d records in the log, want %d (one copy each)", len(log), len(recs))
			}
			for i, r := range log {
				w := recs[i]
				if !bytes.Equal(r.key, w.Key) || (r.key == nil) != (w.Key == nil) || !bytes.Equal(r.value, w.Value) || (r.value == nil) != (w.Value == nil) ||
					r.ts != w.Timestamp.UnixMilli() || len(r.headers) != len(w.Headers) {
					t.Fatalf("record %d differs from what was sent", i)
				}
			}
		})
	}
}

// TestBorrowCloseWaitsForEncoding: Close giving up (its ctx ended) fails
// in-flight records only after the sender finished encoding the batches it
// took, so no borrowed slice is read after its record's terminal.
func TestBorrowCloseWaitsForEncoding(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	p, err := buildProducer(f, Config{BorrowSlices: true})
	if err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	p.encoding = 1 // a request taken by the sender, not yet encoded
	p.mu.Unlock()
	done := make(chan struct{})
	go func() {
		p.mu.Lock()
		p.waitEncodedLocked()
		p.mu.Unlock()
		close(done)
	}()
	waitFor(t, "the waiter", func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.encodedCh != nil
	})
	select {
	case <-done:
		t.Fatal("waitEncodedLocked returned while a request was being encoded")
	default:
	}
	p.mu.Lock()
	p.encodedLocked() // as send does once the request's batches are encoded
	p.mu.Unlock()
	<-done
}
