package client

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// fakeCluster is a set of scripted brokers on loopback. Each broker decodes
// requests with the wire types and answers ApiVersions, Metadata,
// FindCoordinator and CreateTopics by default; a test's handle function sees
// every request first and may answer it itself (with crafted bytes, late, out
// of order, or never) by returning true.
type fakeCluster struct {
	t         testing.TB
	brokers   []*fakeBroker
	clusterID string

	mu       sync.Mutex
	handle   func(fc *fakeConn, r *fakeReq) bool
	fast     func(fc *fakeConn, raw []byte) bool // sees raw request frames first (benchmarks)
	versions map[wire.APIKey][2]int16            // advertised ranges that differ from wire's table
	omit     map[wire.APIKey]bool                // APIs not advertised
	// telemetry advertises GetTelemetrySubscriptions and PushTelemetry
	// (a real broker does only with a client telemetry receiver); tests
	// answer them in their handle function.
	telemetry bool
	leaders   map[string][]int32 // topic -> leader per partition
	epochs    map[string][]int32
	log       []*fakeReq
}

type fakeBroker struct {
	c        *fakeCluster
	id       int32
	ln       net.Listener
	addr     string
	accepted atomic.Int32

	mu    sync.Mutex
	conns []net.Conn
}

// fakeReq is one decoded request as a broker received it.
type fakeReq struct {
	broker int32
	conn   int32 // 1 for the broker's first accepted connection, ...
	hdr    wire.RequestHeader
	req    wire.Request
}

// fakeConn is the broker side of one connection.
type fakeConn struct {
	b   *fakeBroker
	nc  net.Conn
	seq int32
	wmu sync.Mutex
}

func newFakeCluster(t testing.TB, n int) *fakeCluster {
	fc := &fakeCluster{t: t, clusterID: "fake-cluster-id", versions: map[wire.APIKey][2]int16{}, omit: map[wire.APIKey]bool{},
		leaders: map[string][]int32{}, epochs: map[string][]int32{}}
	for i := range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		b := &fakeBroker{c: fc, id: int32(i + 1), ln: ln, addr: ln.Addr().String()}
		fc.brokers = append(fc.brokers, b)
		go b.serve()
	}
	t.Cleanup(fc.close)
	return fc
}

func (fc *fakeCluster) close() {
	for _, b := range fc.brokers {
		_ = b.ln.Close()
		b.mu.Lock()
		for _, c := range b.conns {
			_ = c.Close()
		}
		b.mu.Unlock()
	}
}

func (fc *fakeCluster) setHandle(h func(fc *fakeConn, r *fakeReq) bool) {
	fc.mu.Lock()
	fc.handle = h
	fc.mu.Unlock()
}

// requests returns the requests received so far with the given key.
func (fc *fakeCluster) requests(key wire.APIKey) []*fakeReq {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	var out []*fakeReq
	for _, r := range fc.log {
		if r.hdr.Key == key {
			out = append(out, r)
		}
	}
	return out
}

// config returns a client config bootstrapping from broker 1.
func (fc *fakeCluster) config() Config {
	return Config{
		Bootstrap:      []string{fc.brokers[0].addr},
		RequestTimeout: 5 * time.Second,
		RetryBackoff:   5 * time.Millisecond, RetryBackoffMax: 20 * time.Millisecond,
	}
}

func (b *fakeBroker) serve() {
	for {
		nc, err := b.ln.Accept()
		if err != nil {
			return
		}
		seq := b.accepted.Add(1)
		b.mu.Lock()
		b.conns = append(b.conns, nc)
		b.mu.Unlock()
		go (&fakeConn{b: b, nc: nc, seq: seq}).serve()
	}
}

func newRequest(k wire.APIKey) wire.RequestDecoder {
	switch k {
	case wire.KeyApiVersions:
		return &wire.ApiVersionsRequest{}
	case wire.KeyMetadata:
		return &wire.MetadataRequest{}
	case wire.KeyFindCoordinator:
		return &wire.FindCoordinatorRequest{}
	case wire.KeySaslHandshake:
		return &wire.SaslHandshakeRequest{}
	case wire.KeySaslAuthenticate:
		return &wire.SaslAuthenticateRequest{}
	case wire.KeyCreateTopics:
		return &wire.CreateTopicsRequest{}
	case wire.KeyProduce:
		return &wire.ProduceRequest{}
	case wire.KeyFetch:
		return &wire.FetchRequest{}
	case wire.KeyGetTelemetrySubscriptions:
		return &wire.GetTelemetrySubscriptionsRequest{}
	case wire.KeyPushTelemetry:
		return &wire.PushTelemetryRequest{}
	case wire.KeyListTransactions: // the version-floor requests
		return &wire.ListTransactionsRequest{}
	case wire.KeyListGroups:
		return &wire.ListGroupsRequest{}
	case wire.KeyUpdateFeatures:
		return &wire.UpdateFeaturesRequest{}
	case wire.KeyAlterPartitionReassignments:
		return &wire.AlterPartitionReassignmentsRequest{}
	case wire.KeyDescribeCluster:
		return &wire.DescribeClusterRequest{}
	case wire.KeyListOffsets:
		return &wire.ListOffsetsRequest{}
	}
	return nil
}

func isTelemetryAPI(k wire.APIKey) bool {
	return k == wire.KeyGetTelemetrySubscriptions || k == wire.KeyPushTelemetry
}

func (c *fakeConn) serve() {
	defer c.nc.Close()
	var size [4]byte
	var buf []byte
	for {
		if _, err := io.ReadFull(c.nc, size[:]); err != nil {
			return
		}
		n := int(binary.BigEndian.Uint32(size[:]))
		if cap(buf) < n {
			buf = make([]byte, n)
		}
		buf = buf[:n]
		if _, err := io.ReadFull(c.nc, buf); err != nil {
			return
		}
		c.b.c.mu.Lock()
		fast := c.b.c.fast
		c.b.c.mu.Unlock()
		if fast != nil && fast(c, buf) {
			continue
		}
		body := bytes.Clone(buf)
		r := wire.NewReader(body)
		h := wire.ReadRequestHeader(r)
		req := newRequest(h.Key)
		if req == nil {
			c.b.c.t.Errorf("fake broker: unexpected API key %d", h.Key)
			return
		}
		if err := req.DecodeFrom(r, h.Version); err != nil {
			c.b.c.t.Errorf("fake broker: decoding %d v%d: %v", h.Key, h.Version, err)
			return
		}
		fr := &fakeReq{broker: c.b.id, conn: c.seq, hdr: h, req: req}
		cl := c.b.c
		cl.mu.Lock()
		cl.log = append(cl.log, fr)
		handle := cl.handle
		cl.mu.Unlock()
		if handle != nil && handle(c, fr) {
			continue
		}
		c.answer(fr)
	}
}

// answer gives the default answer to r.
func (c *fakeConn) answer(r *fakeReq) {
	cl := c.b.c
	switch req := r.req.(type) {
	case *wire.ApiVersionsRequest:
		resp := &wire.ApiVersionsResponse{FinalizedFeaturesEpoch: -1}
		cl.mu.Lock()
		for _, a := range wire.APIs() {
			if cl.omit[a.Key] || isTelemetryAPI(a.Key) && !cl.telemetry {
				continue
			}
			rng := [2]int16{a.MinVersion, a.MaxVersion}
			if v, ok := cl.versions[a.Key]; ok {
				rng = v
			}
			resp.ApiKeys = append(resp.ApiKeys, wire.ApiVersionsResponseKey{ApiKey: a.Key, MinVersion: rng[0], MaxVersion: rng[1]})
		}
		cl.mu.Unlock()
		c.respond(r, resp)
	case *wire.MetadataRequest:
		cl.mu.Lock()
		id := cl.clusterID
		cl.mu.Unlock()
		resp := &wire.MetadataResponse{ClusterID: &id, ControllerID: cl.brokers[0].id}
		for _, b := range cl.brokers {
			host, port, _ := net.SplitHostPort(b.addr)
			p, _ := strconv.Atoi(port)
			resp.Brokers = append(resp.Brokers, wire.MetadataResponseBroker{NodeID: b.id, Host: host, Port: int32(p)})
		}
		cl.mu.Lock()
		for _, t := range req.Topics {
			name := *t.Name
			leaders, ok := cl.leaders[name]
			rt := wire.MetadataResponseTopic{Name: &name, TopicID: wire.UUID{1, byte(len(name))}}
			if !ok {
				rt.ErrorCode = wire.ErrUnknownTopicOrPartition.Code
			}
			for p, l := range leaders {
				rt.Partitions = append(rt.Partitions, wire.MetadataResponsePartition{
					PartitionIndex: int32(p), LeaderID: l, LeaderEpoch: cl.epochs[name][p],
					ReplicaNodes: []int32{l}, IsrNodes: []int32{l},
				})
			}
			resp.Topics = append(resp.Topics, rt)
		}
		cl.mu.Unlock()
		c.respond(r, resp)
	case *wire.FindCoordinatorRequest:
		resp := &wire.FindCoordinatorResponse{}
		for _, k := range req.CoordinatorKeys {
			b := cl.brokers[len(k)%len(cl.brokers)]
			host, port, _ := net.SplitHostPort(b.addr)
			p, _ := strconv.Atoi(port)
			resp.Coordinators = append(resp.Coordinators, wire.FindCoordinatorResponseCoordinator{Key: k, NodeID: b.id, Host: host, Port: int32(p)})
		}
		c.respond(r, resp)
	case *wire.CreateTopicsRequest:
		c.respond(r, echoCreateTopics(req))
	case *wire.ProduceRequest:
		c.respond(r, &wire.ProduceResponse{})
	case *wire.FetchRequest:
		c.respond(r, &wire.FetchResponse{})
	default:
		cl.t.Errorf("fake broker: no default answer for %T", req)
	}
}

// echoCreateTopics answers a CreateTopics request naming the same topics, so
// tests can check that each response reached the request it answers.
func echoCreateTopics(req *wire.CreateTopicsRequest) *wire.CreateTopicsResponse {
	resp := &wire.CreateTopicsResponse{}
	for _, t := range req.Topics {
		resp.Topics = append(resp.Topics, wire.CreateTopicsTopicResult{Name: t.Name, NumPartitions: t.NumPartitions, ReplicationFactor: 1})
	}
	return resp
}

// frame encodes a whole response frame for r with correlation ID corr.
func frame(r *fakeReq, corr int32, resp wire.ResponseEncoder) []byte {
	info, _ := wire.LookupAPI(r.hdr.Key)
	b := []byte{0, 0, 0, 0}
	b = wire.AppendResponseHeader(b, info, r.hdr.Version, corr)
	b = resp.AppendTo(b, r.hdr.Version)
	binary.BigEndian.PutUint32(b, uint32(len(b)-4))
	return b
}

func (c *fakeConn) respond(r *fakeReq, resp wire.ResponseEncoder) {
	c.write(frame(r, r.hdr.CorrelationID, resp))
}

func (c *fakeConn) write(b []byte) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, _ = c.nc.Write(b)
}

func (c *fakeConn) close() { _ = c.nc.Close() }

// createTopics is a CreateTopics request naming one topic, the payload the
// fault tests send: not read-only, so never retried once possibly sent.
func createTopics(name string) *wire.CreateTopicsRequest {
	return &wire.CreateTopicsRequest{Topics: []wire.CreateTopicsTopic{{Name: name, NumPartitions: 1, ReplicationFactor: 1}}, TimeoutMs: 1000}
}

func topicOf(t testing.TB, resp wire.Response) string {
	t.Helper()
	r, ok := resp.(*wire.CreateTopicsResponse)
	if !ok || len(r.Topics) != 1 {
		t.Fatalf("response %#v is not a one-topic CreateTopicsResponse", resp)
	}
	return r.Topics[0].Name
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t testing.TB, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
		time.Sleep(time.Millisecond) // polling interval of a condition wait, not synchronization
	}
}

func newTestClient(t testing.TB, cfg Config) *Client {
	t.Helper()
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close(context.Background()) })
	return c
}

func testCtx(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
