package consumer

import (
	"math/rand/v2"
	"testing"

	"github.com/gregor-kafka/gregor"
)

var marksTP = gregor.TopicPartition{Topic: "t", Partition: 0}

func newMarks(offsets ...int64) *markTracker {
	t := &markTracker{}
	t.init()
	for _, o := range offsets {
		t.delivered(marksTP, o)
	}
	return t
}

// TestMarksPrefix: only the contiguous processed prefix is committable,
// whatever the marking order; gaps between offsets (compaction,
// transaction markers) are no hole; a record marked twice, never
// delivered or re-delivered below the pending ones is refused.
func TestMarksPrefix(t *testing.T) {
	m := newMarks(10, 11, 13, 20, 21)
	if _, ok := m.committable(marksTP); ok {
		t.Fatal("committable before any mark")
	}
	for _, o := range []int64{13, 21} {
		if !m.mark(marksTP, o) {
			t.Fatalf("mark %d refused", o)
		}
	}
	if _, ok := m.committable(marksTP); ok {
		t.Fatal("committable with offset 10 unprocessed")
	}
	if m.mark(marksTP, 12) || m.mark(marksTP, 13) || m.mark(marksTP, 99) {
		t.Fatal("a gap, a marked record or an undelivered one was accepted")
	}
	m.mark(marksTP, 10)
	if o, _ := m.committable(marksTP); o != 11 {
		t.Fatalf("committable %d, want 11", o)
	}
	m.mark(marksTP, 11)
	if o, _ := m.committable(marksTP); o != 14 {
		t.Fatalf("committable %d, want 14 (13 was marked before)", o)
	}
	m.delivered(marksTP, 20) // re-delivery after a Seek back: still one
	m.mark(marksTP, 20)
	if o, _ := m.committable(marksTP); o != 22 {
		t.Fatalf("committable %d, want 22", o)
	}
	if m.mark(marksTP, 20) {
		t.Fatal("a record in the prefix was marked again")
	}
	m.drop(marksTP)
	if _, ok := m.committable(marksTP); ok || m.mark(marksTP, 30) {
		t.Fatal("a dropped partition kept its marks")
	}
}

// TestMarksLinear: marking n delivered records, in order or shuffled
// within windows as a worker pool would, moves O(n) offsets in all. The
// first version shifted the whole pending list on every mark in order:
// n²/2 moves (5.6e8 for the 33,460 records of one partition in the CLI's
// 100k test), under the group's lock, which starved the heartbeat past
// the session timeout under -race.
func TestMarksLinear(t *testing.T) {
	const n = 100_000
	r := rand.New(rand.NewPCG(1, 2))
	for _, window := range []int{1, 64, 4096} {
		m := newMarks()
		order := make([]int64, 0, n)
		for i := range int64(n) {
			m.delivered(marksTP, 2*i) // gaps, as after compaction
			order = append(order, 2*i)
		}
		for lo := 0; lo < n; lo += window {
			w := order[lo:min(lo+window, n)]
			r.Shuffle(len(w), func(i, j int) { w[i], w[j] = w[j], w[i] })
		}
		for _, o := range order {
			if !m.mark(marksTP, o) {
				t.Fatalf("window %d: mark %d refused", window, o)
			}
		}
		p := m.parts[marksTP]
		if o, _ := m.committable(marksTP); o != 2*n-1 {
			t.Fatalf("window %d: committable %d, want %d", window, o, 2*n-1)
		}
		if p.pending.Moved() > n {
			t.Fatalf("window %d: %d offsets moved for %d marks, want at most %d", window, p.pending.Moved(), n, n)
		}
		if p.pending.Len() != 0 {
			t.Fatalf("window %d: %d offsets still pending after every mark", window, p.pending.Len())
		}
	}
}

// TestMarksSteadyStream: under a steady stream (deliver a batch, mark it,
// repeat) with one record left unmarked behind, the arrays stay bounded
// by what awaits a mark, not by everything delivered.
func TestMarksSteadyStream(t *testing.T) {
	m := newMarks()
	var off, prevFirst int64 = 0, -1
	for range 1000 {
		first := off
		for range 100 {
			m.delivered(marksTP, off)
			off++
		}
		for o := first + 1; o < off; o++ {
			m.mark(marksTP, o)
		}
		if prevFirst >= 0 && !m.mark(marksTP, prevFirst) {
			t.Fatalf("mark %d refused", prevFirst)
		}
		prevFirst = first
	}
	if o, _ := m.committable(marksTP); o != prevFirst {
		t.Fatalf("committable %d, want %d (the last batch's first is unmarked)", o, prevFirst)
	}
	p := m.parts[marksTP]
	if live := p.pending.Len(); live != 100 || p.pending.Cap() > 1024 {
		t.Fatalf("%d awaiting a mark, capacity %d after 100,000 records in batches of 100, want 100 and at most 1024", live, p.pending.Cap())
	}
}

// BenchmarkMarksInOrder marks one partition's batch of 33,460 delivered
// records in delivery order (the CLI's 100k test on 3 partitions).
func BenchmarkMarksInOrder(b *testing.B) {
	const n = 33_460
	b.ReportAllocs()
	for b.Loop() {
		m := newMarks()
		for i := range int64(n) {
			m.delivered(marksTP, i)
		}
		for i := range int64(n) {
			m.mark(marksTP, i)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/record")
}
