package consumercheck

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/testlab/internal/labtest"
	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestReadBackEachCompression: franz-go writes records with null, empty
// and non-empty keys, values and header values under each of the five
// compression selections; gregor reads them back field for field.
func TestReadBackEachCompression(t *testing.T) {
	b := newBed(t)
	codecs := map[string]kgo.CompressionCodec{
		"none": kgo.NoCompression(), "gzip": kgo.GzipCompression(), "snappy": kgo.SnappyCompression(),
		"lz4": kgo.Lz4Compression(), "zstd": kgo.ZstdCompression(),
	}
	for name, codec := range codecs {
		t.Run(name, func(t *testing.T) {
			b := &bed{b.For(t)}
			topic := b.topic(1, nil)
			p := b.producer(kgo.ProducerBatchCompression(codec), kgo.ProducerLinger(50*time.Millisecond))
			const n = 300
			recs := make([]*kgo.Record, n)
			for i := range recs {
				r := &kgo.Record{Topic: topic, Partition: 0}
				switch i % 3 {
				case 0: // null key
				case 1:
					r.Key = []byte{}
				default:
					r.Key = fmt.Appendf(nil, "key-%d", i)
				}
				switch i % 4 {
				case 0: // null value
				case 1:
					r.Value = []byte{}
				default:
					r.Value = fmt.Appendf(nil, "value-%d-%s", i, name)
				}
				if i%5 != 0 {
					r.Headers = []kgo.RecordHeader{{Key: "null", Value: nil}, {Key: "empty", Value: []byte{}}, {Key: "dup", Value: []byte("a")}, {Key: "dup", Value: []byte("b")}}
				}
				recs[i] = r
			}
			// Async produce so that records share (compressed) batches.
			done := make(chan error, n)
			for _, r := range recs {
				p.Produce(labtest.Ctx(t, 30*time.Second), r, func(_ *kgo.Record, err error) { done <- err })
			}
			for range n {
				if err := <-done; err != nil {
					t.Fatalf("produce: %v", err)
				}
			}
			c := b.consumer(consumer.Config{})
			if err := c.Assign(labtest.Ctx(t, 30*time.Second), []consumer.PartitionPosition{{TopicPartition: gregor.TopicPartition{Topic: topic, Partition: 0}, Position: consumer.AtBeginning()}}); err != nil {
				t.Fatal(err)
			}
			got := receiveN(t, c, n)
			for i := range got {
				sameRecord(t, got[i], recs[i])
			}
		})
	}
}

// TestManyPartitions reads 48 partitions at once, each exactly once and in
// order.
func TestManyPartitions(t *testing.T) {
	b := newBed(t)
	const parts, per = 48, 25
	topic := b.topic(parts, nil)
	p := b.producer()
	var recs []*kgo.Record
	for part := range int32(parts) {
		for i := range per {
			recs = append(recs, &kgo.Record{Topic: topic, Partition: part, Value: fmt.Appendf(nil, "%d-%d", part, i)})
		}
	}
	start := time.Now()
	b.produce(p, recs...)
	t.Logf("produced in %v", time.Since(start))
	start = time.Now()
	c := b.consumer(consumer.Config{})
	var ps []consumer.PartitionPosition
	for part := range int32(parts) {
		ps = append(ps, consumer.PartitionPosition{TopicPartition: gregor.TopicPartition{Topic: topic, Partition: part}, Position: consumer.AtBeginning()})
	}
	if err := c.Assign(labtest.Ctx(t, 30*time.Second), ps); err != nil {
		t.Fatal(err)
	}
	t.Logf("assigned in %v", time.Since(start))
	start = time.Now()
	got := receiveN(t, c, parts*per)
	t.Logf("received in %v", time.Since(start))
	for part := range int32(parts) {
		wantOffsets(t, got, topic, part, span(0, per))
	}
	for _, r := range got {
		if want := fmt.Sprintf("%d-%d", r.Partition, r.Offset); string(r.Value) != want {
			t.Fatalf("%s[%d]@%d value %q, want %q", r.Topic, r.Partition, r.Offset, r.Value, want)
		}
	}
	expectNothing(t, c, 300*time.Millisecond)
	// KIP-227 against the real broker: after the first full Fetch the
	// session is incremental (a partition is re-sent only when its
	// position changed).
	m := c.Metrics()
	if m.FetchFailures != 0 || m.FullFetches >= m.FetchRequests {
		t.Fatalf("metrics %+v: want incremental fetches and no failures", m)
	}
	t.Logf("48 partitions: %d Fetch requests, %d full", m.FetchRequests, m.FullFetches)
}

// TestAssignmentControls proves replace, add, remove, seek, pause and
// resume by exactly which offsets arrive after each.
func TestAssignmentControls(t *testing.T) {
	b := newBed(t)
	topic := b.topic(3, nil)
	tp := func(p int32) gregor.TopicPartition { return gregor.TopicPartition{Topic: topic, Partition: p} }
	p := b.producer()
	for part := range int32(3) {
		b.seq(p, topic, part, "a", 10)
	}
	c := b.consumer(consumer.Config{MaxWait: 100 * time.Millisecond})
	ctx := labtest.Ctx(t, 60*time.Second)

	// assign p0 from the beginning: 0..9 of p0 only.
	if err := c.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp(0), Position: consumer.AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 10), topic, 0, span(0, 10))

	// add p1 at 5: p1's 5..9, and p0 (survivor) continues with new records.
	if err := c.Add(ctx, []consumer.PartitionPosition{{TopicPartition: tp(1), Position: consumer.AtOffset(5)}}); err != nil {
		t.Fatal(err)
	}
	b.seq(p, topic, 0, "b", 3)
	got := receiveN(t, c, 8)
	wantOffsets(t, got, topic, 1, span(5, 10))
	wantOffsets(t, got, topic, 0, span(10, 13))

	// remove p0: new p0 records never arrive; p1's do.
	if err := c.Remove(ctx, []gregor.TopicPartition{tp(0)}); err != nil {
		t.Fatal(err)
	}
	b.seq(p, topic, 0, "c", 4)
	b.seq(p, topic, 1, "c", 2)
	got = receiveN(t, c, 2)
	wantOffsets(t, got, topic, 1, span(10, 12))
	wantOffsets(t, got, topic, 0, nil)

	// seek p1 back to 3: 3..11 again.
	if err := c.Seek(ctx, tp(1), consumer.AtOffset(3)); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 9), topic, 1, span(3, 12))

	// pause p1: records written meanwhile wait; resume delivers exactly them.
	if err := c.Pause(tp(1)); err != nil {
		t.Fatal(err)
	}
	b.seq(p, topic, 1, "d", 3)
	expectNothing(t, c, 500*time.Millisecond)
	if err := c.Resume(tp(1)); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 3), topic, 1, span(12, 15))

	// seek to end, then beginning.
	if err := c.Seek(ctx, tp(1), consumer.AtEnd()); err != nil {
		t.Fatal(err)
	}
	b.seq(p, topic, 1, "e", 1)
	wantOffsets(t, receiveN(t, c, 1), topic, 1, []int64{15})
	if err := c.Seek(ctx, tp(1), consumer.AtBeginning()); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 16), topic, 1, span(0, 16))

	// replace with p2 at its end: only p2's new records.
	if err := c.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp(2), Position: consumer.AtEnd()}}); err != nil {
		t.Fatal(err)
	}
	b.seq(p, topic, 1, "f", 2)
	b.seq(p, topic, 2, "f", 2)
	got = receiveN(t, c, 2)
	wantOffsets(t, got, topic, 2, span(10, 12))
	expectNothing(t, c, 300*time.Millisecond)
	if pos := c.Assignment(); len(pos) != 1 || pos[0].Position != consumer.AtOffset(12) {
		t.Fatalf("assignment %+v, want p2 at 12", pos)
	}
}

// TestReadCommitted: an independent transactional producer writes
// committed, aborted and (finally) open transactions interleaved with plain
// records. read_committed delivers committed and plain records before the
// last stable offset, never a control record; read_uncommitted delivers
// every data record.
func TestReadCommitted(t *testing.T) {
	b := newBed(t)
	topic := b.topic(1, nil)
	tp := gregor.TopicPartition{Topic: topic, Partition: 0}
	plain := b.producer()
	txn := b.producer(kgo.TransactionalID(topic+"-txn"), kgo.TransactionTimeout(60*time.Second))
	ctx := labtest.Ctx(t, 60*time.Second)

	var committed, all []string
	write := func(p *kgo.Client, prefix string, n int) []string {
		var vs []string
		var recs []*kgo.Record
		for i := range n {
			v := fmt.Sprintf("%s-%d", prefix, i)
			vs = append(vs, v)
			recs = append(recs, &kgo.Record{Topic: topic, Partition: 0, Value: []byte(v)})
		}
		b.produce(p, recs...)
		return vs
	}
	inTxn := func(prefix string, n int, end kgo.TransactionEndTry) []string {
		if err := txn.BeginTransaction(); err != nil {
			t.Fatal(err)
		}
		vs := write(txn, prefix, n)
		if err := txn.EndTransaction(ctx, end); err != nil {
			t.Fatal(err)
		}
		return vs
	}
	vs := write(plain, "plainA", 3)
	committed, all = append(committed, vs...), append(all, vs...)
	vs = inTxn("txn1-commit", 3, kgo.TryCommit)
	committed, all = append(committed, vs...), append(all, vs...)
	vs = write(plain, "plainB", 2)
	committed, all = append(committed, vs...), append(all, vs...)
	vs = inTxn("txn2-abort", 4, kgo.TryAbort)
	all = append(all, vs...)
	vs = inTxn("txn3-commit", 2, kgo.TryCommit)
	committed, all = append(committed, vs...), append(all, vs...)
	vs = inTxn("txn4-abort", 1, kgo.TryAbort)
	all = append(all, vs...)
	vs = write(plain, "plainC", 2)
	committed, all = append(committed, vs...), append(all, vs...)
	// An open transaction holds the last stable offset: plainD after it is
	// not visible to read_committed until txn5 ends.
	if err := txn.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	open := write(txn, "txn5-open", 2)
	all = append(all, open...)
	plainD := write(plain, "plainD", 2)
	all = append(all, plainD...)

	// End under read_committed is the last stable offset: the first offset
	// of the open transaction, not the high watermark.
	rcEnd := b.consumer(consumer.Config{Isolation: consumer.ReadCommitted, MaxWait: 100 * time.Millisecond})
	if err := rcEnd.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtEnd()}}); err != nil {
		t.Fatal(err)
	}
	// Offsets: 3 plainA, 3+1 txn1, 2 plainB, 4+1 txn2, 2+1 txn3, 1+1 txn4, 2 plainC.
	if pos := rcEnd.Assignment()[0].Position; pos != consumer.AtOffset(21) {
		t.Fatalf("read_committed End = %v, want offset 21 (LSO)", pos)
	}

	values := func(rs []consumer.Record) []string {
		var out []string
		for _, r := range rs {
			out = append(out, string(r.Value))
		}
		return out
	}
	eq := func(what string, got, want []string) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s:\n got  %v\n want %v", what, got, want)
		}
	}

	rc := b.consumer(consumer.Config{Isolation: consumer.ReadCommitted, MaxWait: 100 * time.Millisecond})
	if err := rc.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	eq("read_committed", values(receiveN(t, rc, len(committed))), committed)
	expectNothing(t, rc, time.Second)

	ru := b.consumer(consumer.Config{MaxWait: 100 * time.Millisecond})
	if err := ru.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	eq("read_uncommitted", values(receiveN(t, ru, len(all))), all)
	expectNothing(t, ru, 300*time.Millisecond)

	// Commit txn5: read_committed now sees it and plainD, nothing else.
	if err := txn.EndTransaction(ctx, kgo.TryCommit); err != nil {
		t.Fatal(err)
	}
	eq("read_committed after commit", values(receiveN(t, rc, len(open)+len(plainD))), append(open, plainD...))
	expectNothing(t, rc, 300*time.Millisecond)
	eq("read_committed from the LSO", values(receiveN(t, rcEnd, len(open)+len(plainD))), append(open, plainD...))
}

// TestDeleteRecordsPastPosition: DeleteRecords moves the log start past the
// position. ResetNone reports a typed error naming the partition and the
// log's range; ResetEarliest continues from the new log start.
func TestDeleteRecordsPastPosition(t *testing.T) {
	b := newBed(t)
	topic := b.topic(1, nil)
	tp := gregor.TopicPartition{Topic: topic, Partition: 0}
	p := b.producer()
	b.seq(p, topic, 0, "r", 20)
	ctx := labtest.Ctx(t, 60*time.Second)

	none := b.consumer(consumer.Config{OffsetReset: consumer.ResetNone})
	earliest := b.consumer(consumer.Config{OffsetReset: consumer.ResetEarliest})
	for _, c := range []*consumer.Consumer{none, earliest} {
		if err := c.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtOffset(3)}}); err != nil {
			t.Fatal(err)
		}
		wantOffsets(t, receiveN(t, c, 17), topic, 0, span(3, 20))
		if err := c.Pause(tp); err != nil {
			t.Fatal(err)
		}
		if err := c.Seek(ctx, tp, consumer.AtOffset(5)); err != nil {
			t.Fatal(err)
		}
	}
	os := kadm.Offsets{}
	os.Add(kadm.Offset{Topic: topic, Partition: 0, At: 12})
	resps, err := b.Adm.DeleteRecords(ctx, os)
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := resps.Lookup(topic, 0); !ok || r.Err != nil || r.LowWatermark != 12 {
		t.Fatalf("delete records: %+v", r)
	}
	for _, c := range []*consumer.Consumer{none, earliest} {
		if err := c.Resume(tp); err != nil {
			t.Fatal(err)
		}
	}

	_, err = none.Receive(labtest.Ctx(t, 30*time.Second))
	var oor *consumer.OffsetOutOfRangeError
	if !errors.As(err, &oor) || !errors.Is(err, wire.ErrOffsetOutOfRange) {
		t.Fatalf("ResetNone Receive = %v, want *OffsetOutOfRangeError", err)
	}
	if oor.TopicPartition != tp || oor.Offset != 5 || oor.LogStartOffset != 12 || oor.LogEndOffset != 20 {
		t.Fatalf("error %+v, want %s offset 5, log [12, 20)", oor, tp)
	}
	t.Logf("ResetNone: %v", err)
	expectNothing(t, none, 300*time.Millisecond)

	wantOffsets(t, receiveN(t, earliest, 8), topic, 0, span(12, 20))
}
