package admincheck

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// until polls check (every 100ms) until it returns nil, failing the test
// with the last error after d: ACL, credential and quota changes reach the
// brokers through the metadata log, a little after the call returns.
func until(t *testing.T, d time.Duration, what string, check func() error) {
	t.Helper()
	deadline := time.Now().Add(d)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: still %v after %v", what, err, d)
		}
		<-tick.C
	}
}

// saslClient is a franz-go client on the SASL_PLAINTEXT listener.
func (b *bed) saslClient(m sasl.Mechanism, opts ...kgo.Opt) *kgo.Client {
	b.t.Helper()
	kcl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(b.kc.Bootstrap(kafkatest.SASLPlaintext)...), kgo.SASL(m),
		kgo.DisableIdempotentWrite(), kgo.RequestRetries(0), kgo.RetryTimeout(2 * time.Second)}, opts...)...)
	if err != nil {
		b.t.Fatal(err)
	}
	b.t.Cleanup(kcl.Close)
	return kcl
}

// TestACLsDenyAndRestore: gregor creates an ALLOW-all and a prefixed
// DENY-write ACL for alice; alice (franz-go over SASL PLAIN) is refused
// with TOPIC_AUTHORIZATION_FAILED (29); franz-go's DescribeAcls and Java's
// AclCommand list both bindings; after gregor deletes the DENY, alice's
// produce succeeds.
func TestACLsDenyAndRestore(t *testing.T) {
	b := newBed(t)
	topic := b.observedTopic(1, nil)
	alice := "User:" + kafkatest.AliceUser
	allow := admin.ACL{ResourceType: admin.ACLResourceTopic, ResourceName: topic, PatternType: admin.PatternLiteral,
		Principal: alice, Host: "*", Operation: admin.ACLOperationAll, Permission: admin.ACLPermissionAllow}
	deny := admin.ACL{ResourceType: admin.ACLResourceTopic, ResourceName: topic[:len(topic)-2], PatternType: admin.PatternPrefixed,
		Principal: alice, Host: "*", Operation: admin.ACLOperationWrite, Permission: admin.ACLPermissionDeny}
	res, err := b.adm.CreateACLs(ctxFor(t, 30*time.Second), []admin.ACL{allow, deny})
	if err != nil || len(res) != 2 || res[0].Err != nil || res[1].Err != nil {
		t.Fatalf("CreateACLs: %v %+v", err, res)
	}
	t.Cleanup(func() {
		b.adm.DeleteACLs(context.Background(), []admin.ACLFilter{filterFor(allow), filterFor(deny)})
	})

	// The observer sees exactly our two bindings for alice on the topic.
	req := kmsg.NewPtrDescribeACLsRequest()
	req.ResourceType, req.ResourcePatternType = kmsg.ACLResourceTypeTopic, kmsg.ACLResourcePatternTypeMatch
	req.ResourceName, req.Principal = kmsg.StringPtr(topic), kmsg.StringPtr(alice)
	req.Operation, req.PermissionType = kmsg.ACLOperationAny, kmsg.ACLPermissionTypeAny
	until(t, 20*time.Second, "observer sees the ACLs", func() error {
		dresp, err := req.RequestWith(ctxFor(t, 10*time.Second), b.kcl)
		if err != nil || dresp.ErrorCode != 0 {
			return fmt.Errorf("observer DescribeAcls: %v %+v", err, dresp)
		}
		seen := map[string]bool{}
		for _, r := range dresp.Resources {
			for _, a := range r.ACLs {
				seen[r.ResourceName+"/"+r.ResourcePatternType.String()+"/"+a.Operation.String()+"/"+a.PermissionType.String()] = true
			}
		}
		if len(seen) != 2 || !seen[topic+"/LITERAL/ALL/ALLOW"] || !seen[deny.ResourceName+"/PREFIXED/WRITE/DENY"] {
			return fmt.Errorf("observer sees %v", seen)
		}
		return nil
	})

	// Java's admin client (AclCommand) lists both bindings too.
	out, err := b.kc.RunTool(ctxFor(t, 60*time.Second), "org.apache.kafka.tools.AclCommand", "--bootstrap-server", strings.Join(b.boot, ","),
		"--list", "--topic", topic, "--resource-pattern-type", "match")
	if err != nil || !strings.Contains(out, "principal=User:alice, host=*, operation=ALL, permissionType=ALLOW") ||
		!strings.Contains(out, "principal=User:alice, host=*, operation=WRITE, permissionType=DENY") || !strings.Contains(out, "patternType=PREFIXED") {
		t.Fatalf("AclCommand --list: %v\n%s", err, out)
	}

	aliceCl := b.saslClient(plain.Auth{User: kafkatest.AliceUser, Pass: kafkatest.AlicePassword}.AsMechanism(), kgo.DefaultProduceTopic(topic))
	produce := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return aliceCl.ProduceSync(ctx, &kgo.Record{Value: []byte("x")}).FirstErr()
	}
	until(t, 20*time.Second, "alice denied", func() error {
		err := produce()
		var ke *kerr.Error
		if errors.As(err, &ke) && ke.Code == 29 {
			return nil
		}
		return errors.New("produce answered " + errString(err) + ", want TOPIC_AUTHORIZATION_FAILED (29)")
	})

	dres, err := b.adm.DeleteACLs(ctxFor(t, 30*time.Second), []admin.ACLFilter{filterFor(deny)})
	if err != nil || len(dres) != 1 || dres[0].Err != nil || len(dres[0].Deleted) != 1 || dres[0].Deleted[0] != deny {
		t.Fatalf("DeleteACLs: %v %+v", err, dres)
	}
	until(t, 20*time.Second, "alice restored", produce)

	got, err := b.adm.DescribeACLs(ctxFor(t, 10*time.Second), []admin.ACLFilter{filterFor(allow), filterFor(deny)})
	if err != nil || got[0].Err != nil || len(got[0].ACLs) != 1 || got[0].ACLs[0] != allow || got[1].Err != nil || len(got[1].ACLs) != 0 {
		t.Fatalf("DescribeACLs after delete (alice already allowed, so the broker applied it): %v %+v", err, got)
	}
}

// filterFor is the exact filter of one binding.
func filterFor(a admin.ACL) admin.ACLFilter {
	return admin.ACLFilter{ResourceType: a.ResourceType, ResourceName: &a.ResourceName, PatternType: a.PatternType,
		Principal: &a.Principal, Host: &a.Host, Operation: a.Operation, Permission: a.Permission}
}

func errString(err error) string {
	if err == nil {
		return "success"
	}
	return err.Error()
}

// TestScramUserAuthenticates: a SCRAM-SHA-512 credential gregor creates
// lets franz-go authenticate (and a wrong password still fails); the
// observer's DescribeUserScramCredentials shows its mechanisms and
// iterations; after gregor deletes it, describing it fails with
// RESOURCE_NOT_FOUND.
func TestScramUserAuthenticates(t *testing.T) {
	b := newBed(t)
	user := b.name("carol")
	pw := "pw-" + user
	for _, c := range []admin.ScramCredentialChange{ // one change per user and request (Kafka's rule)
		{User: user, Mechanism: admin.ScramSHA512, Iterations: 8192, Password: pw},
		{User: user, Mechanism: admin.ScramSHA256, Iterations: 4096, Password: pw}} {
		res, err := b.adm.AlterUserScramCredentials(ctxFor(t, 30*time.Second), []admin.ScramCredentialChange{c})
		if err != nil || res[0].Err != nil {
			t.Fatalf("AlterUserScramCredentials %v: %v %+v", c, err, res)
		}
	}
	t.Cleanup(func() {
		for _, m := range []admin.ScramMechanism{admin.ScramSHA512, admin.ScramSHA256} {
			b.adm.AlterUserScramCredentials(context.Background(), []admin.ScramCredentialChange{{User: user, Mechanism: m, Delete: true}})
		}
	})
	until(t, 20*time.Second, "observer sees the credentials", func() error {
		obs, err := b.obs.DescribeUserSCRAMs(ctxFor(t, 10*time.Second), user)
		if err != nil || obs[user].Err != nil || len(obs[user].CredInfos) != 2 {
			return fmt.Errorf("observer describe: %v %+v", err, obs)
		}
		for _, ci := range obs[user].CredInfos {
			if want := map[kadm.ScramMechanism]int32{kadm.ScramSha512: 8192, kadm.ScramSha256: 4096}[ci.Mechanism]; ci.Iterations != want {
				return fmt.Errorf("observer sees %+v", obs[user].CredInfos)
			}
		}
		return nil
	})
	ping := func(pass string) error {
		kcl := b.saslClient(scram.Auth{User: user, Pass: pass}.AsSha512Mechanism())
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		defer kcl.Close()
		return kcl.Ping(ctx)
	}
	until(t, 20*time.Second, "SCRAM-SHA-512 login", func() error { return ping(pw) })
	if err := ping("wrong-" + pw); err == nil {
		t.Fatal("a wrong password authenticated")
	}

	d, err := b.adm.DescribeUserScramCredentials(ctxFor(t, 10*time.Second), []string{user})
	if err != nil || d[0].Err != nil || len(d[0].Credentials) != 2 {
		t.Fatalf("DescribeUserScramCredentials: %v %+v", err, d)
	}
	for _, m := range []admin.ScramMechanism{admin.ScramSHA512, admin.ScramSHA256} {
		del, err := b.adm.AlterUserScramCredentials(ctxFor(t, 30*time.Second), []admin.ScramCredentialChange{{User: user, Mechanism: m, Delete: true}})
		if err != nil || del[0].Err != nil {
			t.Fatalf("delete %d: %v %+v", m, err, del)
		}
	}
	until(t, 20*time.Second, "credentials gone", func() error {
		d, err := b.adm.DescribeUserScramCredentials(ctxFor(t, 10*time.Second), []string{user})
		if err != nil || !errors.Is(d[0].Err, wire.ErrResourceNotFound) {
			return fmt.Errorf("describe after delete: %v %+v", err, d)
		}
		return nil
	})
}

// TestClientQuotas: a batch with a valid and an invalid alteration sets the
// valid quota (visible to the observer) and fails only the invalid one
// (INVALID_REQUEST); a producer quota on a client ID throttles a franz-go
// producer (its throttle hook fires); removal empties the observer's view.
func TestClientQuotas(t *testing.T) {
	b := newBed(t)
	topic := b.observedTopic(1, nil)
	cid := b.name("q")
	user := b.name("quser")
	ent := admin.QuotaEntity{{Type: admin.QuotaClientID, Name: &cid}}
	bad := admin.QuotaEntity{{Type: admin.QuotaUser, Name: &user}}
	res, err := b.adm.AlterClientQuotas(ctxFor(t, 30*time.Second), []admin.QuotaAlteration{
		{Entity: ent, Set: map[string]float64{"producer_byte_rate": 1024}},
		{Entity: bad, Set: map[string]float64{"no_such_quota": 1}}}, false)
	if err != nil || len(res) != 2 || res[0].Err != nil || !errors.Is(res[1].Err, wire.ErrInvalidRequest) {
		t.Fatalf("AlterClientQuotas: %v %+v", err, res)
	}
	t.Cleanup(func() {
		b.adm.AlterClientQuotas(context.Background(), []admin.QuotaAlteration{{Entity: ent, Remove: []string{"producer_byte_rate"}}}, false)
	})
	observe := func(name string, want string) error {
		q, err := b.obs.DescribeClientQuotas(ctxFor(t, 10*time.Second), true, []kadm.DescribeClientQuotaComponent{
			{Type: "client-id", MatchName: &name, MatchType: kmsg.QuotasMatchTypeExact}})
		if err != nil {
			return err
		}
		out := map[string]float64{}
		for _, e := range q {
			for _, v := range e.Values {
				out[v.Key] = v.Value
			}
		}
		if got := fmt.Sprint(out); got != want {
			return fmt.Errorf("observer sees %s, want %s", got, want)
		}
		return nil
	}
	until(t, 20*time.Second, "observer sees the quota", func() error { return observe(cid, "map[producer_byte_rate:1024]") })
	mine, err := b.adm.DescribeClientQuotas(ctxFor(t, 10*time.Second), []admin.QuotaMatch{{Type: admin.QuotaClientID, Kind: admin.QuotaMatchExact, Name: cid}}, true)
	if err != nil || len(mine) != 1 || mine[0].Values["producer_byte_rate"] != 1024 {
		t.Fatalf("DescribeClientQuotas: %v %+v", err, mine)
	}

	throttled := make(chan time.Duration, 16)
	prod, err := kgo.NewClient(kgo.SeedBrokers(b.boot...), kgo.ClientID(cid), kgo.DefaultProduceTopic(topic),
		kgo.WithHooks(throttleHook(throttled)))
	if err != nil {
		t.Fatal(err)
	}
	defer prod.Close()
	until(t, 30*time.Second, "producer throttled", func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := prod.ProduceSync(ctx, &kgo.Record{Value: make([]byte, 16<<10)}).FirstErr(); err != nil && ctx.Err() == nil {
			return err
		}
		select {
		case d := <-throttled:
			t.Logf("broker throttled the producer %v", d)
			return nil
		default:
			return errors.New("no throttle reported")
		}
	})

	rm, err := b.adm.AlterClientQuotas(ctxFor(t, 30*time.Second), []admin.QuotaAlteration{{Entity: ent, Remove: []string{"producer_byte_rate"}}}, false)
	if err != nil || rm[0].Err != nil {
		t.Fatalf("remove: %v %+v", err, rm)
	}
	until(t, 20*time.Second, "observer sees no quota", func() error { return observe(cid, "map[]") })
}

// throttleHook reports broker throttles.
type throttleHook chan time.Duration

// OnBrokerThrottle implements kgo.HookBrokerThrottle.
func (h throttleHook) OnBrokerThrottle(_ kgo.BrokerMetadata, d time.Duration, _ bool) {
	if d > 0 {
		select {
		case h <- d:
		default:
		}
	}
}
