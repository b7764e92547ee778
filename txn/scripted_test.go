package txn

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// countdown answers code to the first n requests with key, then takes the
// default answer.
func countdown(key wire.APIKey, n int, resp func() wire.ResponseEncoder) func(r fakeReq) (wire.ResponseEncoder, bool) {
	left := n
	return func(r fakeReq) (wire.ResponseEncoder, bool) {
		if r.hdr.Key != key || left == 0 {
			return nil, false
		}
		left--
		return resp(), false
	}
}

// TestConcurrentTransactionsRetried: CONCURRENT_TRANSACTIONS from
// InitProducerId, AddPartitionsToTxn (v1), AddOffsetsToTxn (v1),
// TxnOffsetCommit and EndTxn is retried until the coordinator accepts, and
// the transaction commits.
func TestConcurrentTransactionsRetried(t *testing.T) {
	for _, version := range []int{1, 2} {
		t.Run(map[int]string{1: "v1", 2: "v2"}[version], func(t *testing.T) {
			b := newFakeBroker(t, 2)
			const n = 3
			cc := wire.ErrConcurrentTransactions.Code
			scripts := []func(fakeReq) (wire.ResponseEncoder, bool){
				countdown(wire.KeyInitProducerId, n, func() wire.ResponseEncoder {
					return &wire.InitProducerIdResponse{ErrorCode: cc, ProducerID: -1, ProducerEpoch: -1}
				}),
				countdown(wire.KeyEndTxn, n, func() wire.ResponseEncoder {
					return &wire.EndTxnResponse{ErrorCode: cc, ProducerID: -1, ProducerEpoch: -1}
				}),
				countdown(wire.KeyAddOffsetsToTxn, n, func() wire.ResponseEncoder { return &wire.AddOffsetsToTxnResponse{ErrorCode: cc} }),
				countdown(wire.KeyTxnOffsetCommit, n, func() wire.ResponseEncoder {
					return &wire.TxnOffsetCommitResponse{Topics: []wire.TxnOffsetCommitTopicResult{{Name: "in",
						Partitions: []wire.TxnOffsetCommitPartitionResult{{PartitionIndex: 0, ErrorCode: cc}}}}}
				}),
				countdown(wire.KeyAddPartitionsToTxn, n, func() wire.ResponseEncoder {
					return &wire.AddPartitionsToTxnResponse{ResultsByTopic: []wire.AddPartitionsToTxnTopicResult{{Name: "out",
						ResultsByPartition: []wire.AddPartitionsToTxnPartitionResult{{PartitionIndex: 0, PartitionErrorCode: cc}}}}}
				}),
			}
			b.script = func(r fakeReq) (wire.ResponseEncoder, bool) {
				for _, s := range scripts {
					if resp, _ := s(r); resp != nil {
						return resp, false
					}
				}
				return nil, false
			}
			p := fakeProducer(t, b, version, producer.Config{Linger: -1})
			ctx := testCtx(t)
			must(t, p.Begin())
			d, err := p.Send(ctx, &producer.Record{Topic: "out", Partition: producer.ToPartition(0), Value: []byte("x")})
			must(t, err)
			must(t, p.SendOffsets(ctx, []Offset{{Topic: "in", Partition: 0, Offset: 5}}, groupMeta("g")))
			must(t, p.Commit(ctx))
			if r, _ := d.Result(); r.Err != nil {
				t.Fatalf("record: %v", r.Err)
			}
			want := map[wire.APIKey]int{wire.KeyInitProducerId: n + 1, wire.KeyEndTxn: n + 1, wire.KeyTxnOffsetCommit: n + 1,
				wire.KeyAddOffsetsToTxn: 0, wire.KeyAddPartitionsToTxn: 0}
			if version == 1 {
				want[wire.KeyAddOffsetsToTxn], want[wire.KeyAddPartitionsToTxn] = n+1, n+1
			}
			for k, w := range want {
				if got := len(b.requests(k)); got != w {
					t.Errorf("API %d: %d requests, want %d", k, got, w)
				}
			}
			// v1 caps the versions that would make the broker add
			// partitions and groups itself; v2 relies on them.
			checkVersions(t, b, version)
		})
	}
}

// checkVersions checks the versions of the requests the producer sent.
func checkVersions(t *testing.T, b *fakeBroker, version int) {
	t.Helper()
	for _, r := range b.requests(wire.KeyProduce) {
		if (version == 1) != (r.hdr.Version <= 11) {
			t.Errorf("transactions v%d sent Produce v%d", version, r.hdr.Version)
		}
		if tid := r.req.(*wire.ProduceRequest).TransactionalID; tid == nil || *tid != "tid" {
			t.Errorf("Produce without the transactional ID")
		}
	}
	for _, r := range b.requests(wire.KeyEndTxn) {
		if (version == 1) != (r.hdr.Version <= 4) {
			t.Errorf("transactions v%d sent EndTxn v%d", version, r.hdr.Version)
		}
	}
	for _, r := range b.requests(wire.KeyTxnOffsetCommit) {
		if want := map[int]int16{1: 4, 2: 5}[version]; r.hdr.Version != want {
			t.Errorf("transactions v%d sent TxnOffsetCommit v%d, want v%d", version, r.hdr.Version, want)
		}
	}
	for _, r := range b.requests(wire.KeyAddPartitionsToTxn) {
		if r.hdr.Version > 3 {
			t.Errorf("AddPartitionsToTxn v%d: clients send v3 or lower", r.hdr.Version)
		}
	}
}

// TestRecordsBufferedAtAbort: records still buffered (lingering) when the
// transaction aborts fail ErrAborted with certainty NotSent and are never
// written; the next transaction carries only its own records.
func TestRecordsBufferedAtAbort(t *testing.T) {
	for _, version := range []int{1, 2} {
		t.Run(map[int]string{1: "v1", 2: "v2"}[version], func(t *testing.T) {
			b := newFakeBroker(t, 2)
			p := fakeProducer(t, b, version, producer.Config{Linger: time.Hour})
			ctx := testCtx(t)
			must(t, p.Begin())
			var buffered []*producer.Delivery
			for i := range 6 {
				d, err := p.Send(ctx, &producer.Record{Topic: "out", Partition: producer.ToPartition(int32(i % 2)), Value: []byte("buffered")})
				must(t, err)
				buffered = append(buffered, d)
			}
			must(t, p.Abort(ctx))
			for _, d := range buffered {
				r, ok := d.Result()
				if !ok || !errors.Is(r.Err, ErrAborted) || r.Certainty != client.NotSent {
					t.Fatalf("record buffered at abort: %v %v (%v), want ErrAborted, NotSent", ok, r.Err, r.Certainty)
				}
			}
			if n := len(b.requests(wire.KeyProduce)); n != 0 {
				t.Fatalf("%d Produce requests for records buffered at abort", n)
			}
			commitNext(t, ctx, p)
			if got := b.records("out"); got != 1 {
				t.Fatalf("%d records written, want 1: records buffered at abort leaked into the next transaction", got)
			}
			checkVersions(t, b, version)
		})
	}
}

// TestBatchInFlightAtAbort: a batch in flight when Abort starts, which the
// broker then returns for a retry (NOT_LEADER_OR_FOLLOWER), fails
// ErrAborted (NotSent: the broker rejected it) and is not resent: Abort
// waits for it before EndTxn, so it cannot be written after the abort.
func TestBatchInFlightAtAbort(t *testing.T) {
	for _, version := range []int{1, 2} {
		t.Run(map[int]string{1: "v1", 2: "v2"}[version], func(t *testing.T) {
			b := newFakeBroker(t, 2)
			release := make(chan struct{})
			held := false
			b.script = func(r fakeReq) (wire.ResponseEncoder, bool) {
				pr, ok := r.req.(*wire.ProduceRequest)
				if !ok || held {
					return nil, false
				}
				held = true
				<-release // answered once Abort is under way
				td := pr.TopicData[0]
				return &wire.ProduceResponse{Responses: []wire.ProduceResponseTopic{{Name: td.Name, TopicID: td.TopicID,
					PartitionResponses: []wire.ProduceResponsePartition{{Index: 0, ErrorCode: wire.ErrNotLeaderOrFollower.Code, BaseOffset: -1}}}}}, false
			}
			p := fakeProducer(t, b, version, producer.Config{Linger: -1})
			ctx := testCtx(t)
			must(t, p.Begin())
			d, err := p.Send(ctx, &producer.Record{Topic: "out", Partition: producer.ToPartition(0), Value: []byte("in flight")})
			must(t, err)
			waitUntil(t, func() bool { return len(b.requests(wire.KeyProduce)) == 1 })
			aborted := make(chan error, 1)
			go func() { aborted <- p.Abort(ctx) }()
			waitUntil(t, func() bool { p.mu.Lock(); defer p.mu.Unlock(); return p.end != nil })
			close(release)
			must(t, <-aborted)
			if end, ans := b.firstEvent(wire.KeyEndTxn, false), b.firstEvent(wire.KeyProduce, true); end < ans {
				t.Fatalf("EndTxn sent (event %d) before the in-flight batch was answered (event %d)", end, ans)
			}
			r, _ := d.Result()
			if !errors.Is(r.Err, ErrAborted) || r.Certainty != client.NotSent {
				t.Fatalf("batch returned for a retry at abort: %v (%v), want ErrAborted, NotSent", r.Err, r.Certainty)
			}
			if n := len(b.requests(wire.KeyProduce)); n != 1 {
				t.Fatalf("%d Produce requests, want 1: the batch was resent after the abort", n)
			}
			if n := len(b.requests(wire.KeyEndTxn)); n != 1 {
				t.Fatalf("%d EndTxn requests, want 1 (abort)", n)
			}
		})
	}
}

// records returns the records appended to topic.
func (b *fakeBroker) records(topic string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.written[topic] + b.written["by-id"]
}

// partitionSends counts the Produce requests carrying a batch for partition.
func (b *fakeBroker) partitionSends(partition int32) int {
	n := 0
	for _, r := range b.requests(wire.KeyProduce) {
		for _, t := range r.req.(*wire.ProduceRequest).TopicData {
			for _, pd := range t.PartitionData {
				if pd.Index == partition {
					n++
				}
			}
		}
	}
	return n
}

func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in 10s")
		}
		time.Sleep(time.Millisecond) // polling interval of a condition wait
	}
}

// TestCommitTimesOutRetrying: when ctx ends while EndTxn is answered
// CONCURRENT_TRANSACTIONS, the outcome is known (not committed): Commit
// returns a retriable timeout, not ErrCommitOutcomeUnknown, without
// re-initialising, and the transaction stays open for Commit or Abort.
func TestCommitTimesOutRetrying(t *testing.T) {
	b := newFakeBroker(t, 2)
	busy := true
	b.script = func(r fakeReq) (wire.ResponseEncoder, bool) {
		b.mu.Lock()
		still := busy
		b.mu.Unlock()
		if r.hdr.Key == wire.KeyEndTxn && still {
			return &wire.EndTxnResponse{ErrorCode: wire.ErrConcurrentTransactions.Code, ProducerID: -1, ProducerEpoch: -1}, false
		}
		return nil, false
	}
	p := fakeProducer(t, b, 2, producer.Config{Linger: -1})
	ctx := testCtx(t)
	must(t, p.Begin())
	_, err := p.Send(ctx, &producer.Record{Topic: "out", Partition: producer.ToPartition(0), Value: []byte("x")})
	must(t, err)
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	err = p.Commit(short)
	if !errors.Is(err, client.ErrTimeout) || errors.Is(err, ErrCommitOutcomeUnknown) || errors.Is(err, ErrAbortable) || errors.Is(err, ErrFatal) {
		t.Fatalf("Commit timing out on CONCURRENT_TRANSACTIONS: %v, want a retriable timeout", err)
	}
	if n := len(b.requests(wire.KeyInitProducerId)); n != 1 {
		t.Fatalf("%d InitProducerId requests: a known outcome needs no re-initialisation", n)
	}
	b.mu.Lock()
	busy = false
	b.mu.Unlock()
	must(t, p.Abort(ctx))
}

// TestInvalidProducerEpochAbortable: a record failing INVALID_PRODUCER_EPOCH
// (the coordinator timed the transaction out and bumped the epoch, KIP-588)
// makes the transaction abortable, not the producer fatal: Commit says
// ErrAbortable without sending EndTxn, Abort re-initialises with the current
// ID and epoch instead of EndTxn, and the next transaction commits.
func TestInvalidProducerEpochAbortable(t *testing.T) {
	for _, version := range []int{1, 2} {
		t.Run(map[int]string{1: "v1", 2: "v2"}[version], func(t *testing.T) {
			b := newFakeBroker(t, 2)
			first := true
			b.script = func(r fakeReq) (wire.ResponseEncoder, bool) {
				pr, ok := r.req.(*wire.ProduceRequest)
				if !ok || !first {
					return nil, false
				}
				first = false
				td := pr.TopicData[0]
				return &wire.ProduceResponse{Responses: []wire.ProduceResponseTopic{{Name: td.Name, TopicID: td.TopicID,
					PartitionResponses: []wire.ProduceResponsePartition{{Index: 0, ErrorCode: wire.ErrInvalidProducerEpoch.Code, BaseOffset: -1}}}}}, false
			}
			p := fakeProducer(t, b, version, producer.Config{Linger: -1})
			ctx := testCtx(t)
			must(t, p.Begin())
			d, err := p.Send(ctx, &producer.Record{Topic: "out", Partition: producer.ToPartition(0), Value: []byte("x")})
			must(t, err)
			r, err := d.Wait(ctx)
			if !errors.Is(err, wire.ErrInvalidProducerEpoch) || !errors.Is(r.Err, wire.ErrInvalidProducerEpoch) {
				t.Fatalf("record: %v", r.Err)
			}
			if err := p.Commit(ctx); !errors.Is(err, ErrAbortable) || errors.Is(err, ErrFatal) {
				t.Fatalf("Commit: %v, want ErrAbortable", err)
			}
			must(t, p.Abort(ctx))
			if n := len(b.requests(wire.KeyEndTxn)); n != 0 {
				t.Fatalf("%d EndTxn requests: the stale epoch cannot end the transaction", n)
			}
			inits := b.requests(wire.KeyInitProducerId)
			if len(inits) != 2 || inits[1].req.(*wire.InitProducerIdRequest).ProducerID < 0 {
				t.Fatalf("want a re-initialisation with the current ID after the abort, got %d InitProducerId", len(inits))
			}
			must(t, p.Begin())
			d, err = p.Send(ctx, &producer.Record{Topic: "out", Partition: producer.ToPartition(0), Value: []byte("y")})
			must(t, err)
			must(t, p.Commit(ctx))
			if r, _ := d.Result(); r.Err != nil {
				t.Fatalf("next transaction: %v", r.Err)
			}
		})
	}
}
