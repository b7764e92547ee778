package producer

import (
	"time"
	"unsafe"

	"github.com/gregor-kafka/gregor/wire"
)

// span locates bytes in a batch's arena; n < 0 means null.
type span struct{ off, n int32 }

func (s span) get(arena []byte) []byte {
	if s.n < 0 {
		return nil
	}
	if s.n == 0 {
		return emptyBytes // empty, not null, even when the arena is still nil
	}
	return arena[s.off : s.off+s.n : s.off+s.n]
}

// emptyBytes is a non-nil empty slice (capacity 0, so never written through).
var emptyBytes = make([]byte, 0)

// hdrRef is a header whose key and value live in the arena.
type hdrRef struct{ key, value span }

// rec is one admitted record inside a batch. Its bytes live in the batch's
// arena (copied once at admission).
type rec struct {
	d          *Delivery
	key, value span
	hdrs       [2]int32 // [start, end) in batch.hdrs
	ts         int64    // Unix ms
	size       int      // bytes reserved from RetainedBytes
	partition  int32    // requested partition (-1: partitioner) for unassigned records
	cancelled  bool
}

// batchState is where a batch is in its life.
type batchState uint8

const (
	batchOpen     batchState = iota // accepting records
	batchReady                      // sealed, waiting to be (re)sent
	batchInFlight                   // in an outstanding ProduceRequest
)

// batch is a partition's group of records, sent as one record batch. The
// producer's lock guards every field except during encoding, when the
// sender owns a sealed batch exclusively (state batchInFlight).
type batch struct {
	topic *topicState
	part  *partState // nil for a topic's unassigned records
	state batchState
	recs  []rec
	live  int // records neither cancelled nor terminal
	arena []byte
	hdrs  []hdrRef
	est   int // estimated encoded bytes (uncompressed)

	created  time.Time // first record's admission (linger starts here)
	deadline time.Time // first record's delivery deadline

	// Sending.
	topicID      wire.UUID // the topic's ID when the batch was last handed out
	sentTo       int32     // broker of the last attempt
	handed       bool      // handed to the client at least once: Cancel is TooLate
	sequenced    bool
	pid          int64
	epoch        int16
	baseSeq      int32
	numSeq       int32 // records covered by the sequence range
	attempts     int   // counted attempts (see MaxRetries)
	maybeWritten bool  // some attempt ended with an unknown outcome
	lastErr      error
	encoded      []byte // encoded record batch, reused across retries

}

// recordOverhead is a conservative estimate of a record's framing in a v2
// batch (length, attributes, timestamp/offset deltas, key/value lengths,
// header count) beyond its key, value and header bytes.
const recordOverhead = 21

// headerOverhead estimates a header's framing (two varint lengths).
const headerOverhead = 10

// batchOverhead is the v2 record batch header (61 bytes).
const batchOverhead = 61

// messageSize is the estimated encoded size of m's record.
func messageSize(m *Message) int {
	n := recordOverhead + len(m.Key) + len(m.Value)
	for i := range m.Headers {
		n += headerOverhead + len(m.Headers[i].Key) + len(m.Headers[i].Value)
	}
	return n
}

func (b *batch) putBytes(p []byte) span {
	if p == nil {
		return span{n: -1}
	}
	s := span{off: int32(len(b.arena)), n: int32(len(p))}
	b.arena = append(b.arena, p...)
	return s
}

// batchPools are the producer's recycled batch buffers.
type batchPools struct {
	bytes slicePool[byte]
	recs  slicePool[rec]
	hdrs  slicePool[hdrRef]
}

// reserve makes room for one record of n arena bytes and h headers.
func (b *batch) reserve(pl *batchPools, n, h int) {
	b.arena = pl.bytes.grow(b.arena, n)
	b.recs = pl.recs.grow(b.recs, 1)
	if h > 0 {
		b.hdrs = pl.hdrs.grow(b.hdrs, h)
	}
}

// add copies m's key, value and headers into the batch.
func (b *batch) add(pl *batchPools, m *Message, d *Delivery, ts int64, size int, partition int32) {
	n := len(m.Key) + len(m.Value)
	for i := range m.Headers {
		n += len(m.Headers[i].Key) + len(m.Headers[i].Value)
	}
	b.reserve(pl, n, len(m.Headers))
	r := rec{d: d, ts: ts, size: size, partition: partition}
	r.key = b.putBytes(m.Key)
	r.value = b.putBytes(m.Value)
	r.hdrs[0] = int32(len(b.hdrs))
	for i := range m.Headers {
		h := &m.Headers[i]
		k := span{off: int32(len(b.arena)), n: int32(len(h.Key))}
		b.arena = append(b.arena, h.Key...)
		b.hdrs = append(b.hdrs, hdrRef{key: k, value: b.putBytes(h.Value)})
	}
	r.hdrs[1] = int32(len(b.hdrs))
	d.b = b
	d.idx = int32(len(b.recs))
	b.recs = append(b.recs, r)
	b.live++
	b.est += size
}

// moveFrom copies record r of batch src into b (used when an unassigned
// record gets its partition).
func (b *batch) moveFrom(pl *batchPools, src *batch, r *rec) {
	b.reserve(pl, r.size, int(r.hdrs[1]-r.hdrs[0]))
	nr := rec{d: r.d, ts: r.ts, size: r.size, partition: r.partition}
	nr.key = b.putBytes(r.key.get(src.arena))
	nr.value = b.putBytes(r.value.get(src.arena))
	nr.hdrs[0] = int32(len(b.hdrs))
	for _, h := range src.hdrs[r.hdrs[0]:r.hdrs[1]] {
		k := span{off: int32(len(b.arena)), n: h.key.n}
		b.arena = append(b.arena, h.key.get(src.arena)...)
		b.hdrs = append(b.hdrs, hdrRef{key: k, value: b.putBytes(h.value.get(src.arena))})
	}
	nr.hdrs[1] = int32(len(b.hdrs))
	r.d.b = b
	r.d.idx = int32(len(b.recs))
	b.recs = append(b.recs, nr)
	b.live++
	b.est += r.size
}

// wireRecords builds the records to encode (live ones only, in order) into
// the batch's reused scratch slices; the returned records alias the arena.
func (b *batch) wireRecords(sc *encodeScratch) []wire.Record {
	sc.wrecs = sc.wrecs[:0]
	sc.whdrs = sc.whdrs[:0]
	for i := range b.recs {
		r := &b.recs[i]
		if r.cancelled {
			continue
		}
		for _, h := range b.hdrs[r.hdrs[0]:r.hdrs[1]] {
			k := h.key.get(b.arena)
			sc.whdrs = append(sc.whdrs, wire.Header{Key: unsafe.String(unsafe.SliceData(k), len(k)), Value: h.value.get(b.arena)})
		}
	}
	hi := 0
	for i := range b.recs {
		r := &b.recs[i]
		if r.cancelled {
			continue
		}
		nh := int(r.hdrs[1] - r.hdrs[0])
		var hs []wire.Header
		if nh > 0 {
			hs = sc.whdrs[hi : hi+nh : hi+nh]
		}
		hi += nh
		sc.wrecs = append(sc.wrecs, wire.Record{
			Offset:    int64(len(sc.wrecs)),
			Timestamp: r.ts,
			Key:       r.key.get(b.arena),
			Value:     r.value.get(b.arena),
			Headers:   hs,
		})
	}
	return sc.wrecs
}

// encodeScratch is the sender's reused view of a batch as wire records.
type encodeScratch struct {
	wrecs []wire.Record
	whdrs []wire.Header
}

// reset clears b for reuse, returning its buffers to the pools.
func (b *batch) reset(pl *batchPools) {
	pl.bytes.put(b.arena)
	pl.bytes.put(b.encoded)
	pl.recs.put(b.recs)
	pl.hdrs.put(b.hdrs)
	*b = batch{}
}
