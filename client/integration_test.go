package client

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"log/slog"
	"math/big"
	"net"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/wire"
)

// These tests run against the real Kafka of the test bed (make test, or make
// kafka-up and GREGOR_KAFKA_STATE); kafkatest.Shared fails them when it is
// not there.

func tlsConfig(t testing.TB, caPEM []byte) *tls.Config {
	t.Helper()
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		t.Fatal("no certificate in CA PEM")
	}
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
}

// otherCAPEM is a freshly made self-signed CA the brokers' certificate does
// not chain to.
func otherCAPEM(t testing.TB) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "not the test bed CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// checkConnected asserts that a client is ready, negotiated versions and
// sees the test bed's cluster.
func checkConnected(t *testing.T, c *Client, cluster *kafkatest.Cluster) {
	t.Helper()
	ctx := testCtx(t, 30*time.Second)
	if err := c.Ready(ctx); err != nil {
		t.Fatalf("Ready: %v", err)
	}
	md := c.CachedMetadata()
	if md == nil || md.ClusterID == nil || *md.ClusterID != cluster.ClusterID() {
		t.Fatalf("metadata %+v, want cluster %s", md, cluster.ClusterID())
	}
	if len(md.Brokers) != len(cluster.BrokerIDs()) {
		t.Fatalf("brokers %+v, want %v", md.Brokers, cluster.BrokerIDs())
	}
	vs, err := c.BrokerVersions(ctx, md.Brokers[0].NodeID)
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := vs[wire.KeyMetadata]; !ok || r[1] < 12 {
		t.Fatalf("broker Metadata range %v", r)
	}
}

func TestIntegrationConnectAndNegotiate(t *testing.T) {
	cluster := kafkatest.Shared(t)
	cases := []struct {
		name     string
		listener kafkatest.Listener
		tls      bool
		sasl     *SASL
	}{
		{"plaintext", kafkatest.Plaintext, false, nil},
		{"tls", kafkatest.SSL, true, nil},
		{"sasl-plain", kafkatest.SASLPlaintext, false, &SASL{SASLPlain, kafkatest.AdminUser, kafkatest.AdminPassword}},
		{"sasl-scram-sha-256", kafkatest.SASLPlaintext, false, &SASL{SASLScramSHA256, kafkatest.AliceUser, kafkatest.AlicePassword}},
		{"sasl-scram-sha-512", kafkatest.SASLPlaintext, false, &SASL{SASLScramSHA512, kafkatest.AdminUser, kafkatest.AdminPassword}},
		{"sasl-ssl-scram-sha-512", kafkatest.SASLSSL, true, &SASL{SASLScramSHA512, kafkatest.AliceUser, kafkatest.AlicePassword}},
		{"sasl-ssl-plain", kafkatest.SASLSSL, true, &SASL{SASLPlain, kafkatest.AliceUser, kafkatest.AlicePassword}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Config{Bootstrap: cluster.Bootstrap(tc.listener), SASL: tc.sasl, ExpectedClusterID: cluster.ClusterID()}
			if tc.tls {
				cfg.TLS = tlsConfig(t, cluster.CAPEM())
			}
			c := newTestClient(t, cfg)
			checkConnected(t, c, cluster)
			if m := c.Metrics(); m.Calls.Failed != 0 || m.Calls.Succeeded == 0 {
				t.Fatalf("calls %+v", m.Calls)
			}
		})
	}
}

func TestIntegrationWrongPassword(t *testing.T) {
	cluster := kafkatest.Shared(t)
	for _, mech := range []SASLMechanism{SASLPlain, SASLScramSHA256, SASLScramSHA512} {
		t.Run(string(mech), func(t *testing.T) {
			const secret = "definitely-wrong-secret"
			var logs syncBuffer
			c := newTestClient(t, Config{Bootstrap: cluster.Bootstrap(kafkatest.SASLPlaintext),
				SASL:   &SASL{mech, kafkatest.AliceUser, secret},
				Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
			err := c.Ready(testCtx(t, 30*time.Second))
			if !errors.Is(err, ErrAuthentication) || !errors.Is(err, wire.ErrSASLAuthenticationFailed) {
				t.Fatalf("Ready: %v, want ErrAuthentication wrapping SASL_AUTHENTICATION_FAILED", err)
			}
			if CertaintyOf(err) != NotSent {
				t.Fatalf("certainty of %v", err)
			}
			if strings.Contains(err.Error(), secret) || strings.Contains(logs.String(), secret) {
				t.Fatalf("error or log reveals the password: %v\n%s", err, logs.String())
			}
			if !strings.Contains(logs.String(), "connection closed") {
				t.Fatalf("expected a debug log of the failed connection, got %q", logs.String())
			}
			if m := c.Metrics(); m.Failures.Authentication != 1 {
				t.Fatalf("authentication failures %d", m.Failures.Authentication)
			}
		})
	}
}

func TestIntegrationWrongCA(t *testing.T) {
	cluster := kafkatest.Shared(t)
	c := newTestClient(t, Config{Bootstrap: cluster.Bootstrap(kafkatest.SSL), TLS: tlsConfig(t, otherCAPEM(t))})
	err := c.Ready(testCtx(t, 30*time.Second))
	var verr *tls.CertificateVerificationError
	if !errors.Is(err, ErrAuthentication) || !errors.As(err, &verr) {
		t.Fatalf("Ready: %v, want ErrAuthentication wrapping a certificate verification error", err)
	}
}

func TestIntegrationWrongClusterID(t *testing.T) {
	cluster := kafkatest.Shared(t)
	c := newTestClient(t, Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext), ExpectedClusterID: "AAAAAAAAAAAAAAAAAAAAAA"})
	err := c.Ready(testCtx(t, 30*time.Second))
	if !errors.Is(err, ErrClusterIdentity) {
		t.Fatalf("Ready: %v, want ErrClusterIdentity", err)
	}
	if m := c.Metrics(); m.Failures.Negotiation != 1 {
		t.Fatalf("negotiation failures %d", m.Failures.Negotiation)
	}
}

// createTopic creates a topic with our own client and waits until every
// partition has a leader.
func createTopic(t *testing.T, c *Client, name string, partitions int32, rf int16) {
	t.Helper()
	ctx := testCtx(t, 60*time.Second)
	r, err := c.RequestController(ctx, &wire.CreateTopicsRequest{TimeoutMs: 30000,
		Topics: []wire.CreateTopicsTopic{{Name: name, NumPartitions: partitions, ReplicationFactor: rf}}})
	if err != nil {
		t.Fatal(err)
	}
	if res := r.(*wire.CreateTopicsResponse).Topics[0]; res.ErrorCode != 0 {
		t.Fatalf("CreateTopics %s: %v", name, wire.ErrorForCode(res.ErrorCode))
	}
	waitFor(t, "leaders of "+name, 60*time.Second, func() bool {
		c.InvalidateMetadata()
		md, err := c.Metadata(ctx, []string{name})
		if err != nil {
			return false
		}
		tm := md.Topics[name]
		if tm == nil || tm.Err != nil || len(tm.Partitions) != int(partitions) {
			return false
		}
		for _, p := range tm.Partitions {
			if p.Leader < 0 {
				return false
			}
		}
		return true
	})
}

func TestIntegrationMetadataAndCoordinator(t *testing.T) {
	cluster := kafkatest.Shared(t)
	c := newTestClient(t, Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext)})
	topic := kafkatest.UniqueName(t, "client-md")
	createTopic(t, c, topic, 3, 1)
	ctx := testCtx(t, 30*time.Second)
	md, err := c.Metadata(ctx, []string{topic, topic + "-missing"})
	if err != nil {
		t.Fatal(err)
	}
	tm := md.Topics[topic]
	if tm.ID.IsZero() || len(tm.Partitions) != 3 || tm.Partitions[2].Partition != 2 || len(tm.Partitions[0].Replicas) != 1 || len(tm.Partitions[0].ISR) != 1 {
		t.Fatalf("topic %+v", tm)
	}
	if m := md.Topics[topic+"-missing"]; m == nil || !errors.Is(m.Err, wire.ErrUnknownTopicOrPartition) {
		t.Fatalf("missing topic %+v", m)
	}
	leader, epoch, err := c.Leader(ctx, topic, 1)
	if err != nil || leader != 1 || epoch < 0 {
		t.Fatalf("Leader = %d %d %v", leader, epoch, err)
	}
	all, err := c.Metadata(ctx, nil)
	if err != nil || all.Topics[topic] == nil {
		t.Fatalf("all topics: %v", err)
	}
	group := kafkatest.UniqueName(t, "client-group")
	id, err := c.Coordinator(ctx, CoordinatorGroup, group)
	if err != nil || id != 1 {
		t.Fatalf("Coordinator = %d %v", id, err)
	}
	txn := kafkatest.UniqueName(t, "client-txn")
	if id, err := c.Coordinator(ctx, CoordinatorTransaction, txn); err != nil || id != 1 {
		t.Fatalf("transaction coordinator = %d %v", id, err)
	}
}

// TestIntegrationMetadataFollowsBrokerKill starts its own 1+3 cluster, kills
// the leader of a partition and checks that metadata moves the leadership
// with a larger epoch, then that the broker comes back after a restart;
// then, on the same cluster, checkRebootstrap. The client authenticates
// with SCRAM and logs at Debug: the kill, with a long-polling Fetch
// outstanding on the leader, produces the documented lines (checkKillLog).
func TestIntegrationMetadataFollowsBrokerKill(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cluster, err := kafkatest.Start(ctx, kafkatest.Options{Shape: kafkatest.ThreeBrokers, Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	logs := &lockedBuffer{}
	c := newTestClient(t, Config{Bootstrap: cluster.Bootstrap(kafkatest.SASLPlaintext), ExpectedClusterID: cluster.ClusterID(),
		SASL:         &SASL{SASLScramSHA512, kafkatest.AdminUser, kafkatest.AdminPassword},
		RetryBackoff: 50 * time.Millisecond, RetryBackoffMax: 500 * time.Millisecond,
		Logger: slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	topic := kafkatest.UniqueName(t, "client-kill")
	createTopic(t, c, topic, 1, 3)
	leader, epoch, err := c.Leader(ctx, topic, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("partition 0: leader %d epoch %d", leader, epoch)
	fetched := longPollFetch(ctx, t, c, topic, leader, epoch)
	if err := cluster.KillBroker(ctx, leader); err != nil {
		t.Fatal(err)
	}
	var newLeader, newEpoch int32
	waitFor(t, "leadership to move", 2*time.Minute, func() bool {
		c.InvalidateMetadata()
		l, e, err := c.Leader(ctx, topic, 0)
		newLeader, newEpoch = l, e
		return err == nil && l != leader
	})
	t.Logf("after killing %d: leader %d epoch %d", leader, newLeader, newEpoch)
	checkKillLog(t, logs, fetched, topic, leader)
	if newEpoch <= epoch {
		t.Fatalf("leader %d -> %d but epoch %d -> %d did not grow", leader, newLeader, epoch, newEpoch)
	}
	waitFor(t, "killed broker to leave metadata", 2*time.Minute, func() bool {
		c.InvalidateMetadata()
		md, err := c.Metadata(ctx, []string{topic})
		return err == nil && !slices.ContainsFunc(md.Brokers, func(b Broker) bool { return b.NodeID == leader })
	})
	// Requests to the killed broker fail NotSent (it is unknown now).
	rctx, rcancel := context.WithTimeout(ctx, 2*time.Second)
	_, err = c.Request(rctx, leader, &wire.MetadataRequest{Topics: []wire.MetadataRequestTopic{}})
	rcancel()
	if err == nil || CertaintyOf(err) != NotSent {
		t.Fatalf("request to killed broker %d: %v", leader, err)
	}

	if err := cluster.RestartBroker(ctx, leader); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "restarted broker back in metadata and ISR", 3*time.Minute, func() bool {
		c.InvalidateMetadata()
		md, err := c.Metadata(ctx, []string{topic})
		if err != nil || !slices.ContainsFunc(md.Brokers, func(b Broker) bool { return b.NodeID == leader }) {
			return false
		}
		return slices.Contains(md.Topics[topic].Partitions[0].ISR, leader)
	})
	if _, err := c.BrokerVersions(ctx, leader); err != nil {
		t.Fatalf("reconnect to restarted broker %d: %v", leader, err)
	}
	_, finalEpoch, err := c.Leader(ctx, topic, 0)
	if err != nil || finalEpoch < newEpoch {
		t.Fatalf("final epoch %d (was %d): %v", finalEpoch, newEpoch, err)
	}
	checkRebootstrap(ctx, t, cluster)
}

// checkRebootstrap (KIP-899) on a running 1+3 cluster: a client bootstraps
// from an alias (the test's dialer resolves it to one broker, as DNS or a
// load balancer would); every broker it knows from metadata stops and
// stays unreachable at its known address; one comes back behind the alias.
// After RebootstrapTrigger the client's Metadata is answered through the
// alias, from the same cluster. The cluster is left with brokers 1 and 3
// stopped.
func checkRebootstrap(ctx context.Context, t *testing.T, cluster *kafkatest.Cluster) {
	const alias = "kafka-bootstrap.test:9092"
	var (
		target atomic.Value // the broker address the alias resolves to
		gone   atomic.Bool  // the known (advertised) addresses refuse connections
	)
	target.Store(cluster.BrokerAddr(1, kafkatest.Plaintext))
	advertised := map[string]bool{}
	for _, id := range cluster.BrokerIDs() {
		advertised[cluster.BrokerAddr(id, kafkatest.Plaintext)] = true
	}
	const trigger = 2 * time.Second
	c := newTestClient(t, Config{Bootstrap: []string{alias}, ExpectedClusterID: cluster.ClusterID(),
		RebootstrapTrigger: trigger, RetryBackoff: 50 * time.Millisecond, RetryBackoffMax: 500 * time.Millisecond,
		Dialer: func(ctx context.Context, network, addr string) (net.Conn, error) {
			var d net.Dialer
			switch {
			case addr == alias:
				return d.DialContext(ctx, network, target.Load().(string))
			case gone.Load() && advertised[addr]:
				return nil, &net.OpError{Op: "dial", Net: network, Err: errors.New("connection refused (test: the broker moved)")}
			}
			return d.DialContext(ctx, network, addr)
		}})
	if err := c.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Request(ctx, 2, &wire.MetadataRequest{Topics: []wire.MetadataRequestTopic{}}); err != nil {
		t.Fatal(err) // a connection to a known broker
	}
	for _, id := range cluster.BrokerIDs() {
		if err := cluster.KillBroker(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	gone.Store(true)
	if err := cluster.RestartBroker(ctx, 2); err != nil {
		t.Fatal(err)
	}
	target.Store(cluster.BrokerAddr(2, kafkatest.Plaintext))
	c.InvalidateMetadata()
	start := time.Now()
	md, err := c.Metadata(ctx, []string{})
	elapsed := time.Since(start)
	if err != nil {
		t.Fatalf("Metadata after every known broker stopped: %v", err)
	}
	t.Logf("rebootstrapped after %v: brokers %+v, connections %+v", elapsed, md.Brokers, c.Metrics().Conns)
	if got := c.Metrics().Conns.Rebootstraps; got != 1 || elapsed < trigger {
		t.Fatalf("Rebootstraps %d after %v: want 1, after RebootstrapTrigger %v", got, elapsed, trigger)
	}
	if md.ClusterID == nil || *md.ClusterID != cluster.ClusterID() || !slices.ContainsFunc(md.Brokers, func(b Broker) bool { return b.NodeID == 2 }) {
		t.Fatalf("metadata after rebootstrap: cluster %v, brokers %+v", md.ClusterID, md.Brokers)
	}
}

func TestIntegrationConcurrentRequests(t *testing.T) {
	cluster := kafkatest.Shared(t)
	c := newTestClient(t, Config{Bootstrap: cluster.Bootstrap(kafkatest.SASLPlaintext),
		SASL: &SASL{SASLScramSHA256, kafkatest.AdminUser, kafkatest.AdminPassword}})
	ctx := testCtx(t, 60*time.Second)
	const workers, each = 16, 25
	errs := make(chan error, workers)
	for w := range workers {
		go func() {
			for i := range each {
				var err error
				switch (w + i) % 3 {
				case 0:
					_, err = c.Request(ctx, AnyBroker, &wire.MetadataRequest{Topics: []wire.MetadataRequestTopic{}})
				case 1:
					_, err = c.Coordinator(ctx, CoordinatorGroup, kafkatest.UniqueName(t, "g"))
				default:
					c.InvalidateMetadata()
					_, err = c.Metadata(ctx, nil)
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range workers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if m := c.Metrics(); m.Calls.Failed != 0 || m.Calls.Succeeded != m.Calls.Started {
		t.Fatalf("calls %+v", m.Calls)
	}
}
