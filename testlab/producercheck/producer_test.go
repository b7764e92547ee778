package producercheck

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/testlab/internal/labtest"
	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestRoundTrip: for each compression, keyed and unkeyed, one and many
// partitions, every record gregor acknowledges is read back exactly once by
// franz-go at the acknowledged partition and offset, with identical key,
// value and headers (null and empty kept apart).
func TestRoundTrip(t *testing.T) {
	b := newBed(t)
	codecs := []wire.Compression{wire.CompressionNone, wire.CompressionGzip, wire.CompressionSnappy, wire.CompressionLZ4, wire.CompressionZstd}
	for _, codec := range codecs {
		for _, keyed := range []bool{false, true} {
			for _, parts := range []int32{1, 6} {
				name := fmt.Sprintf("%s/keyed=%v/partitions=%d", codec, keyed, parts)
				t.Run(name, func(t *testing.T) {
					b := &bed{b.For(t)}
					topic := b.topic(parts)
					p, _ := b.producer(producer.Config{Compression: codec, Linger: 10 * time.Millisecond, BatchMaxRecords: 64, MaxRetries: new(5)})
					const n = 300
					msgs := make([]*producer.Record, n)
					ds := make([]*producer.Delivery, n)
					for i := range msgs {
						m := &producer.Record{Topic: topic, Value: fmt.Appendf(nil, "value-%d-%s", i, codec)}
						if keyed {
							m.Key = fmt.Appendf(nil, "key-%d", i%17)
						}
						switch i % 4 {
						case 1:
							m.Value = nil
						case 2:
							m.Value = []byte{}
						}
						if i%3 != 0 {
							m.Headers = []wire.Header{{Key: "seq", Value: fmt.Appendf(nil, "%d", i)}, {Key: "null", Value: nil}, {Key: "empty", Value: []byte{}}, {Key: "dup", Value: []byte("a")}, {Key: "dup", Value: []byte("b")}}
						}
						msgs[i] = m
						d, err := p.Send(labtest.Ctx(t, 30*time.Second), m)
						if err != nil {
							t.Fatalf("Send %d: %v", i, err)
						}
						ds[i] = d
					}
					if err := p.Flush(labtest.Ctx(t, 60*time.Second)); err != nil {
						t.Fatalf("Flush: %v", err)
					}
					acked := map[string]int{}
					for i, d := range ds {
						r, ok := d.Result()
						if !ok {
							t.Fatalf("record %d not terminal after Flush", i)
						}
						if r.Err != nil {
							t.Fatalf("record %d: %v (%v)", i, r.Err, r.Certainty)
						}
						if keyed && parts > 1 && r.Partition != producer.KeyPartition(msgs[i].Key, parts) {
							t.Fatalf("record %d key %s on partition %d, Java's partitioner says %d", i, msgs[i].Key, r.Partition, producer.KeyPartition(msgs[i].Key, parts))
						}
						acked[fmt.Sprintf("%d@%d", r.Partition, r.Offset)] = i
					}
					if len(acked) != n {
						t.Fatalf("%d distinct acknowledged positions for %d records", len(acked), n)
					}
					got := b.readAll(topic, n)
					if len(got) != n {
						t.Fatalf("franz-go read %d records, want %d", len(got), n)
					}
					seen := map[string]bool{}
					for _, r := range got {
						k := key(r)
						if seen[k] {
							t.Fatalf("position %s read twice", k)
						}
						seen[k] = true
						i, ok := acked[k]
						if !ok {
							t.Fatalf("record at %s was never acknowledged", k)
						}
						m := msgs[i]
						if !sameBytes(r.Key, m.Key) || !sameBytes(r.Value, m.Value) {
							t.Fatalf("record %d at %s: key %q value %q, want %q %q", i, k, r.Key, r.Value, m.Key, m.Value)
						}
						if len(r.Headers) != len(m.Headers) {
							t.Fatalf("record %d: %d headers, want %d", i, len(r.Headers), len(m.Headers))
						}
						for j, h := range r.Headers {
							if h.Key != m.Headers[j].Key || !sameBytes(h.Value, m.Headers[j].Value) {
								t.Fatalf("record %d header %d: %q=%q, want %q=%q", i, j, h.Key, h.Value, m.Headers[j].Key, m.Headers[j].Value)
							}
						}
					}
					// Per partition, offsets follow admission order.
					last := map[int32]int{}
					for _, r := range got {
						i := acked[key(r)]
						if prev, ok := last[r.Partition]; ok && i < prev {
							t.Fatalf("partition %d: record %d after %d", r.Partition, i, prev)
						}
						last[r.Partition] = i
					}
				})
			}
		}
	}
}

// sameBytes compares with null distinct from empty. franz-go reports a null
// value as nil and an empty one as a non-nil empty slice.
func sameBytes(a, b []byte) bool {
	return (a == nil) == (b == nil) && bytes.Equal(a, b)
}

// TestCancelBeforeSend: a record cancelled while its batch lingers is never
// seen by the independent consumer; its siblings arrive in order.
func TestCancelBeforeSend(t *testing.T) {
	b := newBed(t)
	topic := b.topic(1)
	p, _ := b.producer(producer.Config{Linger: 2 * time.Second, MaxRetries: new(3)})
	var ds []*producer.Delivery
	for i := 0; i < 6; i++ {
		d, err := p.TrySend(&producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: fmt.Appendf(nil, "v%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	if o := ds[3].Cancel(); o != producer.CancelledNotSent {
		t.Fatalf("Cancel: %v", o)
	}
	if o := ds[3].Cancel(); o != producer.AlreadyTerminal {
		t.Fatalf("second Cancel: %v", o)
	}
	r, _ := ds[3].Result()
	if !errors.Is(r.Err, producer.ErrRecordCancelled) || r.Certainty != client.NotSent {
		t.Fatalf("cancelled terminal %+v", r)
	}
	if err := p.Flush(labtest.Ctx(t, 30*time.Second)); err != nil {
		t.Fatal(err)
	}
	got := b.readAll(topic, 5)
	want := []string{"v0", "v1", "v2", "v4", "v5"}
	if len(got) != len(want) {
		t.Fatalf("read %d records, want %d", len(got), len(want))
	}
	for i, r := range got {
		if string(r.Value) != want[i] || r.Offset != int64(i) {
			t.Fatalf("record %d = %s@%d, want %s@%d", i, r.Value, r.Offset, want[i], i)
		}
	}
}

// TestCancelAfterSend: once the batch is on the wire Cancel says TooLate
// (twice, consistently) and the record is seen at most once.
func TestCancelAfterSend(t *testing.T) {
	b := newBed(t)
	topic := b.topic(1)
	p, cl := b.producer(producer.Config{Linger: -1, MaxRetries: new(3)})
	tooLate := 0
	var acked []*producer.Delivery
	for attempt := 0; attempt < 50 && tooLate == 0; attempt++ {
		before := cl.Metrics().Producer.Requests
		d, err := p.TrySend(&producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: fmt.Appendf(nil, "v%d", attempt)})
		if err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for cl.Metrics().Producer.Requests == before && time.Now().Before(deadline) {
			// Waiting on a counter condition with a deadline.
		}
		switch o := d.Cancel(); o {
		case producer.TooLate:
			tooLate++
			if o2 := d.Cancel(); o2 != producer.TooLate && o2 != producer.AlreadyTerminal {
				t.Fatalf("second Cancel after TooLate: %v", o2)
			}
		case producer.AlreadyTerminal:
		default:
			t.Fatalf("Cancel after the request went out: %v", o)
		}
		acked = append(acked, d)
	}
	if tooLate == 0 {
		t.Fatal("never observed TooLate")
	}
	if err := p.Flush(labtest.Ctx(t, 30*time.Second)); err != nil {
		t.Fatal(err)
	}
	for i, d := range acked {
		r, _ := d.Result()
		if r.Err != nil || errors.Is(r.Err, producer.ErrRecordCancelled) {
			t.Fatalf("record %d: %v", i, r.Err)
		}
		if o := d.Cancel(); o != producer.AlreadyTerminal {
			t.Fatalf("Cancel after terminal: %v", o)
		}
	}
	got := b.readAll(topic, len(acked))
	if len(got) != len(acked) {
		t.Fatalf("read %d records, want %d (each exactly once)", len(got), len(acked))
	}
}

// TestBackpressureAndMetrics: TrySend refuses with a backpressure error at
// the in-flight record limit and the client's snapshot carries the
// producer's counters.
func TestBackpressureAndMetrics(t *testing.T) {
	b := newBed(t)
	topic := b.topic(1)
	p, cl := b.producer(producer.Config{Linger: time.Hour, InFlightRecords: 10, BatchMaxRecords: 10})
	for i := 0; i < 10; i++ {
		if _, err := p.TrySend(&producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: []byte("x")}); err != nil {
			t.Fatal(err)
		}
	}
	_, err := p.TrySend(&producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: []byte("x")})
	if !errors.Is(err, client.ErrBackpressure) {
		t.Fatalf("11th TrySend: %v", err)
	}
	if err := p.Flush(labtest.Ctx(t, 30*time.Second)); err != nil {
		t.Fatal(err)
	}
	m := cl.Metrics().Producer
	if m.Records != 10 || m.BufferedRecords != 0 || !m.Accepting || !m.Healthy || m.Requests == 0 {
		t.Fatalf("metrics %+v", m)
	}
	_ = kgo.Record{}
}

// TestStreamedLZ4CancelRoundTrip: lz4 batches compress their records 64 KiB
// at a time while they fill (wire.StreamEncoder). Against the broker: a
// 600 KiB batch with one record cancelled after its chunk was compressed
// and one cancelled before, read back by franz-go: every other record
// exactly once, in order, at the offsets the deliveries report (the broker
// checked the CRC and the records' offset deltas).
func TestStreamedLZ4CancelRoundTrip(t *testing.T) {
	b := newBed(t)
	topic := b.topic(1)
	p, _ := b.producer(producer.Config{Compression: wire.CompressionLZ4, Linger: 2 * time.Second, BatchMaxBytes: 1 << 20, MaxRetries: new(3)})
	const n = 200
	value := func(i int) []byte {
		v := bytes.Repeat(fmt.Appendf(nil, "record-%d;", i), 3000/len(fmt.Sprintf("record-%d;", i)))
		return append(v, byte(i))
	}
	var ds []*producer.Delivery
	for i := range n {
		d, err := p.TrySend(&producer.Record{Topic: topic, Partition: producer.ToPartition(0), Key: fmt.Appendf(nil, "k%d", i), Value: value(i)})
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	cancelled := map[int]bool{5: true, n - 2: true}
	for i := range cancelled {
		if o := ds[i].Cancel(); o != producer.CancelledNotSent {
			t.Fatalf("Cancel %d: %v", i, o)
		}
	}
	if err := p.Flush(labtest.Ctx(t, 30*time.Second)); err != nil {
		t.Fatal(err)
	}
	got := b.readAll(topic, n-len(cancelled))
	if len(got) != n-len(cancelled) {
		t.Fatalf("read %d records, want %d", len(got), n-len(cancelled))
	}
	j := 0
	for i := range n {
		if cancelled[i] {
			continue
		}
		r := got[j]
		if !bytes.Equal(r.Value, value(i)) || string(r.Key) != fmt.Sprint("k", i) || r.Offset != int64(j) {
			t.Fatalf("record %d: read key %q at offset %d, want k%d at %d", j, r.Key, r.Offset, i, j)
		}
		res, err := ds[i].Wait(labtest.Ctx(t, 10*time.Second))
		if err != nil || res.Err != nil || res.Offset != int64(j) {
			t.Fatalf("delivery %d: %+v %v, want offset %d", i, res, err, j)
		}
		j++
	}
}
