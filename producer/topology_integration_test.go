package producer

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/internal/topotest"
	"github.com/gregor-kafka/gregor/wire"
)

// The producer's part of the topology-change suite (issue 36; the table in
// INTERNALS.md, "Topology changes"), on the shared broker: a topic
// deleted, deleted and recreated with more or fewer partitions, and
// partitions added, under a producer that keeps running throughout.

type topoEnv struct {
	t     *testing.T
	ctx   context.Context
	cl    *client.Client
	adm   *admin.Admin
	p     *Producer
	topic string
	topo  topotest.Topic
}

func newTopoEnv(t *testing.T, partitions int32, cfg Config) *topoEnv {
	t.Helper()
	cluster := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cl, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close(context.Background()) })
	p, err := New(cl, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	e := &topoEnv{t: t, ctx: ctx, cl: cl, adm: admin.New(cl, admin.Config{}), p: p, topic: kafkatest.UniqueName(t, "topo")}
	e.topo = topotest.Topic{Admin: e.adm, Name: e.topic}
	e.create(partitions)
	return e
}

func (e *topoEnv) create(partitions int32) { e.t.Helper(); e.topo.Create(e.ctx, e.t, partitions) }

func (e *topoEnv) remove() { e.t.Helper(); e.topo.Remove(e.ctx, e.t) }

// send writes n records to partition and returns their results.
func (e *topoEnv) send(partition int32, n int) []Result {
	e.t.Helper()
	var ds []*Delivery
	for i := range n {
		d, err := e.p.Send(e.ctx, &Record{Topic: e.topic, Partition: ToPartition(partition), Value: fmt.Appendf(nil, "v%d", i)})
		if err != nil {
			e.t.Fatal(err)
		}
		ds = append(ds, d)
	}
	out := make([]Result, 0, n)
	for _, d := range ds {
		r, err := d.Wait(e.ctx)
		if err != nil && r.Err == nil {
			e.t.Fatalf("no result for partition %d: %v", partition, err)
		}
		out = append(out, r)
	}
	return out
}

// mustSend is send where every record must be delivered.
func (e *topoEnv) mustSend(partition int32, n int) {
	e.t.Helper()
	for _, r := range e.send(partition, n) {
		if r.Err != nil {
			e.t.Fatalf("record to %s/%d: %v", e.topic, partition, r.Err)
		}
	}
}

// batches reads the headers of every batch in partition's log.
func (e *topoEnv) batches(partition int32) []wire.RecordBatch {
	e.t.Helper()
	e.cl.InvalidateMetadata()
	md, err := e.cl.Metadata(e.ctx, []string{e.topic})
	if err != nil {
		e.t.Fatal(err)
	}
	tm := md.Topics[e.topic]
	if tm == nil || tm.Err != nil || int(partition) >= len(tm.Partitions) {
		e.t.Fatalf("metadata of %s: %+v", e.topic, tm)
	}
	fp, err := fetchOnce(e.ctx, e.cl, tm.Partitions[partition].Leader, e.topic, tm.ID, partition, 0)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []wire.RecordBatch
	br := wire.NewBatchReader(fp.Records, wire.DecodeOptions{})
	for b := (wire.RecordBatch{}); br.NextHeader(&b); {
		out = append(out, b)
	}
	if err := br.Err(); err != nil {
		e.t.Fatal(err)
	}
	return out
}

// produceByName reports whether the broker's Produce names topics (before
// v13, Kafka 4.0 and earlier) rather than addressing them by topic ID.
func (e *topoEnv) produceByName() bool {
	e.t.Helper()
	vs, err := e.cl.BrokerVersions(e.ctx, client.AnyBroker)
	if err != nil {
		e.t.Fatal(err)
	}
	return vs[wire.KeyProduce][1] < 13
}

// TestTopologyProducer: each case with a producer that wrote 5 records to
// each of two partitions before the change.
func TestTopologyProducer(t *testing.T) {
	// Recreated: the records sent afterwards are written to the new topic,
	// every acknowledged one exactly once; with fewer partitions a record
	// for a partition the new topic lacks fails UNKNOWN_TOPIC_OR_PARTITION,
	// not sent. Where Produce addresses topics by ID (v13+) the new topic's
	// sequences start at 0 (the old ID is refused UNKNOWN_TOPIC_ID, so
	// nothing reaches the new topic under the old sequence state). Where it
	// names them (Kafka 4.0 and earlier) the broker cannot tell the
	// incarnations apart: the sequence continues under the name (the new
	// log takes 5 as the first sequence of a producer it holds no state
	// for), also once the producer's metadata shows the new ID (no
	// OUT_OF_ORDER_SEQUENCE_NUMBER, no epoch bump).
	for _, parts := range []int32{3, 1} {
		for _, pin := range []bool{false, true} {
			t.Run(fmt.Sprintf("recreated-%d-partitions-pin=%v", parts, pin), func(t *testing.T) {
				t.Parallel()
				e := newTopoEnv(t, 2, Config{Linger: time.Millisecond, PinTopicIDs: pin})
				byName := e.produceByName()
				e.mustSend(0, 5)
				old := e.batches(0)[0]
				e.mustSend(1, 5)
				e.remove()
				e.create(parts)
				acked := 0
				if pin {
					// Records admitted before the producer's metadata
					// showed the new ID are pinned to the old one and fail
					// with ErrTopicIDChanged, not sent (Config.PinTopicIDs);
					// by name, those sent before it saw the change are
					// written to the new topic.
					for _, r := range e.send(0, 3) {
						if r.Err == nil {
							acked++
						} else if !errors.Is(r.Err, ErrTopicIDChanged) || r.Certainty != client.NotSent {
							t.Fatalf("pinned record after the recreation: %v (%v)", r.Err, r.Certainty)
						}
					}
				}
				e.mustSend(0, 3)
				acked += 3
				first := e.batches(0)[0] // the producer's metadata shows the new ID from here on
				switch {
				case !byName && first.BaseSequence != 0:
					t.Fatalf("first batch of the new topic: producer %d epoch %d base sequence %d, want 0", first.ProducerID, first.ProducerEpoch, first.BaseSequence)
				case byName && !pin && (first.ProducerID != old.ProducerID || first.ProducerEpoch != old.ProducerEpoch || first.BaseSequence != 5):
					t.Fatalf("first batch of the new topic (Produce by name): producer %d epoch %d base sequence %d, want producer %d epoch %d sequence 5 (continued)",
						first.ProducerID, first.ProducerEpoch, first.BaseSequence, old.ProducerID, old.ProducerEpoch)
				}
				e.mustSend(0, 3)
				acked += 3
				bs := e.batches(0)
				n := 0
				for i, b := range bs {
					n += int(b.NumRecords)
					if i == 0 {
						continue
					}
					prev := bs[i-1]
					if byName && (b.ProducerID != prev.ProducerID || b.ProducerEpoch != prev.ProducerEpoch || b.BaseSequence != prev.BaseSequence+prev.NumRecords) {
						t.Fatalf("batch %d of the new topic (Produce by name): producer %d epoch %d base sequence %d after producer %d epoch %d sequences %d+%d: the sequence did not continue",
							i, b.ProducerID, b.ProducerEpoch, b.BaseSequence, prev.ProducerID, prev.ProducerEpoch, prev.BaseSequence, prev.NumRecords)
					}
				}
				if n != acked {
					t.Fatalf("the new topic's partition 0 holds %d records, %d were acknowledged", n, acked)
				}
				if parts == 1 {
					for _, r := range e.send(1, 1) {
						if !errors.Is(r.Err, wire.ErrUnknownTopicOrPartition) || r.Certainty != client.NotSent {
							t.Fatalf("record to the missing partition 1: %v (%v), want UNKNOWN_TOPIC_OR_PARTITION, not sent", r.Err, r.Certainty)
						}
					}
				} else {
					e.mustSend(2, 1)
				}
			})
		}
	}

	// Deleted: a record for it fails by DeliveryTimeout at the latest (a
	// batch the old topic answered UNKNOWN_TOPIC_ID is retried, as Java's
	// producer does), with a typed error and not-sent certainty; it is never
	// written anywhere.
	t.Run("deleted", func(t *testing.T) {
		t.Parallel()
		e := newTopoEnv(t, 2, Config{Linger: time.Millisecond, DeliveryTimeout: 8 * time.Second})
		e.mustSend(0, 5)
		e.remove()
		start := time.Now()
		for _, r := range e.send(0, 1) {
			if !errors.Is(r.Err, wire.ErrUnknownTopicOrPartition) && !errors.Is(r.Err, ErrDeliveryTimeout) || r.Certainty != client.NotSent {
				t.Fatalf("record to the deleted topic: %v (%v), want UNKNOWN_TOPIC_OR_PARTITION or the delivery timeout, not sent", r.Err, r.Certainty)
			}
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Fatalf("the record failed after %v", d)
		}
	})

	// Partitions added: a record for a new partition is delivered at once
	// (the producer asks the brokers when its cached metadata lacks the
	// partition), not after MetadataMaxAge.
	t.Run("partitions-added", func(t *testing.T) {
		t.Parallel()
		e := newTopoEnv(t, 2, Config{Linger: time.Millisecond, DeliveryTimeout: 20 * time.Second})
		e.mustSend(0, 5)
		res, err := e.adm.CreatePartitions(e.ctx, []admin.PartitionsIncrease{{Topic: e.topic, TotalCount: 3}}, admin.TopicOptions{WaitVisible: true})
		if err == nil {
			err = res[0].Err
		}
		if err != nil {
			t.Fatal(err)
		}
		e.mustSend(2, 1)
	})
}
