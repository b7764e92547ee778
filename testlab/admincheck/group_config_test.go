package admincheck

import (
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/admin"
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
func TestGroupConfig(t *testing.T) {
	b := newBed(t)
	group := b.name("gcfg")
	const key = "consumer.session.timeout.ms"
	def := b.observedGroupConfig(group, key)
	set := []admin.AlterConfigsResource{{Type: admin.ResourceGroup, Name: group, Changes: []admin.ConfigChange{{Name: key, Op: admin.OpSet, Value: "50000"}}}}
	res, err := b.adm.IncrementalAlterConfigs(ctxFor(t, 30*time.Second), set, admin.AlterConfigsOptions{})
	if err != nil || res[0].Err != nil {
		t.Fatalf("alter group config: %v / %+v", err, res)
	}
	if v := b.observedGroupConfig(group, key); v == nil || *v != "50000" {
		t.Fatalf("observer reads %v, want 50000", v)
	}
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
	if v := b.observedGroupConfig(group, key); (v == nil) != (def == nil) || v != nil && *v != *def {
		t.Fatalf("observer reads %v after delete, want default %v", v, def)
	}
}
