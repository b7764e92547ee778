package producercheck

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/testlab/internal/labtest"
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
	defer gcl.Close(context.Background())
	if err := gcl.Ready(labtest.Ctx(t, 30*time.Second)); err != nil {
		t.Fatal(err)
	}
	p, err := producer.New(gcl, producer.Config{DeliveryTimeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(labtest.Ctx(t, 10*time.Second))
	start := time.Now()
	d, err := p.TrySend(&producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: []byte("denied")})
	if err != nil {
		t.Fatal(err)
	}
	r, err := d.Wait(labtest.Ctx(t, 30*time.Second))
	if err != nil && r.Err == nil {
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

// TestWriteGrantedAfterDenial: alice may initialise an idempotent producer
// (Write on another topic, KIP-679) but not write topic t, so her first
// record fails TOPIC_AUTHORIZATION_FAILED. Then Write and Describe on t are
// granted with AclCommand; the SAME producer's next record must look the
// topic up again and be acknowledged (a stale cached authorization error
// must not doom records admitted after it was observed). franz-go reads t
// back: exactly the granted record.
func TestWriteGrantedAfterDenial(t *testing.T) {
	b := newBed(t)
	topic := b.topic(1)
	other := kafkatest.UniqueName(t, "pc-other")
	cl := kafkatest.Shared(t)
	acl := func(args ...string) {
		t.Helper()
		base := []string{"--bootstrap-server", strings.Join(cl.Bootstrap(kafkatest.Plaintext), ","), "--add",
			"--allow-principal", "User:" + kafkatest.AliceUser}
		if out, err := cl.RunTool(labtest.Ctx(t, 60*time.Second), "org.apache.kafka.tools.AclCommand", append(base, args...)...); err != nil {
			t.Fatalf("AclCommand %v: %v\n%s", args, err, out)
		}
		// Brokers apply an ACL from the metadata log a moment after the
		// controller commits it: wait until a broker lists it.
		ctx := labtest.Ctx(t, 60*time.Second)
		for {
			out, err := cl.RunTool(ctx, "org.apache.kafka.tools.AclCommand", "--bootstrap-server",
				strings.Join(cl.Bootstrap(kafkatest.Plaintext), ","), "--list", "--topic", args[len(args)-1])
			if err == nil && strings.Contains(out, "principal=User:"+kafkatest.AliceUser) {
				return
			}
			if ctx.Err() != nil {
				t.Fatalf("ACL %v not listed: %v\n%s", args, err, out)
			}
		}
	}
	acl("--operation", "Write", "--topic", other)

	gcl, err := client.New(client.Config{
		Bootstrap: cl.Bootstrap(kafkatest.SASLPlaintext),
		SASL:      &client.SASL{Mechanism: client.SASLPlain, Username: kafkatest.AliceUser, Password: kafkatest.AlicePassword},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer gcl.Close(context.Background())
	if err := gcl.Ready(labtest.Ctx(t, 30*time.Second)); err != nil {
		t.Fatal(err)
	}
	p, err := producer.New(gcl, producer.Config{DeliveryTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(labtest.Ctx(t, 10*time.Second))
	send := func(value string) producer.Result {
		t.Helper()
		d, err := p.TrySend(&producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: []byte(value)})
		if err != nil {
			t.Fatal(err)
		}
		r, err := d.Wait(labtest.Ctx(t, 40*time.Second))
		if err != nil && r.Err == nil {
			t.Fatal(err)
		}
		return r
	}
	if r := send("denied"); !errors.Is(r.Err, wire.ErrTopicAuthorizationFailed) || r.Certainty != client.NotSent {
		t.Fatalf("before the grant: want TOPIC_AUTHORIZATION_FAILED, NotSent; got %v (%v)", r.Err, r.Certainty)
	}
	acl("--operation", "Write", "--operation", "Describe", "--topic", topic)
	r := send("granted")
	if r.Err != nil {
		t.Fatalf("after the grant the same producer still fails: %v (%v)", r.Err, r.Certainty)
	}
	recs := b.readAll(topic, 1)
	if len(recs) != 1 || string(recs[0].Value) != "granted" || recs[0].Offset != r.Offset {
		t.Fatalf("franz-go read %d records (want exactly the granted one at offset %d)", len(recs), r.Offset)
	}
}
