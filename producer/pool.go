package producer

import "math/bits"

// slicePool recycles slices by capacity class (powers of two), so batches of
// varying sizes reuse each other's buffers and steady-state admission and
// encoding allocate nothing. It is guarded by the producer's lock and keeps
// at most maxBytes (in elements times elemSize) pooled.
type slicePool[T any] struct {
	classes  [48][][]T
	pooled   int64
	maxBytes int64
	elemSize int64
	minElems int  // the smallest capacity handed out and pooled (0: defaultMinElems)
	noClear  bool // elements hold no pointers: recycled slices need no clearing
	misses   int  // slices allocated because no pooled one fitted (tests)
}

// defaultMinElems is a pool's smallest capacity unless minElems says
// otherwise.
const defaultMinElems = 64

// least is the smallest capacity sp hands out and pools.
func (sp *slicePool[T]) least() int {
	if sp.minElems > 0 {
		return sp.minElems
	}
	return defaultMinElems
}

// get returns an empty slice with capacity of at least n.
func (sp *slicePool[T]) get(n int) []T {
	c := bits.Len(uint(max(n, sp.least()) - 1))
	if l := sp.classes[c]; len(l) > 0 {
		s := l[len(l)-1]
		l[len(l)-1] = nil
		sp.classes[c] = l[:len(l)-1]
		sp.pooled -= int64(cap(s)) * sp.elemSize
		return s[:0]
	}
	sp.misses++
	return make([]T, 0, 1<<c)
}

// getUpTo returns an empty slice with capacity of at least n, taking the
// largest pooled slice of capacity up to about want (want ≥ n) when there
// is one: a batch likely to grow then starts with room that is already
// paid for, instead of regrowing (and copying) from n, while nothing is
// allocated beyond what get(n) would.
func (sp *slicePool[T]) getUpTo(n, want int) []T {
	lo := bits.Len(uint(max(n, sp.least()) - 1))
	for c := bits.Len(uint(max(want, n, sp.least()) - 1)); c > lo; c-- {
		if l := sp.classes[c]; len(l) > 0 {
			s := l[len(l)-1]
			l[len(l)-1] = nil
			sp.classes[c] = l[:len(l)-1]
			sp.pooled -= int64(cap(s)) * sp.elemSize
			return s[:0]
		}
	}
	return sp.get(n)
}

// put recycles s unless the pool is full.
func (sp *slicePool[T]) put(s []T) {
	if cap(s) < sp.least() {
		return
	}
	size := int64(cap(s)) * sp.elemSize
	if sp.pooled+size > sp.maxBytes {
		return
	}
	c := bits.Len(uint(cap(s))) - 1 // floor: every slice in class c has cap ≥ 1<<c
	if !sp.noClear {
		clear(s) // elements past len were cleared when they were recycled before
	}
	sp.classes[c] = append(sp.classes[c], s[:0])
	sp.pooled += size
}

// grow returns s with room for n more elements, moving it to a pooled
// slice of the next class when needed.
func (sp *slicePool[T]) grow(s []T, n int) []T {
	if len(s)+n <= cap(s) {
		return s
	}
	ns := sp.get(max(2*cap(s), len(s)+n))
	ns = append(ns, s...)
	sp.put(s)
	return ns
}
