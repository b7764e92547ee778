package consumer

import (
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// TestMovedPartitionsBehindStayMoved: two partitions sought back while
// their broker holds the session's Fetch (MaxWait 5s) go out in a
// sessionless Fetch whose decode budget only one partition's records fill.
// The other's answer has no records but shows it behind its high watermark:
// it stays moved and is fetched on the side lane again, so every record
// comes in well under MaxWait. Before, its move ended on the empty answer
// and it waited for the held Fetch (the bench's long-lived consumer of 4
// partitions read at 0.2× franz-go's rate: each op waited ~0.4 s).
func TestMovedPartitionsBehindStayMoved(t *testing.T) {
	const maxWait = 5 * time.Second
	f := newFakeBroker(t)
	for b := range 5 {
		f.append(tp0, dataBatch(int64(b*10), 10))
		f.append(tp1, dataBatch(int64(b*10), 10))
	}
	c := newTestConsumer(t, f, Config{MaxWait: maxWait, MaxBufferedBytes: 8 << 10})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtOffset(50)}, {tp1, AtOffset(50)}}); err != nil {
		t.Fatal(err)
	}
	// The session's first Fetch (full) is answered at once; its second
	// (incremental, nothing to read at 50) is the one the broker holds.
	waitFor(t, "the session's held Fetch", func() bool {
		m := c.Metrics()
		return m.FetchRequests >= 2 && m.FetchesInFlight == 1
	})
	t0 := time.Now()
	for _, tp := range []gregor.TopicPartition{tp0, tp1} {
		if err := c.Seek(bg(), tp, AtOffset(0)); err != nil {
			t.Fatal(err)
		}
	}
	got := receiveN(t, c, 100)
	if d := time.Since(t0); d >= maxWait/2 {
		t.Fatalf("100 records came %v after the seeks, want < %v: a partition waited for the held Fetch", d, maxWait/2)
	}
	per := map[int32]int{}
	for _, r := range got {
		per[r.Partition]++
	}
	if per[tp0.Partition] != 50 || per[tp1.Partition] != 50 {
		t.Fatalf("records per partition %v, want 50 each", per)
	}
	if m := c.Metrics(); m.MovedFetches < 2 {
		t.Fatalf("metrics %+v: want the side lane fetched more than once", m)
	}
}

// TestBehindLocked: a side-lane answer keeps the move only while it shows
// the partition below the end it may read: the high watermark, under
// read_committed the last stable offset; an error, a diverging epoch or a
// partition missing from the answer ends it.
func TestBehindLocked(t *testing.T) {
	part := func(hw, lso int64, err error, div *divergingEpoch) *fetchRespPart {
		return &fetchRespPart{TopicPartition: tp0, HighWatermark: hw, LastStableOffset: lso, Err: err, Diverging: div}
	}
	plain, committed := &partState{tp: tp0}, &partState{tp: tp0, readCommitted: true}
	cases := []struct {
		name string
		st   *partState
		resp *fetchRespPart
		at   int64
		want bool
	}{
		{"below the high watermark", plain, part(50, 50, nil, nil), 10, true},
		{"at the high watermark", plain, part(50, 50, nil, nil), 50, false},
		{"read_committed below the last stable offset", committed, part(50, 40, nil, nil), 30, true},
		{"read_committed at the last stable offset", committed, part(50, 40, nil, nil), 40, false},
		{"read_committed, no last stable offset", committed, part(50, -1, nil, nil), 40, true},
		{"an error", plain, part(50, 50, wire.ErrNotLeaderOrFollower, nil), 10, false},
		{"a diverging epoch", plain, part(50, 50, nil, &divergingEpoch{Epoch: 1, EndOffset: 5}), 10, false},
		{"not in the answer", plain, nil, 10, false},
	}
	for _, tc := range cases {
		if got := behindLocked(tc.st, tc.resp, tc.at); got != tc.want {
			t.Errorf("%s: behind %v, want %v", tc.name, got, tc.want)
		}
	}
}
