package client_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"slices"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
)

// TestIntegrationIdleConsumerDoesNotDelayProduce: on the real broker, one
// client shared by an assigned consumer idle on an empty topic (its Fetch
// long-polls for MaxWait 5s) and a producer sending one record at a time.
// Each acknowledgement must come well under MaxWait: with one connection per
// broker, every Produce would queue behind the held Fetch and take about 5s.
// Over PLAINTEXT, and over SASL_SSL (SCRAM-SHA-512), where every lane's
// connection does its own TLS handshake and SASL authentication.
func TestIntegrationIdleConsumerDoesNotDelayProduce(t *testing.T) {
	cluster := kafkatest.Shared(t)
	t.Run("plaintext", func(t *testing.T) {
		idleConsumerBesideProducer(t, cluster, client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext)})
	})
	t.Run("sasl-ssl", func(t *testing.T) {
		roots := x509.NewCertPool()
		if !roots.AppendCertsFromPEM(cluster.CAPEM()) {
			t.Fatal("test bed CA: no certificate")
		}
		idleConsumerBesideProducer(t, cluster, client.Config{Bootstrap: cluster.Bootstrap(kafkatest.SASLSSL),
			TLS:  &tls.Config{RootCAs: roots},
			SASL: &client.SASL{Mechanism: client.SASLScramSHA512, Username: kafkatest.AdminUser, Password: kafkatest.AdminPassword}})
	})
}

func idleConsumerBesideProducer(t *testing.T, cluster *kafkatest.Cluster, cfg client.Config) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cl, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	idle, busy := kafkatest.UniqueName(t, "lanes-idle"), kafkatest.UniqueName(t, "lanes-busy")
	res, err := admin.New(cl, admin.Config{}).CreateTopics(ctx, []admin.NewTopic{
		{Name: idle, Partitions: 1, ReplicationFactor: 1}, {Name: busy, Partitions: 1, ReplicationFactor: 1},
	}, admin.TopicOptions{WaitVisible: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Err != nil {
			t.Fatalf("CreateTopics %s: %v", r.Name, r.Err)
		}
	}

	const maxWait = 5 * time.Second
	c, err := consumer.New(cl, consumer.Config{MaxWait: maxWait})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	if err := c.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: gregor.TopicPartition{Topic: idle, Partition: 0}, Position: consumer.AtEnd()}}); err != nil {
		t.Fatal(err)
	}
	p, err := producer.New(cl, producer.Config{Linger: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(ctx)

	fetching := func() bool { return cl.Metrics().Lanes[client.LaneFetch].InFlight > 0 }
	for !fetching() { // the consumer's first Fetch goes out at once
		if ctx.Err() != nil {
			t.Fatal("the consumer never had a Fetch in flight")
		}
		time.Sleep(time.Millisecond) // polling interval of a condition wait
	}
	const sends = 50
	var (
		lat         []time.Duration
		whileHeld   int
		start       = time.Now()
		fetchesSeen = cl.Metrics().Lanes[client.LaneFetch]
	)
	for i := range sends {
		held := fetching()
		t0 := time.Now()
		d, err := p.Send(ctx, &producer.Record{Topic: busy, Partition: producer.ToPartition(0), Value: []byte("x")})
		if err != nil {
			t.Fatal(err)
		}
		r, err := d.Wait(ctx)
		if err != nil || r.Err != nil {
			t.Fatalf("send %d: %v %v", i, err, r.Err)
		}
		lat = append(lat, time.Since(t0))
		if held {
			whileHeld++
		}
	}
	total := time.Since(start)
	slices.Sort(lat)
	m := cl.Metrics()
	t.Logf("%d acks in %v: p50 %v, p90 %v, max %v; %d sent while a Fetch was held; lanes %+v (before: fetch %+v)",
		sends, total, lat[sends/2], lat[sends*9/10], lat[sends-1], whileHeld, m.Lanes, fetchesSeen)
	// Behind the held Fetch, a produce would wait for the rest of its
	// MaxWait: 2.5s on average, up to 5s.
	if lat[sends/2] >= maxWait/10 || lat[sends-1] >= maxWait/2 {
		t.Fatalf("acknowledgements p50 %v, max %v: want well under MaxWait %v (head-of-line blocking behind the held Fetch)", lat[sends/2], lat[sends-1], maxWait)
	}
	if whileHeld < sends/2 {
		t.Fatalf("only %d of %d sends went out while a Fetch was held: the test did not exercise the long poll", whileHeld, sends)
	}
	if m.Lanes[client.LaneFetch].Connections != 1 || m.Lanes[client.LaneProduce].Connections != 1 {
		t.Fatalf("lanes %+v: want one fetch and one produce connection", m.Lanes)
	}
}
