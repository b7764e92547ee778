package bench

import (
	"sync"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// schedule is an open-loop send schedule: record i is due at start + i/rate,
// whatever became of the records before it. A sender that falls behind
// (a blocked Send, a late wake-up) sends every overdue record at once, and
// latency is measured from each record's due time, not from when it was
// sent: a stall is charged to every record it delayed (no coordinated
// omission).
type schedule struct {
	start time.Time
	rate  float64 // records/s
	n     int     // records
}

// at returns the due time of record i.
func (s schedule) at(i int) time.Time {
	return s.start.Add(time.Duration(float64(i) * 1e9 / s.rate))
}

// due returns how many records are due at now: those with at(i) <= now,
// at most n.
func (s schedule) due(now time.Time) int {
	d := now.Sub(s.start)
	if d < 0 {
		return 0
	}
	return min(s.n, int(d.Seconds()*s.rate)+1)
}

// run calls send for every record in order, each once it is due, with its
// due time; between due times it sleeps. It returns when all n were sent.
func (s schedule) run(send func(i int, due time.Time)) {
	for i := 0; i < s.n; {
		for d := s.due(time.Now()); i < d; i++ {
			send(i, s.at(i))
		}
		if i < s.n {
			time.Sleep(time.Until(s.at(i)))
		}
	}
}

// Latency histogram bounds: microseconds, 1 µs to 60 s, 3 significant
// digits (HdrHistogram: every recorded value within 0.1% of its bucket).
const (
	histMinUs  = 1
	histMaxUs  = 60_000_000
	histDigits = 3
)

// latencyHist is a concurrency-safe HdrHistogram of latencies in µs.
type latencyHist struct {
	mu sync.Mutex
	h  *hdrhistogram.Histogram
}

func newLatencyHist() *latencyHist {
	return &latencyHist{h: hdrhistogram.New(histMinUs, histMaxUs, histDigits)}
}

// record adds one latency, clamped to the histogram's range.
func (l *latencyHist) record(d time.Duration) {
	us := min(max(d.Microseconds(), histMinUs), histMaxUs)
	l.mu.Lock()
	_ = l.h.RecordValue(us) // within range by the clamp
	l.mu.Unlock()
}

// count returns how many latencies were recorded.
func (l *latencyHist) count() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.h.TotalCount()
}

// percentiles returns the p50, p99 and p99.9 latencies in µs.
func (l *latencyHist) percentiles() (p50, p99, p999 float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return float64(l.h.ValueAtQuantile(50)), float64(l.h.ValueAtQuantile(99)), float64(l.h.ValueAtQuantile(99.9))
}

// report adds the p50-us, p99-us and p99.9-us metrics of l to b, each
// unit prefixed by prefix.
func (l *latencyHist) report(b *testing.B, prefix string) {
	p50, p99, p999 := l.percentiles()
	b.ReportMetric(p50, prefix+"p50-us")
	b.ReportMetric(p99, prefix+"p99-us")
	b.ReportMetric(p999, prefix+"p99.9-us")
}
