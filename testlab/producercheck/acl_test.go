package producercheck

import (
	"errors"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

// TestWriteDeniedByACL: a user without ACLs produces to an existing topic.
// The failure is a typed broker authorization error with certainty NotSent,
// reported promptly rather than at the delivery timeout.
func TestWriteDeniedByACL(t *testing.T) {
	b := newBed(t)
	topic := b.topic(1)
	cl := kafkatest.Shared(t)
	gcl, err := client.New(client.Config{
		Bootstrap: cl.Bootstrap(kafkatest.SASLPlaintext),
		SASL:      &client.SASL{Mechanism: client.SASLPlain, Username: kafkatest.AliceUser, Password: kafkatest.AlicePassword},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer gcl.Close()
	if err := gcl.Ready(ctxFor(t, 30*time.Second)); err != nil {
		t.Fatal(err)
	}
	p, err := producer.New(gcl, producer.Config{DeliveryTimeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(ctxFor(t, 10*time.Second))
	start := time.Now()
	d, err := p.TrySend(&producer.Message{Topic: topic, Partition: 0, Value: []byte("denied")})
	if err != nil {
		t.Fatal(err)
	}
	r, err := d.Wait(ctxFor(t, 30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("after %v: %v (%v)", time.Since(start), r.Err, r.Certainty)
	var kerr *wire.KafkaError
	if !errors.As(r.Err, &kerr) || (kerr.Code != wire.ErrTopicAuthorizationFailed.Code && kerr.Code != wire.ErrClusterAuthorizationFailed.Code) {
		t.Fatalf("want an authorization error, got %v", r.Err)
	}
	if r.Certainty != client.NotSent || time.Since(start) > 10*time.Second {
		t.Fatalf("certainty %v after %v", r.Certainty, time.Since(start))
	}
}
