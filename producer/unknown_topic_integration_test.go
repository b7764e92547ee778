package producer_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

// TestIntegrationUnknownTopicFailsFast: on the real broker, with the
// default UnknownTopicRetries, a record for a topic that does not exist
// fails with UNKNOWN_TOPIC_OR_PARTITION, certainty NotSent, within seconds
// rather than at the 120s DeliveryTimeout; once the topic is created a
// record for it is delivered; and a record waiting for a topic that is
// created while it waits is delivered too.
func TestIntegrationUnknownTopicFailsFast(t *testing.T) {
	cluster := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cl, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext)})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	p, err := producer.New(cl, producer.Config{Linger: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(ctx)
	adm := admin.New(cl, admin.Config{})
	create := func(topic string) {
		t.Helper()
		res, err := adm.CreateTopics(ctx, []admin.NewTopic{{Name: topic, Partitions: 1, ReplicationFactor: 1}}, admin.TopicOptions{WaitVisible: true})
		if err == nil {
			err = res[0].Err
		}
		if err != nil {
			t.Fatalf("CreateTopics %s: %v", topic, err)
		}
	}
	send := func(topic string) producer.Result {
		t.Helper()
		d, err := p.Send(ctx, &producer.Record{Topic: topic, Value: []byte("v")})
		if err != nil {
			t.Fatal(err)
		}
		r, err := d.Wait(ctx)
		if err != nil && r.Err == nil {
			t.Fatalf("no result: %v", err)
		}
		return r
	}

	missing := kafkatest.UniqueName(t, "unknown-topic")
	start := time.Now()
	r := send(missing)
	elapsed := time.Since(start)
	t.Logf("record for a missing topic failed after %v: %v (%v)", elapsed, r.Err, r.Certainty)
	if !errors.Is(r.Err, wire.ErrUnknownTopicOrPartition) || errors.Is(r.Err, producer.ErrDeliveryTimeout) || r.Certainty != client.NotSent {
		t.Fatalf("result %v (%v): want UNKNOWN_TOPIC_OR_PARTITION, NotSent", r.Err, r.Certainty)
	}
	if elapsed > 30*time.Second {
		t.Fatalf("failed after %v: want a few seconds, far below DeliveryTimeout", elapsed)
	}

	create(missing)
	if r := send(missing); r.Err != nil {
		t.Fatalf("record after the topic was created: %v", r.Err)
	}

	// A topic created while a record waits for it (with room for a slow
	// CreateTopics on a loaded machine).
	p2, err := producer.New(cl, producer.Config{Linger: -1, UnknownTopicRetries: 50})
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Close(ctx)
	late := kafkatest.UniqueName(t, "late-topic")
	d, err := p2.Send(ctx, &producer.Record{Topic: late, Value: []byte("v")})
	if err != nil {
		t.Fatal(err)
	}
	for { // until the producer's refresh has seen the topic missing
		if md := cl.CachedMetadata(); md != nil && md.Topics[late] != nil && errors.Is(md.Topics[late].Err, wire.ErrUnknownTopicOrPartition) {
			break
		}
		if _, done := d.Result(); done || ctx.Err() != nil {
			t.Fatal("the record ended before metadata reported its topic missing")
		}
		time.Sleep(5 * time.Millisecond) // polling interval of a condition wait
	}
	create(late)
	if r, err := d.Wait(ctx); err != nil || r.Err != nil {
		t.Fatalf("record waiting while its topic was created: %v %v", err, r.Err)
	}
}
