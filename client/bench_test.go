package client

import (
	"context"
	"encoding/binary"
	"runtime"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/wire"
)

// BenchmarkEncodeRequest encodes a Metadata request frame into a reused
// buffer, as a connection's writer path does: 0 allocs/op expected.
func BenchmarkEncodeRequest(b *testing.B) {
	info, _ := wire.LookupAPI(wire.KeyMetadata)
	name := "orders"
	req := &wire.MetadataRequest{Topics: []wire.MetadataRequestTopic{{Name: &name}}}
	clientID := DefaultClientID
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		buf = appendRequest(buf[:0], info, info.MaxVersion, int32(i), &clientID, req)
	}
	b.SetBytes(int64(len(buf)))
}

// benchSetup starts a fake broker that answers CreateTopics with canned
// bytes (no allocation on the broker side, so allocs/op are the client's)
// and a client whose callers carry a deadline (the common case: no derived
// context is needed).
func benchSetup(b testing.TB, tune ...func(*Config)) (*fakeCluster, *Client, context.Context) {
	fc := newFakeCluster(b, 1)
	answerCanned(fc, wire.KeyCreateTopics, benchVersion, benchBody())
	cfg := fc.config()
	cfg.RequestTimeout = time.Hour
	for _, f := range tune {
		f(&cfg)
	}
	c := newTestClient(b, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	b.Cleanup(cancel)
	return fc, c, ctx
}

// answerCanned makes fc answer every request with key at version v with
// body (a response body for that version, under a flexible response header)
// from its raw frame, allocating nothing on the broker side.
func answerCanned(fc *fakeCluster, key wire.APIKey, v int16, body []byte) {
	var out []byte
	fc.fast = func(c *fakeConn, raw []byte) bool {
		if wire.APIKey(binary.BigEndian.Uint16(raw)) != key || int16(binary.BigEndian.Uint16(raw[2:])) != v {
			return false
		}
		out = appendBenchFrame(out[:0], int32(binary.BigEndian.Uint32(raw[4:8])), body)
		c.write(out)
		return true
	}
}

// benchVersion is the CreateTopics version the benchmarks' fake broker
// answers (the highest the client negotiates with it).
const benchVersion = 7

// benchBody is the body of the benchmarks' fake broker's answer to a
// CreateTopics("bench") request.
func benchBody() []byte {
	return echoCreateTopics(createTopics("bench")).AppendTo(nil, benchVersion)
}

// appendBenchFrame appends the size-prefixed response frame with body
// (benchBody) for correlation ID corrID, without allocating beyond dst.
func appendBenchFrame(dst []byte, corrID int32, body []byte) []byte {
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	dst = binary.BigEndian.AppendUint32(dst, uint32(corrID))
	dst = append(dst, 0) // empty header tags (response header v1)
	dst = append(dst, body...)
	binary.BigEndian.PutUint32(dst[start:], uint32(len(dst)-start-4))
	return dst
}

// responseAllocs is what one answer of the benchmarks' fake broker costs by
// itself, measured the way the connection reader handles it: the frame
// buffer plus the decoded response. Everything a round trip allocates beyond
// this is request bookkeeping, which steady state must not allocate.
func responseAllocs(t testing.TB) float64 {
	t.Helper()
	frame := appendBenchFrame(nil, 1, benchBody())[4:]
	info, _ := wire.LookupAPI(wire.KeyCreateTopics)
	p := &pending{req: createTopics("bench"), info: info, version: benchVersion}
	var rd wire.Reader
	var keep wire.Response
	var failed error
	n := testing.AllocsPerRun(100, func() {
		buf := make([]byte, len(frame))
		copy(buf, frame)
		keep, failed = decodeResponse(p, buf, &rd)
	})
	if failed != nil || keep == nil {
		t.Fatalf("decoding the canned frame: %v", failed)
	}
	return n
}

// reportOverhead reports allocs/op beyond responseAllocs as the metric
// overhead-allocs/op (0 is the target: steady-state request send allocates
// nothing per request beyond the response). mallocs is the count of heap
// allocations during the b.N iterations.
func reportOverhead(b *testing.B, mallocs uint64, respAllocs, extra float64) {
	b.ReportMetric(float64(mallocs)/float64(b.N)-respAllocs-extra, "overhead-allocs/op")
}

func mallocs() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.Mallocs
}

// BenchmarkRequestThroughPool sends CreateTopics requests through the pool to
// a fake broker on loopback and waits for each response (allocs include the
// decoded response and the fake broker's own work).
func BenchmarkRequestThroughPool(b *testing.B) {
	_, c, ctx := benchSetup(b)
	req := createTopics("bench")
	if _, err := c.Request(ctx, 1, req); err != nil {
		b.Fatal(err)
	}
	resp := responseAllocs(b)
	b.ReportAllocs()
	m0 := mallocs()
	for b.Loop() {
		if _, err := c.Request(ctx, 1, req); err != nil {
			b.Fatal(err)
		}
	}
	reportOverhead(b, mallocs()-m0, resp, 0)
}

// BenchmarkEnqueuePipelined keeps MaxInFlightPerBroker requests in flight
// through Enqueue to a fake broker. Each Enqueue returns a new Pending the
// caller owns (never recycled), so overhead-allocs/op excludes that one
// allocation.
func BenchmarkEnqueuePipelined(b *testing.B) {
	_, c, ctx := benchSetup(b)
	req := createTopics("bench")
	if _, err := c.Request(ctx, 1, req); err != nil {
		b.Fatal(err)
	}
	window := make([]Pending, 0, DefaultMaxInFlightPerBroker)
	resp := responseAllocs(b)
	b.ReportAllocs()
	m0 := mallocs()
	for b.Loop() {
		if len(window) == cap(window) {
			if _, err := window[0].Result(); err != nil {
				b.Fatal(err)
			}
			window = append(window[:0], window[1:]...)
		}
		p, err := c.Enqueue(ctx, 1, req)
		if err != nil {
			b.Fatal(err)
		}
		window = append(window, p)
	}
	m1 := mallocs()
	for _, p := range window {
		if _, err := p.Result(); err != nil {
			b.Fatal(err)
		}
	}
	reportOverhead(b, m1-m0, resp, 1)
}

// BenchmarkMetadataRoundTrip sends a one-topic Metadata request to the real
// broker of the test bed and decodes the response.
func BenchmarkMetadataRoundTrip(b *testing.B) {
	cluster := kafkatest.Shared(b)
	c := newTestClient(b, Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext)})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	name := "__consumer_offsets"
	req := &wire.MetadataRequest{Topics: []wire.MetadataRequestTopic{{Name: &name}}}
	if _, err := c.Request(ctx, AnyBroker, req); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Request(ctx, AnyBroker, req); err != nil {
			b.Fatal(err)
		}
	}
}
