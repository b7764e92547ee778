package consumercheck

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/testlab/internal/labtest"
	"github.com/twmb/franz-go/pkg/kgo"
)

// bed is one test's view of a cluster, with the consumer checks' helpers.
type bed struct{ *labtest.Bed }

func newBed(t *testing.T) *bed {
	t.Helper()
	return &bed{labtest.Shared(t)}
}

// topic creates a uniquely named topic with n partitions.
func (b *bed) topic(n int32, configs map[string]*string) string {
	b.T.Helper()
	return b.Topic(labtest.Ctx(b.T, 30*time.Second), "cc", n, 1, configs)
}

// producer returns an independent franz-go producer writing to explicit
// partitions.
func (b *bed) producer(opts ...kgo.Opt) *kgo.Client {
	b.T.Helper()
	opts = append([]kgo.Opt{kgo.SeedBrokers(b.Boot...), kgo.RecordPartitioner(kgo.ManualPartitioner())}, opts...)
	p, err := kgo.NewClient(opts...)
	if err != nil {
		b.T.Fatal(err)
	}
	b.T.Cleanup(p.Close)
	return p
}

// produce writes recs synchronously and returns them with offsets and
// timestamps as the broker assigned them.
func (b *bed) produce(p *kgo.Client, recs ...*kgo.Record) []*kgo.Record {
	b.T.Helper()
	res := p.ProduceSync(labtest.Ctx(b.T, 30*time.Second), recs...)
	if err := res.FirstErr(); err != nil {
		b.T.Fatalf("produce: %v", err)
	}
	return recs
}

// seq produces n simple records to topic/partition with values "<prefix>-i".
func (b *bed) seq(p *kgo.Client, topic string, partition int32, prefix string, n int) []*kgo.Record {
	b.T.Helper()
	recs := make([]*kgo.Record, n)
	for i := range recs {
		recs[i] = &kgo.Record{Topic: topic, Partition: partition, Value: fmt.Appendf(nil, "%s-%d", prefix, i)}
	}
	return b.produce(p, recs...)
}

// consumer returns a gregor consumer on its own gregor client.
func (b *bed) consumer(cfg consumer.Config) *consumer.Consumer {
	b.T.Helper()
	cl := b.Client(labtest.Ctx(b.T, 30*time.Second), client.Config{})
	c, err := consumer.New(cl, cfg)
	if err != nil {
		b.T.Fatal(err)
	}
	b.T.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// receiveN receives until exactly n records arrived; more is a failure
// once the n are in (checked by the caller with expectNothing).
func receiveN(t *testing.T, c *consumer.Consumer, n int) []consumer.Record {
	t.Helper()
	ctx := labtest.Ctx(t, 30*time.Second)
	var out []consumer.Record
	for len(out) < n {
		rs, err := c.Receive(ctx)
		if err != nil {
			t.Fatalf("Receive after %d of %d records: %v", len(out), n, err)
		}
		out = append(out, rs...)
	}
	if len(out) != n {
		t.Fatalf("received %d records, want %d", len(out), n)
	}
	return out
}

// expectNothing asserts that nothing is delivered within d.
func expectNothing(t *testing.T, c *consumer.Consumer, d time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	rs, err := c.Receive(ctx)
	if !errors.Is(err, client.ErrTimeout) {
		t.Fatalf("Receive = %d records %v, %v; want nothing", len(rs), describe(rs), err)
	}
}

func describe(rs []consumer.Record) []string {
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%s[%d]@%d=%q", r.Topic, r.Partition, r.Offset, r.Value))
	}
	return out
}

// offsets returns the offsets delivered for one partition, in order.
func offsets(rs []consumer.Record, topic string, partition int32) []int64 {
	var out []int64
	for _, r := range rs {
		if r.Topic == topic && r.Partition == partition {
			out = append(out, r.Offset)
		}
	}
	return out
}

func span(from, to int64) []int64 {
	var out []int64
	for o := from; o < to; o++ {
		out = append(out, o)
	}
	return out
}

func wantOffsets(t *testing.T, rs []consumer.Record, topic string, partition int32, want []int64) {
	t.Helper()
	if got := offsets(rs, topic, partition); !slices.Equal(got, want) {
		t.Fatalf("%s[%d]: offsets %v, want %v", topic, partition, got, want)
	}
}

// sameRecord compares a delivered record with what franz-go produced,
// null and empty distinct.
func sameRecord(t *testing.T, got consumer.Record, want *kgo.Record) {
	t.Helper()
	eqNull := func(what string, a, b []byte) {
		if (a == nil) != (b == nil) || !bytes.Equal(a, b) {
			t.Fatalf("offset %d %s: got %q (nil %v), want %q (nil %v)", want.Offset, what, a, a == nil, b, b == nil)
		}
	}
	if got.Topic != want.Topic || got.Partition != want.Partition || got.Offset != want.Offset {
		t.Fatalf("record %s[%d]@%d, want %s[%d]@%d", got.Topic, got.Partition, got.Offset, want.Topic, want.Partition, want.Offset)
	}
	eqNull("key", got.Key, want.Key)
	eqNull("value", got.Value, want.Value)
	if !got.Timestamp.Equal(want.Timestamp) {
		t.Fatalf("offset %d timestamp %d, want %d", want.Offset, got.Timestamp.UnixMilli(), want.Timestamp.UnixMilli())
	}
	if len(got.Headers) != len(want.Headers) {
		t.Fatalf("offset %d: %d headers, want %d", want.Offset, len(got.Headers), len(want.Headers))
	}
	for i, h := range want.Headers {
		if got.Headers[i].Key != h.Key {
			t.Fatalf("offset %d header %d key %q, want %q", want.Offset, i, got.Headers[i].Key, h.Key)
		}
		eqNull("header "+h.Key, got.Headers[i].Value, h.Value)
	}
}
