package share

import (
	"errors"
	"testing"

	"github.com/gregor-kafka/gregor"
)

// With AckImplicit every delivered record yields an outcome; an
// application that never takes them must not grow the consumer without
// bound (it did: one AckResult per record, forever). Past MaxAckResults
// successes are dropped first and failures kept.
func TestAckResultsBounded(t *testing.T) {
	c := &Consumer{cfg: Config{MaxAckResults: 3}}
	tp := gregor.TopicPartition{Topic: "t", Partition: 0}
	failed := errors.New("lock expired")
	keep := func(off int64, err error) {
		c.opMu.Lock()
		c.keepResultLocked(AckResult{TopicPartition: tp, Offset: off, Err: err})
		c.opMu.Unlock()
	}
	for off := range int64(10) {
		keep(off, nil)
	}
	if got := c.AppendAckResults(nil); len(got) != 3 || got[0].Offset != 0 || got[2].Offset != 2 || c.AckResultsDropped() != 7 {
		t.Fatalf("10 successes under a bound of 3: kept %v, dropped %d; want offsets 0-2 kept, 7 dropped", got, c.AckResultsDropped())
	}
	keep(10, nil)
	keep(11, nil)
	keep(12, nil)
	keep(13, failed) // replaces the oldest success (10)
	keep(14, failed) // replaces 11
	keep(15, failed) // replaces 12
	keep(16, failed) // replaces the oldest failure (13)
	got := c.AppendAckResults(nil)
	var offs []int64
	for _, r := range got {
		if r.Err == nil {
			t.Fatalf("a success survived four failures past the bound: %v", got)
		}
		offs = append(offs, r.Offset)
	}
	if len(offs) != 3 || offs[0] != 14 || offs[1] != 15 || offs[2] != 16 || c.AckResultsDropped() != 11 {
		t.Fatalf("kept %v, dropped %d; want failures 14, 15, 16 kept and 11 dropped", offs, c.AckResultsDropped())
	}
}

// TestAckResultsOrderAndBound: outcomes come back in the order they were
// kept, successes and failures interleaved; past the bound, a burst of
// failures replaces every success, then the oldest failures, keeps the
// newest and holds the queues' memory within a few times the bound (the
// cost per outcome: BenchmarkAckResultsFailuresPastBound).
func TestAckResultsOrderAndBound(t *testing.T) {
	var a ackResults
	tp := gregor.TopicPartition{Topic: "t", Partition: 0}
	failed := errors.New("lock expired")
	for off := range int64(6) {
		var err error
		if off%3 == 1 {
			err = failed
		}
		a.keep(AckResult{TopicPartition: tp, Offset: off, Err: err}, 100)
	}
	got := a.appendTo(nil)
	for i, r := range got {
		if r.Offset != int64(i) || (r.Err != nil) != (i%3 == 1) {
			t.Fatalf("outcomes %v, want offsets 0-5 in order, 1 and 4 failed", got)
		}
	}
	if a.take() != nil {
		t.Fatal("outcomes left after appendTo")
	}
	const bound, burst = 100_000, 200_000
	for off := range int64(bound) {
		a.keep(AckResult{TopicPartition: tp, Offset: off}, bound)
	}
	slots := func() int { return a.succ.Cap() + a.fail.Cap() }
	before := slots()
	for off := range int64(burst) {
		a.keep(AckResult{TopicPartition: tp, Offset: bound + off, Err: failed}, bound)
	}
	if a.dropped != burst || a.succ.Len() != 0 || a.fail.Len() != bound {
		t.Fatalf("dropped %d, kept %d successes and %d failures; want %d, 0, %d", a.dropped, a.succ.Len(), a.fail.Len(), burst, bound)
	}
	if grown := slots() - before; grown > 4*bound {
		t.Fatalf("the queues grew by %d slots for a burst of %d past a bound of %d", grown, burst, bound)
	}
	fs := a.failures()
	if fs[0].Offset != bound+burst-bound || fs[len(fs)-1].Offset != bound+burst-1 {
		t.Fatalf("kept failures %d..%d, want the newest %d", fs[0].Offset, fs[len(fs)-1].Offset, bound)
	}
}

// BenchmarkAckResultsFailuresPastBound keeps failures past a full default
// bound of successes.
func BenchmarkAckResultsFailuresPastBound(b *testing.B) {
	var a ackResults
	tp := gregor.TopicPartition{Topic: "t", Partition: 0}
	for off := range int64(DefaultMaxAckResults) {
		a.keep(AckResult{TopicPartition: tp, Offset: off}, DefaultMaxAckResults)
	}
	failed := errors.New("lock expired")
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		a.keep(AckResult{TopicPartition: tp, Offset: int64(i), Err: failed}, DefaultMaxAckResults)
	}
}
