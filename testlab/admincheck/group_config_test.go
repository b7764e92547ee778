package admincheck

import (
	"errors"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// observedGroupConfig reads a group config key with a raw franz-go request.
func (b *bed) observedGroupConfig(group, key string) *string {
	b.t.Helper()
	req := kmsg.NewPtrDescribeConfigsRequest()
	r := kmsg.NewDescribeConfigsRequestResource()
	r.ResourceType, r.ResourceName, r.ConfigNames = kmsg.ConfigResourceTypeGroupConfig, group, []string{key}
	req.Resources = append(req.Resources, r)
	resp, err := req.RequestWith(ctxFor(b.t, 10*time.Second), b.kcl)
	if err != nil || len(resp.Resources) != 1 || resp.Resources[0].ErrorCode != 0 {
		b.t.Fatalf("observer describe group config: %v %+v", err, resp)
	}
	for _, c := range resp.Resources[0].Configs {
		if c.Name == key {
			return c.Value
		}
	}
	return nil
}

// TestGroupConfig: an incremental SET of a group config (Kafka 4 group
// configs, resource type 32) is read back by the observer and by our
// describe; DELETE restores the default.
//
// Before Kafka 4.0 (no group configs) the broker refuses the resource
// type: gregor's alter reports that per resource as a Kafka error, as the
// observer's describe gets it.
func TestGroupConfig(t *testing.T) {
	b := newBed(t)
	group := b.name("gcfg")
	const key = "consumer.session.timeout.ms"
	if !b.kc.AtLeast(4, 0) {
		set := []admin.AlterConfigsResource{{Type: admin.ResourceGroup, Name: group, Changes: []admin.ConfigChange{{Name: key, Op: admin.OpSet, Value: "50000"}}}}
		res, err := b.adm.IncrementalAlterConfigs(ctxFor(t, 30*time.Second), set, admin.AlterConfigsOptions{})
		var ke *wire.KafkaError
		if err != nil || len(res) != 1 || !errors.As(res[0].Err, &ke) {
			t.Fatalf("alter group config on Kafka %s: %v / %+v, want the broker's refusal", b.kc.Version(), err, res)
		}
		t.Logf("Kafka %s refuses group configs: %v", b.kc.Version(), res[0].Err)
		return
	}
	def := b.observedGroupConfig(group, key)
	set := []admin.AlterConfigsResource{{Type: admin.ResourceGroup, Name: group, Changes: []admin.ConfigChange{{Name: key, Op: admin.OpSet, Value: "50000"}}}}
	res, err := b.adm.IncrementalAlterConfigs(ctxFor(t, 30*time.Second), set, admin.AlterConfigsOptions{})
	if err != nil || res[0].Err != nil {
		t.Fatalf("alter group config: %v / %+v", err, res)
	}
	// The controller applies the change; brokers serve it once their metadata
	// catches up, so the observer waits (bounded) for the new value.
	fifty := "50000"
	b.waitGroupConfig(group, key, &fifty)
	dc, err := b.adm.DescribeConfigs(ctxFor(t, 30*time.Second), []admin.ConfigResource{{Type: admin.ResourceGroup, Name: group, Keys: []string{key}}})
	if err != nil || dc[0].Err != nil {
		t.Fatalf("describe group config: %v / %+v", err, dc)
	}
	if e, ok := dc[0].Entry(key); !ok || e.Value == nil || *e.Value != "50000" || e.Source != admin.SourceGroup {
		t.Fatalf("entry %+v", e)
	}
	del := []admin.AlterConfigsResource{{Type: admin.ResourceGroup, Name: group, Changes: []admin.ConfigChange{{Name: key, Op: admin.OpDelete}}}}
	if res, err := b.adm.IncrementalAlterConfigs(ctxFor(t, 30*time.Second), del, admin.AlterConfigsOptions{}); err != nil || res[0].Err != nil {
		t.Fatalf("delete group config: %v / %+v", err, res)
	}
	b.waitGroupConfig(group, key, def)
}

// waitGroupConfig polls the observer until group's key reads want (nil: no
// value), failing the test after 30s with the last value seen.
func (b *bed) waitGroupConfig(group, key string, want *string) {
	b.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		v := b.observedGroupConfig(group, key)
		if (v == nil) == (want == nil) && (v == nil || *v == *want) {
			return
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("observer reads %s=%v, want %v", key, deref(v), deref(want))
		}
		<-tick.C
	}
}

func deref(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}
