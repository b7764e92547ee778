package txn

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

// TestIntegrationTransactionalIDAuthorization: alice (client certificate
// principal User:alice) may Write topic t and the transactional ID granted,
// not the transactional ID denied. On one client, InitTransactions for
// denied fails at once with a fatal, non-retriable *AuthorizationError
// naming denied and matching TRANSACTIONAL_ID_AUTHORIZATION_FAILED (every
// later call returns it); a producer for granted on the same client then
// commits a record, which is on the broker.
func TestIntegrationTransactionalIDAuthorization(t *testing.T) {
	e := newEnv(t)
	cluster := kafkatest.Shared(t)
	topic := e.topic("txn-authz", 1)
	granted, denied := kafkatest.UniqueName(t, "txn-authz-ok"), kafkatest.UniqueName(t, "txn-authz-no")
	ac := admin.New(e.cl, admin.Config{})
	allow := func(rt admin.ACLResourceType, name string, ops ...admin.ACLOperation) []admin.ACL {
		var out []admin.ACL
		for _, op := range ops {
			out = append(out, admin.ACL{ResourceType: rt, ResourceName: name, PatternType: admin.PatternLiteral,
				Principal: "User:" + kafkatest.AliceUser, Host: "*", Operation: op, Permission: admin.ACLPermissionAllow})
		}
		return out
	}
	acls := append(allow(admin.ACLResourceTopic, topic, admin.ACLOperationWrite, admin.ACLOperationDescribe),
		allow(admin.ACLResourceTransactionalID, granted, admin.ACLOperationWrite, admin.ACLOperationDescribe)...)
	res, err := ac.CreateACLs(e.ctx, acls)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Err != nil {
			t.Fatalf("CreateACLs: %+v", r)
		}
	}
	waitACLs(t, e, ac, admin.ACLResourceTransactionalID, granted)

	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(cluster.CAPEM()) {
		t.Fatal("no CA certificate")
	}
	cert, err := tls.LoadX509KeyPair(cluster.ClientCertFile(kafkatest.AliceUser), cluster.ClientCertFile(kafkatest.AliceUser))
	if err != nil {
		t.Fatal(err)
	}
	alice, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.MTLS),
		TLS: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = alice.Close(context.Background()) })
	newTxn := func(id string) *Producer {
		p, err := New(alice, Config{TransactionalID: id, TransactionTimeout: 20 * time.Second, Producer: producer.Config{Linger: -1}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = p.Close(e.ctx) })
		return p
	}

	no := newTxn(denied)
	start := time.Now()
	err = no.InitTransactions(e.ctx)
	t.Logf("InitTransactions(%s) after %v: %v", denied, time.Since(start), err)
	var ae *AuthorizationError
	if !errors.As(err, &ae) || ae.TransactionalID != denied || !errors.Is(err, wire.ErrTransactionalIDAuthorizationFailed) ||
		!errors.Is(err, ErrFatal) || errors.Is(err, ErrAbortable) {
		t.Fatalf("want a fatal *AuthorizationError for %s with TRANSACTIONAL_ID_AUTHORIZATION_FAILED, got %v", denied, err)
	}
	if time.Since(start) > 10*time.Second {
		t.Fatalf("the refusal took %v: it was retried", time.Since(start))
	}
	if err := no.Begin(); !errors.As(err, &ae) || ae.TransactionalID != denied {
		t.Fatalf("Begin after the refusal: %v", err)
	}

	ok := newTxn(granted)
	if err := ok.InitTransactions(e.ctx); err != nil {
		t.Fatalf("InitTransactions(%s): %v", granted, err)
	}
	if err := ok.Begin(); err != nil {
		t.Fatal(err)
	}
	d, err := ok.Send(e.ctx, &producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: []byte("granted")})
	if err != nil {
		t.Fatal(err)
	}
	if err := ok.Commit(e.ctx); err != nil {
		t.Fatalf("Commit(%s): %v", granted, err)
	}
	r, err := d.Wait(e.ctx)
	if err != nil || r.Err != nil {
		t.Fatalf("delivery: %v %v", err, r.Err)
	}
	if got := e.read(topic, 0, consumer.ReadCommitted, 1); len(got) != 1 || got[0] != "granted" {
		t.Fatalf("read_committed %s: %q", topic, got)
	}
}

// waitACLs waits until the broker lists an ACL on the named resource.
func waitACLs(t *testing.T, e *env, ac *admin.Admin, rt admin.ACLResourceType, name string) {
	t.Helper()
	for {
		d, err := ac.DescribeACLs(e.ctx, []admin.ACLFilter{{ResourceType: rt, ResourceName: &name, PatternType: admin.PatternAny,
			Operation: admin.ACLOperationAny, Permission: admin.ACLPermissionAny}})
		if err == nil && len(d[0].ACLs) > 0 {
			return
		}
		if e.ctx.Err() != nil {
			t.Fatalf("ACLs on %s not listed: %v", name, err)
		}
		time.Sleep(100 * time.Millisecond) // polling the broker's ACL cache, no event to wait on
	}
}
