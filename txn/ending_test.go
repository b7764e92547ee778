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

// produceAnswer answers every partition of pr with code.
func produceAnswer(pr *wire.ProduceRequest, code int16) *wire.ProduceResponse {
	resp := &wire.ProduceResponse{}
	for _, td := range pr.TopicData {
		rt := wire.ProduceResponseTopic{Name: td.Name, TopicID: td.TopicID}
		for _, pd := range td.PartitionData {
			rt.PartitionResponses = append(rt.PartitionResponses, wire.ProduceResponsePartition{Index: pd.Index, ErrorCode: code, BaseOffset: -1})
		}
		resp.Responses = append(resp.Responses, rt)
	}
	return resp
}

// produceEpochs returns the producer epochs of the batches of the Produce
// requests the fake read from event index from on.
func (b *fakeBroker) produceRecordsAfter(from int) (records int, epochs []int16) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, e := range b.events[from:] {
		if e.key == wire.KeyProduce && !e.answered {
			n++
		}
	}
	var prs []*wire.ProduceRequest
	for _, r := range b.log {
		if r.hdr.Key == wire.KeyProduce {
			prs = append(prs, r.req.(*wire.ProduceRequest))
		}
	}
	for _, pr := range prs[len(prs)-n:] {
		for _, td := range pr.TopicData {
			for _, pd := range td.PartitionData {
				br := wire.NewBatchReader(pd.Records, wire.DecodeOptions{})
				var batch wire.RecordBatch
				for br.Next(&batch) {
					records += len(batch.Records)
					epochs = append(epochs, batch.ProducerEpoch)
				}
			}
		}
	}
	return records, epochs
}

// sameEndTxn reports whether two EndTxn requests carry the same fields.
func sameEndTxn(a, b *wire.EndTxnRequest) bool {
	return a.TransactionalID == b.TransactionalID && a.ProducerID == b.ProducerID && a.ProducerEpoch == b.ProducerEpoch && a.Committed == b.Committed
}

// commitNext runs one more transaction, of one record to out/0, and checks
// that it commits with its record delivered.
func commitNext(t *testing.T, ctx context.Context, p *Producer) {
	t.Helper()
	must(t, p.Begin())
	d, err := p.Send(ctx, &producer.Record{Topic: "out", Partition: producer.ToPartition(0), Value: []byte("next")})
	must(t, err)
	must(t, p.Commit(ctx))
	if r, _ := d.Result(); r.Err != nil {
		t.Fatalf("next transaction's record: %v", r.Err)
	}
}

func cancelledCtx() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

// TestAbortWithRecordsRetrying (issue 36): every Produce is answered
// NOT_ENOUGH_REPLICAS, and Abort comes with its ctx already ended while a
// retry is in flight (the adapter's abort after its command's deadline).
// Abort returns a retriable error at once and completes in the background:
// the held records fail ErrAborted NotSent, EndTxn(abort) goes only once
// the in-flight request settled (its batch fails ErrAborted, not resent),
// Begin opens the next transaction at once, whose record waits for the
// abort and is then the only one ever written after it, under the new
// epoch; the next transaction commits.
func TestAbortWithRecordsRetrying(t *testing.T) {
	versions(t, func(t *testing.T, version int) {
		b := newFakeBroker(t, 2)
		hold := make(chan struct{}) // closed: hold the next Produce
		release := make(chan struct{})
		var held bool
		b.script = func(r fakeReq) (wire.ResponseEncoder, bool) {
			pr, ok := r.req.(*wire.ProduceRequest)
			if !ok || b.records("out") > 0 || (pr.TopicData[0].PartitionData[0].Index == 0 && b.firstEvent(wire.KeyEndTxn, false) >= 0) {
				return nil, false // the next transaction's record (partition 0, after EndTxn) is written
			}
			select {
			case <-hold:
				b.mu.Lock()
				first := !held
				held = true
				b.mu.Unlock()
				if first {
					<-release
				}
			default:
			}
			return produceAnswer(pr, wire.ErrNotEnoughReplicas.Code), false
		}
		p := fakeProducer(t, b, version, producer.Config{Linger: -1, RetryBackoff: 5 * time.Millisecond})
		ctx := testCtx(t)
		must(t, p.Begin())
		var aborted []*producer.Delivery
		for i := range 4 {
			d, err := p.Send(ctx, &producer.Record{Topic: "out", Partition: producer.ToPartition(int32(i % 2)), Value: []byte("aborted")})
			must(t, err)
			aborted = append(aborted, d)
		}
		waitUntil(t, func() bool { return b.partitionSends(1) >= 3 }) // retrying
		close(hold)
		waitUntil(t, func() bool { b.mu.Lock(); defer b.mu.Unlock(); return held })
		_, startEpoch := p.identity()

		err := p.Abort(cancelledCtx())
		if !errors.Is(err, client.ErrCancelled) || errors.Is(err, ErrAbortable) || errors.Is(err, ErrFatal) || errors.Is(err, ErrNeedsInit) {
			t.Fatalf("Abort with its ctx ended: %v, want a retriable cancellation", err)
		}
		must(t, p.Begin()) // main: "Begin inside a transaction"
		next, err := p.Send(ctx, &producer.Record{Topic: "out", Partition: producer.ToPartition(0), Value: []byte("next")})
		must(t, err)
		if n := len(b.requests(wire.KeyEndTxn)); n != 0 {
			t.Fatalf("%d EndTxn sent while a Produce of the aborted transaction is outstanding", n)
		}
		close(release)
		must(t, p.Commit(ctx))
		if r, _ := next.Result(); r.Err != nil {
			t.Fatalf("next transaction's record: %v", r.Err)
		}
		for i, d := range aborted {
			r, ok := d.Result()
			if !ok || !errors.Is(r.Err, ErrAborted) || r.Certainty != client.NotSent {
				t.Fatalf("aborted record %d: %v %v (%v), want ErrAborted, NotSent", i, ok, r.Err, r.Certainty)
			}
		}
		if end, ans := b.firstEvent(wire.KeyEndTxn, false), b.firstEvent(wire.KeyProduce, true); end < 0 || end < ans {
			t.Fatalf("EndTxn (event %d) not after the held Produce was answered", end)
		}
		recs, epochs := b.produceRecordsAfter(b.firstEvent(wire.KeyEndTxn, false))
		if recs != 1 || len(epochs) != 1 || epochs[0] <= startEpoch {
			t.Fatalf("after EndTxn(abort): %d records in epochs %v, want only the next transaction's, above epoch %d", recs, epochs, startEpoch)
		}
		if n := len(b.requests(wire.KeyEndTxn)); n != 2 || b.requests(wire.KeyEndTxn)[0].req.(*wire.EndTxnRequest).Committed {
			t.Fatalf("%d EndTxn, want the abort then the next commit", n)
		}
	})
}

// TestLostEndTxnAnswerRetried (issue 36): the connection fails after the
// coordinator applied EndTxn(commit) and before its answer. Commit re-sends
// the same EndTxn (same ID, epoch and result) instead of re-initialising,
// and the coordinator's answer to the retry (v2: the epoch it bumped to)
// makes the commit known: Commit returns nil. InitProducerId, which the
// coordinator is scripted to answer PRODUCER_FENCED as the soak saw, is
// never sent: no spurious fence.
func TestLostEndTxnAnswerRetried(t *testing.T) {
	versions(t, func(t *testing.T, version int) {
		b := newFakeBroker(t, 2)
		lost := false
		b.script = func(r fakeReq) (wire.ResponseEncoder, bool) {
			if ip, ok := r.req.(*wire.InitProducerIdRequest); ok && ip.ProducerID >= 0 {
				return &wire.InitProducerIdResponse{ErrorCode: wire.ErrProducerFenced.Code, ProducerID: -1, ProducerEpoch: -1}, false
			}
			if r.hdr.Key == wire.KeyEndTxn && !lost {
				lost = true
				return nil, true
			}
			return nil, false
		}
		p := fakeProducer(t, b, version, producer.Config{Linger: -1})
		ctx := testCtx(t)
		must(t, p.Begin())
		d, err := p.Send(ctx, &producer.Record{Topic: "out", Partition: producer.ToPartition(0), Value: []byte("x")})
		must(t, err)
		if err := p.Commit(ctx); err != nil {
			t.Fatalf("Commit with the first EndTxn answer lost: %v, want nil (the retry's answer)", err)
		}
		if r, _ := d.Result(); r.Err != nil {
			t.Fatalf("record: %v", r.Err)
		}
		ends := b.requests(wire.KeyEndTxn)
		if len(ends) != 2 {
			t.Fatalf("%d EndTxn requests, want the lost one and its retry", len(ends))
		}
		first, retry := ends[0].req.(*wire.EndTxnRequest), ends[1].req.(*wire.EndTxnRequest)
		if !sameEndTxn(first, retry) {
			t.Fatalf("retried EndTxn %+v differs from the lost one %+v", *retry, *first)
		}
		if n := len(b.requests(wire.KeyInitProducerId)); n != 1 {
			t.Fatalf("%d InitProducerId requests: a lost EndTxn answer is retried, not re-initialised", n)
		}
		// The next transaction runs under the epoch of the retry's answer.
		commitNext(t, ctx, p)
		want := first.ProducerEpoch
		if version == 2 {
			want++
		}
		if got := b.requests(wire.KeyEndTxn)[2].req.(*wire.EndTxnRequest).ProducerEpoch; got != want {
			t.Fatalf("next transaction ended under epoch %d, want %d", got, want)
		}
	})
}

// TestCommitOutcomeUnknownSettledInBackground (issue 36): every EndTxn
// answer is lost until the coordinator is reachable again, beyond Commit's
// ctx. Commit returns ErrCommitOutcomeUnknown (neither fatal nor needing
// InitTransactions) and keeps re-sending the same EndTxn in the background;
// the next transaction begins at once, its record waits, and once the
// coordinator answers the retry it is written under the bumped epoch and
// commits. No InitProducerId (the soak's PRODUCER_FENCED) is sent.
func TestCommitOutcomeUnknownSettledInBackground(t *testing.T) {
	b := newFakeBroker(t, 2)
	reachable := make(chan struct{})
	b.script = func(r fakeReq) (wire.ResponseEncoder, bool) {
		if ip, ok := r.req.(*wire.InitProducerIdRequest); ok && ip.ProducerID >= 0 {
			return &wire.InitProducerIdResponse{ErrorCode: wire.ErrProducerFenced.Code, ProducerID: -1, ProducerEpoch: -1}, false
		}
		if r.hdr.Key != wire.KeyEndTxn {
			return nil, false
		}
		select {
		case <-reachable:
			return nil, false
		default:
			return nil, true
		}
	}
	p := fakeProducer(t, b, 2, producer.Config{Linger: -1})
	ctx := testCtx(t)
	must(t, p.Begin())
	_, err := p.Send(ctx, &producer.Record{Topic: "out", Partition: producer.ToPartition(0), Value: []byte("x")})
	must(t, err)
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	err = p.Commit(short)
	if !errors.Is(err, ErrCommitOutcomeUnknown) || errors.Is(err, ErrFatal) || errors.Is(err, ErrNeedsInit) || errors.Is(err, ErrAbortable) {
		t.Fatalf("Commit with every EndTxn answer lost: %v, want ErrCommitOutcomeUnknown only", err)
	}
	lost := len(b.requests(wire.KeyEndTxn))
	must(t, p.Begin())
	d, err := p.Send(ctx, &producer.Record{Topic: "out", Partition: producer.ToPartition(0), Value: []byte("y")})
	must(t, err)
	waitUntil(t, func() bool { return len(b.requests(wire.KeyEndTxn)) > lost }) // still retrying in the background
	if n := len(b.requests(wire.KeyProduce)); n != 1 {
		t.Fatalf("%d Produce requests: the next transaction's record went before the previous EndTxn was answered", n)
	}
	close(reachable)
	must(t, p.Commit(ctx))
	if r, _ := d.Result(); r.Err != nil {
		t.Fatalf("next transaction's record: %v", r.Err)
	}
	ends := b.requests(wire.KeyEndTxn)
	first := ends[0].req.(*wire.EndTxnRequest)
	for _, e := range ends[:len(ends)-1] {
		if !sameEndTxn(e.req.(*wire.EndTxnRequest), first) {
			t.Fatalf("a retry %+v differs from the first EndTxn %+v", *e.req.(*wire.EndTxnRequest), *first)
		}
	}
	if got := ends[len(ends)-1].req.(*wire.EndTxnRequest).ProducerEpoch; got != first.ProducerEpoch+1 {
		t.Fatalf("next transaction ended under epoch %d, want the bumped %d", got, first.ProducerEpoch+1)
	}
	_, epochs := b.produceRecordsAfter(0)
	if epochs[len(epochs)-1] != first.ProducerEpoch+1 {
		t.Fatalf("next transaction's batch under epoch %d, want %d", epochs[len(epochs)-1], first.ProducerEpoch+1)
	}
	if n := len(b.requests(wire.KeyInitProducerId)); n != 1 {
		t.Fatalf("%d InitProducerId requests, want only InitTransactions'", n)
	}
}

// TestProduceInvalidTxnStateAbortable (issue 36): a Produce answered
// INVALID_TXN_STATE (a partition's transaction verification could not match
// the write to an ongoing transaction, KIP-890, as after a coordinator move)
// dooms the transaction, as in the Java client, not the producer: Commit
// returns ErrAbortable, Abort succeeds and the next transaction commits.
func TestProduceInvalidTxnStateAbortable(t *testing.T) {
	versions(t, func(t *testing.T, version int) {
		b := newFakeBroker(t, 2)
		first := true
		b.script = func(r fakeReq) (wire.ResponseEncoder, bool) {
			pr, ok := r.req.(*wire.ProduceRequest)
			if !ok || !first {
				return nil, false
			}
			first = false
			return produceAnswer(pr, wire.ErrInvalidTxnState.Code), false
		}
		p := fakeProducer(t, b, version, producer.Config{Linger: -1})
		ctx := testCtx(t)
		must(t, p.Begin())
		d, err := p.Send(ctx, &producer.Record{Topic: "out", Partition: producer.ToPartition(0), Value: []byte("x")})
		must(t, err)
		if r, _ := d.Wait(ctx); !errors.Is(r.Err, wire.ErrInvalidTxnState) {
			t.Fatalf("record: %v, want INVALID_TXN_STATE", r.Err)
		}
		if err := p.Commit(ctx); !errors.Is(err, ErrAbortable) || errors.Is(err, ErrFatal) {
			t.Fatalf("Commit after a record's INVALID_TXN_STATE: %v, want ErrAbortable, not fatal", err)
		}
		must(t, p.Abort(ctx))
		commitNext(t, ctx, p)
	})
}

// TestCommitAppliedThenTimedOutNoInvalidTxnState (issue 36, transactions
// v2): the coordinator applies EndTxn(commit) (bumping the epoch) but
// answers NOT_COORDINATOR (it lost its partition after appending), then
// CONCURRENT_TRANSACTIONS while it completes the commit, until Commit's ctx
// ends. That outcome is unknown, not a known "still open": on 99dfb6c
// Commit said the transaction was open, the caller (as the soak's copier)
// aborted, and EndTxn(abort) with the pre-bump epoch on a completed commit
// is INVALID_TXN_STATE, producer-fatal. Now Commit returns
// ErrCommitOutcomeUnknown, the background retry learns the commit, and the
// next transaction commits; no INVALID_TXN_STATE, nothing fatal.
func TestCommitAppliedThenTimedOutNoInvalidTxnState(t *testing.T) {
	b := newFakeBroker(t, 2)
	settled := make(chan struct{})
	var applied bool
	var bumped int16 = -1
	b.script = func(r fakeReq) (wire.ResponseEncoder, bool) {
		req, ok := r.req.(*wire.EndTxnRequest)
		if !ok {
			return nil, false
		}
		b.mu.Lock()
		defer b.mu.Unlock()
		switch {
		case !applied:
			applied = true
			b.epoch++
			bumped = b.epoch
			return &wire.EndTxnResponse{ErrorCode: wire.ErrNotCoordinator.Code, ProducerID: -1, ProducerEpoch: -1}, false
		case req.ProducerEpoch == bumped-1 && !req.Committed:
			// CompleteCommit and an abort carrying the epoch before the bump.
			return &wire.EndTxnResponse{ErrorCode: wire.ErrInvalidTxnState.Code, ProducerID: -1, ProducerEpoch: -1}, false
		case req.ProducerEpoch == bumped-1:
			select {
			case <-settled:
				return &wire.EndTxnResponse{ProducerID: b.pid, ProducerEpoch: b.epoch}, false // a retry of the commit
			default:
				return &wire.EndTxnResponse{ErrorCode: wire.ErrConcurrentTransactions.Code, ProducerID: -1, ProducerEpoch: -1}, false
			}
		}
		return nil, false
	}
	p := fakeProducer(t, b, 2, producer.Config{Linger: -1})
	ctx := testCtx(t)
	must(t, p.Begin())
	_, err := p.Send(ctx, &producer.Record{Topic: "out", Partition: producer.ToPartition(0), Value: []byte("x")})
	must(t, err)
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	err = p.Commit(short)
	if !errors.Is(err, ErrCommitOutcomeUnknown) {
		// The copier's recovery from a Commit that is not outcome-unknown.
		if aerr := p.Abort(ctx); errors.Is(aerr, ErrFatal) {
			t.Fatalf("Commit: %v; then Abort: %v: producer-fatal without a fence", err, aerr)
		}
		t.Fatalf("Commit with EndTxn applied and unanswered: %v, want ErrCommitOutcomeUnknown", err)
	}
	if errors.Is(err, ErrFatal) || errors.Is(err, ErrNeedsInit) {
		t.Fatalf("Commit: %v, want ErrCommitOutcomeUnknown only", err)
	}
	must(t, p.Begin())
	d, err := p.Send(ctx, &producer.Record{Topic: "out", Partition: producer.ToPartition(0), Value: []byte("y")})
	must(t, err)
	close(settled)
	must(t, p.Commit(ctx))
	if r, _ := d.Result(); r.Err != nil {
		t.Fatalf("next transaction's record: %v", r.Err)
	}
	for _, r := range b.requests(wire.KeyEndTxn) {
		if !r.req.(*wire.EndTxnRequest).Committed {
			t.Fatalf("an EndTxn(abort) was sent for a transaction whose commit took effect")
		}
	}
}

// TestNextTransactionFailureDuringAbortDrain: a record of the transaction
// begun while the previous abort still waits for an outstanding Produce
// fails meanwhile (its topic does not exist); that failure still dooms its
// own transaction (Commit: ErrAbortable), although the drain's failures of
// the aborted transaction's batches are not reported.
func TestNextTransactionFailureDuringAbortDrain(t *testing.T) {
	b := newFakeBroker(t, 2)
	release := make(chan struct{})
	first := true
	b.script = func(r fakeReq) (wire.ResponseEncoder, bool) {
		pr, ok := r.req.(*wire.ProduceRequest)
		if !ok || !first {
			return nil, false
		}
		first = false
		<-release
		return produceAnswer(pr, wire.ErrNotEnoughReplicas.Code), false
	}
	p := fakeProducer(t, b, 2, producer.Config{Linger: -1, UnknownTopicRetries: 1})
	ctx := testCtx(t)
	must(t, p.Begin())
	_, err := p.Send(ctx, &producer.Record{Topic: "out", Partition: producer.ToPartition(0), Value: []byte("aborted")})
	must(t, err)
	waitUntil(t, func() bool { return len(b.requests(wire.KeyProduce)) == 1 })
	if err := p.Abort(cancelledCtx()); !errors.Is(err, client.ErrCancelled) {
		t.Fatalf("Abort: %v, want a retriable cancellation", err)
	}
	must(t, p.Begin())
	d, err := p.Send(ctx, &producer.Record{Topic: "missing", Value: []byte("lost")})
	must(t, err)
	if r, _ := d.Wait(ctx); !errors.Is(r.Err, wire.ErrUnknownTopicOrPartition) {
		t.Fatalf("record to a missing topic: %v", r.Err)
	}
	close(release)
	if err := p.Commit(ctx); !errors.Is(err, ErrAbortable) {
		t.Fatalf("Commit after one of its records failed during the previous abort: %v, want ErrAbortable", err)
	}
	must(t, p.Abort(ctx))
}

// TestCoordinatorInvalidTxnStateAbortable (issue 36): INVALID_TXN_STATE
// from the coordinator side — EndTxn(commit), or TxnOffsetCommit (the
// group coordinator's transaction verification) — is no fence: the
// transaction becomes abortable, Abort re-initialises with the current ID
// and epoch (the coordinator's own reset, which would answer
// PRODUCER_FENCED to a real fence) instead of sending EndTxn, and the next
// transaction commits. On 99dfb6c both were producer-fatal.
func TestCoordinatorInvalidTxnStateAbortable(t *testing.T) {
	for _, key := range []wire.APIKey{wire.KeyEndTxn, wire.KeyTxnOffsetCommit} {
		t.Run(map[wire.APIKey]string{wire.KeyEndTxn: "EndTxn", wire.KeyTxnOffsetCommit: "TxnOffsetCommit"}[key], func(t *testing.T) {
			b := newFakeBroker(t, 2)
			its := wire.ErrInvalidTxnState.Code
			first := true
			b.script = func(r fakeReq) (wire.ResponseEncoder, bool) {
				if r.hdr.Key != key || !first {
					return nil, false
				}
				first = false
				if key == wire.KeyEndTxn {
					return &wire.EndTxnResponse{ErrorCode: its, ProducerID: -1, ProducerEpoch: -1}, false
				}
				return &wire.TxnOffsetCommitResponse{Topics: []wire.TxnOffsetCommitTopicResult{{Name: "in",
					Partitions: []wire.TxnOffsetCommitPartitionResult{{PartitionIndex: 0, ErrorCode: its}}}}}, false
			}
			p := fakeProducer(t, b, 2, producer.Config{Linger: -1})
			ctx := testCtx(t)
			must(t, p.Begin())
			_, err := p.Send(ctx, &producer.Record{Topic: "out", Partition: producer.ToPartition(0), Value: []byte("x")})
			must(t, err)
			err = p.SendOffsets(ctx, []Offset{{Topic: "in", Partition: 0, Offset: 5}}, groupMeta("g"))
			if err == nil {
				err = p.Commit(ctx)
			}
			if !errors.Is(err, ErrAbortable) || errors.Is(err, ErrFatal) || !errors.Is(err, wire.ErrInvalidTxnState) {
				t.Fatalf("INVALID_TXN_STATE from %d: %v, want ErrAbortable, not fatal", key, err)
			}
			ends := len(b.requests(wire.KeyEndTxn))
			must(t, p.Abort(ctx))
			if n := len(b.requests(wire.KeyEndTxn)); n != ends {
				t.Fatalf("Abort sent EndTxn after INVALID_TXN_STATE; want the re-initialisation")
			}
			if inits := b.requests(wire.KeyInitProducerId); len(inits) != 2 || inits[1].req.(*wire.InitProducerIdRequest).ProducerID < 0 {
				t.Fatalf("%d InitProducerId, want a re-initialisation with the current ID", len(inits))
			}
			commitNext(t, ctx, p)
		})
	}
}
