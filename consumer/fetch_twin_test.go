package consumer

import (
	"bytes"
	"context"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

func TestTwinVote(t *testing.T) {
	const ask = 1000
	for _, tc := range []struct {
		name      string
		roundTrip time.Duration
		raw       int
		records   int
		perRecord time.Duration
		want      int8
	}{
		{"full, round trip 4x decoding: split", 40 * time.Millisecond, ask, 10_000, time.Microsecond, 1},
		{"full, round trip 3x decoding: keep", 30 * time.Millisecond, ask, 10_000, time.Microsecond, 0},
		{"full, round trip under 2x decoding: join", 19 * time.Millisecond, ask, 10_000, time.Microsecond, -1},
		{"under half the ask: join", time.Second, ask/2 - 1, 10, time.Microsecond, -1},
		{"half the ask is full", 40 * time.Millisecond, ask / 2, 10_000, time.Microsecond, 1},
		{"no records: join", time.Second, ask, 0, time.Microsecond, -1},
		{"no decoding time yet: firstPerRecord", 4 * 100 * firstPerRecord, ask, 100, 0, 1},
	} {
		if got := twinVote(tc.roundTrip, tc.raw, ask, tc.records, tc.perRecord); got != tc.want {
			t.Errorf("%s: twinVote = %d, want %d", tc.name, got, tc.want)
		}
	}
	// The prior: a full default ask (8 MiB of records field) decodes in
	// about 16.8 ms at firstPerByte.
	for _, tc := range []struct {
		rtt  time.Duration
		want int8
	}{{0, -1}, {500 * time.Microsecond, -1}, {20 * time.Millisecond, -1}, {80 * time.Millisecond, 1}} {
		if got := twinPrior(tc.rtt, 8<<20); got != tc.want {
			t.Errorf("twinPrior(%v, 8 MiB) = %d, want %d", tc.rtt, got, tc.want)
		}
	}
}

// twinLink is a fake broker behind a link of round trip rtt that the
// client knows (roundTrip), and that checks what is in flight: how many
// session Fetches at once (most), and that no partition is in two of them.
type twinLink struct {
	*fakeBroker
	rtt time.Duration
	// known is what roundTrip reports (ns); with learn it is 0 until the
	// first Fetch: the client learns the round trip as it connects.
	known atomic.Int64
	learn bool

	// twinAnswered is closed once a second session's Fetch listing
	// watched was answered.
	watched      gregor.TopicPartition
	twinAnswered chan struct{}
	answeredOnce sync.Once

	mu       sync.Mutex
	flying   map[gregor.TopicPartition]bool
	inFlight int
	most     int
	closes   chan int32 // session IDs closed
}

func newTwinLink(t *testing.T, rtt time.Duration) *twinLink {
	l := &twinLink{fakeBroker: newFakeBroker(t), rtt: rtt, flying: map[gregor.TopicPartition]bool{}, closes: make(chan int32, 16), twinAnswered: make(chan struct{})}
	l.known.Store(int64(rtt))
	return l
}

func (l *twinLink) roundTrip(int32) time.Duration { return time.Duration(l.known.Load()) }

func (l *twinLink) fetch(ctx context.Context, req *fetchReq) (*fetchResp, error) {
	session := req.plan.SessionEpoch != finalSessionEpoch // not the side lane's sessionless Fetch
	if l.learn {
		l.known.Store(int64(l.rtt))
	}
	parts := append([]gregor.TopicPartition(nil), req.order...)
	if session {
		l.mu.Lock()
		for _, tp := range parts {
			if l.flying[tp] {
				l.t.Errorf("%v is in two session Fetches at once", tp)
			}
			l.flying[tp] = true
		}
		l.inFlight++
		l.most = max(l.most, l.inFlight)
		l.mu.Unlock()
	}
	resp, err := slowLink{l.fakeBroker, l.rtt}.fetch(ctx, req)
	if req.twin && slices.Contains(parts, l.watched) {
		l.answeredOnce.Do(func() { close(l.twinAnswered) })
	}
	if session {
		l.mu.Lock()
		for _, tp := range parts {
			delete(l.flying, tp)
		}
		l.inFlight--
		l.mu.Unlock()
	}
	return resp, err
}

func (l *twinLink) closeSession(ctx context.Context, node, id int32) error {
	err := l.fakeBroker.closeSession(ctx, node, id)
	l.closes <- id
	return err
}

// TestTwinSessionsOverALongLink: a consumer whose round trip is long
// against decoding its responses splits the broker's partitions between
// two fetch sessions, each with a Fetch in flight, no partition in both;
// every record is delivered once, in order. With one session per broker,
// at most one session Fetch is ever in flight.
func TestTwinSessionsOverALongLink(t *testing.T) {
	l := newTwinLink(t, 20*time.Millisecond)
	tps := []gregor.TopicPartition{{Topic: "t", Partition: 0}, {Topic: "t", Partition: 1}, {Topic: "t", Partition: 2}, {Topic: "t", Partition: 3}}
	var ps []PartitionPosition
	for _, tp := range tps {
		l.leaders[tp] = 1
		for i := range 40 {
			l.append(tp, dataBatch(int64(i*5), 5))
		}
		ps = append(ps, PartitionPosition{tp, AtBeginning()})
	}
	// Asks of 2 KiB, answered with up to 1 KiB per partition: full.
	c := newTestConsumer(t, l, Config{MaxWait: 10 * time.Millisecond, MaxBufferedBytes: 16 << 10, PartitionMaxBytes: 1 << 10})
	if err := c.Assign(bg(), ps); err != nil {
		t.Fatal(err)
	}
	recs := receiveN(t, c, 4*200)
	for _, tp := range tps {
		wantOffsets(t, recs, tp, 0, 200)
	}
	l.mu.Lock()
	most := l.most
	l.mu.Unlock()
	if most < 2 {
		t.Errorf("at most %d session Fetch in flight at once, want 2", most)
	}
	if m := c.Metrics(); m.TwinFetches == 0 {
		t.Error("Metrics.TwinFetches is 0")
	}
	// Close leaves neither session behind on the broker.
	if err := c.Close(bg()); err != nil {
		t.Fatal(err)
	}
	l.fakeBroker.mu.Lock()
	defer l.fakeBroker.mu.Unlock()
	if len(l.sessions) != 0 {
		t.Errorf("sessions left on the broker after Close: %v", slices.Collect(maps.Keys(l.sessions)))
	}
}

// TestTwinSessionsJoinWhenCaughtUp: once responses no longer come full,
// the broker's partitions go back to one session, and the second session
// is closed on the broker.
func TestTwinSessionsJoinWhenCaughtUp(t *testing.T) {
	l := newTwinLink(t, 20*time.Millisecond)
	tps := []gregor.TopicPartition{{Topic: "t", Partition: 0}, {Topic: "t", Partition: 1}}
	var ps []PartitionPosition
	for _, tp := range tps {
		l.leaders[tp] = 1
		l.append(tp, dataBatch(0, 5))
		ps = append(ps, PartitionPosition{tp, AtBeginning()})
	}
	c := newTestConsumer(t, l, Config{MaxWait: 10 * time.Millisecond, MaxBufferedBytes: 16 << 10})
	if err := c.Assign(bg(), ps); err != nil {
		t.Fatal(err)
	}
	receiveN(t, c, 10)
	if c.Metrics().TwinFetches == 0 {
		t.Fatal("the first Fetch went out in one session: the prior did not split")
	}
	var closed int32
	select {
	case closed = <-l.closes:
	case <-time.After(10 * time.Second):
		t.Fatal("the second session was not closed")
	}
	twins := c.Metrics().TwinFetches
	for _, tp := range tps {
		l.append(tp, dataBatch(5, 5))
	}
	more := receiveN(t, c, 10)
	for _, tp := range tps {
		wantOffsets(t, more, tp, 5, 10)
	}
	if got := c.Metrics().TwinFetches; got != twins {
		t.Errorf("TwinFetches %d -> %d after the join", twins, got)
	}
	l.fakeBroker.mu.Lock()
	defer l.fakeBroker.mu.Unlock()
	if _, live := l.sessions[closed]; live {
		t.Errorf("session %d still live on the broker", closed)
	}
}

// TestTwinSplitWaitsForDecoding: a partition whose response is being
// decoded after an early answer in one session is not fetched in the other
// session before that response is applied, when the broker is split
// meanwhile; the lane order that keeps its responses in sequence holds
// within a session only. Its records arrive once, in order.
func TestTwinSplitWaitsForDecoding(t *testing.T) {
	l := newTwinLink(t, 20*time.Millisecond)
	l.known.Store(0) // the first Fetch goes out in one session; its response splits
	l.learn = true
	tps := []gregor.TopicPartition{{Topic: "t", Partition: 0}, {Topic: "t", Partition: 1}}
	l.watched = tps[1] // on the second session's side (second in assignment order)
	var ps []PartitionPosition
	for _, tp := range tps {
		l.leaders[tp] = 1
		for i := range 60 {
			// One 300-byte record a batch: a response of 4 KiB a
			// partition (12 batches) is decoded whole within the
			// budget, so the early answer's end is past it.
			b := tBatch{base: int64(i), pid: -1, ts: 1_700_000_000_000, recs: []tRec{{value: bytes.Repeat([]byte{'v'}, 300)}}}
			if i >= 12 {
				// Beyond the first response: an answer with no early
				// answer, applied as soon as it is decoded.
				b.codec = wire.CompressionLZ4
			}
			l.append(tp, b)
		}
		ps = append(ps, PartitionPosition{tp, AtBeginning()})
	}
	c := newTestConsumer(t, l, Config{MaxWait: 10 * time.Millisecond, MaxBufferedBytes: 64 << 10, PartitionMaxBytes: 4 << 10})
	var once sync.Once
	c.afterEarly = func() {
		// The first early answer votes to split. Its response stays
		// undecoded until the second session answered for watched, or
		// for long enough that it would have.
		once.Do(func() {
			select {
			case <-l.twinAnswered:
			case <-time.After(10 * l.rtt): // a window for the fault to show, not a synchronization
			}
		})
	}
	if err := c.Assign(bg(), ps); err != nil {
		t.Fatal(err)
	}
	recs := receiveN(t, c, 2*60)
	for _, tp := range tps {
		wantOffsets(t, recs, tp, 0, 60)
	}
	if c.Metrics().TwinFetches == 0 {
		t.Error("the broker was never split")
	}
}
