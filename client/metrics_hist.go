package client

import (
	"sync"
	"sync/atomic"
	"time"
)

// LatencyBuckets are the upper bounds of the request latency histograms'
// buckets (RequestLatency.Counts has one more, for larger values): fixed,
// from 1ms to 10s, so histograms of any two clients can be summed.
var LatencyBuckets = [...]time.Duration{
	time.Millisecond, 2 * time.Millisecond, 5 * time.Millisecond,
	10 * time.Millisecond, 25 * time.Millisecond, 50 * time.Millisecond,
	100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond,
	time.Second, 2500 * time.Millisecond, 5 * time.Second, 10 * time.Second,
}

// BrokerLane names one broker's connection of one lane (Broker is -1 for a
// bootstrap address).
type BrokerLane struct {
	Broker int32
	Lane   Lane
}

// RequestLatency is a histogram of request latencies (write to response
// read) and a count of the bytes of one broker's lane.
type RequestLatency struct {
	// Counts[i] counts responses with latency <= LatencyBuckets[i] (and
	// above the previous bound); the last element counts larger ones.
	Counts [len(LatencyBuckets) + 1]uint64
	// Count and SumNs are the number of responses and their total latency.
	Count, SumNs uint64
	// BytesWritten and BytesRead count request and response frame bytes.
	BytesWritten, BytesRead uint64
}

// histogram is the live form of RequestLatency, updated with atomics by a
// connection's writer path and reader.
type histogram struct {
	counts                  [len(LatencyBuckets) + 1]atomic.Uint64
	count, sumNs            atomic.Uint64
	bytesWritten, bytesRead atomic.Uint64
}

func (h *histogram) observe(d time.Duration, bytes int) {
	i := 0
	for i < len(LatencyBuckets) && d > LatencyBuckets[i] {
		i++
	}
	h.counts[i].Add(1)
	h.count.Add(1)
	h.sumNs.Add(uint64(max(d, 0)))
	h.bytesRead.Add(uint64(bytes))
}

func (h *histogram) snapshot() RequestLatency {
	var r RequestLatency
	for i := range h.counts {
		r.Counts[i] = h.counts[i].Load()
	}
	r.Count, r.SumNs = h.count.Load(), h.sumNs.Load()
	r.BytesWritten, r.BytesRead = h.bytesWritten.Load(), h.bytesRead.Load()
	return r
}

// histograms holds one histogram per broker and lane, made when the first
// connection of that broker and lane is made; never removed.
type histograms struct {
	mu sync.Mutex
	m  map[BrokerLane]*histogram // guarded by mu
}

// get returns the histogram of broker's lane, making it.
func (hs *histograms) get(broker int32, lane Lane) *histogram {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	k := BrokerLane{broker, lane}
	h := hs.m[k]
	if h == nil {
		if hs.m == nil {
			hs.m = map[BrokerLane]*histogram{}
		}
		h = &histogram{}
		hs.m[k] = h
	}
	return h
}

// snapshot copies every histogram.
func (hs *histograms) snapshot() map[BrokerLane]RequestLatency {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	out := make(map[BrokerLane]RequestLatency, len(hs.m))
	for k, h := range hs.m {
		out[k] = h.snapshot()
	}
	return out
}
