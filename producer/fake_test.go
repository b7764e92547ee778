package producer

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// fakeCluster is a scripted in-process broker set standing in for
// *client.Client. Every ProduceRequest is encoded with AppendTo and decoded
// with DecodeFrom (as a broker would read it), its record batches decoded
// with wire.BatchReader, applied to per-partition logs with Kafka's
// idempotence rules (ProducerStateManager), and the response goes back
// through AppendTo/DecodeFrom too. A script can inject faults per batch.
type fakeCluster struct {
	t       *testing.T
	version int16

	mu      sync.Mutex
	md      *client.Metadata
	leaders map[string][]int32 // topic -> leader per partition
	logs    map[string][]*fakeLog
	nextPID int64
	// incarnation changes a topic's ID in metadata (a recreated topic).
	incarnation map[string]byte
	script      func(broker int32, topic string, partition int32, b *wire.RecordBatch) fault
	hold        chan struct{} // when non-nil, responses wait for it to close
	dead        bool          // requests never complete until their context ends
	requests    int
	invalid     int
	onInval     func()
	seen        []seenBatch
	// raw, when set, gets every partition's record batch bytes as the
	// broker receives them (before the script and the log).
	raw func(topic string, partition int32, records []byte)
	// hintLeader: NOT_LEADER_OR_FOLLOWER responses name the leader (KIP-951).
	hintLeader bool
	// logAppendTime, when non-zero, is the LogAppendTimeMs of every
	// successful append (a topic with message.timestamp.type=LogAppendTime).
	logAppendTime int64
	// frozen: metadata requests return the old snapshot.
	frozen bool
	// initEpoch is the epoch InitProducerId hands out.
	initEpoch int16
	inits     int
	initErr   int16            // error code InitProducerId answers
	topicErr  map[string]error // per-topic metadata errors
	lookups   int              // Metadata calls (fresh lookups)
}

type seenBatch struct {
	broker    int32
	topic     string
	partition int32
	pid       int64
	epoch     int16
	seq       int32
	n         int
	req       int // the ProduceRequest it came in (1 for the first)
}

// fault is what the script does to one batch.
type fault struct {
	code        int16 // error code to answer (the batch is not appended unless appendFirst)
	appendFirst bool  // append, then answer code (e.g. REQUEST_TIMED_OUT after append)
	lose        bool  // fail the whole request as a client timeout (PossiblySent), after applying the batch
	drop        bool  // like lose, but the batch is not applied
	forget      bool  // drop the producer's state for the partition before applying
	skew        bool  // the broker's last sequence for the producer diverges (as after a truncation)
}

type fakeLog struct {
	records  []fakeRecord
	state    map[int64]*fakeProducerState
	logStart int64 // offsets below are deleted (Fetch answers OFFSET_OUT_OF_RANGE)
}

type fakeRecord struct {
	key, value []byte
	headers    []wire.Header
	pid        int64
	epoch      int16
	seq        int32
	ts         int64
	first      bool // first record of its batch
}

type fakeProducerState struct {
	epoch   int16
	lastSeq int32
	recent  []fakeBatchMeta // last 5 batches, for duplicate detection
}

type fakeBatchMeta struct {
	first, last int32
	offset      int64
}

func newFakeCluster(t *testing.T, topics map[string]int, leader int32) *fakeCluster {
	f := &fakeCluster{t: t, version: 11, leaders: map[string][]int32{}, logs: map[string][]*fakeLog{}, nextPID: 1000}
	for name, n := range topics {
		ls := make([]int32, n)
		logs := make([]*fakeLog, n)
		for i := range ls {
			ls[i] = leader
			logs[i] = &fakeLog{state: map[int64]*fakeProducerState{}}
		}
		f.leaders[name] = ls
		f.logs[name] = logs
	}
	f.rebuildMetadata()
	return f
}

func (f *fakeCluster) rebuildMetadata() {
	md := &client.Metadata{Topics: map[string]*client.TopicMetadata{}, Fetched: time.Now()}
	for name, ls := range f.leaders {
		tm := &client.TopicMetadata{Name: name}
		tm.ID[0] = byte(len(name))
		tm.ID[1] = f.incarnation[name] // bumped to model a deleted and recreated topic
		for i, l := range ls {
			tm.Partitions = append(tm.Partitions, client.PartitionMetadata{Partition: int32(i), Leader: l})
		}
		md.Topics[name] = tm
	}
	for name, err := range f.topicErr {
		md.Topics[name] = &client.TopicMetadata{Name: name, Err: err}
	}
	f.md = md
}

func (f *fakeCluster) log(topic string, partition int32) []fakeRecord {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fakeRecord(nil), f.logs[topic][partition].records...)
}

func (f *fakeCluster) Request(ctx context.Context, broker int32, req wire.Request) (wire.Response, error) {
	if resp, ok := f.resolveRequest(broker, req); ok { // resolve_test.go
		return resp, nil
	}
	ir, ok := req.(*wire.InitProducerIdRequest)
	if !ok {
		return nil, fmt.Errorf("fake: unexpected %T", req)
	}
	if ir.TransactionalID != nil || ir.ProducerID != -1 {
		f.t.Errorf("InitProducerId %+v, want idempotent (null transactional ID, pid -1)", ir)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.inits++
	if f.initErr != 0 {
		return &wire.InitProducerIdResponse{ErrorCode: f.initErr, ProducerID: -1, ProducerEpoch: -1}, nil
	}
	f.nextPID++
	return &wire.InitProducerIdResponse{ProducerID: f.nextPID, ProducerEpoch: f.initEpoch}, nil
}

type fakePending struct {
	done chan struct{}
	resp wire.Response
	err  error
}

func (p *fakePending) Wait() (wire.Response, error) { <-p.done; return p.resp, p.err }
func (p *fakePending) Release()                     {}

func (f *fakeCluster) StartCall(ctx context.Context, broker int32, req wire.Request) (client.Call, error) {
	pr, ok := req.(*wire.ProduceRequest)
	if !ok {
		return nil, fmt.Errorf("fake: unexpected %T", req)
	}
	// Through the bytes, as a broker would see them.
	var dec wire.ProduceRequest
	if err := dec.DecodeFrom(wire.NewReader(pr.AppendTo(nil, f.version)), f.version); err != nil {
		f.t.Errorf("decode ProduceRequest: %v", err)
		return nil, err
	}
	if dec.Acks != -1 {
		f.t.Errorf("acks %d, want -1", dec.Acks)
	}
	p := &fakePending{done: make(chan struct{})}
	f.mu.Lock()
	f.requests++
	dead, hold := f.dead, f.hold
	resp := &wire.ProduceResponse{}
	lose := false
	for _, td := range dec.TopicData {
		rt := wire.ProduceResponseTopic{Name: td.Name}
		for _, pd := range td.PartitionData {
			res, l := f.apply(broker, td.Name, pd.Index, pd.Records)
			lose = lose || l
			rt.PartitionResponses = append(rt.PartitionResponses, res)
		}
		resp.Responses = append(resp.Responses, rt)
	}
	f.mu.Unlock()
	// The response is decoded as the client's reader does it: into
	// pr.ResponseFor() (the producer's reused response, SetResponseInto).
	respBytes := resp.AppendTo(nil, f.version)
	decode := func() *wire.ProduceResponse {
		out := pr.ResponseFor().(*wire.ProduceResponse)
		if err := out.DecodeFrom(wire.NewReader(respBytes), f.version); err != nil {
			f.t.Errorf("decode ProduceResponse: %v", err)
		}
		return out
	}
	go func() {
		switch {
		case dead, lose:
			if dead {
				<-ctx.Done()
			}
			p.err = &client.RequestError{Broker: broker, API: "Produce", Certainty: client.PossiblySent, Err: client.ErrTimeout}
			close(p.done)
			// The abandoned request's response arrives late and is
			// decoded all the same (the client discards it after).
			decode()
			return
		default:
			if hold != nil {
				select {
				case <-hold:
				case <-ctx.Done():
				}
			}
			p.resp = decode()
		}
		close(p.done)
	}()
	return p, nil
}

// apply runs one partition's batch through the script and the idempotence
// rules. Called with f.mu held.
func (f *fakeCluster) apply(broker int32, topic string, partition int32, records []byte) (wire.ProduceResponsePartition, bool) {
	res := wire.ProduceResponsePartition{Index: partition, BaseOffset: -1, LogAppendTimeMs: -1, CurrentLeader: wire.LeaderIDAndEpoch{LeaderID: -1, LeaderEpoch: -1}}
	logs := f.logs[topic]
	if int(partition) >= len(logs) {
		res.ErrorCode = wire.ErrUnknownTopicOrPartition.Code
		return res, false
	}
	if f.raw != nil {
		f.raw(topic, partition, records)
	}
	br := wire.NewBatchReader(records, wire.DecodeOptions{})
	var b wire.RecordBatch
	if !br.Next(&b) {
		f.t.Errorf("no batch decoded: %v", br.Err())
		res.ErrorCode = wire.ErrCorruptMessage.Code
		return res, false
	}
	if br.Next(&wire.RecordBatch{}) {
		f.t.Errorf("more than one batch for %s/%d", topic, partition)
	}
	f.seen = append(f.seen, seenBatch{broker, topic, partition, b.ProducerID, b.ProducerEpoch, b.BaseSequence, len(b.Records), f.requests})
	var flt fault
	if f.script != nil {
		flt = f.script(broker, topic, partition, &b)
	}
	l := logs[partition]
	if flt.forget {
		delete(l.state, b.ProducerID)
	}
	if st := l.state[b.ProducerID]; flt.skew && st != nil {
		st.lastSeq += 100
	}
	if flt.drop {
		return res, true
	}
	if f.leaders[topic][partition] != broker {
		res.ErrorCode = wire.ErrNotLeaderOrFollower.Code
		if f.hintLeader {
			res.CurrentLeader = wire.LeaderIDAndEpoch{LeaderID: f.leaders[topic][partition], LeaderEpoch: 1}
		}
		return res, flt.lose
	}
	if flt.code != 0 && !flt.appendFirst {
		res.ErrorCode = flt.code
		return res, flt.lose
	}
	code, off := l.appendBatch(&b)
	res.ErrorCode, res.BaseOffset = code, off
	if code == 0 && f.logAppendTime != 0 {
		res.LogAppendTimeMs = f.logAppendTime
	}
	if flt.appendFirst {
		res.ErrorCode, res.BaseOffset = flt.code, -1
	}
	return res, flt.lose
}

// appendBatch applies Kafka's idempotent producer checks and appends.
func (l *fakeLog) appendBatch(b *wire.RecordBatch) (int16, int64) {
	first := b.BaseSequence
	last := first + int32(len(b.Records)) - 1
	st := l.state[b.ProducerID]
	switch {
	case st == nil:
		// No state: any sequence is accepted (ProducerAppendInfo.checkSequence).
		st = &fakeProducerState{epoch: b.ProducerEpoch, lastSeq: first - 1}
		l.state[b.ProducerID] = st
	case b.ProducerEpoch < st.epoch:
		return wire.ErrInvalidProducerEpoch.Code, -1
	case b.ProducerEpoch > st.epoch:
		if first != 0 {
			return wire.ErrOutOfOrderSequenceNumber.Code, -1
		}
		st.epoch, st.lastSeq, st.recent = b.ProducerEpoch, -1, nil
	default:
		for _, m := range st.recent {
			if m.first == first && m.last == last {
				return 0, m.offset // duplicate of a recent batch: its original offset
			}
		}
		if first != st.lastSeq+1 {
			return wire.ErrOutOfOrderSequenceNumber.Code, -1
		}
	}
	off := int64(len(l.records))
	for i, r := range b.Records {
		l.records = append(l.records, fakeRecord{key: clone(r.Key), value: clone(r.Value), headers: r.Headers, pid: b.ProducerID, epoch: b.ProducerEpoch, seq: first + int32(r.Offset-b.BaseOffset), ts: r.Timestamp, first: i == 0})
	}
	st.lastSeq = last
	st.recent = append(st.recent, fakeBatchMeta{first, last, off})
	if len(st.recent) > 5 {
		st.recent = st.recent[1:]
	}
	return 0, off
}

func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}

func (f *fakeCluster) Metadata(ctx context.Context, topics []string) (*client.Metadata, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lookups++
	if !f.frozen {
		f.rebuildMetadata()
	}
	return f.md, nil
}

func (f *fakeCluster) CachedMetadata() *client.Metadata {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.md
}

func (f *fakeCluster) InvalidateMetadata() {
	f.mu.Lock()
	f.invalid++
	fn := f.onInval
	f.mu.Unlock()
	if fn != nil {
		fn()
	}
}

func (f *fakeCluster) RegisterProducerMetrics(src func(*client.ProducerMetrics)) func() {
	return func() {}
}

// helpers

func newTestProducer(t *testing.T, f *fakeCluster, cfg Config) *Producer {
	t.Helper()
	p, err := newProducer(f, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		p.Close(ctx)
	})
	return p
}

func mustSend(t *testing.T, p *Producer, m *Record) *Delivery {
	t.Helper()
	d, err := p.TrySend(m)
	if err != nil {
		t.Fatalf("TrySend: %v", err)
	}
	return d
}

func waitResult(t *testing.T, d *Delivery) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := d.Wait(ctx)
	if (err != nil) != (r.Err != nil) || (err != nil && !errors.Is(err, r.Err)) {
		t.Fatalf("Wait: error %v, Result.Err %v: want the same failure", err, r.Err)
	}
	if err != nil && r.Err == nil {
		t.Fatalf("no terminal within 10s: %v", err)
	}
	return r
}

// waitFor polls cond until it holds or 10s pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond) // polling interval, not synchronization
	}
}
