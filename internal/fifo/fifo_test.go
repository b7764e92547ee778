package fifo

import (
	"testing"
)

// TestOrder: items leave in the order they came, through growth and
// compaction, and Front/Live see the oldest first.
func TestOrder(t *testing.T) {
	var q Queue[int]
	next, want := 0, 0
	for round := range 1000 {
		for range round % 7 {
			q.Push(next)
			next++
		}
		for range round % 5 {
			f := q.Front()
			if f == nil {
				if q.Len() != 0 {
					t.Fatalf("Front nil with %d queued", q.Len())
				}
				break
			}
			if *f != want || q.Live()[0] != want {
				t.Fatalf("front %d (live %d), want %d", *f, q.Live()[0], want)
			}
			q.Pop()
			want++
		}
		if q.Len() != next-want {
			t.Fatalf("Len %d, want %d", q.Len(), next-want)
		}
	}
}

// TestNeverEmptyStaysBounded: a queue that never empties (one item always
// queued, a steady stream through it) keeps its slice within a small
// capacity and moves each item at most once on average; without the
// compaction the slice grew with every item that ever passed.
func TestNeverEmptyStaysBounded(t *testing.T) {
	var q Queue[*int]
	for i := range 10 {
		q.Push(&i)
	}
	const stream = 1_000_000
	for i := range stream {
		q.Push(&i)
		q.Pop()
	}
	if q.Len() != 10 || q.Cap() > 64 {
		t.Fatalf("%d queued in a slice of capacity %d after %d items passed, want 10 within 64", q.Len(), q.Cap(), stream)
	}
	if q.Moved() > stream {
		t.Fatalf("compaction moved %d items for %d that passed", q.Moved(), stream)
	}
}

// TestPopZeroes: a popped item's slot no longer refers to it, and Reset
// clears every slot while keeping the memory.
func TestPopZeroes(t *testing.T) {
	var q Queue[*int]
	a, b, c := 1, 2, 3
	q.Push(&a)
	q.Push(&b)
	q.Push(&c)
	q.Pop()
	if full := q.items[:cap(q.items)]; full[0] != nil {
		t.Fatal("the popped slot still points at its item")
	}
	capBefore := q.Cap()
	q.Reset()
	if q.Len() != 0 || q.Front() != nil || q.Cap() != capBefore {
		t.Fatalf("after Reset: Len %d, Front %v, capacity %d (was %d)", q.Len(), q.Front(), q.Cap(), capBefore)
	}
	for i, p := range q.items[:cap(q.items)] {
		if p != nil {
			t.Fatalf("slot %d still points at an item after Reset", i)
		}
	}
	q.Pop() // empty: nothing happens
}
