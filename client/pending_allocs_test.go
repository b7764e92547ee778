//go:build !race

package client

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// TestSteadyStateAllocations holds issue 4's target on the fake broker
// (built without -race only: the race detector adds allocations; `make
// test` runs it in a separate step without -race):
// a Request round trip allocates nothing beyond its response (the frame
// buffer and the decoded response), nor does a StartCall'd one, and an
// Enqueue'd one only the Pending handle its caller owns besides; whether the caller's context carries the
// effective deadline or not (then RequestTimeout sets it, without deriving
// a context), and whether the request goes to a node or to AnyBroker.
func TestSteadyStateAllocations(t *testing.T) {
	// RequestTimeout is later than deadlineCtx's deadline, so it bounds
	// only the other contexts.
	_, c, deadlineCtx := benchSetup(t, func(cfg *Config) { cfg.RequestTimeout = 30 * time.Minute })
	cancelable, cancel := context.WithCancel(context.Background())
	defer cancel()
	req := createTopics("bench")
	resp := responseAllocs(t)
	if resp < 2 {
		t.Fatalf("response baseline %v allocs: the canned answer did not decode", resp)
	}
	for _, tc := range []struct {
		name   string
		ctx    context.Context
		broker int32
	}{
		{"deadline", deadlineCtx, 1},
		{"no deadline", context.Background(), 1},
		{"cancelable, no deadline", cancelable, 1},
		{"any broker", deadlineCtx, AnyBroker},
	} {
		request := func() {
			if _, err := c.Request(tc.ctx, tc.broker, req); err != nil {
				t.Fatal(err)
			}
		}
		enqueue := func() {
			p, err := c.Enqueue(tc.ctx, tc.broker, req)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Result(); err != nil {
				t.Fatal(err)
			}
		}
		startCall := func() {
			k, err := c.StartCall(tc.ctx, tc.broker, req)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := k.Wait(); err != nil {
				t.Fatal(err)
			}
			k.Release()
		}
		for range 20 { // connect, negotiate, start watchers, fill the pool
			request()
			enqueue()
			startCall()
		}
		if got := testing.AllocsPerRun(500, request); got != resp {
			t.Errorf("%s: Request: %v allocs per round trip, want %v (the response only)", tc.name, got, resp)
		}
		if got := testing.AllocsPerRun(500, enqueue); got != resp+1 {
			t.Errorf("%s: Enqueue+Result: %v allocs per round trip, want %v (the response and the Pending)", tc.name, got, resp+1)
		}
		if got := testing.AllocsPerRun(500, startCall); got != resp {
			t.Errorf("%s: StartCall+Wait+Release: %v allocs per round trip, want %v (the response only)", tc.name, got, resp)
		}
	}
}

// TestProduceCallAllocatesNothing: a steady stream of Requests sent
// with StartCall, each decoding into the request's own response
// (SetResponseInto), allocates nothing per round trip: no handle, no
// response, no frame (a ProduceResponse keeps nothing of its frame, so the
// connection reads it into its reused buffer). This is the producer's path.
func TestProduceCallAllocatesNothing(t *testing.T) {
	produceCallAllocs(t, nil)
}

// produceCallAllocs is TestProduceCallAllocatesNothing with hooks set.
func produceCallAllocs(t *testing.T, hooks []Hook) {
	fc := newFakeCluster(t, 1)
	id := wire.UUID{1}
	body := (&wire.ProduceResponse{Responses: []wire.ProduceResponseTopic{{TopicID: id, PartitionResponses: []wire.ProduceResponsePartition{
		{Index: 0, BaseOffset: 7, LogAppendTimeMs: -1, CurrentLeader: wire.LeaderIDAndEpoch{LeaderID: -1, LeaderEpoch: -1}}}}}}).AppendTo(nil, 13)
	answerCanned(fc, wire.KeyProduce, 13, body)
	cfg := fc.config()
	cfg.RequestTimeout = time.Hour
	cfg.Hooks = hooks
	c := newTestClient(t, cfg)
	ctx := testCtx(t, time.Minute)
	req := &wire.ProduceRequest{Acks: -1, TimeoutMs: 1000, TopicData: []wire.ProduceRequestTopic{{TopicID: id,
		PartitionData: []wire.ProduceRequestPartition{{Index: 0, Records: make([]byte, 100)}}}}}
	var resp wire.ProduceResponse
	req.SetResponseInto(&resp)
	call := func() {
		k, err := c.StartCall(ctx, 1, req)
		if err != nil {
			t.Fatal(err)
		}
		r, err := k.Wait()
		if err != nil {
			t.Fatal(err)
		}
		if r != &resp || resp.Responses[0].PartitionResponses[0].BaseOffset != 7 {
			t.Fatalf("response %+v not decoded into the request's own", r)
		}
		k.Release()
	}
	for range 20 { // connect, negotiate, fill the pools
		call()
	}
	if got := testing.AllocsPerRun(500, call); got != 0 {
		t.Fatalf("%v allocations per Produce round trip, want 0", got)
	}
}

// countingHook counts request events without allocating.
type countingHook struct {
	written, read atomic.Int64
	bytes         atomic.Int64
}

func (h *countingHook) OnRequestWritten(ev RequestEvent) {
	h.written.Add(1)
	h.bytes.Add(int64(ev.Bytes))
}
func (h *countingHook) OnResponseRead(ev RequestEvent) { h.read.Add(1) }

// TestProduceCallAllocatesNothingWithHooks: request hooks receive their
// events by value, so a hook that allocates nothing keeps the Produce
// round trip at 0 allocations; and it saw every round trip.
func TestProduceCallAllocatesNothingWithHooks(t *testing.T) {
	h := &countingHook{}
	produceCallAllocs(t, []Hook{h})
	if w, r := h.written.Load(), h.read.Load(); w < 520 || r < 520 {
		t.Fatalf("hook saw %d writes and %d reads, want at least 520 each", w, r)
	}
}
