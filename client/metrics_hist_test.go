package client

import (
	"testing"
	"time"
)

// TestRequestLatencyHistograms: every response lands in its broker's lane
// histogram, in one bucket, with the frame bytes counted both ways.
func TestRequestLatencyHistograms(t *testing.T) {
	fc := newFakeCluster(t, 2)
	c := newTestClient(t, fc.config())
	ctx := testCtx(t, 10*time.Second)
	for range 5 {
		if _, err := c.Request(ctx, 2, createTopics("h")); err != nil {
			t.Fatal(err)
		}
	}
	r, ok := c.Metrics().Requests[BrokerLane{2, LaneControl}]
	if !ok {
		t.Fatalf("no histogram for broker 2's control lane: %v", c.Metrics().Requests)
	}
	var sum uint64
	for _, n := range r.Counts {
		sum += n
	}
	// 5 CreateTopics plus the connection's ApiVersions.
	if r.Count < 6 || sum != r.Count || r.SumNs == 0 || r.BytesWritten == 0 || r.BytesRead == 0 {
		t.Fatalf("histogram %+v: want >= 6 responses, bucket counts summing to Count, bytes both ways", r)
	}
	h := &histogram{}
	h.observe(LatencyBuckets[0], 1)
	h.observe(LatencyBuckets[0]+1, 1)
	h.observe(time.Hour, 1)
	if s := h.snapshot(); s.Counts[0] != 1 || s.Counts[1] != 1 || s.Counts[len(LatencyBuckets)] != 1 {
		t.Fatalf("bucket bounds wrong: %v", s.Counts)
	}
}
