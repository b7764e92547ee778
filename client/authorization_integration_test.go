package client_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/consumer/assign"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

// allowAlice grants User:alice operation ops on each named resource of
// type rt (literal names) and waits until the broker lists them.
func allowAlice(t *testing.T, cl *kafkatest.Cluster, rt admin.ACLResourceType, name string, ops ...admin.ACLOperation) {
	t.Helper()
	ctx := secCtx(t, 60*time.Second)
	ac := admin.New(newClient(t, client.Config{Bootstrap: cl.Bootstrap(kafkatest.Plaintext)}), admin.Config{})
	var acls []admin.ACL
	for _, op := range ops {
		acls = append(acls, admin.ACL{ResourceType: rt, ResourceName: name, PatternType: admin.PatternLiteral,
			Principal: "User:" + kafkatest.AliceUser, Host: "*", Operation: op, Permission: admin.ACLPermissionAllow})
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
	for {
		d, err := ac.DescribeACLs(ctx, []admin.ACLFilter{{ResourceType: rt, ResourceName: &name, PatternType: admin.PatternAny,
			Operation: admin.ACLOperationAny, Permission: admin.ACLPermissionAny}})
		if err == nil && len(d[0].ACLs) >= len(acls) {
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("ACLs on %s not listed: %v", name, err)
		}
		time.Sleep(100 * time.Millisecond) // polling the broker's ACL cache, no event to wait on
	}
}

// produceAsAdmin writes n records to partition 0 of topic over PLAINTEXT.
func produceAsAdmin(t *testing.T, cl *kafkatest.Cluster, topic string, n int) {
	t.Helper()
	ctx := secCtx(t, 30*time.Second)
	p, err := producer.New(newClient(t, client.Config{Bootstrap: cl.Bootstrap(kafkatest.Plaintext)}), producer.Config{})
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
			t.Fatal(err, r.Err)
		}
	}
}

func aliceClient(t *testing.T, cl *kafkatest.Cluster) *client.Client {
	return newClient(t, client.Config{Bootstrap: cl.Bootstrap(kafkatest.MTLS), TLS: mtlsConfig(t, cl, kafkatest.AliceUser)})
}

// TestIntegrationAuthorizationFetch: alice (certificate principal) may
// Read topic a but only Describe topic b. One consumer assigned both gets
// a's records and, for b alone, a *consumer.PartitionError naming b with
// TOPIC_AUTHORIZATION_FAILED.
func TestIntegrationAuthorizationFetch(t *testing.T) {
	cl := kafkatest.Shared(t)
	a, b := createTopic(t, cl, "authz-fetch-a"), createTopic(t, cl, "authz-fetch-b")
	produceAsAdmin(t, cl, a, 3)
	produceAsAdmin(t, cl, b, 3)
	allowAlice(t, cl, admin.ACLResourceTopic, a, admin.ACLOperationRead, admin.ACLOperationDescribe)
	allowAlice(t, cl, admin.ACLResourceTopic, b, admin.ACLOperationDescribe)
	cs, err := consumer.New(aliceClient(t, cl), consumer.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close(context.Background())
	ctx := secCtx(t, 30*time.Second)
	if err := cs.Assign(ctx, []consumer.PartitionPosition{
		{TopicPartition: gregor.TopicPartition{Topic: a}, Position: consumer.AtOffset(0)},
		{TopicPartition: gregor.TopicPartition{Topic: b}, Position: consumer.AtOffset(0)},
	}); err != nil {
		t.Fatal(err)
	}
	got, denied := 0, false
	for got < 3 || !denied {
		recs, err := cs.Receive(ctx)
		var pe *consumer.PartitionError
		switch {
		case errors.As(err, &pe):
			if pe.Topic != b || !errors.Is(err, wire.ErrTopicAuthorizationFailed) {
				t.Fatalf("partition error %v", err)
			}
			denied = true
		case err != nil:
			t.Fatalf("Receive: %v", err)
		}
		for _, r := range recs {
			if r.Topic != a {
				t.Fatalf("record of %s delivered", r.Topic)
			}
			got++
		}
	}
}

// TestIntegrationAuthorizationGroup: without Read on the group, alice's
// group consumer stops with GROUP_AUTHORIZATION_FAILED; with Read on the
// group, Read on topic a and only Describe on topic b, the member owning
// both commits both: a succeeds and b alone fails with
// TOPIC_AUTHORIZATION_FAILED. (FindCoordinator's GROUP_AUTHORIZATION_FAILED
// used to be retried until the caller's deadline.)
func TestIntegrationAuthorizationGroup(t *testing.T) {
	cl := kafkatest.Shared(t)
	a, b := createTopic(t, cl, "authz-grp-a"), createTopic(t, cl, "authz-grp-b")
	allowAlice(t, cl, admin.ACLResourceTopic, a, admin.ACLOperationRead, admin.ACLOperationDescribe)
	allowAlice(t, cl, admin.ACLResourceTopic, b, admin.ACLOperationDescribe)
	ctx := secCtx(t, 60*time.Second)

	// Each protocol, and the default choice (which asks the coordinator
	// first), stops at the refused FindCoordinator.
	for _, proto := range []consumer.GroupProtocol{"", consumer.ProtocolClassic, consumer.ProtocolConsumer} {
		denied := kafkatest.UniqueName(t, "authz-grp-denied")
		g, err := consumer.NewGroup(aliceClient(t, cl), consumer.GroupConfig{GroupID: denied, Topics: []string{a},
			Protocol: proto, Assignors: []assign.Assignor{assign.Range()}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = g.Receive(ctx)
		t.Logf("protocol %q, join without group ACL: %v", proto, err)
		if !errors.Is(err, wire.ErrGroupAuthorizationFailed) {
			t.Fatalf("protocol %q: want GROUP_AUTHORIZATION_FAILED, got %v", proto, err)
		}
		_ = g.Close(ctx)
	}

	group := kafkatest.UniqueName(t, "authz-grp")
	allowAlice(t, cl, admin.ACLResourceGroup, group, admin.ACLOperationRead)
	g, err := consumer.NewGroup(aliceClient(t, cl), consumer.GroupConfig{GroupID: group, Topics: []string{a, b}, Assignors: []assign.Assignor{assign.Range()}})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close(ctx)
	produceAsAdmin(t, cl, a, 1)
	for len(g.Assignment()) < 2 {
		// b's fetch is refused (a PartitionError); a's record arrives.
		var pe *consumer.PartitionError
		if _, err := g.Receive(ctx); err != nil && !(errors.As(err, &pe) && pe.Topic == b && errors.Is(err, wire.ErrTopicAuthorizationFailed)) {
			t.Fatalf("Receive: %v", err)
		}
	}
	err = g.Commit(ctx, map[gregor.TopicPartition]int64{{Topic: a}: 1, {Topic: b}: 0})
	t.Logf("commit: %v", err)
	var ce *consumer.CommitError
	if !errors.As(err, &ce) || len(ce.Partitions) != 1 || !errors.Is(ce.Partitions[gregor.TopicPartition{Topic: b}], wire.ErrTopicAuthorizationFailed) {
		t.Fatalf("want a CommitError for %s alone with TOPIC_AUTHORIZATION_FAILED, got %v", b, err)
	}
}

// TestIntegrationAuthorizationCreateTopic: alice may Create topic ok but not
// topic no; one CreateTopics call creates ok and fails no alone with
// TOPIC_AUTHORIZATION_FAILED.
func TestIntegrationAuthorizationCreateTopic(t *testing.T) {
	cl := kafkatest.Shared(t)
	ok, no := kafkatest.UniqueName(t, "authz-create-ok"), kafkatest.UniqueName(t, "authz-create-no")
	allowAlice(t, cl, admin.ACLResourceTopic, ok, admin.ACLOperationCreate, admin.ACLOperationDescribe)
	ac := admin.New(aliceClient(t, cl), admin.Config{})
	res, err := ac.CreateTopics(secCtx(t, 30*time.Second), []admin.NewTopic{{Name: ok, Partitions: 1, ReplicationFactor: -1},
		{Name: no, Partitions: 1, ReplicationFactor: -1}}, admin.TopicOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", res)
	for _, r := range res {
		switch {
		case r.Name == ok && r.Err != nil:
			t.Fatalf("%s: %v", ok, r.Err)
		case r.Name == no && !errors.Is(r.Err, wire.ErrTopicAuthorizationFailed):
			t.Fatalf("%s: want TOPIC_AUTHORIZATION_FAILED, got %v", no, r.Err)
		}
	}
}

// TestIntegrationAuthorizationGroupCommit: alice's members of groups g1 and
// g2 (classic, Read on both groups and the topic) each own the topic's
// partition; once a Deny ACL takes Read on g1 away, g1's commits fail with
// GROUP_AUTHORIZATION_FAILED while g2's commits on the same client still
// succeed.
func TestIntegrationAuthorizationGroupCommit(t *testing.T) {
	cl := kafkatest.Shared(t)
	topic := createTopic(t, cl, "authz-commit")
	allowAlice(t, cl, admin.ACLResourceTopic, topic, admin.ACLOperationRead, admin.ACLOperationDescribe)
	g1, g2 := kafkatest.UniqueName(t, "authz-commit-g1"), kafkatest.UniqueName(t, "authz-commit-g2")
	allowAlice(t, cl, admin.ACLResourceGroup, g1, admin.ACLOperationRead)
	allowAlice(t, cl, admin.ACLResourceGroup, g2, admin.ACLOperationRead)
	produceAsAdmin(t, cl, topic, 1)
	ctx := secCtx(t, 90*time.Second)
	c := aliceClient(t, cl)
	join := func(group string) *consumer.Group {
		g, err := consumer.NewGroup(c, consumer.GroupConfig{GroupID: group, Topics: []string{topic},
			Protocol: consumer.ProtocolClassic, Assignors: []assign.Assignor{assign.Range()}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = g.Close(ctx) })
		for got := 0; got == 0; {
			recs, err := g.Receive(ctx)
			if err != nil {
				t.Fatalf("%s: Receive: %v", group, err)
			}
			got += len(recs)
		}
		return g
	}
	m1, m2 := join(g1), join(g2)
	tp := gregor.TopicPartition{Topic: topic}

	ac := admin.New(newClient(t, client.Config{Bootstrap: cl.Bootstrap(kafkatest.Plaintext)}), admin.Config{})
	res, err := ac.CreateACLs(ctx, []admin.ACL{{ResourceType: admin.ACLResourceGroup, ResourceName: g1, PatternType: admin.PatternLiteral,
		Principal: "User:" + kafkatest.AliceUser, Host: "*", Operation: admin.ACLOperationRead, Permission: admin.ACLPermissionDeny}})
	if err != nil || res[0].Err != nil {
		t.Fatalf("CreateACLs: %v %+v", err, res)
	}
	// The broker applies the Deny a moment after the controller commits
	// it: commit growing offsets (an equal one would be skipped) until the
	// refusal comes; every other answer is a success.
	var denied error
	for off := int64(1); denied == nil; off++ {
		err := m1.Commit(ctx, map[gregor.TopicPartition]int64{tp: off})
		switch {
		case errors.Is(err, wire.ErrGroupAuthorizationFailed):
			denied = err
		case err != nil || ctx.Err() != nil:
			t.Fatalf("g1 commit %d before the refusal: %v", off, err)
		}
	}
	t.Logf("g1: %v", denied)
	for off := int64(1); off <= 3; off++ {
		if err := m2.Commit(ctx, map[gregor.TopicPartition]int64{tp: off}); err != nil {
			t.Fatalf("g2 commit %d after g1 was denied: %v", off, err)
		}
	}
}
