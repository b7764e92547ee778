package consumercheck

import (
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/testlab/internal/labtest"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestBufferBound: with nobody calling Receive, the consumer stops fetching
// once MaxBufferedBytes is reached (overshooting by at most one batch per
// broker, KIP-74); then everything still arrives once Receive drains it.
func TestBufferBound(t *testing.T) {
	b := newBed(t)
	const parts, per = 4, 200
	topic := b.topic(parts, nil)
	p := b.producer(kgo.ProducerBatchMaxBytes(16<<10), kgo.ProducerLinger(20*time.Millisecond))
	var recs []*kgo.Record
	for part := range int32(parts) {
		for i := range per {
			recs = append(recs, &kgo.Record{Topic: topic, Partition: part, Value: fmt.Appendf(nil, "%01000d", i)})
		}
	}
	b.produce(p, recs...) // ~800 KB
	const bound = 64 << 10
	c := b.consumer(consumer.Config{MaxBufferedBytes: bound, MaxWait: 100 * time.Millisecond})
	var ps []consumer.PartitionPosition
	for part := range int32(parts) {
		ps = append(ps, consumer.PartitionPosition{TopicPartition: gregor.TopicPartition{Topic: topic, Partition: part}, Position: consumer.AtBeginning()})
	}
	if err := c.Assign(labtest.Ctx(t, 30*time.Second), ps); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	var m consumer.Metrics
	for {
		m = c.Metrics()
		if m.BufferedBytes >= bound && m.FetchesInFlight == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("buffer never filled: %+v", m)
		}
		<-tick.C
	}
	// Full, and nothing in flight: no Fetch is sent until Receive drains.
	t.Logf("full: %+v", m)
	if m.BufferedBytes > bound+(32<<10) {
		t.Fatalf("buffered %d bytes with a bound of %d", m.BufferedBytes, bound)
	}
	got := receiveN(t, c, parts*per)
	for part := range int32(parts) {
		wantOffsets(t, got, topic, part, span(0, per))
	}
	if m := c.Metrics(); m.BufferedBytes != 0 {
		t.Fatalf("buffered %d after draining", m.BufferedBytes)
	}
}
