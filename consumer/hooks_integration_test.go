package consumer_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

// allHooks records the events of every hook interface.
type allHooks struct {
	mu                       sync.Mutex
	opened                   []client.ConnEvent
	written, read            []client.RequestEvent
	batchWritten, batchAcked []client.BatchEvent
	fetched                  []client.BatchEvent
	outcomes                 []client.RecordEvent
}

func (h *allHooks) OnConnOpened(ev client.ConnEvent) {
	h.mu.Lock()
	h.opened = append(h.opened, ev)
	h.mu.Unlock()
}
func (h *allHooks) OnRequestWritten(ev client.RequestEvent) {
	h.mu.Lock()
	h.written = append(h.written, ev)
	h.mu.Unlock()
}
func (h *allHooks) OnResponseRead(ev client.RequestEvent) {
	h.mu.Lock()
	h.read = append(h.read, ev)
	h.mu.Unlock()
}
func (h *allHooks) OnProduceBatchWritten(ev client.BatchEvent) {
	h.mu.Lock()
	h.batchWritten = append(h.batchWritten, ev)
	h.mu.Unlock()
}
func (h *allHooks) OnProduceBatchAcked(ev client.BatchEvent) {
	h.mu.Lock()
	h.batchAcked = append(h.batchAcked, ev)
	h.mu.Unlock()
}
func (h *allHooks) OnFetchBatch(ev client.BatchEvent) {
	h.mu.Lock()
	h.fetched = append(h.fetched, ev)
	h.mu.Unlock()
}
func (h *allHooks) OnRecordOutcome(ev client.RecordEvent) {
	h.mu.Lock()
	h.outcomes = append(h.outcomes, ev)
	h.mu.Unlock()
}

// TestIntegrationHooks: on the real broker, a producer and a consumer on a
// client with hooks report connections in their lanes, Produce and Fetch
// round trips with sizes and latencies, produced batches written and
// acknowledged with their offsets, every record's outcome (a record for a
// missing topic fails NotSent), and the fetched records.
func TestIntegrationHooks(t *testing.T) {
	cluster := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h := &allHooks{}
	cl, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext), Hooks: []client.Hook{h}})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	topic := kafkatest.UniqueName(t, "hooks")
	res, err := admin.New(cl, admin.Config{}).CreateTopics(ctx, []admin.NewTopic{{Name: topic, Partitions: 1, ReplicationFactor: 1}}, admin.TopicOptions{WaitVisible: true})
	if err == nil {
		err = res[0].Err
	}
	if err != nil {
		t.Fatal(err)
	}
	p, err := producer.New(cl, producer.Config{Linger: 50 * time.Millisecond, UnknownTopicRetries: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(ctx)
	const n = 10
	var ds []*producer.Delivery
	for range n {
		d, err := p.Send(ctx, &producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: []byte("hello")})
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	for _, d := range ds {
		if r, err := d.Wait(ctx); err != nil || r.Err != nil {
			t.Fatalf("delivery: %v %v", err, r.Err)
		}
	}
	d, err := p.Send(ctx, &producer.Record{Topic: kafkatest.UniqueName(t, "missing"), Value: []byte("x")})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := d.Wait(ctx); !errors.Is(err, wire.ErrUnknownTopicOrPartition) || !errors.Is(r.Err, wire.ErrUnknownTopicOrPartition) {
		t.Fatalf("record for a missing topic: %v %v", err, r.Err)
	}

	c, err := consumer.New(cl, consumer.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	tp := gregor.TopicPartition{Topic: topic, Partition: 0}
	if err := c.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	for got := 0; got < n; {
		recs, err := c.Receive(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got += len(recs)
	}

	h.mu.Lock()
	defer h.mu.Unlock()
	lanes := map[client.Lane]bool{}
	for _, ev := range h.opened {
		if ev.Err == nil {
			lanes[ev.Lane] = true
		}
		if ev.Addr == "" {
			t.Errorf("connection event without an address: %+v", ev)
		}
	}
	if !lanes[client.LaneControl] || !lanes[client.LaneProduce] || !lanes[client.LaneFetch] {
		t.Errorf("connections opened in lanes %v, want control, produce and fetch", lanes)
	}
	produces := 0
	for _, ev := range h.read {
		if ev.Key == wire.KeyProduce {
			produces++
			if ev.Lane != client.LaneProduce || ev.Bytes <= 4 || ev.Latency <= 0 || ev.Broker < 0 || ev.Err != nil {
				t.Errorf("Produce response event %+v", ev)
			}
		}
	}
	fetches := 0
	for _, ev := range h.written {
		if ev.Key == wire.KeyFetch {
			fetches++
			if ev.Lane != client.LaneFetch || ev.Bytes <= 4 {
				t.Errorf("Fetch request event %+v", ev)
			}
		}
	}
	if produces == 0 || fetches == 0 {
		t.Errorf("%d Produce responses and %d Fetch requests seen, want some of each", produces, fetches)
	}
	sum := func(evs []client.BatchEvent) (recs int, minOff int64) {
		minOff = -1
		for _, ev := range evs {
			if ev.Topic == topic {
				recs += ev.Records
				if ev.Bytes <= 0 || ev.Err != nil {
					t.Errorf("batch event %+v", ev)
				}
				if minOff < 0 || ev.BaseOffset < minOff {
					minOff = ev.BaseOffset
				}
			}
		}
		return recs, minOff
	}
	if r, _ := sum(h.batchWritten); r != n {
		t.Errorf("batches written hold %d records, want %d", r, n)
	}
	if r, off := sum(h.batchAcked); r != n || off != 0 {
		t.Errorf("batches acknowledged hold %d records from offset %d, want %d from 0", r, off, n)
	}
	if r, off := sum(h.fetched); r < n || off != 0 {
		t.Errorf("fetched %d records from offset %d, want %d from 0", r, off, n)
	}
	for _, ev := range h.fetched {
		if ev.HighWatermark != n || ev.LastOffset < ev.BaseOffset || ev.LastOffset >= n {
			t.Errorf("fetch event %+v: want high watermark %d and offsets below it", ev, n)
		}
	}
	var ok, failed int
	for _, ev := range h.outcomes {
		switch {
		case ev.Err == nil && ev.Topic == topic && ev.Offset >= 0:
			ok++
		case ev.Err != nil && ev.Certainty == client.NotSent && ev.Offset == -1:
			failed++
		default:
			t.Errorf("record outcome %+v", ev)
		}
	}
	if ok != n || failed != 1 {
		t.Errorf("%d records delivered and %d failed NotSent, want %d and 1", ok, failed, n)
	}
}
