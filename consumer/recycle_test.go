package consumer

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"testing"
	"time"
	"unsafe"
	"weak"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// recycleRig decodes hand-built partitions the way doFetch does (one block
// per response) and delivers them through takeLocked, without a broker.
type recycleRig struct {
	t *testing.T
	c *Consumer
}

func newRecycleRig(t *testing.T, parts int) *recycleRig {
	c := &Consumer{dec: wire.NewDecompressor(0), parts: map[gregor.TopicPartition]*partState{}}
	c.blocks.limit = DefaultMaxBufferedBytes
	for p := range parts {
		tp := gregor.TopicPartition{Topic: "t", Partition: int32(p)}
		c.parts[tp] = &partState{tp: tp}
		c.order = append(c.order, tp)
	}
	return &recycleRig{t, c}
}

// partRecords returns n records (values "<tag>-p<partition>-<i>") in one
// batch compressed with codec.
func partRecords(t *testing.T, codec wire.Compression, tag string, p, n int) []byte {
	bt := tBatch{lastDelta: int32(n - 1), pid: -1, ts: 1, codec: codec}
	for i := range n {
		bt.recs = append(bt.recs, tRec{delta: int32(i), value: fmt.Appendf(nil, "%s-p%d-%d", tag, p, i)})
	}
	return bt.encode(t, nil)
}

// fetch decodes one response holding every partition (n records each) and
// buffers the chunks; it returns the response's block.
func (r *recycleRig) fetch(codec wire.Compression, tag string, n int) *recBlock {
	var parts []fetchRespPart
	total, raw, compressed := 0, 0, false
	for _, tp := range r.c.order {
		p := fetchRespPart{TopicPartition: tp, Records: partRecords(r.t, codec, tag, int(tp.Partition), n)}
		total += countRecords(p.Records)
		raw += len(p.Records)
		compressed = compressed || firstBatchCompressed(p.Records)
		parts = append(parts, p)
	}
	blk := r.c.blocks.get(total, compressed, raw, math.MaxInt64)
	for i := range parts {
		st := r.c.parts[parts[i].TopicPartition]
		ch, err := r.c.decodePartition(&parts[i], 0, math.MaxInt64, 0, true, blk, nil)
		if err != nil {
			r.t.Fatal(err)
		}
		st.buffer(ch)
		st.offset = 0
	}
	return blk
}

func (r *recycleRig) take() []Record {
	r.t.Helper()
	r.c.mu.Lock()
	defer r.c.mu.Unlock()
	recs, err := r.c.takeLocked()
	if err != nil {
		r.t.Fatal(err)
	}
	return recs
}

// checkValues checks that recs hold, partition by partition in the given
// order, n records each with the values fetch wrote for tag.
func checkValues(t *testing.T, recs []Record, tag string, order []int32, n int) {
	t.Helper()
	if len(recs) != len(order)*n {
		t.Fatalf("got %d records, want %d", len(recs), len(order)*n)
	}
	for k, p := range order {
		for i := range n {
			r := recs[k*n+i]
			if want := fmt.Sprintf("%s-p%d-%d", tag, p, i); r.Partition != p || r.Offset != int64(i) || string(r.Value) != want {
				t.Fatalf("record %d: partition %d offset %d value %q, want partition %d offset %d value %q", k*n+i, r.Partition, r.Offset, r.Value, p, i, want)
			}
		}
	}
}

func TestReceiveDeliversOneResponseWithoutCopy(t *testing.T) {
	for _, codec := range []wire.Compression{wire.CompressionNone, wire.CompressionLZ4} {
		t.Run(codec.String(), func(t *testing.T) {
			r := newRecycleRig(t, 3)
			r.c.rotate = 1 // rotation would start at partition 1: the response's order wins
			blk := r.fetch(codec, "a", 50)
			recs := r.take()
			checkValues(t, recs, "a", []int32{0, 1, 2}, 50)
			brecs, arena := memOf(blk)
			if &recs[0] != &brecs[0] {
				t.Fatal("the records of one response were copied")
			}
			if cap(recs) != len(recs) {
				t.Fatalf("cap %d beyond len %d: an append would overwrite block memory", cap(recs), len(recs))
			}
			if codec != wire.CompressionNone && (cap(arena) == 0 || !aliases(recs[0].Value, arena)) {
				t.Fatal("decompressed values are not in the block's arena")
			}
		})
	}
}

func TestReceiveCopiesWhenNotContiguous(t *testing.T) {
	r := newRecycleRig(t, 3)
	r.c.parts[gregor.TopicPartition{Topic: "t", Partition: 1}].paused = true
	blk := r.fetch(wire.CompressionNone, "a", 20)
	recs := r.take()
	checkValues(t, recs, "a", []int32{0, 2}, 20)
	if brecs, _ := memOf(blk); &recs[0] == &brecs[0] {
		t.Fatal("records with a gap between them were delivered as one run")
	}
	if cap(recs) != len(recs) {
		t.Fatalf("cap %d beyond len %d", cap(recs), len(recs))
	}
	// Partition 1 stays buffered and is delivered once resumed.
	r.c.parts[gregor.TopicPartition{Topic: "t", Partition: 1}].paused = false
	checkValues(t, r.take(), "a", []int32{1}, 20)
}

func TestRecycleReusesMemory(t *testing.T) {
	for _, codec := range []wire.Compression{wire.CompressionNone, wire.CompressionLZ4} {
		t.Run(codec.String(), func(t *testing.T) {
			r := newRecycleRig(t, 2)
			blk := r.fetch(codec, "a", 30)
			recs := r.take()
			first := &recs[0]
			r.c.Recycle(recs)
			r.c.Recycle(recs) // a second hand-back is ignored
			if len(r.c.blocks.free) != 1 || r.c.blocks.free[0] != blk {
				t.Fatalf("pool holds %d blocks after Recycle, want the response's block", len(r.c.blocks.free))
			}
			if blk.refs != 0 {
				t.Fatalf("block refs %d after recycling, want 0", blk.refs)
			}
			blk2 := r.fetch(codec, "b", 30)
			recs = r.take()
			checkValues(t, recs, "b", []int32{0, 1}, 30)
			if blk2 != blk || &recs[0] != first {
				t.Fatal("the recycled block was not reused")
			}
		})
	}
}

// Records not handed back are never overwritten, even when other slices of
// the same response were recycled, or when more than maxPins slices are
// outstanding.
func TestUnrecycledRecordsStayIntact(t *testing.T) {
	r := newRecycleRig(t, 2)
	r.c.parts[gregor.TopicPartition{Topic: "t", Partition: 1}].paused = true
	r.fetch(wire.CompressionLZ4, "a", 10)
	p0 := r.take() // partition 0 only; partition 1 is still buffered
	r.c.parts[gregor.TopicPartition{Topic: "t", Partition: 1}].paused = false
	p1 := r.take()
	r.c.Recycle(p0) // the block is still referenced by p1
	if len(r.c.blocks.free) != 0 {
		t.Fatal("a block was pooled while records of it were still held")
	}
	kept := [][]Record{p1}
	for i := range maxPins + 1 {
		r.fetch(wire.CompressionLZ4, fmt.Sprintf("x%d", i), 10)
		kept = append(kept, r.take())
	}
	r.c.Recycle(p1) // evicted from the ring by the slices since: ignored
	for i := range 3 {
		r.fetch(wire.CompressionLZ4, fmt.Sprintf("y%d", i), 10)
		r.take()
	}
	checkValues(t, p1, "a", []int32{1}, 10)
	for i, recs := range kept[1:] {
		checkValues(t, recs, fmt.Sprintf("x%d", i), []int32{0, 1}, 10)
	}
}

func TestRecycleUnknownSliceIgnored(t *testing.T) {
	r := newRecycleRig(t, 1)
	r.fetch(wire.CompressionNone, "a", 5)
	recs := r.take()
	r.c.Recycle(append([]Record(nil), recs...))
	r.c.Recycle(nil)
	if len(r.c.blocks.free) != 0 {
		t.Fatal("a slice Receive did not return pooled a block")
	}
}

// memOf returns a block's records array and arena (the weakly held ones
// of a loose block), at their full capacity.
func memOf(b *recBlock) ([]Record, []byte) {
	if !b.loose {
		return b.recs[:cap(b.recs)], b.arena[:cap(b.arena)]
	}
	var recs []Record
	var arena []byte
	if p := b.held.recs.Value(); p != nil {
		recs = unsafe.Slice(p, b.held.nrecs)
	}
	if p := b.held.arena.Value(); p != nil {
		arena = unsafe.Slice(p, b.held.narena)
	}
	return recs, arena
}

func aliases(b, arena []byte) bool {
	if len(b) == 0 || cap(arena) == 0 {
		return false
	}
	whole := arena[:cap(arena)]
	for i := range whole {
		if &whole[i] == &b[0] {
			return true
		}
	}
	return false
}

// TestRecycleWhileFetching consumes lz4 batches of three partitions through
// the fetch loop, one batch per partition at a time, recycling every slice
// once its values were checked: every record arrives once with its own
// value, and the fetches reuse recycled blocks (run with -race: the fetch
// goroutines refill recycled blocks while Receive runs).
func TestRecycleWhileFetching(t *testing.T) {
	f := newFakeBroker(t)
	const rounds, per = 40, 25
	tps := []gregor.TopicPartition{tp0, tp1, tp2}
	c := newTestConsumer(t, f, Config{})
	var ps []PartitionPosition
	for _, tp := range tps {
		f.append(tp, dataBatch(0, 0)) // the partitions exist; no records yet
		ps = append(ps, PartitionPosition{tp, AtBeginning()})
	}
	if err := c.Assign(bg(), ps); err != nil {
		t.Fatal(err)
	}
	next := map[gregor.TopicPartition]int64{}
	got := 0
	ctx, cancel := context.WithTimeout(bg(), 10*time.Second)
	defer cancel()
	for k := range rounds {
		for _, tp := range tps {
			b := dataBatch(int64(k*per), per)
			b.codec = wire.CompressionLZ4
			f.append(tp, b)
		}
		for got < (k+1)*len(tps)*per {
			rs, err := c.Receive(ctx)
			if err != nil {
				t.Fatalf("Receive after %d records: %v", got, err)
			}
			for _, r := range rs {
				tp := gregor.TopicPartition{Topic: r.Topic, Partition: r.Partition}
				if r.Offset != next[tp] || string(r.Value) != "v"+itoa(r.Offset) {
					t.Fatalf("%v: offset %d value %q, want offset %d value %q", tp, r.Offset, r.Value, next[tp], "v"+itoa(next[tp]))
				}
				next[tp]++
			}
			got += len(rs)
			c.Recycle(rs)
		}
	}
	c.blocks.mu.Lock()
	made := c.blocks.made
	c.blocks.mu.Unlock()
	if made > rounds/2 {
		t.Fatalf("%d blocks allocated for at least %d fetches: recycled blocks were not reused", made, rounds)
	}
	t.Logf("%d blocks allocated for %d records in %d rounds", made, got, rounds)
}

// TestUnrecycledSlicesAreCollected: slices delivered and dropped without
// Recycle are garbage collected although the pin ring remembers them (it
// used to keep the blocks of the last maxPins slices alive: 64 responses),
// and so is a chunk dropped from a delivered block (a seek) and the
// response's frame.
func TestUnrecycledSlicesAreCollected(t *testing.T) {
	for _, codec := range []wire.Compression{wire.CompressionNone, wire.CompressionLZ4} {
		t.Run(codec.String(), func(t *testing.T) {
			r := newRecycleRig(t, 2)
			p1 := r.c.parts[gregor.TopicPartition{Topic: "t", Partition: 1}]
			var gone []weak.Pointer[Record]
			var frames []weak.Pointer[byte]
			for i := range 8 {
				p1.paused = i%2 == 1 // odd rounds: partition 1 stays buffered, then is dropped
				blk := r.fetch(codec, fmt.Sprintf("a%d", i), 40)
				blk.frame = make([]byte, 1<<10) // as the wire transport's response frame
				frames = append(frames, weak.Make(&blk.frame[0]))
				recs := r.take()
				gone = append(gone, weak.Make(&recs[0]))
				if p1.paused {
					r.c.buffered -= p1.reposition(p1.gen+1, 0) // a seek drops the buffered chunk
					p1.paused = false
				}
			}
			runtime.GC()
			for i := range gone {
				if gone[i].Value() != nil || frames[i].Value() != nil {
					t.Fatalf("round %d: records (%v) or frame (%v) still reachable after GC, not handed back", i, gone[i].Value() != nil, frames[i].Value() != nil)
				}
			}
			runtime.KeepAlive(r.c) // the consumer (its pin ring) lives on
		})
	}
}

// TestRecycleAfterGC: a slice the application holds through a GC is still
// recycled whole (its block's memory was only weakly held meanwhile).
func TestRecycleAfterGC(t *testing.T) {
	for _, codec := range []wire.Compression{wire.CompressionNone, wire.CompressionLZ4} {
		t.Run(codec.String(), func(t *testing.T) {
			r := newRecycleRig(t, 2)
			blk := r.fetch(codec, "a", 30)
			recs := r.take()
			wantRecs, wantArena := memOf(blk)
			runtime.GC()
			checkValues(t, recs, "a", []int32{0, 1}, 30)
			r.c.Recycle(recs)
			if len(r.c.blocks.free) != 1 || r.c.blocks.free[0] != blk || blk.loose {
				t.Fatalf("pool holds %d blocks after Recycle (loose %v), want the response's block", len(r.c.blocks.free), blk.loose)
			}
			if gotRecs, gotArena := memOf(blk); &gotRecs[0] != &wantRecs[0] || (codec != wire.CompressionNone && &gotArena[0] != &wantArena[0]) {
				t.Fatal("the recycled block lost its memory")
			}
		})
	}
}
