package bench

import (
	"math"
	"testing"
	"time"
)

func TestScheduleDue(t *testing.T) {
	start := time.Unix(1000, 0)
	s := schedule{start: start, rate: 1000, n: 5000}
	for _, c := range []struct {
		after time.Duration
		want  int
	}{
		{-time.Millisecond, 0},
		{0, 1}, // record 0 is due at start
		{999 * time.Microsecond, 1},
		{time.Millisecond, 2},
		{time.Second, 1001},
		{time.Hour, 5000}, // never more than n
	} {
		if got := s.due(start.Add(c.after)); got != c.want {
			t.Errorf("due(start%+v) = %d, want %d", c.after, got, c.want)
		}
	}
	if got, want := s.at(2500), start.Add(2500*time.Millisecond); !got.Equal(want) {
		t.Errorf("at(2500) = %v, want %v", got, want)
	}
}

// TestScheduleOpenLoop checks that run keeps to the schedule from its start
// when a send stalls: the records due during the stall are sent right after
// it, with their own (earlier) due times, instead of the schedule shifting.
func TestScheduleOpenLoop(t *testing.T) {
	s := schedule{start: time.Now(), rate: 10_000, n: 600}
	var dues []time.Time
	s.run(func(i int, due time.Time) {
		if i != len(dues) {
			t.Fatalf("send %d out of order (after %d)", i, len(dues))
		}
		if time.Now().Before(due) {
			t.Fatalf("record %d sent %v before it was due", i, time.Until(due))
		}
		dues = append(dues, due)
		if i == 100 {
			time.Sleep(20 * time.Millisecond) // 200 records' worth
		}
	})
	if len(dues) != s.n {
		t.Fatalf("sent %d records, want %d", len(dues), s.n)
	}
	for i, d := range dues {
		if !d.Equal(s.at(i)) {
			t.Fatalf("record %d due %v, want %v", i, d.Sub(s.start), s.at(i).Sub(s.start))
		}
	}
	// 600 records at 10k/s are due within 60ms; the stall does not move
	// the end (a closed loop would end >= 80ms after start).
	if el := time.Since(s.start); el < 59*time.Millisecond {
		t.Fatalf("run ended after %v, before the last record was due", el)
	}
}

func TestLatencyHistPercentiles(t *testing.T) {
	h := newLatencyHist()
	for us := 1; us <= 10_000; us++ { // 1 µs .. 10 ms, uniform
		h.record(time.Duration(us) * time.Microsecond)
	}
	h.record(-time.Second)  // clamped to 1 µs
	h.record(2 * time.Hour) // clamped to 60 s
	if h.count() != 10_002 {
		t.Fatalf("count %d, want 10002", h.count())
	}
	p50, p99, p999 := h.percentiles()
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"p50", p50, 5001}, {"p99", p99, 9901}, {"p99.9", p999, 9991}} {
		if math.Abs(c.got-c.want)/c.want > 0.002 { // 3 significant digits
			t.Errorf("%s = %v µs, want %v ± 0.2%%", c.name, c.got, c.want)
		}
	}
}
