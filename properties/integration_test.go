package properties

import (
	"context"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
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
		{kafkatest.MTLS, ""}, // ssl.keystore.location: alice's client certificate
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
			if (cfg.TLS != nil) != tls || (cfg.SASL != nil) != (tc.mech != "") || (tc.l == kafkatest.MTLS) != (cfg.TLS != nil && len(cfg.TLS.Certificates) == 1) {
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
