package share

import "sync"

// Recycle hands back a slice that Receive returned, once the application is
// done with it and with every Key, Value and header of its records (an
// acknowledgement needs only the record's topic, partition and offset, so
// Acknowledge may come before or after): the consumer then reuses that
// memory (the slice and the decompressed record bytes it points into) for
// later fetches instead of allocating it again. After Recycle the caller must
// not read recs or anything its records point to. Recycling is optional, as
// with the assigned consumer's Recycle: a slice never handed back is garbage
// collected as usual, and a slice Receive did not return, or one of the
// oldest of more than 64 slices not yet handed back, is ignored. Hand a
// slice back at most once: once its memory was reused, a second Recycle of
// it can release records a later Receive returned. Recycle does not wait for a Receive in progress.
func (c *Consumer) Recycle(recs []Record) {
	if len(recs) == 0 {
		return
	}
	c.pool.recycle(&recs[0])
}

// Pool bounds: blocks kept for reuse, and delivered slices remembered.
const (
	maxFreeBlocks = 2
	maxPins       = 64
	// arenaSlack is room past the largest round's decompressed bytes: the
	// lz4 decoder wants four times a block's compressed size free before
	// it decodes into the arena.
	arenaSlack = 64 << 10
)

// recBlock is the memory of one fetch round's deliverable records (every
// ShareFetch that Receive sent at once): the records, delivered in chunks
// cut from recs, and the arena their compressed batches were decompressed
// into. It returns to the pool once every chunk was delivered and handed
// back.
type recBlock struct {
	recs  []Record
	arena []byte
	// refs counts delivered chunks not handed back; cut is set once the
	// last record was delivered; lost once a chunk was forgotten unpinned
	// (the block is then never reused). Guarded by recPool.mu.
	refs      int
	cut, lost bool
}

// pin remembers one delivered chunk (by its first record) and its block.
type pin struct {
	first *Record
	blk   *recBlock
}

// recPool keeps recycled blocks and the chunks delivered but not handed
// back. Its own mutex, not opMu, guards it: Recycle must not wait for a
// Receive that long-polls.
type recPool struct {
	mu   sync.Mutex
	free []*recBlock
	pins [maxPins]pin
	// next is the pins slot the next delivered chunk takes (the oldest
	// once all are in use).
	next int
	// arenaHint is the arena a new block gets: the decompressed size of
	// the largest round seen and arenaSlack (at most maxArena).
	arenaHint, maxArena int
}

// get returns an empty block, a recycled one when there is one.
func (p *recPool) get() *recBlock {
	p.mu.Lock()
	defer p.mu.Unlock()
	var b *recBlock
	if n := len(p.free); n > 0 {
		b, p.free = p.free[n-1], p.free[:n-1]
	} else {
		b = &recBlock{}
	}
	if cap(b.arena) < p.arenaHint {
		b.arena = make([]byte, 0, p.arenaHint)
	}
	return b
}

// filled records what a round decoded into b: inflated decompressed bytes.
// A block that holds no record goes back to the pool at once.
func (p *recPool) filled(b *recBlock, inflated int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if inflated > 0 {
		p.arenaHint = min(max(p.arenaHint, inflated+inflated/4+arenaSlack), p.maxArena)
	}
	if len(b.recs) == 0 {
		p.keepLocked(b)
	}
}

// deliver pins chunk, cut from b; last says it is b's final chunk.
func (p *recPool) deliver(b *recBlock, chunk []Record, last bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if old := p.pins[p.next]; old.blk != nil {
		old.blk.refs--
		old.blk.lost = true // its chunk may still be in use
	}
	p.pins[p.next] = pin{first: &chunk[0], blk: b}
	p.next = (p.next + 1) % maxPins
	b.refs++
	b.cut = b.cut || last
}

// recycle unpins the chunk starting at first; its block returns to the
// pool when it was the last chunk out.
func (p *recPool) recycle(first *Record) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := range p.pins {
		if pn := &p.pins[i]; pn.first == first {
			b := pn.blk
			*pn = pin{}
			b.refs--
			if b.refs == 0 && b.cut && !b.lost {
				p.keepLocked(b)
			}
			return
		}
	}
}

// keepLocked empties b and keeps it for reuse while there is room.
func (p *recPool) keepLocked(b *recBlock) {
	if len(p.free) >= maxFreeBlocks {
		return
	}
	clear(b.recs) // drop what the records point to
	b.recs, b.arena, b.refs, b.cut, b.lost = b.recs[:0], b.arena[:0], 0, false, false
	p.free = append(p.free, b)
}
