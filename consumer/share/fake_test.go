package share

import (
	"context"
	"encoding/binary"
	"hash/crc32"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// The fake broker scripts what a real broker cannot be made to produce on
// demand: a redelivery at a lower offset, acquired ranges with gaps, an
// empty acquired batch, per-partition acknowledgement failures.

var fakeTopicID = wire.UUID{0xaa, 15: 1}

const fakeTopic = "t"

// fakeT is a scripted transport: one broker (node 1), coordinator and
// leader of every partition of topic "t".
type fakeT struct {
	t     *testing.T
	parts int32
	mu    sync.Mutex
	// fetches are the scripted ShareFetch answers, in order; when none is
	// left a ShareFetch long-polls MaxWaitMs and answers empty.
	fetches []func(*wire.ShareFetchRequest) *wire.ShareFetchResponse
	// byNode, when set, scripts each broker's ShareFetch answers instead.
	byNode map[int32][]func(*wire.ShareFetchRequest) *wire.ShareFetchResponse
	// acks answers ShareAcknowledge; nil answers success for every partition.
	acks func(*wire.ShareAcknowledgeRequest) *wire.ShareAcknowledgeResponse
	// reqs are every ShareFetch and ShareAcknowledge received, and nodes
	// the broker each was sent to.
	reqs  []wire.Request
	nodes []int32
	// leaders maps partitions to leader nodes (default: node 1).
	leaders map[int32]int32
	// hb answers ShareGroupHeartbeat when set.
	hb func(*wire.ShareGroupHeartbeatRequest) *wire.ShareGroupHeartbeatResponse
	// hbErr, when set, fails every ShareGroupHeartbeat (counted in hbs).
	hbErr error
	hbs   int
	// ackBlock makes ShareAcknowledge wait for its context.
	ackBlock bool
	// unknownIDs is how many metadata answers still lack the topic.
	unknownIDs int
}

func (f *fakeT) coordinator(context.Context, string) (int32, error) { return 1, nil }
func (f *fakeT) invalidateCoordinator(string)                       {}
func (f *fakeT) invalidateMetadata()                                {}

func (f *fakeT) metadata(context.Context, []string) (map[string]topicMeta, error) {
	m := topicMeta{id: fakeTopicID, leaders: map[int32]int32{}}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.unknownIDs > 0 {
		f.unknownIDs--
		return map[string]topicMeta{fakeTopic: {err: wire.ErrUnknownTopicOrPartition}}, nil
	}
	for p := int32(0); p < f.parts; p++ {
		m.leaders[p] = 1
		if l, ok := f.leaders[p]; ok {
			m.leaders[p] = l
		}
	}
	return map[string]topicMeta{fakeTopic: m}, nil
}

func (f *fakeT) request(ctx context.Context, node int32, req wire.Request) (wire.Response, error) {
	switch r := req.(type) {
	case *wire.ShareGroupHeartbeatRequest:
		f.mu.Lock()
		hb, hbErr := f.hb, f.hbErr
		f.hbs++
		f.mu.Unlock()
		if hbErr != nil {
			return nil, hbErr
		}
		if hb != nil {
			return hb(r), nil
		}
		resp := &wire.ShareGroupHeartbeatResponse{MemberID: &r.MemberID, MemberEpoch: 1, HeartbeatIntervalMs: 1000}
		if r.MemberEpoch == 0 {
			a := &wire.ShareGroupHeartbeatAssignment{TopicPartitions: []wire.ShareGroupTopicPartitions{{TopicID: fakeTopicID}}}
			for p := int32(0); p < f.parts; p++ {
				a.TopicPartitions[0].Partitions = append(a.TopicPartitions[0].Partitions, p)
			}
			resp.Assignment = a
		}
		return resp, nil
	case *wire.ShareFetchRequest:
		f.mu.Lock()
		f.reqs, f.nodes = append(f.reqs, r), append(f.nodes, node)
		var next func(*wire.ShareFetchRequest) *wire.ShareFetchResponse
		switch {
		case f.byNode != nil:
			if q := f.byNode[node]; len(q) > 0 {
				next, f.byNode[node] = q[0], q[1:]
			}
		case len(f.fetches) > 0:
			next, f.fetches = f.fetches[0], f.fetches[1:]
		}
		f.mu.Unlock()
		if next != nil {
			return next(r), nil
		}
		tm := time.NewTimer(time.Duration(r.MaxWaitMs) * time.Millisecond)
		defer tm.Stop()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-tm.C:
		}
		return ackAll(r), nil
	case *wire.ShareAcknowledgeRequest:
		f.mu.Lock()
		f.reqs, f.nodes = append(f.reqs, r), append(f.nodes, node)
		fn, block := f.acks, f.ackBlock
		f.mu.Unlock()
		if block {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		if fn != nil {
			return fn(r), nil
		}
		resp := &wire.ShareAcknowledgeResponse{}
		for _, t := range r.Topics {
			rt := wire.ShareAcknowledgeTopicResponse{TopicID: t.TopicID}
			for _, p := range t.Partitions {
				rt.Partitions = append(rt.Partitions, wire.ShareAcknowledgePartitionResponse{PartitionIndex: p.PartitionIndex})
			}
			resp.Responses = append(resp.Responses, rt)
		}
		return resp, nil
	}
	f.t.Fatalf("unexpected request %T", req)
	return nil, nil
}

// ackAll answers a ShareFetch with no records, every acknowledgement it
// carries succeeding.
func ackAll(r *wire.ShareFetchRequest) *wire.ShareFetchResponse {
	resp := &wire.ShareFetchResponse{AcquisitionLockTimeoutMs: 30000}
	for _, t := range r.Topics {
		rt := wire.ShareFetchTopicResponse{TopicID: t.TopicID}
		for _, p := range t.Partitions {
			rt.Partitions = append(rt.Partitions, wire.ShareFetchPartitionResponse{PartitionIndex: p.PartitionIndex, Records: []byte{}})
		}
		resp.Responses = append(resp.Responses, rt)
	}
	return resp
}

// deliver answers a ShareFetch with batch bytes of partition p acquired as
// ranges, acknowledgements succeeding.
func deliver(p int32, records []byte, ranges ...wire.ShareAcquiredRecords) func(*wire.ShareFetchRequest) *wire.ShareFetchResponse {
	return func(r *wire.ShareFetchRequest) *wire.ShareFetchResponse {
		resp := ackAll(r)
		part := wire.ShareFetchPartitionResponse{PartitionIndex: p, Records: records, AcquiredRecords: ranges}
		for i := range resp.Responses {
			for j := range resp.Responses[i].Partitions {
				if resp.Responses[i].Partitions[j].PartitionIndex == p {
					ack := resp.Responses[i].Partitions[j].AcknowledgeErrorCode
					resp.Responses[i].Partitions[j] = part
					resp.Responses[i].Partitions[j].AcknowledgeErrorCode = ack
					return resp
				}
			}
		}
		resp.Responses = append(resp.Responses, wire.ShareFetchTopicResponse{TopicID: fakeTopicID, Partitions: []wire.ShareFetchPartitionResponse{part}})
		return resp
	}
}

func acquired(first, last int64, count int16) wire.ShareAcquiredRecords {
	return wire.ShareAcquiredRecords{FirstOffset: first, LastOffset: last, DeliveryCount: count}
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// batch builds an uncompressed v2 batch at base holding records at the
// given offset deltas (missing deltas are compacted away) up to lastDelta,
// values "v<offset>"; control makes it a control batch.
func batch(base int64, lastDelta int32, control bool, deltas ...int32) []byte {
	var recs []byte
	for _, d := range deltas {
		var body []byte
		body = wire.AppendInt8(body, 0)
		body = wire.AppendVarlong(body, int64(d))
		body = wire.AppendVarint(body, d)
		v := []byte("v" + strconv.FormatInt(base+int64(d), 10))
		if control {
			// an abort marker: key version 0, type 0; value version 0, coordinator epoch 3
			k := binary.BigEndian.AppendUint16(binary.BigEndian.AppendUint16(nil, 0), 0)
			body = append(wire.AppendVarint(body, int32(len(k))), k...)
			v = binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint16(nil, 0), 3)
		} else {
			body = wire.AppendVarint(body, -1) // null key
		}
		body = append(wire.AppendVarint(body, int32(len(v))), v...)
		body = wire.AppendVarint(body, 0)
		recs = append(wire.AppendVarint(recs, int32(len(body))), body...)
	}
	var attrs int16
	if control {
		attrs = wire.AttrTransactional | wire.AttrControl
	}
	dst := wire.AppendInt64(nil, base)
	dst = wire.AppendInt32(dst, 0)
	dst = wire.AppendInt32(dst, 0)
	dst = wire.AppendInt8(dst, 2)
	dst = wire.AppendUint32(dst, 0)
	dst = wire.AppendInt16(dst, attrs)
	dst = wire.AppendInt32(dst, lastDelta)
	dst = wire.AppendInt64(dst, 1_700_000_000_000)
	dst = wire.AppendInt64(dst, 1_700_000_000_000+int64(lastDelta))
	dst = wire.AppendInt64(dst, -1)
	dst = wire.AppendInt16(dst, 0)
	dst = wire.AppendInt32(dst, -1)
	dst = wire.AppendInt32(dst, int32(len(deltas)))
	dst = append(dst, recs...)
	binary.BigEndian.PutUint32(dst[8:], uint32(len(dst)-12))
	binary.BigEndian.PutUint32(dst[17:], crc32.Checksum(dst[21:], castagnoli))
	return dst
}

// seq is deltas 0..n-1.
func seq(n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(i)
	}
	return out
}

func newFake(t *testing.T, parts int32, cfg Config, fetches ...func(*wire.ShareFetchRequest) *wire.ShareFetchResponse) (*fakeT, *Consumer) {
	t.Helper()
	f := &fakeT{t: t, parts: parts, fetches: fetches}
	return f, startFake(t, f, cfg)
}

// startFake starts a consumer of group "g" on f.
func startFake(t *testing.T, f *fakeT, cfg Config) *Consumer {
	t.Helper()
	cfg.GroupID, cfg.Topics = "g", []string{fakeTopic}
	if cfg.MaxWait == 0 {
		cfg.MaxWait = 50 * time.Millisecond
	}
	c, err := newConsumer(f, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = c.Close(ctx)
	})
	return c
}

// sentAcks collects the acknowledgement batches of partition p in every
// request sent so far, in order.
func (f *fakeT) sentAcks(p int32) []wire.ShareAcknowledgementBatch {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []wire.ShareAcknowledgementBatch
	for _, r := range f.reqs {
		switch r := r.(type) {
		case *wire.ShareFetchRequest:
			for _, t := range r.Topics {
				for _, pp := range t.Partitions {
					if pp.PartitionIndex == p {
						out = append(out, pp.AcknowledgementBatches...)
					}
				}
			}
		case *wire.ShareAcknowledgeRequest:
			for _, t := range r.Topics {
				for _, pp := range t.Partitions {
					if pp.PartitionIndex == p {
						out = append(out, pp.AcknowledgementBatches...)
					}
				}
			}
		}
	}
	return out
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
