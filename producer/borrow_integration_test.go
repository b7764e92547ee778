package producer_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
)

// TestIntegrationBorrowSlices: on the real broker, a producer with
// Config.BorrowSlices (none and lz4) writes records of every shape (null
// and empty keys and values, headers with null values and duplicates,
// 1 KiB values and 20 KiB ones, several batches per partition); a
// consumer on another client reads back exactly the records sent, in
// order. Key and value buffers are reused for new records once theirs are
// acknowledged, so a read after the terminal would show up as a wrong
// record.
func TestIntegrationBorrowSlices(t *testing.T) {
	for _, codec := range []gregor.Compression{gregor.CompressionNone, gregor.CompressionLZ4} {
		t.Run(codec.String(), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			p, topic := newIntegrationProducer(t, ctx, producer.Config{Compression: codec, BorrowSlices: true, BatchMaxBytes: 64 << 10, Linger: 20 * time.Millisecond}, 2, nil)
			const n = 600
			want := make([]producer.Record, n)
			for i := range want {
				r := producer.Record{Topic: topic, Partition: producer.ToPartition(int32(i % 2))}
				switch i % 6 {
				case 0:
				case 1:
					r.Key, r.Value = []byte{}, []byte{}
				case 2:
					r.Key = []byte(fmt.Sprint("key-", i))
					r.Value = bytes.Repeat([]byte{byte('a' + i%26)}, 1024)
					r.Headers = []gregor.Header{{Key: "n", Value: nil}, {Key: "d", Value: []byte("1")}, {Key: "d", Value: []byte{}}}
				case 3:
					r.Value = bytes.Repeat([]byte(fmt.Sprint(i)), 20<<10/len(fmt.Sprint(i)))
				default:
					r.Key = []byte(fmt.Sprint(i))
					r.Value = bytes.Repeat([]byte{byte(i)}, 1024)
				}
				want[i] = r
			}
			// The records go out in waves that reuse the same key and value
			// buffers (as a caller recycling its buffers does), each wave's
			// written into them once the previous wave is acknowledged.
			const wave = 200
			keyBufs, valBufs := make([][]byte, wave), make([][]byte, wave)
			for i := range wave {
				keyBufs[i], valBufs[i] = make([]byte, 0, 64), make([]byte, 0, 21<<10)
			}
			fill := func(buf, b []byte) []byte {
				if b == nil {
					return nil
				}
				return append(buf[:0], b...)
			}
			for w := 0; w < n; w += wave {
				ds := make([]*producer.Delivery, 0, wave)
				for i := w; i < w+wave; i++ {
					r := clone(want[i])
					r.Key, r.Value = fill(keyBufs[i-w], want[i].Key), fill(valBufs[i-w], want[i].Value)
					d, err := p.Send(ctx, &r)
					if err != nil {
						t.Fatalf("Send %d: %v", i, err)
					}
					ds = append(ds, d)
				}
				if err := p.Flush(ctx); err != nil {
					t.Fatal(err)
				}
				for i, d := range ds {
					if _, err := d.Wait(ctx); err != nil {
						t.Fatalf("record %d: %v", w+i, err)
					}
				}
			}
			got := readBack(t, ctx, topic, 2, n)
			for part := range int32(2) {
				var w []producer.Record
				for i := int(part); i < n; i += 2 {
					w = append(w, want[i])
				}
				g := got[part]
				if len(g) != len(w) {
					t.Fatalf("partition %d: %d records read, %d sent", part, len(g), len(w))
				}
				for i := range w {
					if !sameRecord(g[i], w[i]) {
						t.Fatalf("partition %d offset %d: read key %.16q value %.16q... (%d headers), sent key %.16q value %.16q... (%d headers)",
							part, g[i].Offset, g[i].Key, g[i].Value, len(g[i].Headers), w[i].Key, w[i].Value, len(w[i].Headers))
					}
				}
			}
		})
	}
}

func clone(r producer.Record) producer.Record {
	c := r
	c.Key, c.Value = cloneBytes(r.Key), cloneBytes(r.Value)
	c.Headers = nil
	for _, h := range r.Headers {
		c.Headers = append(c.Headers, gregor.Header{Key: h.Key, Value: cloneBytes(h.Value)})
	}
	return c
}

func cloneBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}

// sameRecord compares key, value and headers, null distinct from empty.
func sameRecord(g consumer.Record, w producer.Record) bool {
	eq := func(a, b []byte) bool { return (a == nil) == (b == nil) && bytes.Equal(a, b) }
	if !eq(g.Key, w.Key) || !eq(g.Value, w.Value) || len(g.Headers) != len(w.Headers) {
		return false
	}
	for i := range g.Headers {
		if g.Headers[i].Key != w.Headers[i].Key || !eq(g.Headers[i].Value, w.Headers[i].Value) {
			return false
		}
	}
	return true
}

// readBack reads n records of topic's partitions from the beginning, on a
// client of its own, by partition in offset order.
func readBack(t *testing.T, ctx context.Context, topic string, parts int32, n int) map[int32][]consumer.Record {
	t.Helper()
	cl, err := client.New(client.Config{Bootstrap: kafkatest.Shared(t).Bootstrap(kafkatest.Plaintext)})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	c, err := consumer.New(cl, consumer.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	var ps []consumer.PartitionPosition
	for i := range parts {
		ps = append(ps, consumer.PartitionPosition{TopicPartition: gregor.TopicPartition{Topic: topic, Partition: i}, Position: consumer.AtBeginning()})
	}
	if err := c.Assign(ctx, ps); err != nil {
		t.Fatal(err)
	}
	out := map[int32][]consumer.Record{}
	for read := 0; read < n; {
		recs, err := c.Receive(ctx)
		if err != nil {
			t.Fatalf("Receive after %d of %d records: %v", read, n, err)
		}
		for _, r := range recs {
			out[r.Partition] = append(out[r.Partition], r)
		}
		read += len(recs)
	}
	return out
}
