package consumer

import (
	"sync"
	"unsafe"
	"weak"
)

// Recycle hands back a slice that Receive returned, once the application is
// done with it and with every Key, Value and header of its records: the
// consumer then reuses that memory (the slice itself and the decompressed
// record bytes it points into) for later fetches instead of allocating it
// again. After Recycle the caller must not read recs or anything its records
// point to. Recycling is optional: a slice never handed back is garbage
// collected as usual. A slice Receive did not return, or one of the oldest
// of more than 64 slices not yet handed back, is ignored (its memory is
// left to the garbage collector). Hand a slice back at most once: once its
// memory was reused, a second Recycle of it can release records a later
// Receive returned.
func (c *Consumer) Recycle(recs []Record) {
	if len(recs) == 0 {
		return
	}
	c.mu.Lock()
	p, ok := c.pins.take(uintptr(unsafe.Pointer(&recs[0])))
	c.mu.Unlock()
	if !ok {
		return
	}
	c.blocks.release(p)
}

// Recycle hands back a slice that Receive returned, as Consumer.Recycle
// does for the group's engine: the group then reuses that memory for
// later fetches. Mark the records processed (MarkProcessed) before
// handing them back; after Recycle the caller must not read recs or
// anything its records point to. Optional; a slice never handed back is
// garbage collected as usual.
func (g *Group) Recycle(recs []Record) { g.c.Recycle(recs) }

// recBlock is the memory of one Fetch response's deliverable records: the
// records of all its partitions, one after the other, and the arena their
// decompressed bytes were written to. It returns to the pool once every
// chunk cut from it was delivered and handed back with Recycle.
type recBlock struct {
	recs  []Record
	arena []byte
	// frame is the memory the response frame was read into (the wire
	// transport's fetchCall.FrameBuffer); uncompressed records alias it.
	frame []byte
	// chunks is a slab for the block's chunks (Receive is done with a
	// chunk when it delivers it, before the block can be recycled).
	chunks []chunk
	// ownFrame: the response was read into frame, so the records of its
	// uncompressed batches point into the block. foreign: some record
	// (maybe a stale one beyond len(recs)) points outside the block's own
	// memory, so the pool clears recs before keeping the block (else the
	// clear is skipped: every record is rewritten before it is read).
	ownFrame, foreign bool
	// refs counts the non-empty chunks cut from the block that were not
	// handed back yet; guarded by blockPool.mu once the block is shared.
	refs int
	// loose: a chunk of the block was delivered (takeLocked, under
	// Consumer.mu) and not every chunk is back yet (release, under
	// blockPool.mu, makes it tight again). A loose block holds its memory
	// only weakly (held; recs, arena and frame nil), so that the pin ring
	// (which remembers delivered slices by their blocks, for Recycle)
	// keeps no memory alive: what the application drops without Recycle
	// is garbage collected, and what it holds (or hands back) is still
	// there.
	loose bool
	held  heldMem
}

// heldMem is a loose block's memory: weak pointers to its arrays and
// their capacities.
type heldMem struct {
	recs                           weak.Pointer[Record]
	arena, frame                   weak.Pointer[byte]
	chunks                         weak.Pointer[chunk]
	nrecs, narena, nframe, nchunks int
}

// loosen lets go of the block's memory, keeping weak pointers to it.
func (b *recBlock) loosen() {
	if b.loose {
		return
	}
	b.held = heldMem{recs: weakOf(b.recs), arena: weakOf(b.arena), frame: weakOf(b.frame), chunks: weakOf(b.chunks),
		nrecs: cap(b.recs), narena: cap(b.arena), nframe: cap(b.frame), nchunks: cap(b.chunks)}
	b.recs, b.arena, b.frame, b.chunks, b.loose = nil, nil, nil, nil, true
}

// tighten takes back what of a loose block's memory was not collected.
func (b *recBlock) tighten() {
	if !b.loose {
		return
	}
	h := b.held
	b.recs, b.arena, b.frame = strongOf(h.recs, h.nrecs), strongOf(h.arena, h.narena), strongOf(h.frame, h.nframe)
	if p := h.chunks.Value(); p != nil {
		b.chunks = unsafe.Slice(p, h.nchunks) // whole: putLocked clears every chunk
	}
	b.held, b.loose = heldMem{}, false
}

// holds reports whether the loose block's records array is alive and
// holds the record at address first.
func (b *recBlock) holds(first uintptr) bool {
	if !b.loose {
		return false
	}
	base := b.held.recs.Value()
	if base == nil {
		return false
	}
	lo := uintptr(unsafe.Pointer(base))
	return first >= lo && first < lo+uintptr(b.held.nrecs)*unsafe.Sizeof(Record{})
}

// weakOf is a weak pointer to s's array (the zero pointer when it has
// none). A pooled block's arrays keep theirs, so making it again allocates
// nothing.
func weakOf[T any](s []T) weak.Pointer[T] {
	if cap(s) == 0 {
		return weak.Pointer[T]{}
	}
	return weak.Make(unsafe.SliceData(s))
}

// strongOf is the empty slice of capacity n over w's array, nil when it
// was collected.
func strongOf[T any](w weak.Pointer[T], n int) []T {
	p := w.Value()
	if p == nil {
		return nil
	}
	return unsafe.Slice(p, n)[:0]
}

// blockPool keeps recycled blocks, at most maxPooledBlocks of them and
// their memory within a byte bound, so the memory the consumer holds stays
// bounded whether or not the application recycles.
type blockPool struct {
	mu    sync.Mutex
	free  []*recBlock // guarded by mu
	bytes int64       // memory of free, guarded by mu
	limit int64       // bound on bytes; set once by newConsumer
	made  int         // blocks allocated (not taken from free), guarded by mu
	// ratio is the last compressed response's decompressed bytes per
	// records-field byte (0: none yet), guarded by mu.
	ratio float64
}

const (
	maxPooledBlocks = 8
	recordSize      = 112 // unsafe.Sizeof(Record{}) on 64-bit platforms
)

// get returns an empty block sized by fit.
func (bp *blockPool) get(n int, compressed bool, raw int, budget int64) *recBlock {
	b := bp.take()
	bp.fit(b, n, compressed, raw, budget)
	return b
}

// take returns an empty block, pooled or new; fit sizes it once the
// response it holds is known.
func (bp *blockPool) take() *recBlock {
	bp.mu.Lock()
	defer bp.mu.Unlock()
	if k := len(bp.free); k > 0 {
		b := bp.free[k-1]
		bp.free[k-1] = nil
		bp.free = bp.free[:k-1]
		bp.bytes -= b.size()
		return b
	}
	bp.made++
	return &recBlock{}
}

// fit makes b hold a response of n records in raw records-field bytes: its
// records slice n records and, when compressed, its arena room for raw
// bytes at the decompression ratio the last compressed response had (2
// before any), plus a tenth and 64 KiB. When the response would charge
// more than budget (raw bytes, recordSize per record, decompressed bytes:
// what decodePartition charges), both are scaled down to the share of it
// that fits, since decoding stops there: a block never reserves much more
// memory than the bound lets it fill.
func (bp *blockPool) fit(b *recBlock, n int, compressed bool, raw int, budget int64) {
	inflated := 0.0
	if compressed {
		bp.mu.Lock()
		ratio := bp.ratio
		bp.mu.Unlock()
		if ratio == 0 {
			ratio = 2
		}
		inflated = float64(raw) * ratio
	}
	if need := float64(raw) + float64(n)*recordSize + inflated; need > float64(budget) {
		scale := max(float64(budget), 0) / need
		n = min(n, int(float64(n)*scale*1.1)+64)
		inflated *= scale
	}
	n = int(min(int64(n), budget/recordSize+64)) // each record costs recordSize at least
	want := 0
	if compressed {
		want = int(inflated*1.1) + 64<<10
	}
	if cap(b.recs) < n {
		b.recs = make([]Record, 0, n)
	}
	if cap(b.arena) < want {
		b.arena = make([]byte, 0, want)
	}
}

// drop forgets the pooled blocks (Close), so a closed consumer that is
// still referenced for a while (its session-closing requests) holds no
// record memory.
func (bp *blockPool) drop() {
	bp.mu.Lock()
	clear(bp.free)
	bp.free, bp.bytes = bp.free[:0], 0
	bp.mu.Unlock()
}

// put pools a block no chunk was cut from (a response with nothing to
// deliver), for a later fetch.
func (bp *blockPool) put(b *recBlock) {
	bp.mu.Lock()
	bp.putLocked(b)
	bp.mu.Unlock()
}

// noteArena records the decompression ratio of a response: need
// decompressed bytes from raw compressed (records field) bytes.
func (bp *blockPool) noteArena(need, raw int) {
	if need == 0 || raw == 0 {
		return
	}
	bp.mu.Lock()
	bp.ratio = float64(need) / float64(raw)
	bp.mu.Unlock()
}

// newChunk returns a zeroed chunk from the block's slab. (Growing the slab
// leaves earlier chunks where they are.)
func (b *recBlock) newChunk() *chunk {
	if len(b.chunks) == cap(b.chunks) {
		b.chunks = make([]chunk, 0, max(4, 2*cap(b.chunks)))
	}
	b.chunks = b.chunks[:len(b.chunks)+1]
	return &b.chunks[len(b.chunks)-1]
}

func (b *recBlock) size() int64 {
	return int64(cap(b.recs))*recordSize + int64(cap(b.arena)) + int64(cap(b.frame))
}

// release drops one reference per chunk a delivered slice held, pooling the
// blocks that no chunk references any more, and pools a merged slice.
func (bp *blockPool) release(p pin) {
	bp.mu.Lock()
	defer bp.mu.Unlock()
	for _, b := range p.blocks() {
		if b.refs--; b.refs == 0 {
			bp.putLocked(b)
		}
	}
	if p.merged != nil {
		p.merged.foreign = true // copies of records pointing into other blocks
		bp.putLocked(p.merged)
	}
}

func (bp *blockPool) putLocked(b *recBlock) {
	b.tighten()
	if len(bp.free) >= maxPooledBlocks || bp.bytes+b.size() > bp.limit {
		return
	}
	if b.foreign {
		clear(b.recs[:cap(b.recs)]) // drop references to other memory
		b.foreign = false
	}
	b.recs = b.recs[:0]
	b.arena = b.arena[:0]
	clear(b.chunks)
	b.chunks = b.chunks[:0]
	b.refs = 0
	bp.bytes += b.size()
	bp.free = append(bp.free, b)
}

// pin is what one delivered slice holds: one block reference per chunk it
// contains, and the block of the merged slice when chunks were copied into
// one. Its blocks are loose, and first is an address, not a pointer: a pin
// keeps nothing of the slice alive.
type pin struct {
	first  uintptr   // address of the slice's first record
	key    *recBlock // the block whose records array holds the slice
	n      int
	inline [4]*recBlock
	more   []*recBlock
	merged *recBlock
}

func (p *pin) add(b *recBlock) {
	if p.n < len(p.inline) {
		p.inline[p.n] = b
	} else {
		p.more = append(p.more, b)
	}
	p.n++
}

func (p *pin) blocks() []*recBlock {
	if p.n <= len(p.inline) {
		return p.inline[:p.n]
	}
	return append(p.inline[:], p.more...)
}

// pinRing remembers the delivered slices not yet handed back, the newest
// maxPins of them. Guarded by Consumer.mu.
type pinRing struct {
	ring [maxPins]pin
	next int
}

const maxPins = 64

// put remembers p, forgetting the oldest slice when the ring is full.
func (r *pinRing) put(p pin) {
	r.ring[r.next] = p
	r.next = (r.next + 1) % maxPins
}

// take finds and forgets the slice starting at first. The caller holds
// that slice, so its array is alive: a pin at the same address whose
// array was collected (a slice never handed back, its memory since reused)
// is stale, forgotten and passed over.
func (r *pinRing) take(first uintptr) (pin, bool) {
	for i := range r.ring {
		p := &r.ring[i]
		if p.first != first {
			continue
		}
		out := *p
		*p = pin{}
		if out.key.holds(first) {
			return out, true
		}
	}
	return pin{}, false
}
