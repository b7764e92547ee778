package producer

import (
	"encoding/binary"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// rec is the producer's bookkeeping for one admitted record of a batch (24
// bytes: record tables are written once per record and recycled, so they
// stay small). The record's timestamp and requested partition live in its
// Delivery, which is set while the record is live.
type rec struct {
	d          *Delivery
	size       int32 // bytes reserved from RetainedBytes
	start, end int32 // the record's encoded bytes in batch.stream
	cancelled  bool
}

// recRef is a record the producer borrows (Config.BorrowSlices): the
// caller's key, value and headers, not copied, and its timestamp. A
// batch's refs are encoded into its stream when it is first sent (build)
// and dropped then, or when the record is cancelled or fails first.
type recRef struct {
	key, value []byte
	headers    []wire.Header
	ts         int64 // Unix ms, as the record's Delivery has it
}

// batchPhase is where a batch is in its life (see INTERNALS.md, "A
// record"). The zero value is batchOpen. A batch leaves its last phase by
// being removed from its partition and recycled (succeedLocked, failBatchLocked).
type batchPhase uint8

const (
	// batchOpen: accepting records (the partition's last batch).
	batchOpen batchPhase = iota
	// batchReady: sealed, no sequence range yet (or its range was dropped
	// by a sequence reset): waiting to be sequenced and sent.
	batchReady
	// batchSequenced: sealed with a sequence range under an identity,
	// waiting to be (re)sent with that range.
	batchSequenced
	// batchInFlight: in an outstanding ProduceRequest (always sequenced);
	// the sender owns it exclusively while encoding it.
	batchInFlight
)

// seal: open → ready (full, linger passed, flush or close).
func (b *batch) seal() { b.phase = batchReady }

// sequence: ready → sequenced (assignSequenceLocked gave it its range).
func (b *batch) sequence() {
	b.phase = batchSequenced
	b.encodedOK = false
}

// send: sequenced → in flight (put in a ProduceRequest).
func (b *batch) send() {
	b.phase = batchInFlight
	b.handed = true
}

// answered: in flight → sequenced (the request's outcome arrived; onResultLocked
// then keeps it for a retry or removes it).
func (b *batch) answered() { b.phase = batchSequenced }

// unsequence: sequenced → ready (a sequence reset, KIP-360: the broker
// definitely did not write it, so it gets a new range).
func (b *batch) unsequence() {
	b.phase = batchReady
	b.maybeWritten = false
	b.encodedOK = false
}

// sequenced reports whether b holds a sequence range (sequenced or in
// flight).
func (b *batch) sequenced() bool { return b.phase >= batchSequenced }

// inFlight reports whether b is in an outstanding ProduceRequest.
func (b *batch) inFlight() bool { return b.phase == batchInFlight }

// batch is a partition's group of records, sent as one record batch. The
// producer's lock guards every field except during encoding, when the
// sender owns a sealed batch exclusively (phase batchInFlight).
//
// Admission copies each record once, already in the v2 record format
// (wire.AppendRecord), into stream behind wire.BatchHeaderLen reserved
// bytes; sending fills in the header (wire.BatchEncoder.FinishBatch) in
// place when uncompressed, or compresses stream into encoded. With
// Config.BorrowSlices admission keeps references instead (refs, parallel
// to recs until compaction), and the sender encodes them into stream when
// the batch is first sent (build); from then on the batch is the same as
// a copied one.
type batch struct {
	topic *topicState
	part  *partState // nil for a topic's unassigned records
	phase batchPhase // changed only by the transition methods above
	recs  []rec
	live  int // records neither cancelled nor terminal
	est   int // estimated encoded bytes (uncompressed)

	stream    []byte // header room, then the records (offset deltas = index in recs until compacted)
	crc       uint32 // CRC-32C of stream[wire.BatchHeaderLen:crcEnd] when the pools keep running CRCs
	crcEnd    int    // end of the stream bytes crc covers (0: none yet)
	baseTS    int64  // timestamp deltas in stream are from this
	maxTS     int64
	cancelled int // records cancelled since the stream was last compacted

	// Borrowed records (Config.BorrowSlices): refs[i] is recs[i]'s until
	// compaction, then the live records' in order; borrowed is their
	// encoded size (wire.RecordLen), the bytes build will append. Both are
	// empty once the batch was built (or in copy mode).
	refs     []recRef
	borrowed int

	// Streaming compression (batch_stream.go): zs compresses whole chunks
	// of the stream as they fill; fed counts the record bytes it took
	// (record start/end positions count them too: stream holds the header
	// room and the records after them).
	zs       *wire.StreamEncoder
	fed      int
	zsErr    error // reading compressed records back failed (unstream): encoding the batch fails with it
	streamed bool  // encoded holds the whole batch; sending re-seals it

	created   time.Time // first record's admission (linger starts here)
	deadline  time.Time // first record's delivery deadline
	lastAdmit time.Time // newest record's admission (see fatalForLocked)
	// unknownBase is the topic's unknown count when the batch was opened:
	// the refreshes since then that reported the topic unknown are
	// topic.unknown - unknownBase (Config.UnknownTopicRetries).
	unknownBase int

	// Sending.
	topicID      wire.UUID // the topic's ID when the batch was last handed out
	pinID        wire.UUID // the topic's ID when the batch was opened (Config.PinTopicIDs)
	sentTo       int32     // broker of the last attempt
	handed       bool      // handed to the client at least once (send): Cancel is TooLate
	pid          int64
	epoch        int16
	baseSeq      int32
	numSeq       int32 // records covered by the sequence range
	ackedEnd     int64 // the partition's ackedEnd when the batch was sequenced
	attempts     int   // counted attempts (see MaxRetries)
	maybeWritten bool  // some attempt ended with an unknown outcome
	lastErr      error
	encodedOK    bool   // out holds the batch for the current sequence
	encoded      []byte // compressed batch (codecs other than none)
	out          []byte // the bytes sent: stream itself (uncompressed) or encoded
}

// recordOverhead is a conservative estimate of a record's framing in a v2
// batch (length, attributes, timestamp/offset deltas, key/value lengths,
// header count) beyond its key, value and header bytes.
const recordOverhead = 21

// headerOverhead estimates a header's framing (two varint lengths).
const headerOverhead = 10

// batchOverhead is the v2 record batch header (61 bytes).
const batchOverhead = wire.BatchHeaderLen

// messageSize is the estimated encoded size of m's record.
func messageSize(m *Record) int {
	n := recordOverhead + len(m.Key) + len(m.Value)
	for i := range m.Headers {
		n += headerOverhead + len(m.Headers[i].Key) + len(m.Headers[i].Value)
	}
	return n
}

// batchPools are the producer's recycled batch buffers.
type batchPools struct {
	bytes slicePool[byte]
	recs  slicePool[rec]
	// streams: encoders of batches compressed as they fill (lz4).
	streams streamPool
	// refs: the record references of borrowing batches.
	refs slicePool[recRef]
	// borrow: Config.BorrowSlices (set by New).
	borrow bool
	// runningCRC: batches are sent uncompressed, so each keeps the CRC-32C
	// of its records up to date as they are appended, while their bytes
	// are in the cache; sending a batch of combineMinLen bytes or more
	// then combines it with the header's (wire.BatchEncoder.FinishBatchCRC)
	// instead of reading a cold batch.
	runningCRC bool
}

// add encodes m's record into the batch (its one copy), or with
// Config.BorrowSlices keeps references to its slices.
func (b *batch) add(pl *batchPools, m *Record, d *Delivery, ts int64, size int) {
	if pl.borrow {
		b.addRef(pl, recRef{key: m.Key, value: m.Value, headers: m.Headers, ts: ts}, rec{d: d, size: int32(size)})
		return
	}
	b.begin(pl, ts, size)
	start := b.streamLen()
	if s := wire.AppendRecord(b.stream, int32(len(b.recs)), ts-b.baseTS, m.Key, m.Value, m.Headers); cap(s) == cap(b.stream) {
		b.stream = b.stream[:len(s)] // in place (begin made room): no pointer store
	} else {
		b.stream = s
	}
	b.appended(pl)
	b.push(pl, rec{d: d, size: int32(size), start: int32(start), end: int32(b.streamLen())})
	b.feed()
}

// moveFrom re-frames record i of batch src into b (used when an unassigned
// record gets its partition). src never streams: it has no partition.
func (b *batch) moveFrom(pl *batchPools, src *batch, i int) {
	r := src.recs[i]
	if pl.borrow {
		ref := src.refs[i]
		src.refs[i] = recRef{}
		b.addRef(pl, ref, r)
		return
	}
	b.begin(pl, r.d.ts, int(r.size))
	start := b.streamLen()
	b.stream = reframe(b.stream, src.stream[r.start:r.end], int32(len(b.recs)), src.baseTS-b.baseTS)
	b.appended(pl)
	r.start, r.end = int32(start), int32(b.streamLen())
	b.push(pl, r)
	b.feed()
}

// addRef appends a borrowed record (no byte of it is read), counting the
// bytes it will take once encoded at its offset and timestamp deltas.
func (b *batch) addRef(pl *batchPools, ref recRef, r rec) {
	if len(b.recs) == 0 {
		b.baseTS, b.maxTS = ref.ts, ref.ts
	}
	b.maxTS = max(b.maxTS, ref.ts)
	b.borrowed += wire.RecordLen(int32(len(b.recs)), ref.ts-b.baseTS, ref.key, ref.value, ref.headers)
	b.refs = pl.refs.grow(b.refs, 1)
	b.refs = append(b.refs, ref)
	b.push(pl, r)
}

// key returns the key of record i of a batch that was not compacted (an
// unassigned batch).
func (b *batch) key(i int) []byte {
	if i < len(b.refs) {
		return b.refs[i].key
	}
	r := &b.recs[i]
	return recordKey(b.stream[r.start:r.end])
}

// reserve gives a borrowing batch its stream, sized exactly for its
// records; called under the producer's lock once the batch is compacted
// and sequenced, before the sender builds it.
func (b *batch) reserve(pl *batchPools) {
	if len(b.refs) == 0 || len(b.stream) > 0 {
		return
	}
	b.stream = pl.bytes.get(wire.BatchHeaderLen + b.borrowed)[:wire.BatchHeaderLen]
}

// build encodes the borrowed records into the stream (with the running
// CRC when uncompressed, as admission would have): the one time the
// caller's bytes are read. Called by the sender, which owns the batch in
// flight; releaseRefs drops the references under the producer's lock.
func (b *batch) build(pl *batchPools) {
	for i := range b.refs {
		r := &b.refs[i]
		b.stream = wire.AppendRecord(b.stream, int32(i), r.ts-b.baseTS, r.key, r.value, r.headers)
		b.appended(pl)
	}
	b.borrowed = 0
}

// releaseRefs returns the reference table of a built (or failed) batch to
// the pool, which clears it: the producer holds no caller slice after.
func (b *batch) releaseRefs(pl *batchPools) {
	if b.refs == nil {
		return
	}
	pl.refs.put(b.refs)
	b.refs, b.borrowed = nil, 0
}

// dropRef drops cancelled record i's references.
func (b *batch) dropRef(i int) {
	if i < len(b.refs) {
		b.refs[i] = recRef{}
	}
}

// crcChunk is how many appended bytes the running CRC waits for: a few
// small records at a time, still in the L1 cache, and long enough for
// hash/crc32's fastest (three-way) Castagnoli path.
const crcChunk = 4096

// combineMinLen is the records' length from which encode finishes a batch
// from its running CRC (wire.BatchEncoder.FinishBatchCRC, which combines it
// with the header's) rather than checksumming the records again
// (FinishBatch). Combining (wire.CombineCRC32C) costs 0.7-1.3 µs at any
// length; checksumming runs at about 20 GB/s with the CPU's CRC
// instruction: 36 ns for 256 B, 0.9 µs for 16 KiB, 56 µs for 1 MiB (the
// 2-core test machine). Spread over thousands of partitions, batches hold
// a few records each, and combining took a fifth of the sender's CPU
// (issue 37).
const combineMinLen = 16 << 10

// appended extends the running CRC once crcChunk bytes were appended to a
// batch of at least combineMinLen bytes of records: below that encode
// checksums the records again, and a running CRC would be work done twice.
func (b *batch) appended(pl *batchPools) {
	if pl.runningCRC && len(b.stream)-wire.BatchHeaderLen >= combineMinLen &&
		len(b.stream)-max(b.crcEnd, wire.BatchHeaderLen) >= crcChunk {
		b.updateCRC()
	}
}

// updateCRC extends the running CRC to the end of the stream.
func (b *batch) updateCRC() {
	from := max(b.crcEnd, wire.BatchHeaderLen)
	b.crc = wire.UpdateCRC32C(b.crc, b.stream[from:])
	b.crcEnd = len(b.stream)
}

// begin prepares the stream for a record of about size bytes at time ts.
func (b *batch) begin(pl *batchPools, ts int64, size int) {
	if len(b.recs) == 0 {
		b.baseTS, b.maxTS = ts, ts
		if len(b.stream) < wire.BatchHeaderLen {
			b.stream = pl.bytes.grow(b.stream[:0], wire.BatchHeaderLen+size+32)
			b.stream = b.stream[:wire.BatchHeaderLen]
		}
	}
	b.maxTS = max(b.maxTS, ts)
	// recordOverhead underestimates the worst-case framing by up to 16
	// bytes; 32 spare keeps AppendRecord within the pooled capacity.
	// (Slices are stored only when they move: a slice store is a pointer
	// store, which costs a GC write barrier while a collection runs.)
	if cap(b.stream)-len(b.stream) < size+32 {
		b.stream = pl.bytes.grow(b.stream, size+32)
	}
}

func (b *batch) push(pl *batchPools, r rec) {
	if len(b.recs) == cap(b.recs) {
		b.recs = pl.recs.grow(b.recs, 1)
	}
	n := len(b.recs)
	r.d.b, r.d.idx = b, int32(n)
	// Field by field: append (a struct copy) takes the bulk write barrier.
	b.recs = b.recs[:n+1]
	e := &b.recs[n]
	e.d, e.size, e.start, e.end, e.cancelled = r.d, r.size, r.start, r.end, r.cancelled
	b.live++
	b.est += int(r.size)
}

// compact drops cancelled records from the stream, renumbering offset
// deltas and rebasing timestamps on the first remaining record. Called
// under the producer's lock before a batch's first send.
func (b *batch) compact(pl *batchPools) {
	if b.cancelled == 0 {
		return
	}
	if pl.borrow {
		b.compactRefs()
		return
	}
	if err := b.unstream(pl, pl.streams.codec); err != nil {
		b.zsErr = err // the batch fails when it is encoded
		return
	}
	ns := pl.bytes.get(len(b.stream))[:wire.BatchHeaderLen]
	n := int32(0)
	newBase := int64(0)
	first := true
	for i := range b.recs {
		r := &b.recs[i]
		if r.cancelled {
			continue
		}
		ts := r.d.ts // live: not cancelled, and a batch's records end together
		if first {
			newBase, b.maxTS, first = ts, ts, false
		}
		b.maxTS = max(b.maxTS, ts)
		start := len(ns)
		ns = reframe(ns, b.stream[r.start:r.end], n, b.baseTS-newBase)
		r.start, r.end = int32(start), int32(len(ns))
		n++
	}
	pl.bytes.put(b.stream)
	b.stream, b.baseTS, b.cancelled, b.crc, b.crcEnd = ns, newBase, 0, 0, 0
	b.appended(pl)
}

// compactRefs is compact for a borrowing batch: the live records'
// references move to the front, in order; no record byte is read.
func (b *batch) compactRefs() {
	n := 0
	for i := range b.recs {
		if b.recs[i].cancelled {
			continue
		}
		ts := b.refs[i].ts
		if n == 0 {
			b.baseTS, b.maxTS = ts, ts
		}
		b.maxTS = max(b.maxTS, ts)
		b.refs[n] = b.refs[i]
		n++
	}
	clear(b.refs[n:])
	b.refs, b.cancelled, b.borrowed = b.refs[:n], 0, 0
	for i := range b.refs {
		r := &b.refs[i]
		b.borrowed += wire.RecordLen(int32(i), r.ts-b.baseTS, r.key, r.value, r.headers)
	}
}

// reframe appends one encoded v2 record to dst with a new offset delta and
// its timestamp delta shifted by shift.
func reframe(dst, rec []byte, offsetDelta int32, shift int64) []byte {
	var r wire.Reader
	r.Reset(rec)
	r.Varint() // length
	attrs := r.Int8()
	tsDelta := r.Varlong() + shift
	r.Varint() // old offset delta
	rest := rec[r.Offset():]
	var tmp [binary.MaxVarintLen64]byte
	body := 1 + len(binary.AppendVarint(tmp[:0], tsDelta)) + len(binary.AppendVarint(tmp[:0], int64(offsetDelta))) + len(rest)
	dst = wire.AppendVarint(dst, int32(body))
	dst = append(dst, byte(attrs))
	dst = wire.AppendVarlong(dst, tsDelta)
	dst = wire.AppendVarint(dst, offsetDelta)
	return append(dst, rest...)
}

// recordKey returns the key of one encoded v2 record (nil when null).
func recordKey(rec []byte) []byte {
	var r wire.Reader
	r.Reset(rec)
	r.Varint() // length
	r.Int8()   // attributes
	r.Varlong()
	r.Varint()
	n := r.Varint()
	if n < 0 {
		return nil
	}
	return r.Raw(int(n))
}

// reset clears b for reuse, returning its buffers to the pools.
func (b *batch) reset(pl *batchPools) {
	b.dropStream(pl)
	pl.bytes.put(b.stream)
	pl.bytes.put(b.encoded)
	pl.recs.put(b.recs)
	b.releaseRefs(pl)
	*b = batch{}
}
