package client_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/internal/secretscan"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

func secCtx(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// mtlsConfig trusts the cluster's CA and presents user's client certificate
// (none when user is "").
func mtlsConfig(t *testing.T, cl *kafkatest.Cluster, user string) *tls.Config {
	t.Helper()
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(cl.CAPEM()) {
		t.Fatal("no CA certificate")
	}
	cfg := &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	if user != "" {
		f := cl.ClientCertFile(user)
		cert, err := tls.LoadX509KeyPair(f, f)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg
}

func newClient(t *testing.T, cfg client.Config) *client.Client {
	t.Helper()
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close(context.Background()) })
	return c
}

// createTopic creates a one-partition topic as ANONYMOUS (a super user) on
// PLAINTEXT.
func createTopic(t *testing.T, cl *kafkatest.Cluster, prefix string) string {
	t.Helper()
	topic := kafkatest.UniqueName(t, prefix)
	ac := admin.New(newClient(t, client.Config{Bootstrap: cl.Bootstrap(kafkatest.Plaintext)}), admin.Config{})
	res, err := ac.CreateTopics(secCtx(t, 30*time.Second), []admin.NewTopic{{Name: topic, Partitions: 1, ReplicationFactor: -1}}, admin.TopicOptions{})
	if err != nil || res[0].Err != nil {
		t.Fatalf("CreateTopics %s: %v %+v", topic, err, res)
	}
	return topic
}

// roundTrip produces n records to topic through c and reads them back
// through c, and fails the test unless all come back in order.
func roundTrip(t *testing.T, c *client.Client, topic string, n int) {
	t.Helper()
	ctx := secCtx(t, 60*time.Second)
	p, err := producer.New(c, producer.Config{DeliveryTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(ctx)
	for i := range n {
		d, err := p.TrySend(&producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: fmt.Appendf(nil, "v%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		if r, err := d.Wait(ctx); err != nil || r.Err != nil {
			t.Fatalf("record %d: %v %v", i, err, r.Err)
		}
	}
	cs, err := consumer.New(c, consumer.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close(context.Background())
	if err := cs.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: gregor.TopicPartition{Topic: topic, Partition: 0}, Position: consumer.AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for len(got) < n {
		recs, err := cs.Receive(ctx)
		if err != nil {
			t.Fatalf("Receive after %d records: %v", len(got), err)
		}
		for _, r := range recs {
			got = append(got, string(r.Value))
		}
	}
	for i, v := range got {
		if v != fmt.Sprintf("v%d", i) {
			t.Fatalf("record %d is %q; got %q", i, v, got)
		}
	}
}

// TestIntegrationMTLSRoundTrip: a producer and a consumer authenticated by
// admin's client certificate on the MTLS listener (ssl.client.auth=required)
// write and read back 20 records.
func TestIntegrationMTLSRoundTrip(t *testing.T) {
	cl := kafkatest.Shared(t)
	topic := createTopic(t, cl, "mtls-rt")
	c := newClient(t, client.Config{Bootstrap: cl.Bootstrap(kafkatest.MTLS), TLS: mtlsConfig(t, cl, kafkatest.AdminUser)})
	roundTrip(t, c, topic, 20)
}

// TestIntegrationMTLSRefused: the MTLS listener refuses a client with no
// certificate and one whose certificate another CA signed; both fail
// Ready with ErrAuthentication (not a retriable transport error).
func TestIntegrationMTLSRefused(t *testing.T) {
	cl := kafkatest.Shared(t)
	foreign, err := kafkatest.SignedCert(nil, nil, pkix.Name{CommonName: kafkatest.AdminUser, Organization: []string{"gregor"}})
	if err != nil {
		t.Fatal(err)
	}
	foreignCert, err := tls.X509KeyPair(foreign, foreign)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		certs []tls.Certificate
	}{{"no-certificate", nil}, {"other-ca", []tls.Certificate{foreignCert}}} {
		t.Run(tc.name, func(t *testing.T) {
			tcfg := mtlsConfig(t, cl, "")
			tcfg.Certificates = tc.certs
			c := newClient(t, client.Config{Bootstrap: cl.Bootstrap(kafkatest.MTLS), TLS: tcfg})
			err := c.Ready(secCtx(t, 20*time.Second))
			t.Logf("%s: %v", tc.name, err)
			if !errors.Is(err, client.ErrAuthentication) {
				t.Fatalf("want ErrAuthentication, got %v", err)
			}
		})
	}
}

// TestIntegrationMTLSACL: the broker's principal for alice's certificate is
// User:alice: her idempotent produce is refused (CLUSTER_ or
// TOPIC_AUTHORIZATION_FAILED, NotSent) until an ACL for User:alice allows Write and Describe on the topic, and
// an explicit Deny for User:alice on a second topic keeps refusing it.
func TestIntegrationMTLSACL(t *testing.T) {
	cl := kafkatest.Shared(t)
	topic := createTopic(t, cl, "mtls-acl")
	denied := createTopic(t, cl, "mtls-deny")
	c := newClient(t, client.Config{Bootstrap: cl.Bootstrap(kafkatest.MTLS), TLS: mtlsConfig(t, cl, kafkatest.AliceUser)})
	ctx := secCtx(t, 90*time.Second)
	send := func(topic string) producer.Result {
		t.Helper()
		p, err := producer.New(c, producer.Config{DeliveryTimeout: 20 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close(ctx)
		d, err := p.TrySend(&producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: []byte("x")})
		if err != nil {
			t.Fatal(err)
		}
		r, err := d.Wait(ctx)
		if err != nil && r.Err == nil { // a failed record is in r (and err); ctx ending is not
			t.Fatal(err)
		}
		return r
	}
	// Without an ACL on any topic InitProducerId (KIP-679: Write on any
	// topic) fails first; when an earlier test on the shared cluster granted
	// alice Write elsewhere, the produce itself does.
	if r := send(topic); !errors.Is(r.Err, wire.ErrClusterAuthorizationFailed) && !errors.Is(r.Err, wire.ErrTopicAuthorizationFailed) || r.Certainty != client.NotSent {
		t.Fatalf("before the ACL: %v (%v), want CLUSTER_ or TOPIC_AUTHORIZATION_FAILED NotSent", r.Err, r.Certainty)
	}
	ac := admin.New(newClient(t, client.Config{Bootstrap: cl.Bootstrap(kafkatest.Plaintext)}), admin.Config{})
	acl := func(topic string, op admin.ACLOperation, perm admin.ACLPermission) admin.ACL {
		return admin.ACL{ResourceType: admin.ACLResourceTopic, ResourceName: topic, PatternType: admin.PatternLiteral,
			Principal: "User:" + kafkatest.AliceUser, Host: "*", Operation: op, Permission: perm}
	}
	acls := []admin.ACL{
		acl(topic, admin.ACLOperationWrite, admin.ACLPermissionAllow), acl(topic, admin.ACLOperationDescribe, admin.ACLPermissionAllow),
		acl(denied, admin.ACLOperationDescribe, admin.ACLPermissionAllow), acl(denied, admin.ACLOperationWrite, admin.ACLPermissionDeny),
	}
	res, err := ac.CreateACLs(ctx, acls)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Err != nil {
			t.Fatalf("CreateACLs: %+v", r)
		}
	}
	// The broker applies ACLs from the metadata log a moment after the
	// controller commits them: retry until the grant is seen.
	for {
		r := send(topic)
		if r.Err == nil {
			break
		}
		if !errors.Is(r.Err, wire.ErrTopicAuthorizationFailed) && !errors.Is(r.Err, wire.ErrClusterAuthorizationFailed) || ctx.Err() != nil {
			t.Fatalf("after the ACL: %v", r.Err)
		}
	}
	if r := send(denied); !errors.Is(r.Err, wire.ErrTopicAuthorizationFailed) || r.Certainty != client.NotSent {
		t.Fatalf("with a Deny ACL: %v (%v), want TOPIC_AUTHORIZATION_FAILED NotSent", r.Err, r.Certainty)
	}
}

// TestIntegrationOAuthBearer: on the OAUTH listener (unsecured JWS
// validator, test only) a client whose tokens (sub=admin) live 4s keeps its
// connections busy for 10s: every request succeeds, the token source is
// asked for fresh tokens and the connections re-authenticate with them
// (KIP-368) at least twice; a produce/consume round trip works; an expired
// token is refused with ErrAuthentication.
func TestIntegrationOAuthBearer(t *testing.T) {
	cl := kafkatest.Shared(t)
	const life = 4 * time.Second
	var fetches atomic.Int32
	src := client.RefreshingToken(func(context.Context) (client.Token, error) {
		fetches.Add(1)
		exp := time.Now().Add(life)
		return client.Token{Value: kafkatest.UnsecuredJWS(kafkatest.AdminUser, exp), Expiry: exp}, nil
	})
	c := newClient(t, client.Config{Bootstrap: cl.Bootstrap(kafkatest.OAuth), Mechanism: client.OAuthBearer(src)})
	ctx := secCtx(t, 90*time.Second)
	end := time.Now().Add(10 * time.Second)
	for time.Now().Before(end) {
		if _, err := c.Request(ctx, 1, &wire.MetadataRequest{Topics: []wire.MetadataRequestTopic{}}); err != nil {
			t.Fatalf("request while tokens expire: %v", err)
		}
	}
	m := c.Metrics()
	t.Logf("%d token fetches, connections %+v, calls %+v", fetches.Load(), m.Conns, m.Calls)
	if m.Calls.Failed != 0 || m.Conns.Closed != 0 || m.Conns.Reauthentications < 2 || fetches.Load() < 3 {
		t.Fatalf("want no failure, no connection closed, >= 2 re-authentications, >= 3 token fetches")
	}
	roundTrip(t, c, createTopic(t, cl, "oauth-rt"), 5)

	expired := client.StaticToken(client.Token{Value: kafkatest.UnsecuredJWS(kafkatest.AdminUser, time.Now().Add(-time.Hour))})
	bad := newClient(t, client.Config{Bootstrap: cl.Bootstrap(kafkatest.OAuth), Mechanism: client.OAuthBearer(expired)})
	err := bad.Ready(secCtx(t, 20*time.Second))
	t.Logf("expired token: %v", err)
	if !errors.Is(err, client.ErrAuthentication) {
		t.Fatalf("expired token: want ErrAuthentication, got %v", err)
	}
}

// TestIntegrationSecretsNotLogged: clients authenticating with SCRAM,
// PLAIN (a wrong password: refused), OAUTHBEARER and a client certificate
// log at Debug into one buffer; neither the log, nor their errors, configs
// and metrics formatted with %+v and %#v, hold a password, token or key.
func TestIntegrationSecretsNotLogged(t *testing.T) {
	cl := kafkatest.Shared(t)
	var buf syncBuffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	const wrong = "wrong-secret-5f1c"
	token := kafkatest.UnsecuredJWS(kafkatest.AdminUser, time.Now().Add(time.Hour))
	cfgs := []client.Config{
		{Bootstrap: cl.Bootstrap(kafkatest.SASLPlaintext), SASL: &client.SASL{Mechanism: client.SASLScramSHA512, Username: kafkatest.AliceUser, Password: kafkatest.AlicePassword}},
		{Bootstrap: cl.Bootstrap(kafkatest.SASLPlaintext), Mechanism: client.Plain(kafkatest.AdminUser, wrong)},
		{Bootstrap: cl.Bootstrap(kafkatest.OAuth), Mechanism: client.OAuthBearer(client.StaticToken(client.Token{Value: token}))},
		{Bootstrap: cl.Bootstrap(kafkatest.MTLS), TLS: mtlsConfig(t, cl, kafkatest.AliceUser)},
	}
	for _, cfg := range cfgs {
		cfg.Logger = log
		c := newClient(t, cfg)
		err := c.Ready(secCtx(t, 20*time.Second))
		fmt.Fprintf(&buf, "%+v %#v %+v %#v %v\n", err, err, c.Metrics(), cfg, cfg.SASL)
		_ = c.Close(context.Background())
	}
	if !strings.Contains(buf.String(), "SASL_AUTHENTICATION_FAILED") {
		t.Fatalf("the wrong password was not refused:\n%s", buf.String())
	}
	keys, err := secretscan.KeySecrets(cl.ClientCertFile(kafkatest.AliceUser))
	if err != nil || len(keys) != 1 {
		t.Fatal(keys, err)
	}
	for _, s := range []string{kafkatest.AlicePassword, wrong, token, secretscan.UnsecuredJWSHeader, string(keys[0].Value)} {
		if strings.Contains(buf.String(), s) {
			t.Errorf("a secret (%d bytes) appears in the output", len(s))
		}
	}
}

// syncBuffer is a bytes.Buffer safe for the client's goroutines' logging.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
