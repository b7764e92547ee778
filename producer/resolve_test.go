package producer

import (
	"context"
	"encoding/binary"
	"errors"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// resolveRequest answers DescribeProducers and Fetch from the fake logs
// (Producer.Resolve); ok is false for other requests.
func (f *fakeCluster) resolveRequest(broker int32, req wire.Request) (wire.Response, bool) {
	switch r := req.(type) {
	case *wire.DescribeProducersRequest:
		f.mu.Lock()
		defer f.mu.Unlock()
		resp := &wire.DescribeProducersResponse{}
		for _, t := range r.Topics {
			rt := wire.DescribeProducersTopicResponse{Name: t.Name}
			for _, pi := range t.PartitionIndexes {
				pr := wire.DescribeProducersPartitionResponse{PartitionIndex: pi}
				if logs := f.logs[t.Name]; int(pi) >= len(logs) {
					pr.ErrorCode = wire.ErrUnknownTopicOrPartition.Code
				} else if f.leaders[t.Name][pi] != broker {
					pr.ErrorCode = wire.ErrNotLeaderOrFollower.Code
				} else {
					for pid, st := range logs[pi].state {
						pr.ActiveProducers = append(pr.ActiveProducers, wire.DescribeProducersProducerState{ProducerID: pid,
							ProducerEpoch: int32(st.epoch), LastSequence: st.lastSeq, LastTimestamp: -1, CoordinatorEpoch: -1, CurrentTxnStartOffset: -1})
					}
				}
				rt.Partitions = append(rt.Partitions, pr)
			}
			resp.Topics = append(resp.Topics, rt)
		}
		return resp, true
	case *wire.FetchRequest:
		f.mu.Lock()
		defer f.mu.Unlock()
		t, fp := r.Topics[0], r.Topics[0].Partitions[0]
		l := f.logs[t.Topic][fp.Partition]
		if f.leaders[t.Topic][fp.Partition] != broker {
			pr := wire.FetchResponsePartition{PartitionIndex: fp.Partition, ErrorCode: wire.ErrNotLeaderOrFollower.Code, HighWatermark: -1, LogStartOffset: -1}
			return &wire.FetchResponse{Responses: []wire.FetchResponseTopic{{Topic: t.Topic, Partitions: []wire.FetchResponsePartition{pr}}}}, true
		}
		pr := wire.FetchResponsePartition{PartitionIndex: fp.Partition, HighWatermark: int64(len(l.records)), LogStartOffset: l.logStart}
		if fp.FetchOffset < l.logStart || fp.FetchOffset > int64(len(l.records)) {
			pr = wire.FetchResponsePartition{PartitionIndex: fp.Partition, ErrorCode: wire.ErrOffsetOutOfRange.Code, HighWatermark: -1, LogStartOffset: -1}
		} else {
			pr.Records = f.encodeLog(l, fp.FetchOffset)
		}
		return &wire.FetchResponse{Responses: []wire.FetchResponseTopic{{Topic: t.Topic, Partitions: []wire.FetchResponsePartition{pr}}}}, true
	}
	return nil, false
}

// encodeLog encodes l's batches that end after off. Called with f.mu held.
func (f *fakeCluster) encodeLog(l *fakeLog, off int64) []byte {
	enc := wire.NewBatchEncoder(nil)
	var out []byte
	for start := 0; start < len(l.records); {
		end := start + 1
		for end < len(l.records) && !l.records[end].first {
			end++
		}
		if int64(end) > off && int64(start) >= l.logStart {
			first := l.records[start]
			var recs []wire.Record
			for _, r := range l.records[start:end] {
				recs = append(recs, wire.Record{Timestamp: r.ts, Key: r.key, Value: r.value, Headers: r.headers})
			}
			n := len(out)
			var err error
			out, err = enc.AppendBatch(out, &wire.BatchHeader{Compression: wire.CompressionNone, ProducerID: first.pid, ProducerEpoch: first.epoch,
				BaseSequence: first.seq, BaseTimestamp: first.ts}, recs)
			if err != nil {
				f.t.Fatalf("encode batch: %v", err)
			}
			binary.BigEndian.PutUint64(out[n:], uint64(start)) // base offset (outside the CRC)
		}
		start = end
	}
	return out
}

// possiblySent produces 2 acknowledged records, then 3 in one batch whose
// every attempt the script faults with flt; it returns the 3 failed
// Results (PossiblySent).
func possiblySent(t *testing.T, f *fakeCluster, p *Producer, flt fault) []Result {
	t.Helper()
	f.script = func(broker int32, topic string, partition int32, b *wire.RecordBatch) fault {
		if b.ProducerEpoch == 0 && b.BaseSequence == 2 {
			return flt
		}
		return fault{}
	}
	flush := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := p.Flush(ctx); err != nil {
			t.Fatalf("Flush: %v", err)
		}
	}
	first := sendN(t, p, "t", 0, 2, 0)
	flush()
	for _, d := range first {
		if r := waitResult(t, d); r.Err != nil {
			t.Fatalf("first records: %v", r.Err)
		}
	}
	var rs []Result
	lost := sendN(t, p, "t", 0, 3, 2) // one batch: Linger holds it until Flush
	flush()
	for i, d := range lost {
		r := waitResult(t, d)
		if r.Err == nil || r.Certainty != client.PossiblySent {
			t.Fatalf("record %d: %+v, want a PossiblySent failure", i, r)
		}
		if r.Sent.Records != 3 || r.Sent.BaseSequence != 2 || r.Sent.OffsetDelta != int32(i) || r.Sent.AckedEnd != 2 || r.Sent.ProducerEpoch != 0 {
			t.Fatalf("record %d: Sent %+v, want 3 records at sequence 2, delta %d, acked end 2", i, r.Sent, i)
		}
		rs = append(rs, r)
	}
	return rs
}

func resolveCfg() Config {
	return Config{MaxRetries: new(1), RetryBackoff: -1, Linger: time.Hour}
}

func mustResolve(t *testing.T, p *Producer, r Result) Resolution {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := p.Resolve(ctx, r)
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	return res
}

func wantUnknown(t *testing.T, res Resolution, reason UnknownReason) {
	t.Helper()
	if res.Verdict != StillUnknown || res.Reason != reason || res.Offset != -1 {
		t.Fatalf("resolution %+v (%v), want still_unknown %v", res, res.Reason, reason)
	}
}

// The answer was lost after the append: the state proves it, the log gives
// each record's offset and timestamp.
func TestResolveWrittenAnswerLost(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	p := newTestProducer(t, f, resolveCfg())
	rs := possiblySent(t, f, p, fault{lose: true})
	log := f.log("t", 0)
	if len(log) != 5 {
		t.Fatalf("log has %d records, want 5", len(log))
	}
	for i, r := range rs {
		res := mustResolve(t, p, r)
		if res.Verdict != Written || res.Offset != int64(2+i) || res.Timestamp.UnixMilli() != log[2+i].ts {
			t.Fatalf("record %d: %+v, want written at %d ts %d", i, res, 2+i, log[2+i].ts)
		}
	}
}

// Never appended, epoch still current: not fenced. Once the producer wrote
// to the partition under its next epoch, the same Result resolves
// NotWritten.
func TestResolveNotWrittenOnceFenced(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	p := newTestProducer(t, f, resolveCfg())
	rs := possiblySent(t, f, p, fault{drop: true})
	wantUnknown(t, mustResolve(t, p, rs[0]), ReasonNotFenced)
	d := sendN(t, p, "t", 0, 1, 9)[0]
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if r := waitResult(t, d); r.Err != nil || r.Offset != 2 {
		t.Fatalf("next record: %+v, want offset 2", r)
	}
	if log := f.log("t", 0); log[2].epoch != 1 {
		t.Fatalf("next record has epoch %d, want 1 (KIP-360 bump)", log[2].epoch)
	}
	for i, r := range rs {
		if res := mustResolve(t, p, r); res != notWritten {
			t.Fatalf("record %d: %+v, want not_written", i, res)
		}
	}
}

// The leader lost the producer's state (producer.id.expiration.ms): the log
// still proves an appended batch; an absent one stays unknown.
func TestResolveProducerIDExpired(t *testing.T) {
	for _, c := range []struct {
		name string
		flt  fault
		want Verdict
	}{{"appended", fault{lose: true}, Written}, {"not appended", fault{drop: true}, StillUnknown}} {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeCluster(t, map[string]int{"t": 1}, 1)
			p := newTestProducer(t, f, resolveCfg())
			rs := possiblySent(t, f, p, c.flt)
			f.mu.Lock()
			clear(f.logs["t"][0].state)
			f.mu.Unlock()
			res := mustResolve(t, p, rs[1])
			if c.want == Written {
				if res.Verdict != Written || res.Offset != 3 {
					t.Fatalf("%+v, want written at 3", res)
				}
				return
			}
			wantUnknown(t, res, ReasonProducerIDExpired)
		})
	}
}

// DeleteRecords (or retention) moved the log start past the anchor.
func TestResolveRangeDeleted(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	p := newTestProducer(t, f, resolveCfg())
	rs := possiblySent(t, f, p, fault{lose: true})
	f.mu.Lock()
	f.logs["t"][0].logStart = 5
	f.mu.Unlock()
	wantUnknown(t, mustResolve(t, p, rs[0]), ReasonRangeDeleted)
}

func TestResolvePartitionRecreated(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	p := newTestProducer(t, f, resolveCfg())
	rs := possiblySent(t, f, p, fault{lose: true})
	f.mu.Lock()
	f.incarnation = map[string]byte{"t": 1}
	f.rebuildMetadata()
	f.mu.Unlock()
	wantUnknown(t, mustResolve(t, p, rs[0]), ReasonPartitionRecreated)
}

func TestResolveWithoutIO(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	p := newTestProducer(t, f, resolveCfg())
	ok := Result{Topic: "t", Offset: 7, Timestamp: time.UnixMilli(9)}
	if res := mustResolve(t, p, ok); res != (Resolution{Verdict: Written, Offset: 7, Timestamp: time.UnixMilli(9)}) {
		t.Fatalf("acknowledged: %+v", res)
	}
	if res := mustResolve(t, p, Result{Topic: "t", Err: errors.New("x"), Certainty: client.NotSent}); res != notWritten {
		t.Fatalf("not sent: %+v", res)
	}
	wantUnknown(t, mustResolve(t, p, Result{Topic: "t", Err: errors.New("x"), Certainty: client.PossiblySent}), ReasonNoBatch)
}

// Config.ResolvePossiblySent: a lost answer becomes an acknowledgement at
// the record's offset; a batch never appended keeps PossiblySent (its
// epoch is not fenced yet).
func TestResolvePossiblySentAutomatically(t *testing.T) {
	for _, c := range []struct {
		name string
		flt  fault
	}{{"answer lost", fault{lose: true}}, {"dropped", fault{drop: true}}} {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeCluster(t, map[string]int{"t": 1}, 1)
			cfg := resolveCfg()
			cfg.ResolvePossiblySent = true
			p := newTestProducer(t, f, cfg)
			f.script = func(broker int32, topic string, partition int32, b *wire.RecordBatch) fault {
				if b.ProducerEpoch == 0 && b.BaseSequence == 2 {
					return c.flt
				}
				return fault{}
			}
			ds := sendN(t, p, "t", 0, 2, 0)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := p.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			ds = append(ds, sendN(t, p, "t", 0, 3, 2)...)
			if err := p.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			log := f.log("t", 0)
			for i, d := range ds {
				r, ok := d.Result() // Flush waited for the resolution
				if !ok {
					t.Fatalf("record %d not terminal after Flush", i)
				}
				switch {
				case i < 2 || c.flt.lose:
					if r.Err != nil || r.Offset != int64(i) || r.Timestamp.UnixMilli() != log[i].ts {
						t.Fatalf("record %d: %+v, want acknowledged at %d ts %d", i, r, i, log[i].ts)
					}
				default:
					if r.Err == nil || r.Certainty != client.PossiblySent || r.Sent.Records != 3 {
						t.Fatalf("record %d: %+v, want PossiblySent with its batch", i, r)
					}
				}
			}
		})
	}
}

// The topic is gone; the state proves an append the log no longer holds;
// a ctx that ended stops Resolve with an error.
func TestResolveGoneNotFoundAndBounded(t *testing.T) {
	setup := func(t *testing.T) (*fakeCluster, *Producer, []Result) {
		f := newFakeCluster(t, map[string]int{"t": 1}, 1)
		p := newTestProducer(t, f, resolveCfg())
		return f, p, possiblySent(t, f, p, fault{lose: true})
	}
	t.Run("partition gone", func(t *testing.T) {
		f, p, rs := setup(t)
		f.mu.Lock()
		delete(f.leaders, "t")
		delete(f.logs, "t")
		f.rebuildMetadata()
		f.mu.Unlock()
		wantUnknown(t, mustResolve(t, p, rs[0]), ReasonPartitionGone)
	})
	t.Run("not found", func(t *testing.T) {
		f, p, rs := setup(t)
		f.mu.Lock()
		l := f.logs["t"][0]
		l.records = l.records[:2] // truncated below the appended batch, state kept
		f.mu.Unlock()
		wantUnknown(t, mustResolve(t, p, rs[0]), ReasonNotFound)
	})
	t.Run("ctx ended", func(t *testing.T) {
		_, p, rs := setup(t)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if res, err := p.Resolve(ctx, rs[0]); !errors.Is(err, ErrResolve) || !errors.Is(err, client.ErrCancelled) {
			t.Fatalf("Resolve with an ended ctx: %+v, %v; want ErrResolve and client.ErrCancelled", res, err)
		}
	})
}

// Sequences wrap after math.MaxInt32 (DefaultRecordBatch.incrementSequence).
func TestResolveSequenceWrap(t *testing.T) {
	s := SentBatch{BaseSequence: 1<<31 - 2, Records: 4}
	if last := s.lastSequence(); last != 1 {
		t.Fatalf("last sequence %d, want 1", last)
	}
	for _, c := range []struct {
		broker int32
		want   bool
	}{{-1, false}, {0, false}, {1, true}, {5, true}, {1<<31 - 3, false}, {1<<31 - 1, false}} {
		if got := seqAtOrAfter(c.broker, s.lastSequence()); got != c.want {
			t.Errorf("broker last %d: %v, want %v", c.broker, got, c.want)
		}
	}
	if !seqAtOrAfter(9, 9) || seqAtOrAfter(8, 9) || seqAtOrAfter(0, 9) {
		t.Error("unwrapped range misjudged")
	}
}

// A stale leader: Resolve fails with ErrResolve and invalidates metadata,
// and the next Resolve asks the new leader.
func TestResolveStaleLeader(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	p := newTestProducer(t, f, resolveCfg())
	rs := possiblySent(t, f, p, fault{lose: true})
	f.mu.Lock()
	f.frozen = true // metadata still names broker 1
	f.leaders["t"][0] = 2
	f.mu.Unlock()
	invalid := func() int { f.mu.Lock(); defer f.mu.Unlock(); return f.invalid }
	before := invalid()
	if _, err := p.Resolve(context.Background(), rs[0]); !errors.Is(err, ErrResolve) || !errors.Is(err, wire.ErrNotLeaderOrFollower) || invalid() == before {
		t.Fatalf("Resolve at the old leader: %v (invalidations %d -> %d), want ErrResolve, NOT_LEADER_OR_FOLLOWER and an invalidation", err, before, invalid())
	}
	f.mu.Lock()
	f.frozen = false
	f.mu.Unlock()
	if res := mustResolve(t, p, rs[0]); res.Verdict != Written || res.Offset != 2 {
		t.Fatalf("%+v, want written at 2", res)
	}
}
