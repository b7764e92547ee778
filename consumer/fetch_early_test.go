package consumer

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// slowLink delays every Fetch response of a fake broker by rtt: a link.
type slowLink struct {
	*fakeBroker
	rtt time.Duration
}

func (l slowLink) fetch(ctx context.Context, req *fetchReq) (*fetchResp, error) {
	resp, err := l.fakeBroker.fetch(ctx, req)
	select {
	case <-time.After(l.rtt): // the link's delay, not a synchronization
	case <-ctx.Done():
	}
	return resp, err
}

// TestEarlyAnswerOverlapsDecoding: over a link whose round trip is long
// against decoding, once a session's Fetch is answered with uncompressed
// batches, the next Fetch goes out from the batch headers' end before the
// response is decoded; the records are delivered in order.
func TestEarlyAnswerOverlapsDecoding(t *testing.T) {
	f := newFakeBroker(t)
	for i := range 20 {
		f.append(tp0, dataBatch(int64(i*5), 5))
	}
	c := newTestConsumer(t, slowLink{f, 20 * time.Millisecond}, Config{MaxWait: 10 * time.Millisecond, PartitionMaxBytes: 1})
	fetched := make(chan int, 64)
	f.onFetch = func(*fetchReq) { // under f.mu
		select {
		case fetched <- len(f.fetches):
		default:
		}
	}
	var once sync.Once
	overlapped := false
	c.afterEarly = func() {
		once.Do(func() {
			f.mu.Lock()
			at := len(f.fetches)
			f.mu.Unlock()
			deadline := time.After(5 * time.Second)
			for !overlapped {
				select {
				case n := <-fetched:
					overlapped = n > at
				case <-deadline:
					return
				}
			}
		})
	}
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 100), tp0, 0, 100)
	if !overlapped {
		t.Fatal("no Fetch was sent while a response was held before decoding")
	}
	if m := c.Metrics(); m.EarlyAnswers == 0 {
		t.Fatal("Metrics.EarlyAnswers is 0")
	}
}

func TestEarlyWorthIt(t *testing.T) {
	for _, tc := range []struct {
		rtt       time.Duration
		records   int
		perRecord time.Duration
		want      bool
	}{
		{40 * time.Millisecond, 75_000, 0, true},                     // a 20 ms link, before any decoding: firstPerRecord
		{15 * time.Millisecond, 75_000, 0, false},                    // loopback: the next answer would wait for this decode
		{40 * time.Millisecond, 75_000, time.Microsecond, false},     // a slow decoder
		{40 * time.Millisecond, 75_000, 100 * time.Nanosecond, true}, // a fast one
		{6 * time.Millisecond, 10_000, 100 * time.Nanosecond, true},
	} {
		if got := earlyWorthIt(tc.rtt, tc.records, tc.perRecord); got != tc.want {
			t.Errorf("earlyWorthIt(%v, %d, %v) = %v", tc.rtt, tc.records, tc.perRecord, got)
		}
	}
}

// TestNoEarlyAnswerForCompressedBatches: a compressed batch's decoded
// size is not in its header, so its response is decoded before the next
// Fetch is planned.
func TestNoEarlyAnswerForCompressedBatches(t *testing.T) {
	f := newFakeBroker(t)
	bt := dataBatch(0, 10)
	bt.codec = wire.CompressionLZ4
	f.append(tp0, bt)
	c := newTestConsumer(t, f, Config{MaxWait: 10 * time.Millisecond})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 10), tp0, 0, 10)
	if m := c.Metrics(); m.EarlyAnswers != 0 {
		t.Fatalf("EarlyAnswers %d for an lz4 response", m.EarlyAnswers)
	}
}

func TestScanHeaders(t *testing.T) {
	raw := encodeAll(t, dataBatch(0, 4), dataBatch(4, 3))
	const all = 1 << 30
	e, charge, ok := scanHeaders(raw, 2, all, false)
	if want := int64(len(raw)) + 7*recordSize; !ok || e.next != 7 || charge != want {
		t.Fatalf("scanHeaders = %+v, %d, %v; want end 7, charge %d", e, charge, ok, want)
	}
	// A truncated trailing batch is not counted: fetched again.
	e, _, ok = scanHeaders(raw[:len(raw)-5], 2, all, false)
	if !ok || e.next != 4 {
		t.Fatalf("truncated: scanHeaders = %+v, %v; want end 4", e, ok)
	}
	// Batches wholly below the fetch offset leave it where it is, uncharged.
	if e, charge, _ := scanHeaders(raw, 9, all, false); e.next != 9 || e.epoch != -1 || charge != int64(len(raw)) {
		t.Fatalf("below: end %+v, charge %d; want 9, epoch -1, the field only", e, charge)
	}
	// decodePartition's budget rule: the field, then recordSize per record.
	first := int64(len(raw)) + 4*recordSize
	if e, charge, _ := scanHeaders(raw, 0, first, false); e.next != 4 || charge != first {
		t.Fatalf("budget for the first batch: end %+v, charge %d; want 4, %d", e, charge, first)
	}
	if e, _, _ := scanHeaders(raw, 0, first-1, false); e.next != 0 {
		t.Fatalf("budget short of the first batch: end %+v; want 0", e)
	}
	if e, _, _ := scanHeaders(raw, 0, 0, true); e.next != 4 {
		t.Fatalf("at least one batch: end %+v; want 4", e)
	}
}

// TestEarlyEndsMatchDecoding: for every budget, the ends the headers give
// are where decodePartition stops.
func TestEarlyEndsMatchDecoding(t *testing.T) {
	raw0 := encodeAll(t, dataBatch(0, 4), dataBatch(4, 3), dataBatch(7, 5))
	raw1 := encodeAll(t, dataBatch(0, 2), dataBatch(2, 6))
	c := newTestConsumer(t, newFakeBroker(t), Config{})
	for budget := int32(1); budget < int32(len(raw0)+len(raw1))+20*recordSize; budget += 7 {
		req := &fetchReq{maxBytes: budget, want: map[gregor.TopicPartition]sessionPart{tp0: {FetchOffset: 0}, tp1: {FetchOffset: 0}}}
		resp := &fetchResp{Parts: []fetchRespPart{{TopicPartition: tp0, Records: raw0}, {TopicPartition: tp1, Records: raw1}}}
		if !earlyEnds(req, resp) {
			t.Fatal("no early answer for uncompressed batches")
		}
		left, progress := int64(budget), false
		for _, p := range resp.Parts {
			ch, err := c.decodePartition(&p, 0, left, 0, !progress, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			progress = progress || ch.next > 0
			left -= ch.charge()
			if e := req.ends[p.TopicPartition]; e.next != ch.next {
				t.Fatalf("budget %d: %s ends at %d by the headers, decoded to %d", budget, p.TopicPartition, e.next, ch.next)
			}
		}
	}
}
