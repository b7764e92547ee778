package client

import (
	"context"
	"encoding/binary"
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
func benchSetup(b *testing.B) (*fakeCluster, *Client, context.Context) {
	fc := newFakeCluster(b, 1)
	canned := echoCreateTopics(createTopics("bench")).AppendTo(nil, 7)
	var out []byte
	fc.fast = func(c *fakeConn, raw []byte) bool {
		if wire.APIKey(binary.BigEndian.Uint16(raw)) != wire.KeyCreateTopics || binary.BigEndian.Uint16(raw[2:]) != 7 {
			return false
		}
		out = append(out[:0], 0, 0, 0, 0)
		out = append(out, raw[4:8]...) // correlation ID
		out = append(out, 0)           // empty header tags (response header v1)
		out = append(out, canned...)
		binary.BigEndian.PutUint32(out, uint32(len(out)-4))
		c.write(out)
		return true
	}
	cfg := fc.config()
	cfg.RequestTimeout = time.Hour
	c := newTestClient(b, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	b.Cleanup(cancel)
	return fc, c, ctx
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
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Request(ctx, 1, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEnqueuePipelined keeps MaxInFlightPerBroker requests in flight
// through Enqueue to a fake broker.
func BenchmarkEnqueuePipelined(b *testing.B) {
	_, c, ctx := benchSetup(b)
	req := createTopics("bench")
	if _, err := c.Request(ctx, 1, req); err != nil {
		b.Fatal(err)
	}
	window := make([]Pending, 0, DefaultMaxInFlightPerBroker)
	b.ReportAllocs()
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
	for _, p := range window {
		if _, err := p.Result(); err != nil {
			b.Fatal(err)
		}
	}
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
