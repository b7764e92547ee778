package consumercheck

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/testlab/internal/labtest"
	"github.com/twmb/franz-go/pkg/kgo"
)

// readAllFranz reads topic partition 0 from its start to end with an
// independent franz-go consumer and returns offset → value.
func readAllFranz(t *testing.T, b *bed, topic string, end int64) ([]int64, map[int64]string) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Boot...),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {0: kgo.NewOffset().AtStart()}}))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx := labtest.Ctx(t, 30*time.Second)
	var offs []int64
	vals := map[int64]string{}
	last := int64(-1)
	for last < end-1 {
		fs := cl.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			t.Fatalf("franz read stopped at %d of %d: %v", last, end, err)
		}
		fs.EachRecord(func(r *kgo.Record) {
			if r.Offset < end {
				offs = append(offs, r.Offset)
				vals[r.Offset] = string(r.Value)
			}
			last = max(last, r.Offset)
		})
	}
	return offs, vals
}

// TestCompactedTopic: after the log cleaner compacts a topic written by an
// idempotent producer (so compaction leaves offset gaps and can leave empty
// batches), gregor delivers exactly the records franz-go sees, with the
// same offsets and values, and its position ends at the log end.
func TestCompactedTopic(t *testing.T) {
	b := newBed(t)
	cfg := func(s string) *string { return &s }
	topic := b.topic(1, map[string]*string{
		"cleanup.policy":            cfg("compact"),
		"segment.ms":                cfg("100"),
		"min.cleanable.dirty.ratio": cfg("0.01"),
		"min.compaction.lag.ms":     cfg("0"),
		"max.compaction.lag.ms":     cfg("100"),
	})
	p := b.producer(kgo.ProducerLinger(0))
	// Three rounds overwrite the same 20 keys; each round is batched.
	for round := range 3 {
		var recs []*kgo.Record
		for k := range 20 {
			recs = append(recs, &kgo.Record{Topic: topic, Partition: 0, Key: fmt.Appendf(nil, "k%02d", k), Value: fmt.Appendf(nil, "r%d-k%02d", round, k)})
		}
		b.produce(p, recs...)
	}
	// Segments roll by time only when a record arrives: keep appending a
	// tick until the cleaner has removed offset 0 (round 0 of k00).
	ctx := labtest.Ctx(t, 3*time.Minute)
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		b.produce(p, &kgo.Record{Topic: topic, Partition: 0, Key: []byte("tick"), Value: []byte("tick")})
		offs, _ := readAllFranz(t, b, topic, 60)
		if len(offs) > 0 && offs[0] != 0 {
			break // offset 0 was compacted away
		}
		select {
		case <-ctx.Done():
			t.Fatal("the log cleaner did not compact within the deadline")
		case <-tick.C:
		}
	}
	ends, err := b.Adm.ListEndOffsets(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	eo, _ := ends.Lookup(topic, 0)
	end := eo.Offset
	// The cleaner keeps running: "tick" records may vanish between two
	// reads, the compacted keys (only round 2 left) may not. Compare those.
	franzOffs, franzVals := readAllFranz(t, b, topic, end)
	var wantOffs []int64
	for _, o := range franzOffs {
		if franzVals[o] != "tick" {
			wantOffs = append(wantOffs, o)
		}
	}
	t.Logf("log end %d; franz-go sees %d records: %v", end, len(franzOffs), franzOffs)
	if len(wantOffs) != 20 || wantOffs[0] != 40 {
		t.Fatalf("franz-go sees %v after compaction; want round 2 at 40..59", wantOffs)
	}

	c := b.consumer(consumer.Config{MaxWait: 100 * time.Millisecond})
	tp := gregor.TopicPartition{Topic: topic, Partition: 0}
	if err := c.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	// Receive until the position reaches the log end (gaps and empty
	// batches must not stall it).
	var gotOffs []int64
	rctx := labtest.Ctx(t, 15*time.Second)
	for c.Assignment()[0].Position.Offset < end {
		rs, err := c.Receive(rctx)
		if err != nil {
			t.Fatalf("after %v (position %v, log end %d): %v", gotOffs, c.Assignment()[0].Position, end, err)
		}
		for _, r := range rs {
			if string(r.Value) == "tick" {
				continue
			}
			gotOffs = append(gotOffs, r.Offset)
			if franzVals[r.Offset] != string(r.Value) {
				t.Fatalf("offset %d value %q, franz-go saw %q", r.Offset, r.Value, franzVals[r.Offset])
			}
		}
	}
	if !slices.Equal(gotOffs, wantOffs) {
		t.Fatalf("offsets\n gregor   %v\n franz-go %v", gotOffs, wantOffs)
	}
}
