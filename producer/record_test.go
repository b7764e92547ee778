package producer

import (
	"errors"
	"testing"

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
	if m.ActiveRecords != 0 {
		t.Fatalf("refused records were admitted: %+v", m)
	}
}
