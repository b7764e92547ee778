package kafkatest_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/kafkatest"
)

// Example starts a single-node cluster, connects gregor's client over
// SASL_SSL with SCRAM and lists the brokers. In a test, StartForTest does
// the start and the Close, and fails the test if Kafka cannot start.
// kafkatest_test.go runs the same steps against the real broker.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c, err := kafkatest.Start(ctx, kafkatest.Options{Log: log.Printf})
	if err != nil {
		log.Fatal(err) // errors.Is(err, kafkatest.ErrNoJDK), ErrNoJars, ErrStartup
	}
	defer c.Close()

	cfg, err := c.ClientConfig(kafkatest.SASLSSL, "SCRAM-SHA-512", kafkatest.AdminUser, kafkatest.AdminPassword)
	if err != nil {
		log.Fatal(err)
	}
	cl, err := client.New(cfg)
	if err != nil {
		log.Fatal(err)
	}
	defer cl.Close(context.Background())
	d, err := admin.New(cl, admin.Config{}).DescribeCluster(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.ClusterID == c.ClusterID(), len(d.Brokers))
}

// ExampleCluster_KillBroker tests a client through a broker failure: on a
// cluster of three brokers (replication factor 3, min.insync.replicas 2 by
// default) one broker is killed, the test goes on producing, and the broker
// is started again with its data.
func ExampleCluster_KillBroker() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c, err := kafkatest.Start(ctx, kafkatest.Options{Shape: kafkatest.ThreeBrokers})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	fmt.Println(c.BrokerIDs(), len(c.Bootstrap(kafkatest.Plaintext)))
	if err := c.KillBroker(ctx, 2); err != nil { // SIGKILL; StopBroker is a clean shutdown
		log.Fatal(err)
	}
	fmt.Println(len(c.Bootstrap(kafkatest.Plaintext))) // the running brokers
	// ... produce with acks=all: 2 of 3 replicas are in sync ...
	if err := c.RestartBroker(ctx, 2); err != nil {
		log.Fatal(err)
	}
}
