//go:build !race

package client

import (
	"context"
	"testing"
	"time"
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
