package kafkatest_test

import (
	"context"
	"errors"
	"github.com/gregor-kafka/gregor"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
)

// TestStartRoundTrip starts its own single-node cluster (failing, never
// skipping, if Kafka cannot start), round-trips a record through gregor
// connected over SASL_SSL with SCRAM from ClientConfig, and checks the
// typed errors of the broker calls.
func TestStartRoundTrip(t *testing.T) {
	c := kafkatest.StartForTest(t, kafkatest.Options{})
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	if ids := c.BrokerIDs(); len(ids) != 1 || ids[0] != 1 || c.Shape() != kafkatest.SingleNode {
		t.Fatalf("brokers %v, shape %q", ids, c.Shape())
	}
	cfg, err := c.ClientConfig(kafkatest.SASLSSL, "SCRAM-SHA-512", kafkatest.AdminUser, kafkatest.AdminPassword)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	adm := admin.New(cl, admin.Config{})
	d, err := adm.DescribeCluster(ctx)
	if err != nil || d.ClusterID != c.ClusterID() {
		t.Fatalf("DescribeCluster: %+v, %v; want cluster %s", d, err, c.ClusterID())
	}
	res, err := adm.CreateTopics(ctx, []admin.NewTopic{{Name: "t", Partitions: 1, ReplicationFactor: -1}}, admin.TopicOptions{WaitVisible: true})
	if err != nil || res[0].Err != nil {
		t.Fatalf("CreateTopics: %v %+v", err, res)
	}
	p, err := producer.New(cl, producer.Config{})
	if err != nil {
		t.Fatal(err)
	}
	dv, err := p.Send(ctx, &producer.Record{Topic: "t", Partition: producer.ToPartition(0), Key: []byte("k"), Value: []byte("v")})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := dv.Wait(ctx); err != nil || r.Err != nil {
		t.Fatalf("produce: %v, %v", err, r.Err)
	}
	if err := p.Close(ctx); err != nil {
		t.Fatal(err)
	}
	cons, err := consumer.New(cl, consumer.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer cons.Close(context.Background())
	tp := gregor.TopicPartition{Topic: "t", Partition: 0}
	if err := cons.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	recs, err := cons.Receive(ctx)
	if err != nil || len(recs) != 1 || string(recs[0].Key) != "k" || string(recs[0].Value) != "v" || recs[0].Offset != 0 {
		t.Fatalf("consumed %+v, %v", recs, err)
	}

	if err := c.RestartBroker(ctx, 1); !errors.Is(err, kafkatest.ErrBrokerRunning) {
		t.Fatalf("RestartBroker of a running broker: %v, want ErrBrokerRunning", err)
	}
	if err := c.KillBroker(ctx, 7); !errors.Is(err, kafkatest.ErrUnknownBroker) {
		t.Fatalf("KillBroker(7): %v, want ErrUnknownBroker", err)
	}
	if _, err := kafkatest.Start(ctx, kafkatest.Options{Shape: "2+2"}); err == nil {
		t.Fatal("Start with an unknown shape succeeded")
	}
}
