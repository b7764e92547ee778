package txn

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

// fakeBroker is a scripted one-node cluster speaking the Kafka protocol
// over TCP, for what a real broker cannot be made to do on cue (answer
// CONCURRENT_TRANSACTIONS n times, lose an EndTxn response). It is node 1,
// leader of partitions 0 and 1 of every topic but "missing" (unknown) and
// coordinator of everything;
// Produce appends (counting records per partition), the transaction APIs
// succeed unless script says otherwise.
type fakeBroker struct {
	t  testing.TB
	ln net.Listener
	tv int16 // finalized transaction.version

	mu     sync.Mutex
	log    []fakeReq
	events []fakeEvent
	// script, when set, may answer a request itself: it returns the
	// response, or nil to take the default; lose closes the connection
	// instead of answering (the request was read and applied).
	script  func(r fakeReq) (resp wire.ResponseEncoder, lose bool)
	pid     int64
	epoch   int16
	written map[string]int // records appended per topic
	txnRecs map[string]int // records appended per topic with the transactional bit
}

// fakeReq is one request the fake received.
type fakeReq struct {
	hdr wire.RequestHeader
	req wire.Request
}

func newFakeBroker(t testing.TB, tv int16) *fakeBroker {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b := &fakeBroker{t: t, ln: ln, tv: tv, pid: 1000, written: map[string]int{}, txnRecs: map[string]int{}}
	t.Cleanup(func() { _ = ln.Close() })
	go b.accept()
	return b
}

func (b *fakeBroker) client(t testing.TB) *client.Client {
	cl, err := client.New(client.Config{Bootstrap: []string{b.ln.Addr().String()}, RetryBackoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Close(context.Background()) })
	return cl
}

func (b *fakeBroker) accept() {
	for {
		nc, err := b.ln.Accept()
		if err != nil {
			return
		}
		go b.serve(nc)
	}
}

// requests returns the requests received with key.
func (b *fakeBroker) requests(key wire.APIKey) []fakeReq {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []fakeReq
	for _, r := range b.log {
		if r.hdr.Key == key {
			out = append(out, r)
		}
	}
	return out
}

func newFakeRequest(k wire.APIKey) wire.RequestDecoder {
	switch k {
	case wire.KeyApiVersions:
		return &wire.ApiVersionsRequest{}
	case wire.KeyMetadata:
		return &wire.MetadataRequest{}
	case wire.KeyFindCoordinator:
		return &wire.FindCoordinatorRequest{}
	case wire.KeyInitProducerId:
		return &wire.InitProducerIdRequest{}
	case wire.KeyProduce:
		return &wire.ProduceRequest{}
	case wire.KeyAddPartitionsToTxn:
		return &wire.AddPartitionsToTxnRequest{}
	case wire.KeyAddOffsetsToTxn:
		return &wire.AddOffsetsToTxnRequest{}
	case wire.KeyEndTxn:
		return &wire.EndTxnRequest{}
	case wire.KeyTxnOffsetCommit:
		return &wire.TxnOffsetCommitRequest{}
	}
	return nil
}

// serve reads nc's requests as they arrive (logging each at once) and
// answers them in order from a second goroutine, so a held answer does not
// hide the requests sent behind it.
func (b *fakeBroker) serve(nc net.Conn) {
	defer nc.Close()
	queue := make(chan fakeReq, 64)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for r := range queue {
			if !b.answer(nc, r) {
				_ = nc.Close()
				for range queue {
				}
				return
			}
		}
	}()
	defer func() { close(queue); <-done }()
	var size [4]byte
	for {
		if _, err := io.ReadFull(nc, size[:]); err != nil {
			return
		}
		body := make([]byte, binary.BigEndian.Uint32(size[:]))
		if _, err := io.ReadFull(nc, body); err != nil {
			return
		}
		r := wire.NewReader(body)
		h := wire.ReadRequestHeader(r)
		req := newFakeRequest(h.Key)
		if req == nil {
			b.t.Errorf("fake broker: unexpected API key %d", h.Key)
			return
		}
		if err := req.DecodeFrom(r, h.Version); err != nil {
			b.t.Errorf("fake broker: decoding key %d v%d: %v", h.Key, h.Version, err)
			return
		}
		fr := fakeReq{hdr: h, req: req}
		b.mu.Lock()
		b.log = append(b.log, fr)
		b.events = append(b.events, fakeEvent{key: h.Key})
		b.mu.Unlock()
		queue <- fr
	}
}

// answer answers r on nc; false when the connection is to be dropped.
func (b *fakeBroker) answer(nc net.Conn, r fakeReq) bool {
	b.mu.Lock()
	script := b.script
	b.mu.Unlock()
	var resp wire.ResponseEncoder
	if script != nil {
		var lose bool
		if resp, lose = script(r); lose {
			b.apply(r) // the broker did the work; only the answer is lost
			return false
		}
	}
	if resp == nil {
		resp = b.apply(r)
	}
	info, _ := wire.LookupAPI(r.hdr.Key)
	out := wire.AppendResponseHeader(make([]byte, 4, 256), info, r.hdr.Version, r.hdr.CorrelationID)
	out = resp.AppendTo(out, r.hdr.Version)
	binary.BigEndian.PutUint32(out, uint32(len(out)-4))
	b.mu.Lock()
	b.events = append(b.events, fakeEvent{key: r.hdr.Key, answered: true})
	b.mu.Unlock()
	_, err := nc.Write(out)
	return err == nil
}

// fakeEvent is a request read or answered, in the order the fake saw them.
type fakeEvent struct {
	key      wire.APIKey
	answered bool
}

// firstEvent returns the index of the first event for key, -1 if none.
func (b *fakeBroker) firstEvent(key wire.APIKey, answered bool) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, e := range b.events {
		if e.key == key && e.answered == answered {
			return i
		}
	}
	return -1
}

// apply performs r's default effect and returns its default answer.
func (b *fakeBroker) apply(r fakeReq) wire.ResponseEncoder {
	host, port, _ := net.SplitHostPort(b.ln.Addr().String())
	p, _ := strconv.Atoi(port)
	b.mu.Lock()
	defer b.mu.Unlock()
	switch req := r.req.(type) {
	case *wire.ApiVersionsRequest:
		resp := &wire.ApiVersionsResponse{FinalizedFeaturesEpoch: -1}
		for _, a := range wire.APIs() {
			if a.Key == wire.KeyGetTelemetrySubscriptions || a.Key == wire.KeyPushTelemetry {
				continue // as a broker without a client telemetry receiver (KIP-714)
			}
			resp.ApiKeys = append(resp.ApiKeys, wire.ApiVersionsResponseKey{ApiKey: a.Key, MinVersion: a.MinVersion, MaxVersion: a.MaxVersion})
		}
		if b.tv > 0 && r.hdr.Version >= 3 {
			resp.FinalizedFeaturesEpoch = 1
			resp.FinalizedFeatures = []wire.ApiVersionsFinalizedFeature{{Name: transactionVersionFeature, MinVersionLevel: b.tv, MaxVersionLevel: b.tv}}
		}
		return resp
	case *wire.MetadataRequest:
		id := "fake"
		resp := &wire.MetadataResponse{ClusterID: &id, ControllerID: 1,
			Brokers: []wire.MetadataResponseBroker{{NodeID: 1, Host: host, Port: int32(p)}}}
		for _, t := range req.Topics {
			name := *t.Name
			if name == "missing" {
				resp.Topics = append(resp.Topics, wire.MetadataResponseTopic{Name: &name, ErrorCode: wire.ErrUnknownTopicOrPartition.Code})
				continue
			}
			resp.Topics = append(resp.Topics, wire.MetadataResponseTopic{Name: &name, TopicID: wire.UUID{1, byte(len(name))},
				Partitions: []wire.MetadataResponsePartition{{PartitionIndex: 0, LeaderID: 1, ReplicaNodes: []int32{1}, IsrNodes: []int32{1}},
					{PartitionIndex: 1, LeaderID: 1, ReplicaNodes: []int32{1}, IsrNodes: []int32{1}}}})
		}
		return resp
	case *wire.FindCoordinatorRequest:
		resp := &wire.FindCoordinatorResponse{}
		for _, k := range req.CoordinatorKeys {
			resp.Coordinators = append(resp.Coordinators, wire.FindCoordinatorResponseCoordinator{Key: k, NodeID: 1, Host: host, Port: int32(p)})
		}
		return resp
	case *wire.InitProducerIdRequest:
		if req.ProducerID >= 0 {
			b.epoch++
		} else {
			b.pid++
			b.epoch = 0
		}
		return &wire.InitProducerIdResponse{ProducerID: b.pid, ProducerEpoch: b.epoch}
	case *wire.ProduceRequest:
		resp := &wire.ProduceResponse{}
		for _, t := range req.TopicData {
			rt := wire.ProduceResponseTopic{Name: t.Name, TopicID: t.TopicID}
			name := t.Name
			if name == "" {
				name = "by-id"
			}
			for _, pd := range t.PartitionData {
				br := wire.NewBatchReader(pd.Records, wire.DecodeOptions{})
				var batch wire.RecordBatch
				for br.Next(&batch) {
					n := len(batch.Records)
					if batch.IsTransactional() {
						b.txnRecs[name] += n
					}
					b.written[name] += n
				}
				rt.PartitionResponses = append(rt.PartitionResponses, wire.ProduceResponsePartition{Index: pd.Index, BaseOffset: int64(b.written[name]), LogAppendTimeMs: -1})
			}
			resp.Responses = append(resp.Responses, rt)
		}
		return resp
	case *wire.AddPartitionsToTxnRequest:
		resp := &wire.AddPartitionsToTxnResponse{}
		for _, t := range req.Topics {
			rt := wire.AddPartitionsToTxnTopicResult{Name: t.Name}
			for _, p := range t.Partitions {
				rt.ResultsByPartition = append(rt.ResultsByPartition, wire.AddPartitionsToTxnPartitionResult{PartitionIndex: p})
			}
			resp.ResultsByTopic = append(resp.ResultsByTopic, rt)
		}
		return resp
	case *wire.AddOffsetsToTxnRequest:
		return &wire.AddOffsetsToTxnResponse{}
	case *wire.EndTxnRequest:
		resp := &wire.EndTxnResponse{ProducerID: -1, ProducerEpoch: -1}
		if r.hdr.Version >= 5 {
			if req.ProducerEpoch == b.epoch {
				b.epoch++ // else a retry (the epoch before the bump): answered with the current one
			}
			resp.ProducerID, resp.ProducerEpoch = b.pid, b.epoch
		}
		return resp
	case *wire.TxnOffsetCommitRequest:
		resp := &wire.TxnOffsetCommitResponse{}
		for _, t := range req.Topics {
			rt := wire.TxnOffsetCommitTopicResult{Name: t.Name, TopicID: t.TopicID}
			for _, p := range t.Partitions {
				rt.Partitions = append(rt.Partitions, wire.TxnOffsetCommitPartitionResult{PartitionIndex: p.PartitionIndex})
			}
			resp.Topics = append(resp.Topics, rt)
		}
		return resp
	}
	b.t.Errorf("fake broker: no answer for %T", r.req)
	return nil
}

// fakeProducer returns an initialised transactional producer on b.
func fakeProducer(t testing.TB, b *fakeBroker, version int, pc producer.Config) *Producer {
	t.Helper()
	p, err := New(b.client(t), Config{TransactionalID: "tid", TransactionVersion: version, RetryBackoff: time.Millisecond, Producer: pc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close(context.Background()) })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := p.InitTransactions(ctx); err != nil {
		t.Fatalf("InitTransactions: %v", err)
	}
	return p
}
