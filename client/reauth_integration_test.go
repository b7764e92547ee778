package client

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/wire"
)

// reauthLifetime is the SASL session lifetime of TestIntegrationReauthentication's
// broker. The broker reads a connection's requests one at a time, so a request
// written just before re-authentication (due at 85-95% of the lifetime) may be
// read up to 5% later; 5s leaves 250ms for that even on a loaded CI machine.
const reauthLifetime = 5 * time.Second

// TestIntegrationReauthentication runs on its own broker whose SASL sessions
// last 5s (connections.max.reauth.ms, KIP-368). Clients keep their
// connections busy until they re-authenticated twice (pipelined Metadata and
// ApiVersions requests from eight goroutines) with PLAIN over SASL_PLAINTEXT, SCRAM-SHA-256 over
// SASL_SSL and OAUTHBEARER on the OAUTH listener: every request succeeds, no connection closes and each client
// re-authenticates at least twice. A control connection that
// skips re-authentication, as a client without KIP-368 would, is closed by
// the broker when used after its session ends: the broker does enforce the
// lifetime, so the clients above kept their connections only by
// re-authenticating.
func TestIntegrationReauthentication(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cluster, err := kafkatest.Start(ctx, kafkatest.Options{Log: t.Logf,
		BrokerConfig: map[string]string{"connections.max.reauth.ms": strconv.Itoa(int(reauthLifetime.Milliseconds()))}})
	if err != nil {
		t.Fatalf("kafkatest: no Kafka: %v", err)
	}
	t.Cleanup(func() { _ = cluster.Close() })

	cases := []struct {
		name     string
		listener kafkatest.Listener
		sasl     *SASL
		mech     Mechanism
	}{
		{"plain", kafkatest.SASLPlaintext, &SASL{SASLPlain, kafkatest.AdminUser, kafkatest.AdminPassword}, nil},
		{"ssl-scram-sha-256", kafkatest.SASLSSL, &SASL{SASLScramSHA256, kafkatest.AdminUser, kafkatest.AdminPassword}, nil},
		// Hour-long tokens: the broker's 5s session lifetime alone drives
		// re-authentication, each with the source's (cached) token.
		{"oauthbearer", kafkatest.OAuth, nil, OAuthBearer(RefreshingToken(func(context.Context) (Token, error) {
			exp := time.Now().Add(time.Hour)
			return Token{Value: kafkatest.UnsecuredJWS(kafkatest.AdminUser, exp), Expiry: exp}, nil
		}))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := Config{Bootstrap: cluster.Bootstrap(tc.listener), SASL: tc.sasl, Mechanism: tc.mech, ExpectedClusterID: cluster.ClusterID()}
			if tc.listener == kafkatest.SASLSSL {
				cfg.TLS = tlsConfig(t, cluster.CAPEM())
			}
			c := newTestClient(t, cfg)
			ctx := testCtx(t, time.Minute)
			// The workers stop once the client has re-authenticated
			// twice (due by 1.9 lifetimes after the connection
			// authenticated), or when the minute's budget ends (then the
			// check below fails). A fixed 2 lifetimes + 1s from here
			// (as before) left 1.5s for the connect, the SASL exchanges
			// and the waits for in-flight requests before each
			// re-authentication, which a loaded machine exceeded.
			var stop atomic.Bool
			go func() {
				for !stop.Load() && ctx.Err() == nil && c.Metrics().Conns.Reauthentications < 2 {
					time.Sleep(10 * time.Millisecond) // polling interval of a condition wait
				}
				stop.Store(true)
			}()
			const workers = 8
			errs := make(chan error, workers)
			for w := range workers {
				go func() {
					for !stop.Load() {
						var req wire.Request = &wire.MetadataRequest{Topics: []wire.MetadataRequestTopic{}}
						if w%2 == 1 {
							req = &wire.ApiVersionsRequest{ClientSoftwareName: "gregor-test", ClientSoftwareVersion: "1"}
						}
						if _, err := c.Request(ctx, 1, req); err != nil {
							errs <- err
							return
						}
					}
					errs <- nil
				}()
			}
			var failed error
			for range workers {
				if err := <-errs; err != nil && failed == nil {
					failed = err
					stop.Store(true)
				}
			}
			if failed != nil {
				t.Fatalf("request while sessions expire: %v", failed)
			}
			m := c.Metrics()
			t.Logf("%s: %d requests, connections %+v", tc.name, m.Calls.Succeeded, m.Conns)
			if m.Calls.Failed != 0 || m.Conns.Closed != 0 || m.Conns.Reauthentications < 2 {
				t.Fatalf("calls %+v, connections %+v: want no failure, no connection closed, >= 2 re-authentications", m.Calls, m.Conns)
			}
		})
	}
	t.Run("control-without-reauthentication", func(t *testing.T) {
		t.Parallel()
		c := newTestClient(t, Config{Bootstrap: cluster.Bootstrap(kafkatest.SASLPlaintext),
			SASL: &SASL{SASLPlain, kafkatest.AdminUser, kafkatest.AdminPassword}})
		ctx := testCtx(t, time.Minute)
		if _, err := c.Request(ctx, 1, &wire.MetadataRequest{Topics: []wire.MetadataRequestTopic{}}); err != nil {
			t.Fatal(err)
		}
		// The broker's session started when it answered SaslAuthenticate,
		// before this Metadata's answer: measuring from before the Request
		// (as before) missed the connect and SASL exchange, which take more
		// than the 300ms margin under load, and the next Metadata then
		// arrived inside the session.
		authed := time.Now()
		for _, cn := range c.pool.live() {
			cn.wlock <- struct{}{} // reauthAt belongs to the writer path
			cn.reauthAt = 0
			<-cn.wlock
		}
		waitFor(t, "the session to expire", 10*time.Second, func() bool { return time.Since(authed) > reauthLifetime+300*time.Millisecond })
		// Metadata is read-only: the client retries it on a new connection.
		if _, err := c.Request(ctx, 1, &wire.MetadataRequest{Topics: []wire.MetadataRequestTopic{}}); err != nil {
			t.Fatalf("Metadata after the expired connection closed: %v", err)
		}
		if m := c.Metrics().Conns; m.Closed == 0 || m.Reauthentications != 0 {
			t.Fatalf("connections %+v: want the broker to have closed the expired connection", m)
		}
	})
}
