package properties

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
)

// TestIntegrationJavaClientProperties connects with the properties files
// the test bed writes for Kafka's own Java tools, on every listener.
func TestIntegrationJavaClientProperties(t *testing.T) {
	cl := kafkatest.Shared(t)
	cases := []struct {
		l    kafkatest.Listener
		mech string
	}{
		{kafkatest.Plaintext, ""},
		{kafkatest.SSL, ""},
		{kafkatest.SASLPlaintext, "PLAIN"},
		{kafkatest.SASLSSL, "SCRAM-SHA-512"},
		{kafkatest.MTLS, ""},             // ssl.keystore.location: alice's client certificate
		{kafkatest.OAuth, "OAUTHBEARER"}, // OAuthBearerLoginModule's unsecured login (test-only validator)
	}
	for _, tc := range cases {
		t.Run(string(tc.l)+tc.mech, func(t *testing.T) {
			path, err := cl.WriteClientProperties(tc.l, tc.mech, kafkatest.AliceUser, kafkatest.AlicePassword)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			p["bootstrap.servers"] = cl.Bootstrap(tc.l)[0]
			cfg, err := Client(p)
			if err != nil {
				t.Fatal(err)
			}
			tls := tc.l == kafkatest.SSL || tc.l == kafkatest.SASLSSL || tc.l == kafkatest.MTLS
			if (cfg.TLS != nil) != tls || (cfg.SASL != nil || cfg.Mechanism != nil) != (tc.mech != "") || (tc.l == kafkatest.MTLS) != (cfg.TLS != nil && len(cfg.TLS.Certificates) == 1) {
				t.Fatalf("TLS %v SASL %v for %s", cfg.TLS != nil, cfg.SASL != nil, tc.l)
			}
			c, err := client.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close(context.Background())
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			if err := c.Ready(ctx); err != nil {
				t.Fatalf("Ready over %s: %v", tc.l, err)
			}
			if md := c.CachedMetadata(); md == nil || md.ClusterID == nil || *md.ClusterID != cl.ClusterID() {
				t.Fatalf("metadata %+v, want cluster %s", md, cl.ClusterID())
			}
		})
	}
}

// TestIntegrationOAuthBearerTokenFile: sasl.oauthbearer.token.endpoint.url
// naming a file that holds a token authenticates on the OAUTHBEARER
// listener; an expired token in that file is refused with
// client.ErrAuthentication.
func TestIntegrationOAuthBearerTokenFile(t *testing.T) {
	cl := kafkatest.Shared(t)
	for _, tc := range []struct {
		name string
		exp  time.Time
		ok   bool
	}{{"valid", time.Now().Add(time.Hour), true}, {"expired", time.Now().Add(-time.Hour), false}} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "token.jwt")
			if err := os.WriteFile(path, []byte(kafkatest.UnsecuredJWS(kafkatest.AdminUser, tc.exp)), 0o600); err != nil {
				t.Fatal(err)
			}
			cfg, err := Client(map[string]string{"bootstrap.servers": cl.Bootstrap(kafkatest.OAuth)[0],
				"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "OAUTHBEARER",
				"sasl.oauthbearer.token.endpoint.url": "file://" + path,
				"sasl.jaas.config":                    "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;"})
			if err != nil {
				t.Fatal(err)
			}
			c, err := client.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close(context.Background())
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			err = c.Ready(ctx)
			t.Logf("Ready: %v", err)
			if tc.ok && err != nil || !tc.ok && !errors.Is(err, client.ErrAuthentication) {
				t.Fatalf("Ready with a %s token: %v", tc.name, err)
			}
		})
	}
}

// TestIntegrationGroupFromJavaProperties: a Java group consumer's
// properties file (the test bed's SASL_SSL client file plus group.id,
// group.protocol, session and poll intervals, Java's assignor class names)
// builds a consumer.GroupConfig with Group; the member joins on the real
// broker, receives every record and, with enable.auto.commit=false, commits
// them itself: the group's lag is then 0 on both partitions.
func TestIntegrationGroupFromJavaProperties(t *testing.T) {
	cl := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	path, err := cl.WriteClientProperties(kafkatest.SASLSSL, "SCRAM-SHA-512", kafkatest.AdminUser, kafkatest.AdminPassword)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	topic := kafkatest.UniqueName(t, "props-group")
	p["bootstrap.servers"] = cl.Bootstrap(kafkatest.SASLSSL)[0]
	p["group.id"] = topic + "-g"
	p["group.protocol"] = "classic"
	p["session.timeout.ms"] = "10000"
	p["heartbeat.interval.ms"] = "500"
	p["max.poll.interval.ms"] = "30000"
	p["enable.auto.commit"] = "false"
	p["partition.assignment.strategy"] = "org.apache.kafka.clients.consumer.CooperativeStickyAssignor"
	p["fetch.max.wait.ms"] = "100"
	ccfg, gcfg, err := Group(p)
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(ccfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	adm := admin.New(c, admin.Config{})
	if res, err := adm.CreateTopics(ctx, []admin.NewTopic{{Name: topic, Partitions: 2, ReplicationFactor: 1}}, admin.TopicOptions{WaitVisible: true}); err != nil || res[0].Err != nil {
		t.Fatalf("CreateTopics: %v %v", err, res)
	}
	pr, err := producer.New(c, producer.Config{})
	if err != nil {
		t.Fatal(err)
	}
	const n = 10
	for i := range n {
		d, err := pr.Send(ctx, &producer.Record{Topic: topic, Partition: producer.ToPartition(int32(i % 2)), Value: []byte{byte(i)}})
		if err != nil {
			t.Fatal(err)
		}
		if r, err := d.Wait(ctx); err != nil || r.Err != nil {
			t.Fatalf("produce: %v %v", err, r.Err)
		}
	}
	_ = pr.Close(ctx)
	gcfg.Topics = []string{topic}
	g, err := consumer.NewGroup(c, gcfg)
	if err != nil {
		t.Fatal(err)
	}
	got := 0
	for got < n {
		recs, err := g.Receive(ctx)
		if err != nil {
			t.Fatalf("Receive after %d records: %v", got, err)
		}
		got += len(recs)
	}
	if err := g.CommitDelivered(ctx); err != nil {
		t.Fatal(err)
	}
	if err := g.Close(ctx); err != nil {
		t.Fatal(err)
	}
	lag, err := adm.Lag(ctx, gcfg.GroupID, admin.LagOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(lag.Partitions) != 2 || lag.Total != 0 {
		t.Fatalf("lag after committing every record: %+v", lag)
	}
}
