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
