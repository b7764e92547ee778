package producer_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

// newIntegrationProducer returns a client and producer on the shared
// cluster and a topic of the given partition count (configs: topic
// configs).
func newIntegrationProducer(t *testing.T, ctx context.Context, cfg producer.Config, partitions int32, configs map[string]string) (*producer.Producer, string) {
	t.Helper()
	cluster := kafkatest.Shared(t)
	cl, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close(context.Background()) })
	topic := kafkatest.UniqueName(t, "record")
	res, err := admin.New(cl, admin.Config{}).CreateTopics(ctx, []admin.NewTopic{{Name: topic, Partitions: partitions, ReplicationFactor: 1, Configs: configs}}, admin.TopicOptions{WaitVisible: true})
	if err == nil {
		err = res[0].Err
	}
	if err != nil {
		t.Fatalf("CreateTopics %s: %v", topic, err)
	}
	p, err := producer.New(cl, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	return p, topic
}

// TestIntegrationZeroRecordIsPartitioned: on the real broker, a Record
// whose Partition is left zero goes to the partitioner: a keyed one lands
// on murmur2(key) (not always 0), keyless ones are spread by the sticky
// partitioner across batches (one partition per batch, several partitions
// overall); ToPartition(0) lands on partition 0.
func TestIntegrationZeroRecordIsPartitioned(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const parts = 4
	p, topic := newIntegrationProducer(t, ctx, producer.Config{BatchMaxBytes: 1024, Linger: time.Hour}, parts, nil)

	// produce is Produce for a producer that lingers: Send, Flush, Wait.
	produce := func(r producer.Record) (producer.Result, error) {
		d, err := p.Send(ctx, &r)
		if err != nil {
			return producer.Result{}, err
		}
		if err := p.Flush(ctx); err != nil {
			return producer.Result{}, err
		}
		return d.Wait(ctx)
	}
	onNonZero := 0
	var nonZeroKey []byte // a key murmur2 does not send to partition 0
	for i := range 16 {
		key := []byte(fmt.Sprint("key-", i))
		r, err := produce(producer.Record{Topic: topic, Key: key, Value: []byte("v")})
		if err != nil {
			t.Fatalf("keyed record %d: %v", i, err)
		}
		if want := producer.KeyPartition(key, parts); r.Partition != want {
			t.Fatalf("key %q on partition %d, murmur2 says %d", key, r.Partition, want)
		}
		if r.Partition != 0 {
			onNonZero++
			nonZeroKey = key
		}
	}
	if onNonZero == 0 {
		t.Fatal("every keyed record landed on partition 0")
	}

	// Keyless: 100-byte values, 1 KiB batches, flushed together: the sticky
	// partitioner fills a batch on one partition, then moves on.
	var ds []*producer.Delivery
	for range 60 {
		d, err := p.Send(ctx, &producer.Record{Topic: topic, Value: make([]byte, 100)})
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	used := map[int32]int{}
	switches := 0
	for i, d := range ds {
		r, err := d.Wait(ctx)
		if err != nil {
			t.Fatalf("keyless record %d: %v", i, err)
		}
		used[r.Partition]++
		if i > 0 {
			if prev, _ := ds[i-1].Result(); prev.Partition != r.Partition {
				switches++
			}
		}
	}
	t.Logf("keyless: per partition %v, %d switches in %d records", used, switches, len(ds))
	if len(used) < 2 || switches >= len(ds)/2 {
		t.Fatalf("keyless records: per partition %v, %d partition switches in %d records (want sticky runs over several partitions)", used, switches, len(ds))
	}

	for range 3 {
		r, err := produce(producer.Record{Topic: topic, Partition: producer.ToPartition(0), Key: nonZeroKey, Value: []byte("v")})
		if err != nil || r.Partition != 0 {
			t.Fatalf("ToPartition(0): partition %d, %v", r.Partition, err)
		}
	}
}

// TestIntegrationSyncSendFailure: on the real broker, a record larger than
// its topic's max.message.bytes fails MESSAGE_TOO_LARGE; Produce returns
// that failure as its error (a *RecordError matching the Kafka error,
// certainty NotSent) and so does Delivery.Wait.
func TestIntegrationSyncSendFailure(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, topic := newIntegrationProducer(t, ctx, producer.Config{}, 1, map[string]string{"max.message.bytes": "1024"})
	big := producer.Record{Topic: topic, Value: make([]byte, 4000)}

	check := func(how string, r producer.Result, err error) {
		t.Helper()
		var re *producer.RecordError
		if !errors.As(err, &re) || !errors.Is(err, wire.ErrMessageTooLarge) {
			t.Fatalf("%s: %v, want a *RecordError matching MESSAGE_TOO_LARGE", how, err)
		}
		if !errors.Is(err, gregor.ErrMessageTooLarge) || gregor.IsRetriable(err) {
			t.Fatalf("%s: %v: gregor.ErrMessageTooLarge does not match, or retriable", how, err)
		}
		if re.MayHaveBeenWritten() || gregor.MayHaveBeenWritten(err) || re.Certainty != client.NotSent || client.CertaintyOf(err) != client.NotSent {
			t.Fatalf("%s: certainty %s (MayHaveBeenWritten %v), want NotSent", how, re.Certainty, re.MayHaveBeenWritten())
		}
		if re.Topic != topic || re.Partition != 0 || !errors.Is(r.Err, wire.ErrMessageTooLarge) {
			t.Fatalf("%s: %+v / %+v", how, re, r)
		}
	}
	r, err := p.Produce(ctx, big)
	check("Produce", r, err)

	d, err := p.Send(ctx, &big)
	if err != nil {
		t.Fatal(err)
	}
	r, err = d.Wait(ctx)
	check("Wait", r, err)

	// A record that fits is written: no error.
	if r, err := p.Produce(ctx, producer.Record{Topic: topic, Value: []byte("small")}); err != nil || r.Offset < 0 {
		t.Fatalf("small record: %+v %v", r, err)
	}
}
