package producer

import (
	"time"
	"unsafe"

	"github.com/gregor-kafka/gregor/wire"
)

// rec is the producer's bookkeeping for one admitted record of a batch; the
// record itself is the wire.Record at the same index of batch.wrecs.
type rec struct {
	d         *Delivery
	size      int   // bytes reserved from RetainedBytes
	partition int32 // requested partition (-1: partitioner) for unassigned records
	cancelled bool
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
//
// Record bytes are copied at admission into fixed chunks that never move,
// so wrecs can hold wire.Records whose Key, Value and Headers point into
// them and be handed to wire.BatchEncoder as they are.
type batch struct {
	topic *topicState
	part  *partState // nil for a topic's unassigned records
	state batchState
	recs  []rec
	wrecs []wire.Record
	live  int // records neither cancelled nor terminal
	est   int // estimated encoded bytes (uncompressed)

	chunks  [][]byte        // record bytes; the last one is being filled
	hchunks [][]wire.Header // record headers; the last one is being filled

	created  time.Time // first record's admission (linger starts here)
	deadline time.Time // first record's delivery deadline

	// Sending.
	topicID      wire.UUID // the topic's ID when the batch was last handed out
	sentTo       int32     // broker of the last attempt
	handed       bool      // handed to the client at least once: Cancel is TooLate
	cancelled    int       // records cancelled before the first send
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

// chunkSize is the size of the byte chunks records are copied into; a
// record larger than a quarter of it gets a chunk of its own.
const chunkSize = 32 << 10

// headerChunk is the number of headers per header chunk.
const headerChunk = 256

// messageSize is the estimated encoded size of m's record.
func messageSize(m *Message) int {
	n := recordOverhead + len(m.Key) + len(m.Value)
	for i := range m.Headers {
		n += headerOverhead + len(m.Headers[i].Key) + len(m.Headers[i].Value)
	}
	return n
}

// emptyBytes is a non-nil empty slice (capacity 0, so never written through).
var emptyBytes = make([]byte, 0)

// batchPools are the producer's recycled batch buffers.
type batchPools struct {
	bytes slicePool[byte]
	recs  slicePool[rec]
	wrecs slicePool[wire.Record]
	hdrs  slicePool[wire.Header]
}

// room returns n bytes of stable chunk memory.
func (b *batch) room(pl *batchPools, n int) []byte {
	if k := len(b.chunks); k > 0 {
		c := b.chunks[k-1]
		if len(c)+n <= cap(c) {
			b.chunks[k-1] = c[:len(c)+n]
			return c[len(c) : len(c)+n : len(c)+n]
		}
	}
	size := chunkSize
	if n > chunkSize/4 {
		size = n
	}
	c := pl.bytes.get(size)[:n]
	b.chunks = append(b.chunks, c)
	return c[:n:n]
}

// copyBytes copies p into chunk memory; nil stays nil, empty stays empty.
func (b *batch) copyBytes(pl *batchPools, p []byte) []byte {
	if p == nil {
		return nil
	}
	if len(p) == 0 {
		return emptyBytes
	}
	dst := b.room(pl, len(p))
	copy(dst, p)
	return dst
}

// headers returns n stable header slots.
func (b *batch) headers(pl *batchPools, n int) []wire.Header {
	if k := len(b.hchunks); k > 0 {
		c := b.hchunks[k-1]
		if len(c)+n <= cap(c) {
			b.hchunks[k-1] = c[:len(c)+n]
			return c[len(c) : len(c)+n : len(c)+n]
		}
	}
	c := pl.hdrs.get(max(n, headerChunk))[:n]
	b.hchunks = append(b.hchunks, c)
	return c[:n:n]
}

// push appends a record copied from key, value and headers.
func (b *batch) push(pl *batchPools, key, value []byte, hs []wire.Header, ts int64, r rec) {
	w := wire.Record{Timestamp: ts, Key: b.copyBytes(pl, key), Value: b.copyBytes(pl, value)}
	if len(hs) > 0 {
		w.Headers = b.headers(pl, len(hs))
		for i := range hs {
			k := b.room(pl, len(hs[i].Key))
			copy(k, hs[i].Key)
			w.Headers[i] = wire.Header{Key: unsafe.String(unsafe.SliceData(k), len(k)), Value: b.copyBytes(pl, hs[i].Value)}
		}
	}
	b.recs = pl.recs.grow(b.recs, 1)
	b.wrecs = pl.wrecs.grow(b.wrecs, 1)
	r.d.b = b
	r.d.idx = int32(len(b.recs))
	b.recs = append(b.recs, r)
	b.wrecs = append(b.wrecs, w)
	b.live++
	b.est += r.size
}

// add copies m's key, value and headers into the batch.
func (b *batch) add(pl *batchPools, m *Message, d *Delivery, ts int64, size int, partition int32) {
	b.push(pl, m.Key, m.Value, m.Headers, ts, rec{d: d, size: size, partition: partition})
}

// moveFrom copies record i of batch src into b (used when an unassigned
// record gets its partition).
func (b *batch) moveFrom(pl *batchPools, src *batch, i int) {
	w := &src.wrecs[i]
	b.push(pl, w.Key, w.Value, w.Headers, w.Timestamp, src.recs[i])
}

// wireRecords returns the records to encode: wrecs itself, or, when some
// were cancelled, the live ones gathered into sc.
func (b *batch) wireRecords(sc *encodeScratch) []wire.Record {
	if b.cancelled == 0 {
		return b.wrecs
	}
	sc.wrecs = sc.wrecs[:0]
	for i := range b.recs {
		if !b.recs[i].cancelled {
			sc.wrecs = append(sc.wrecs, b.wrecs[i])
		}
	}
	return sc.wrecs
}

// encodeScratch is the sender's reused list of live records.
type encodeScratch struct {
	wrecs []wire.Record
}

// reset clears b for reuse, returning its buffers to the pools.
func (b *batch) reset(pl *batchPools) {
	for _, c := range b.chunks {
		pl.bytes.put(c)
	}
	clear(b.chunks)
	for _, c := range b.hchunks {
		pl.hdrs.put(c)
	}
	clear(b.hchunks)
	pl.bytes.put(b.encoded)
	pl.recs.put(b.recs)
	pl.wrecs.put(b.wrecs)
	*b = batch{chunks: b.chunks[:0], hchunks: b.hchunks[:0]}
}
