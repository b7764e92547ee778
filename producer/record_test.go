package producer

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
)

// choice maps the tests' old convention (-1: the partitioner) to a
// PartitionChoice.
func choice(n int32) PartitionChoice {
	if n == -1 {
		return PartitionChoice{}
	}
	return ToPartition(n)
}

func TestPartitionChoice(t *testing.T) {
	var zero PartitionChoice
	if n, ok := zero.Explicit(); ok || n != 0 || zero.requested() != -1 || zero.String() != "partitioner" {
		t.Fatalf("zero choice: %d %v %d %s", n, ok, zero.requested(), zero)
	}
	c := ToPartition(0)
	if n, ok := c.Explicit(); !ok || n != 0 || c.requested() != 0 || c.String() != "0" {
		t.Fatalf("ToPartition(0): %d %v %d %s", n, ok, c.requested(), c)
	}
}

// A negative explicit partition (or an empty topic) is refused at once,
// certainty NotSent, and nothing is admitted.
func TestInvalidRecordRefused(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 2}, 1)
	p := newTestProducer(t, f, Config{})
	for _, r := range []*Record{
		{Topic: "t", Partition: ToPartition(-1), Value: []byte("x")},
		{Topic: "t", Partition: ToPartition(-7)},
		{Value: []byte("no topic")},
	} {
		_, err := p.TrySend(r)
		var certain interface{ Certainty() client.Certainty }
		if !errors.Is(err, ErrInvalidRecord) || client.CertaintyOf(err) != client.NotSent || !errors.As(err, &certain) {
			t.Fatalf("TrySend(%+v): %v", r, err)
		}
		if _, err := p.Send(t.Context(), r); !errors.Is(err, ErrInvalidRecord) {
			t.Fatalf("Send(%+v): %v", r, err)
		}
	}
	var m client.ProducerMetrics
	p.fillMetrics(&m)
	if m.BufferedRecords != 0 {
		t.Fatalf("refused records were admitted: %+v", m)
	}
}

// Produce's errors are *RecordError: a refusal (NotSent), and a record
// given up when ctx ends before it left (cancelled: NotSent, matching
// ErrRecordCancelled and ctx's error). A delivered record returns no error.
func TestProduceErrors(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	p := newTestProducer(t, f, Config{Linger: time.Hour})
	var re *RecordError
	_, err := p.Produce(t.Context(), Record{Topic: "t", Partition: ToPartition(-2)})
	if !errors.As(err, &re) || re.Certainty != client.NotSent || !errors.Is(err, ErrInvalidRecord) {
		t.Fatalf("refused: %v", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	r, err := p.Produce(ctx, Record{Topic: "t", Value: []byte("lingers")})
	if !errors.As(err, &re) || re.Certainty != client.NotSent || re.MayHaveBeenWritten() ||
		!errors.Is(err, ErrRecordCancelled) || !errors.Is(err, context.DeadlineExceeded) || r.Certainty != client.NotSent {
		t.Fatalf("abandoned in flight: %+v %v", r, err)
	}
	p2 := newTestProducer(t, f, Config{Linger: -1})
	if r, err := p2.Produce(t.Context(), Record{Topic: "t", Value: []byte("ok")}); err != nil || r.Offset < 0 {
		t.Fatalf("delivered: %+v %v", r, err)
	}
}
