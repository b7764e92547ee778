package producercheck

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/testlab/internal/labtest"
	"github.com/gregor-kafka/gregor/wire"
)

// TestPinTopicIDsRecreatedTopic: records lingering in a batch while their
// topic is deleted and created again under the same name. With
// PinTopicIDs they fail with ErrTopicIDChanged, NotSent, and franz-go
// finds only the records sent after the change in the new topic; without
// it every record lands in the new topic (records follow the name).
func TestPinTopicIDsRecreatedTopic(t *testing.T) {
	for _, pin := range []bool{true, false} {
		t.Run(fmt.Sprint("pin=", pin), func(t *testing.T) {
			b := newBed(t)
			ctx := labtest.Ctx(t, 90*time.Second)
			topic := b.topic(1)
			p, cl := b.producer(producer.Config{Linger: time.Minute, PinTopicIDs: pin})
			send := func(from, to int) []*producer.Delivery {
				var ds []*producer.Delivery
				for i := from; i < to; i++ {
					d, err := p.TrySend(&producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: fmt.Appendf(nil, "v%d", i)})
					if err != nil {
						t.Fatal(err)
					}
					ds = append(ds, d)
				}
				return ds
			}
			old := topicID(t, cl, topic, wire.UUID{})
			before := send(0, 5)

			if _, err := b.Adm.DeleteTopics(ctx, topic); err != nil {
				t.Fatalf("delete: %v", err)
			}
			for {
				r, err := b.Adm.CreateTopic(ctx, 1, 1, nil, topic)
				if err == nil && r.Err == nil {
					break
				}
				if ctx.Err() != nil {
					t.Fatalf("recreate %s: %v %v", topic, err, r.Err)
				}
				time.Sleep(100 * time.Millisecond) // polling interval: deletion in progress (TOPIC_ALREADY_EXISTS)
			}
			topicID(t, cl, topic, old) // the producer's client now knows the new ID

			after := send(5, 7)
			if err := p.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			for i, d := range before {
				r, err := d.Wait(ctx)
				if err != nil && r.Err == nil {
					t.Fatal(err)
				}
				if pin && (!errors.Is(r.Err, producer.ErrTopicIDChanged) || r.Certainty != client.NotSent) {
					t.Fatalf("record %d: %v (%v), want ErrTopicIDChanged, NotSent", i, r.Err, r.Certainty)
				}
				if !pin && r.Err != nil {
					t.Fatalf("record %d: %v", i, r.Err)
				}
			}
			for i, d := range after {
				if r, err := d.Wait(ctx); err != nil || r.Err != nil {
					t.Fatalf("record %d after the change: %v %v", 5+i, err, r.Err)
				}
			}
			want := []string{"v5", "v6"}
			if !pin {
				want = []string{"v0", "v1", "v2", "v3", "v4", "v5", "v6"}
			}
			got := b.readAll(topic, len(want))
			var vals []string
			for _, r := range got {
				vals = append(vals, string(r.Value))
			}
			if fmt.Sprint(vals) != fmt.Sprint(want) {
				t.Fatalf("new topic holds %v, want %v", vals, want)
			}
		})
	}
}

// topicID waits (bounded) until cl's metadata, refreshed, shows topic
// with a leader and an ID other than not (and not zero), and returns the
// ID.
func topicID(t *testing.T, cl *client.Client, topic string, not wire.UUID) wire.UUID {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		cl.InvalidateMetadata() // Metadata answers from the cache otherwise
		md, err := cl.Metadata(labtest.Ctx(t, 10*time.Second), []string{topic})
		if err == nil {
			if tm := md.Topics[topic]; tm != nil && tm.Err == nil && tm.ID != (wire.UUID{}) && tm.ID != not && len(tm.Partitions) > 0 && tm.Partitions[0].Leader >= 0 {
				return tm.ID
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("topic %s: no ID other than %v in metadata within 30s (%v)", topic, not, err)
		}
		time.Sleep(100 * time.Millisecond) // polling interval of a condition with a deadline
	}
}
