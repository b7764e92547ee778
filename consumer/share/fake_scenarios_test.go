package share

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

func offsets(recs []Record) []int64 {
	out := make([]int64, len(recs))
	for i, r := range recs {
		out[i] = r.Offset
	}
	return out
}

func mustReceive(t *testing.T, c *Consumer) []Record {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	recs, err := c.Receive(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestFakeRedeliveryAtLowerOffset: records released and redelivered below
// offsets already delivered are delivered again with their new delivery
// count, after the higher ones of the same response, never dropped.
func TestFakeRedeliveryAtLowerOffset(t *testing.T) {
	b0 := batch(0, 9, false, seq(10)...)
	b10 := batch(10, 4, false, seq(5)...)
	f, c := newFake(t, 1, Config{AckMode: AckExplicit, MaxRecords: 20},
		deliver(0, b0, acquired(0, 9, 1)),
		deliver(0, append(append([]byte{}, b0...), b10...), acquired(10, 14, 1), acquired(3, 4, 2)))
	first := mustReceive(t, c)
	if got := offsets(first); !reflect.DeepEqual(got, []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Fatalf("first delivery %v", got)
	}
	for i := range first {
		typ := Accept
		if first[i].Offset == 3 || first[i].Offset == 4 {
			typ = Release
		}
		if err := c.Acknowledge(&first[i], typ); err != nil {
			t.Fatal(err)
		}
	}
	second := mustReceive(t, c)
	if got := offsets(second); !reflect.DeepEqual(got, []int64{10, 11, 12, 13, 14, 3, 4}) {
		t.Fatalf("second delivery %v, want 10..14 then 3, 4", got)
	}
	for _, r := range second {
		want := int16(1)
		if r.Offset < 10 {
			want = 2
		}
		if r.DeliveryCount != want || string(r.Value) != "v"+itoa(r.Offset) {
			t.Fatalf("offset %d: delivery count %d value %q", r.Offset, r.DeliveryCount, r.Value)
		}
	}
	wantAcks := []wire.ShareAcknowledgementBatch{{FirstOffset: 0, LastOffset: 9, AcknowledgeTypes: []int8{1, 1, 1, 2, 2, 1, 1, 1, 1, 1}}}
	if got := f.sentAcks(0); !reflect.DeepEqual(got, wantAcks) {
		t.Fatalf("acknowledgements sent %+v, want %+v", got, wantAcks)
	}
	rs := c.TakeAckResults()
	if len(rs) != 10 {
		t.Fatalf("%d results, want 10", len(rs))
	}
	// the redelivered records are held again and acknowledgeable
	if err := c.Acknowledge(&second[5], Accept); err != nil {
		t.Fatal(err)
	}
}

// TestFakeAcquiredRangesWithGaps: only offsets inside the acquired ranges
// are delivered; offsets of an acquired range without a record (compacted,
// control) are acknowledged as GAP; the records between ranges are not this
// member's and are neither delivered nor acknowledged.
func TestFakeAcquiredRangesWithGaps(t *testing.T) {
	recs := batch(0, 9, false, seq(10)...)
	recs = append(recs, batch(10, 5, false, 0, 2, 5)...) // 11, 13, 14 compacted away
	recs = append(recs, batch(16, 0, true, 0)...)        // a transaction marker at 16
	f, c := newFake(t, 1, Config{AckMode: AckImplicit, MaxRecords: 50},
		deliver(0, recs, acquired(0, 2, 1), acquired(5, 6, 3), acquired(9, 9, 1), acquired(10, 16, 1)))
	got := mustReceive(t, c)
	if o := offsets(got); !reflect.DeepEqual(o, []int64{0, 1, 2, 5, 6, 9, 10, 12, 15}) {
		t.Fatalf("delivered %v", o)
	}
	if got[3].DeliveryCount != 3 || got[0].DeliveryCount != 1 {
		t.Fatalf("delivery counts %d, %d", got[0].DeliveryCount, got[3].DeliveryCount)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rs, err := c.Commit(ctx) // implicit: accepts the delivered records; gaps ride along
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 9 {
		t.Fatalf("%d results, want 9 (gaps are not reported)", len(rs))
	}
	want := []wire.ShareAcknowledgementBatch{
		{FirstOffset: 0, LastOffset: 2, AcknowledgeTypes: []int8{1}},
		{FirstOffset: 5, LastOffset: 6, AcknowledgeTypes: []int8{1}},
		{FirstOffset: 9, LastOffset: 16, AcknowledgeTypes: []int8{1, 1, 0, 1, 0, 0, 1, 0}},
	}
	if sent := f.sentAcks(0); !reflect.DeepEqual(sent, want) {
		t.Fatalf("acknowledgements %+v\nwant %+v", sent, want)
	}
}

// TestFakeEmptyAcquiredBatch: a response with records but no acquired
// range delivers nothing; an acquired range the records do not reach is
// released (not acknowledged as a gap, not delivered), and nothing panics.
func TestFakeEmptyAcquiredBatch(t *testing.T) {
	f, c := newFake(t, 1, Config{AckMode: AckExplicit},
		deliver(0, batch(0, 4, false, seq(5)...)),
		deliver(0, nil, acquired(5, 7, 1)),
		deliver(0, batch(0, 4, false, seq(5)...), acquired(8, 9, 1)))
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if recs, err := c.Receive(ctx); len(recs) != 0 || err == nil {
		t.Fatalf("Receive: %d records, %v; want none and a timeout", len(recs), err)
	}
	var released []int64
	for _, b := range f.sentAcks(0) {
		if len(b.AcknowledgeTypes) != 1 || b.AcknowledgeTypes[0] != wire.AckRelease {
			t.Fatalf("acknowledgement %+v, want a release", b)
		}
		for o := b.FirstOffset; o <= b.LastOffset; o++ {
			released = append(released, o)
		}
	}
	if !reflect.DeepEqual(released, []int64{5, 6, 7, 8, 9}) {
		t.Fatalf("released %v, want 5..9", released)
	}
}

// TestFakePartialAcknowledgementFailure: per-partition acknowledgement codes
// become per-record results: one partition's records succeed while the
// other's fail with the broker's code, both by ShareAcknowledge (Commit)
// and piggy-backed on ShareFetch.
func TestFakePartialAcknowledgementFailure(t *testing.T) {
	f, c := newFake(t, 2, Config{AckMode: AckExplicit, MaxRecords: 100},
		deliver(0, batch(0, 2, false, seq(3)...), acquired(0, 2, 1)),
		deliver(1, batch(0, 2, false, seq(3)...), acquired(0, 2, 1)))
	var recs []Record
	for len(recs) < 6 {
		recs = append(recs, mustReceive(t, c)...)
	}
	f.mu.Lock()
	f.acks = func(r *wire.ShareAcknowledgeRequest) *wire.ShareAcknowledgeResponse {
		resp := &wire.ShareAcknowledgeResponse{Responses: []wire.ShareAcknowledgeTopicResponse{{TopicID: fakeTopicID, Partitions: []wire.ShareAcknowledgePartitionResponse{
			{PartitionIndex: 0}, {PartitionIndex: 1, ErrorCode: wire.ErrInvalidRecordState.Code}}}}}
		return resp
	}
	f.mu.Unlock()
	for i := range recs {
		if err := c.Acknowledge(&recs[i], Accept); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rs, err := c.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 6 {
		t.Fatalf("%d results, want 6", len(rs))
	}
	for _, r := range rs {
		if r.Partition == 0 && r.Err != nil || r.Partition == 1 && !errors.Is(r.Err, wire.ErrInvalidRecordState) {
			t.Fatalf("partition %d offset %d: %v", r.Partition, r.Offset, r.Err)
		}
	}

	// piggy-backed: the ShareFetch answer's AcknowledgeErrorCode of p1
	f.mu.Lock()
	f.fetches = append(f.fetches,
		deliver(0, batch(3, 0, false, 0), acquired(3, 3, 1)),
		func(r *wire.ShareFetchRequest) *wire.ShareFetchResponse {
			resp := ackAll(r)
			for i := range resp.Responses[0].Partitions {
				if resp.Responses[0].Partitions[i].PartitionIndex == 0 {
					resp.Responses[0].Partitions[i].AcknowledgeErrorCode = wire.ErrInvalidRecordState.Code
				}
			}
			return resp
		})
	f.mu.Unlock()
	more := mustReceive(t, c)
	if err := c.Acknowledge(&more[0], Reject); err != nil {
		t.Fatal(err)
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel2()
	_, _ = c.Receive(ctx2)
	rs = c.TakeAckResults()
	if len(rs) != 1 || rs[0].Offset != 3 || rs[0].Type != Reject || !errors.Is(rs[0].Err, wire.ErrInvalidRecordState) {
		t.Fatalf("piggy-backed result %+v", rs)
	}
}

// TestFakeStrictMaxRecords: a broker that acquires more than MaxRecords
// (batch alignment) has the excess kept for the next Receive, none dropped.
func TestFakeStrictMaxRecords(t *testing.T) {
	f, c := newFake(t, 1, Config{MaxRecords: 4, BatchSize: 2},
		deliver(0, batch(0, 9, false, seq(10)...), acquired(0, 9, 1)))
	var all []int64
	for len(all) < 10 {
		recs := mustReceive(t, c)
		if len(recs) > 4 {
			t.Fatalf("Receive returned %d records, MaxRecords 4", len(recs))
		}
		all = append(all, offsets(recs)...)
	}
	if !reflect.DeepEqual(all, []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Fatalf("delivered %v", all)
	}
	f.mu.Lock()
	first := f.reqs[0].(*wire.ShareFetchRequest)
	f.mu.Unlock()
	if first.MaxRecords != 4 || first.BatchSize != 2 || first.ShareAcquireMode != wire.ShareAcquireRecordLimit || first.ShareSessionEpoch != 0 {
		t.Fatalf("first ShareFetch %+v", first)
	}
}

// TestFakeSessionEpochs: the first ShareFetch opens the session (epoch 0)
// listing every assigned partition; later ones count up and list only
// partitions with acknowledgements; Close ends it with epoch -1.
func TestFakeSessionEpochs(t *testing.T) {
	f, c := newFake(t, 2, Config{},
		deliver(0, batch(0, 1, false, seq(2)...), acquired(0, 1, 1)))
	mustReceive(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, _ = c.Receive(ctx) // accepts 0-1 (implicit), piggy-backed
	cctx, ccancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer ccancel()
	if err := c.Close(cctx); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.reqs) < 3 {
		t.Fatalf("%d requests", len(f.reqs))
	}
	first := f.reqs[0].(*wire.ShareFetchRequest)
	if first.ShareSessionEpoch != 0 || len(first.Topics) != 1 || len(first.Topics[0].Partitions) != 2 {
		t.Fatalf("opening ShareFetch %+v", first)
	}
	second := f.reqs[1].(*wire.ShareFetchRequest)
	if second.ShareSessionEpoch != 1 || len(second.Topics) != 1 || len(second.Topics[0].Partitions) != 1 ||
		!reflect.DeepEqual(second.Topics[0].Partitions[0].AcknowledgementBatches, []wire.ShareAcknowledgementBatch{{FirstOffset: 0, LastOffset: 1, AcknowledgeTypes: []int8{1}}}) {
		t.Fatalf("second ShareFetch %+v", second)
	}
	for i, r := range f.reqs[2 : len(f.reqs)-1] {
		if fr, ok := r.(*wire.ShareFetchRequest); !ok || fr.ShareSessionEpoch != int32(i+2) || len(fr.Topics) != 0 {
			t.Fatalf("request %d: %+v", i+2, r)
		}
	}
	last, ok := f.reqs[len(f.reqs)-1].(*wire.ShareAcknowledgeRequest)
	if !ok || last.ShareSessionEpoch != -1 {
		t.Fatalf("closing request %+v", f.reqs[len(f.reqs)-1])
	}
}

// TestFakeMemoryBound: undelivered records are counted in bytes; a
// ShareFetch is sent only when nothing is buffered and asks for at most
// MaxBufferedBytes.
func TestFakeMemoryBound(t *testing.T) {
	// ten records of 2-byte values ("v0".."v9") = 20 bytes buffered
	f, c := newFake(t, 1, Config{MaxRecords: 4, MaxBufferedBytes: 20},
		deliver(0, batch(0, 9, false, seq(10)...), acquired(0, 9, 1)))
	if got := len(mustReceive(t, c)); got != 4 {
		t.Fatalf("first Receive %d records", got)
	}
	c.opMu.Lock()
	buffered := c.bufferedBytes
	c.opMu.Unlock()
	if buffered != 12 {
		t.Fatalf("%d bytes buffered after delivering 4 of 10 two-byte records, want 12", buffered)
	}
	mustReceive(t, c)
	mustReceive(t, c) // the last two: the buffer empties
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, _ = c.Receive(ctx)
	f.mu.Lock()
	defer f.mu.Unlock()
	first := f.reqs[0].(*wire.ShareFetchRequest)
	if first.MaxBytes != 20 {
		t.Fatalf("first ShareFetch MaxBytes %d, want the whole room 20", first.MaxBytes)
	}
	if len(f.reqs) < 2 {
		t.Fatal("no ShareFetch after the buffer emptied")
	}
	if n := f.reqs[1].(*wire.ShareFetchRequest).MaxBytes; n != 20 {
		t.Fatalf("ShareFetch after delivering everything asks %d bytes, want 20", n)
	}
}

// TestFakeAcksGoToAcquiringBroker: records are acknowledged to the broker
// whose share session acquired them, also after their partition's leader
// moved to another broker.
func TestFakeAcksGoToAcquiringBroker(t *testing.T) {
	f, c := newFake(t, 2, Config{AckMode: AckExplicit, MaxRecords: 10})
	f.mu.Lock()
	f.leaders = map[int32]int32{0: 1, 1: 2}
	f.byNode = map[int32][]func(*wire.ShareFetchRequest) *wire.ShareFetchResponse{
		1: {deliver(0, batch(0, 1, false, seq(2)...), acquired(0, 1, 1))},
		2: {deliver(1, batch(0, 1, false, seq(2)...), acquired(0, 1, 1))},
	}
	f.mu.Unlock()
	var recs []Record
	for len(recs) < 4 {
		recs = append(recs, mustReceive(t, c)...)
	}
	f.mu.Lock()
	f.leaders = map[int32]int32{0: 2, 1: 2} // partition 0 moves to broker 2
	f.mu.Unlock()
	for i := range recs {
		if err := c.Acknowledge(&recs[i], Accept); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rs, err := c.Commit(ctx)
	if err != nil || len(rs) != 4 {
		t.Fatalf("Commit: %v, %d results", err, len(rs))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	acked := map[int32]int32{} // partition -> node its acknowledgement went to
	for i, r := range f.reqs {
		if a, ok := r.(*wire.ShareAcknowledgeRequest); ok {
			for _, tp := range a.Topics {
				for _, p := range tp.Partitions {
					acked[p.PartitionIndex] = f.nodes[i]
				}
			}
		}
	}
	if acked[0] != 1 || acked[1] != 2 {
		t.Fatalf("acknowledgements went to %v, want partition 0 -> broker 1 (acquired there), 1 -> broker 2", acked)
	}
}

// TestFakeHeartbeatErrors: UNKNOWN_MEMBER_ID makes the member rejoin at
// epoch 0 with its subscription; a fatal error (GROUP_AUTHORIZATION_FAILED)
// ends membership and is returned by Receive and AwaitJoined.
func TestFakeHeartbeatErrors(t *testing.T) {
	var mu sync.Mutex
	var epochs []int32
	var subs [][]string
	calls := 0
	hb := func(r *wire.ShareGroupHeartbeatRequest) *wire.ShareGroupHeartbeatResponse {
		mu.Lock()
		defer mu.Unlock()
		calls++
		epochs, subs = append(epochs, r.MemberEpoch), append(subs, r.SubscribedTopicNames)
		switch calls {
		case 1:
			return &wire.ShareGroupHeartbeatResponse{MemberEpoch: 1, HeartbeatIntervalMs: 10}
		case 2:
			return &wire.ShareGroupHeartbeatResponse{ErrorCode: wire.ErrUnknownMemberID.Code}
		case 3:
			return &wire.ShareGroupHeartbeatResponse{MemberEpoch: 2, HeartbeatIntervalMs: 10}
		}
		return &wire.ShareGroupHeartbeatResponse{ErrorCode: wire.ErrGroupAuthorizationFailed.Code}
	}
	f := &fakeT{t: t, parts: 1, hb: hb}
	c, err := newConsumer(f, Config{GroupID: "g", Topics: []string{fakeTopic}, MaxWait: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := c.Receive(ctx); !errors.Is(err, wire.ErrGroupAuthorizationFailed) {
		t.Fatalf("Receive: %v, want GROUP_AUTHORIZATION_FAILED", err)
	}
	if err := c.AwaitJoined(ctx); !errors.Is(err, wire.ErrGroupAuthorizationFailed) {
		t.Fatalf("AwaitJoined: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !reflect.DeepEqual(epochs[:4], []int32{0, 1, 0, 2}) || subs[2] == nil || subs[1] != nil {
		t.Fatalf("heartbeat epochs %v, subscriptions %v: want a rejoin at 0 with the subscription after UNKNOWN_MEMBER_ID", epochs, subs)
	}
}

// TestFakeCloseWithinDeadline: Close returns by its context's deadline when
// the broker never answers the final ShareAcknowledge.
func TestFakeCloseWithinDeadline(t *testing.T) {
	f, c := newFake(t, 1, Config{AckMode: AckExplicit}, deliver(0, batch(0, 1, false, seq(2)...), acquired(0, 1, 1)))
	mustReceive(t, c)
	f.mu.Lock()
	f.ackBlock = true
	f.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := c.Close(ctx)
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("Close took %v with a 300ms deadline", took)
	}
	if err == nil {
		t.Fatal("Close past its deadline reported success")
	}
}

// TestFakeAssignmentResolvedLater: an assignment whose topic ID metadata
// does not know yet is resolved at a later heartbeat, although the
// coordinator does not send the assignment again.
func TestFakeAssignmentResolvedLater(t *testing.T) {
	f := &fakeT{t: t, parts: 1, unknownIDs: 2}
	f.fetches = []func(*wire.ShareFetchRequest) *wire.ShareFetchResponse{deliver(0, batch(0, 0, false, 0), acquired(0, 0, 1))}
	f.hb = func(r *wire.ShareGroupHeartbeatRequest) *wire.ShareGroupHeartbeatResponse {
		resp := &wire.ShareGroupHeartbeatResponse{MemberEpoch: 1, HeartbeatIntervalMs: 20}
		if r.MemberEpoch == 0 {
			resp.Assignment = &wire.ShareGroupHeartbeatAssignment{TopicPartitions: []wire.ShareGroupTopicPartitions{{TopicID: fakeTopicID, Partitions: []int32{0}}}}
		}
		return resp
	}
	c, err := newConsumer(f, Config{GroupID: "g", Topics: []string{fakeTopic}, MaxWait: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	if recs := mustReceive(t, c); len(recs) != 1 {
		t.Fatalf("%d records", len(recs))
	}
}

// TestFakeCloseEndsWaitingReceive: a Receive long-polling when Close is
// called returns ErrClosed once its ShareFetch is answered, and Close does
// not wait for the Receive's own deadline (CI: TestLifecycleMatrix's
// share/object-then-client/pending case took 30 s).
func TestFakeCloseEndsWaitingReceive(t *testing.T) {
	inFetch := make(chan struct{})
	longPoll := func(r *wire.ShareFetchRequest) *wire.ShareFetchResponse {
		close(inFetch)
		<-time.After(time.Duration(r.MaxWaitMs) * time.Millisecond)
		return ackAll(r)
	}
	_, c := newFake(t, 1, Config{MaxWait: 300 * time.Millisecond}, longPoll)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	got := make(chan error, 1)
	go func() { _, err := c.Receive(ctx); got <- err }()
	<-inFetch // the Receive holds the consumer and waits for the broker
	start := time.Now()
	closeCtx, closeCancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer closeCancel()
	if err := c.Close(closeCtx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("Close took %v behind a Receive long-polling 300ms", took)
	}
	if err := <-got; !errors.Is(err, ErrClosed) || !errors.Is(err, client.ErrClosed) {
		t.Fatalf("the waiting Receive returned %v, want ErrClosed", err)
	}
}
