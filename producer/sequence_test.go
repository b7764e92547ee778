package producer

import (
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// sendN sends n records to topic/partition with values "v<i>".
func sendN(t *testing.T, p *Producer, topic string, partition int32, n, from int) []*Delivery {
	t.Helper()
	ds := make([]*Delivery, n)
	for i := range ds {
		ds[i] = mustSend(t, p, &Record{Topic: topic, Partition: ToPartition(partition), Key: []byte(fmt.Sprintf("k%d", from+i)), Value: []byte(fmt.Sprintf("v%d", from+i)),
			Headers: []wire.Header{{Key: "h", Value: []byte{byte(i)}}, {Key: "null", Value: nil}}})
	}
	return ds
}

// checkLog asserts the partition log holds exactly values v<0..n-1> in order
// and that every delivery reports its record's offset.
func checkLog(t *testing.T, f *fakeCluster, topic string, partition int32, ds []*Delivery) {
	t.Helper()
	for _, d := range ds {
		waitResult(t, d)
	}
	log := f.log(topic, partition)
	if len(log) != len(ds) {
		t.Fatalf("log has %d records, want %d (duplicates or losses)", len(log), len(ds))
	}
	for i, d := range ds {
		r := waitResult(t, d)
		if r.Err != nil {
			t.Fatalf("record %d failed: %v (%v)", i, r.Err, r.Certainty)
		}
		if r.Offset != int64(i) || r.Partition != partition || r.Topic != topic {
			t.Fatalf("record %d acknowledged at %s/%d@%d, want offset %d", i, r.Topic, r.Partition, r.Offset, i)
		}
		if got := string(log[i].value); got != fmt.Sprintf("v%d", i) {
			t.Fatalf("log[%d] = %q, want v%d (order broken)", i, got, i)
		}
		if len(log[i].headers) != 2 || log[i].headers[1].Value != nil || log[i].headers[0].Value == nil {
			t.Fatalf("log[%d] headers %+v", i, log[i].headers)
		}
	}
}

func TestProduceInOrderWithSequences(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	p := newTestProducer(t, f, Config{BatchMaxRecords: 7, MaxRetries: new(3)})
	ds := sendN(t, p, "t", 0, 50, 0)
	checkLog(t, f, "t", 0, ds)
	log := f.log("t", 0)
	for i, r := range log {
		if r.seq != int32(i) || r.epoch != 0 {
			t.Fatalf("record %d has seq %d epoch %d", i, r.seq, r.epoch)
		}
	}
}

func TestRequestTimedOutThenRetryNoDuplicateNoGap(t *testing.T) {
	for _, mode := range []string{"broker REQUEST_TIMED_OUT after append", "lost response (client timeout)"} {
		t.Run(mode, func(t *testing.T) {
			f := newFakeCluster(t, map[string]int{"t": 1}, 1)
			failed := 0
			f.script = func(broker int32, topic string, partition int32, b *wire.RecordBatch) fault {
				if b.BaseSequence == 5 && failed < 2 { // the second batch, twice
					failed++
					if mode == "lost response (client timeout)" {
						return fault{lose: true}
					}
					return fault{code: wire.ErrRequestTimedOut.Code, appendFirst: true}
				}
				return fault{}
			}
			p := newTestProducer(t, f, Config{BatchMaxRecords: 5, MaxRetries: new(5), RetryBackoff: -1, Linger: -1})
			ds := sendN(t, p, "t", 0, 5, 0)
			waitResult(t, ds[4])
			ds = append(ds, sendN(t, p, "t", 0, 10, 5)...)
			checkLog(t, f, "t", 0, ds)
			if failed != 2 {
				t.Fatalf("script failed %d attempts, want 2", failed)
			}
		})
	}
}

func TestOutOfOrderSequenceBumpsEpoch(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	forgot := false
	f.script = func(broker int32, topic string, partition int32, b *wire.RecordBatch) fault {
		if b.BaseSequence == 3 && !forgot { // the broker's sequence state diverged
			forgot = true
			return fault{skew: true}
		}
		return fault{}
	}
	p := newTestProducer(t, f, Config{BatchMaxRecords: 3, MaxRetries: new(3), RetryBackoff: -1, Linger: -1})
	ds := sendN(t, p, "t", 0, 3, 0)
	waitResult(t, ds[2])
	ds = append(ds, sendN(t, p, "t", 0, 6, 3)...)
	checkLog(t, f, "t", 0, ds)
	log := f.log("t", 0)
	if log[3].epoch != 1 || log[3].seq != 0 || log[0].epoch != 0 {
		t.Fatalf("after OUT_OF_ORDER_SEQUENCE_NUMBER: record 3 epoch %d seq %d, want epoch 1 seq 0", log[3].epoch, log[3].seq)
	}
}

// unknownProducerIDOnce makes f answer UNKNOWN_PRODUCER_ID once, to the
// first batch at base sequence seq under epoch 0; it returns the number of
// answers so given.
func unknownProducerIDOnce(f *fakeCluster, seq int32) *int {
	n := 0
	f.script = func(broker int32, topic string, partition int32, b *wire.RecordBatch) fault {
		if b.BaseSequence == seq && b.ProducerEpoch == 0 && n == 0 {
			n++
			return fault{code: wire.ErrUnknownProducerID.Code}
		}
		return fault{}
	}
	return &n
}

func TestUnknownProducerIDResetsSequence(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	unknownProducerIDOnce(f, 4)
	p := newTestProducer(t, f, Config{BatchMaxRecords: 4, MaxRetries: new(3), RetryBackoff: -1, Linger: -1})
	ds := sendN(t, p, "t", 0, 4, 0)
	waitResult(t, ds[3])
	ds = append(ds, sendN(t, p, "t", 0, 4, 4)...)
	checkLog(t, f, "t", 0, ds)
	if log := f.log("t", 0); log[4].epoch != 1 || log[4].seq != 0 {
		t.Fatalf("record 4: epoch %d seq %d, want 1/0", log[4].epoch, log[4].seq)
	}
}

func TestNotLeaderMovesToNewLeader(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 2}, 1)
	moved := false
	f.script = func(broker int32, topic string, partition int32, b *wire.RecordBatch) fault {
		if !moved && partition == 0 && b.BaseSequence >= 6 {
			moved = true
			f.leaders["t"][0] = 2 // broker 1 stops leading; metadata will say broker 2
			f.rebuildMetadata()
		}
		return fault{}
	}
	p := newTestProducer(t, f, Config{BatchMaxRecords: 3, MaxRetries: new(5), RetryBackoff: time.Millisecond})
	ds := sendN(t, p, "t", 0, 30, 0)
	checkLog(t, f, "t", 0, ds)
	if !moved {
		t.Fatal("leader never moved")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	on2 := 0
	for _, s := range f.seen {
		if s.broker == 2 {
			on2++
		}
	}
	if on2 == 0 || f.invalid == 0 {
		t.Fatalf("batches on broker 2: %d, metadata invalidations %d", on2, f.invalid)
	}
}

func TestPipelinedFailureResendsInOrder(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	hits := 0
	f.script = func(broker int32, topic string, partition int32, b *wire.RecordBatch) fault {
		if b.BaseSequence == 2 && hits == 0 { // second of several in-flight batches
			hits++
			return fault{code: wire.ErrNotEnoughReplicas.Code}
		}
		return fault{}
	}
	p := newTestProducer(t, f, Config{BatchMaxRecords: 2, MaxRetries: new(5), RetryBackoff: -1, Linger: -1})
	ds := sendN(t, p, "t", 0, 2, 0)
	waitResult(t, ds[1]) // the first batch is acknowledged alone
	f.mu.Lock()
	f.hold = make(chan struct{})
	f.mu.Unlock()
	ds = append(ds, sendN(t, p, "t", 0, 10, 2)...)
	waitFor(t, "5 requests in flight", func() bool { f.mu.Lock(); defer f.mu.Unlock(); return f.requests >= 6 })
	f.mu.Lock()
	close(f.hold)
	f.hold = nil
	f.mu.Unlock()
	checkLog(t, f, "t", 0, ds)
}

func TestZeroRetriesReportsTrueCertainty(t *testing.T) {
	for _, tc := range []struct {
		code int16
		app  bool
		want client.Certainty
	}{
		{wire.ErrNotLeaderOrFollower.Code, false, client.NotSent},
		{wire.ErrRequestTimedOut.Code, true, client.PossiblySent},
		{wire.ErrMessageTooLarge.Code, false, client.NotSent},
	} {
		t.Run(wire.ErrorForCode(tc.code).(*wire.KafkaError).Name, func(t *testing.T) {
			f := newFakeCluster(t, map[string]int{"t": 1}, 1)
			f.script = func(broker int32, topic string, partition int32, b *wire.RecordBatch) fault {
				if string(b.Records[0].Value) == "v0" && b.ProducerEpoch == 0 {
					return fault{code: tc.code, appendFirst: tc.app}
				}
				return fault{}
			}
			p := newTestProducer(t, f, Config{MaxRetries: new(0), Linger: -1})
			d := mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("v0")})
			r := waitResult(t, d)
			if !errors.Is(r.Err, wire.ErrorForCode(tc.code)) || r.Certainty != tc.want {
				t.Fatalf("result %v / %v, want code %d / %v", r.Err, r.Certainty, tc.code, tc.want)
			}
			// The partition keeps working: the sequence restarts under a new epoch.
			d2 := mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("v1")})
			if r2 := waitResult(t, d2); r2.Err != nil {
				t.Fatalf("next record failed: %v", r2.Err)
			}
			log := f.log("t", 0)
			wantLen := 1
			if tc.app {
				wantLen = 2
			}
			if len(log) != wantLen || string(log[len(log)-1].value) != "v1" {
				t.Fatalf("log %+v", log)
			}
		})
	}
}

func TestFirstBatchIsNotPipelined(t *testing.T) {
	// A broker without state for the producer accepts any sequence, so the
	// second batch must wait for the first one's acknowledgement: here the
	// first fails once with NOT_LEADER_OR_FOLLOWER and still lands first.
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	failed := false
	f.script = func(broker int32, topic string, partition int32, b *wire.RecordBatch) fault {
		if b.BaseSequence == 0 && !failed {
			failed = true
			return fault{code: wire.ErrNotLeaderOrFollower.Code}
		}
		return fault{}
	}
	p := newTestProducer(t, f, Config{BatchMaxRecords: 2, MaxRetries: new(3), RetryBackoff: -1, Linger: -1})
	ds := sendN(t, p, "t", 0, 10, 0)
	checkLog(t, f, "t", 0, ds)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.seen[0].seq != 0 || f.seen[1].seq != 0 {
		t.Fatalf("second request before the first batch was acknowledged: %+v", f.seen[:2])
	}
}

func TestNullAndEmptyKeptApart(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	p := newTestProducer(t, f, Config{Linger: -1})
	cases := []struct{ key, value, hv []byte }{
		{[]byte{}, nil, []byte{}}, // empty first: the batch's arena is still empty
		{nil, []byte{}, nil},
		{[]byte("k"), []byte("v"), []byte("h")},
	}
	var ds []*Delivery
	for _, c := range cases {
		ds = append(ds, mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Key: c.key, Value: c.value, Headers: []wire.Header{{Key: "", Value: c.hv}}}))
	}
	for _, d := range ds {
		waitResult(t, d)
	}
	log := f.log("t", 0)
	for i, c := range cases {
		r := log[i]
		if (r.key == nil) != (c.key == nil) || (r.value == nil) != (c.value == nil) || (r.headers[0].Value == nil) != (c.hv == nil) ||
			string(r.key) != string(c.key) || string(r.value) != string(c.value) {
			t.Fatalf("record %d: key %v value %v header %v, want %v %v %v", i, r.key, r.value, r.headers[0].Value, c.key, c.value, c.hv)
		}
	}
}

func TestNotLeaderFollowsLeaderHint(t *testing.T) {
	// Metadata stays stale (it still names broker 1), but the broker's
	// NOT_LEADER_OR_FOLLOWER names broker 2 (KIP-951): the retry goes there.
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	f.hintLeader, f.frozen = true, true
	p := newTestProducer(t, f, Config{MaxRetries: new(3), RetryBackoff: -1, Linger: -1})
	ds := sendN(t, p, "t", 0, 2, 0)
	waitResult(t, ds[1])
	f.mu.Lock()
	f.leaders["t"][0] = 2 // f.md is not rebuilt
	f.mu.Unlock()
	ds = append(ds, sendN(t, p, "t", 0, 5, 2)...)
	checkLog(t, f, "t", 0, ds)
	f.mu.Lock()
	defer f.mu.Unlock()
	if last := f.seen[len(f.seen)-1]; last.broker != 2 {
		t.Fatalf("last batch went to broker %d, want the hinted 2", last.broker)
	}
}

func TestEpochExhaustionGetsNewProducerID(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	f.initEpoch = math.MaxInt16
	f.script = func(broker int32, topic string, partition int32, b *wire.RecordBatch) fault {
		if string(b.Records[0].Value) == "bad" {
			return fault{code: wire.ErrInvalidRecord.Code}
		}
		return fault{}
	}
	p := newTestProducer(t, f, Config{MaxRetries: new(1), Linger: -1})
	d0 := mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("ok")})
	waitResult(t, d0)
	bad := mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("bad")})
	if r := waitResult(t, bad); !errors.Is(r.Err, wire.ErrInvalidRecord) || r.Certainty != client.NotSent {
		t.Fatalf("bad record: %+v", r)
	}
	d1 := mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("after")})
	if r := waitResult(t, d1); r.Err != nil {
		t.Fatal(r.Err)
	}
	log := f.log("t", 0)
	if len(log) != 2 || log[1].pid == log[0].pid || log[1].seq != 0 {
		t.Fatalf("after epoch exhaustion: %+v", log)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.inits != 2 {
		t.Fatalf("InitProducerId called %d times, want 2", f.inits)
	}
}
