package admincheck

import (
	"errors"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/wire"
)

// TestListOffsetsAndDeleteRecords: earliest/latest equal the observer's
// watermarks; DeleteRecords moves the low watermark to exactly the cutoff
// while the high watermark stays (observer).
func TestListOffsetsAndDeleteRecords(t *testing.T) {
	b := newBed(t)
	topic := b.observedTopic(2, nil)
	b.produce(topic, 0, 10)
	b.produce(topic, 1, 3)
	q := func(p int32, s admin.OffsetSpec) admin.OffsetQuery {
		return admin.OffsetQuery{TopicPartition: gregor.TopicPartition{Topic: topic, Partition: p}, Spec: s}
	}
	check := func(wantStart0 int64) {
		t.Helper()
		res, err := b.adm.ListOffsets(ctxFor(t, 30*time.Second), []admin.OffsetQuery{q(0, admin.OffsetEarliest), q(0, admin.OffsetLatest), q(1, admin.OffsetEarliest), q(1, admin.OffsetLatest)}, admin.ListOffsetsOptions{})
		if err != nil {
			t.Fatal(err)
		}
		starts, err := b.obs.ListStartOffsets(ctxFor(t, 10*time.Second), topic)
		if err != nil {
			t.Fatal(err)
		}
		ends, err := b.obs.ListEndOffsets(ctxFor(t, 10*time.Second), topic)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range res {
			if r.Err != nil || !r.Found {
				t.Fatalf("query %d: %+v", i, r)
			}
			obs := starts
			if i%2 == 1 {
				obs = ends
			}
			o, ok := obs.Lookup(topic, r.Partition)
			if !ok || o.Err != nil || o.Offset != r.Offset {
				t.Fatalf("query %d (%v): ours %d, observer %+v", i, r.TopicPartition, r.Offset, o)
			}
		}
		if res[0].Offset != wantStart0 || res[1].Offset != 10 || res[2].Offset != 0 || res[3].Offset != 3 {
			t.Fatalf("watermarks %d %d %d %d", res[0].Offset, res[1].Offset, res[2].Offset, res[3].Offset)
		}
	}
	check(0)
	dr, err := b.adm.DeleteRecords(ctxFor(t, 30*time.Second), []admin.RecordsCutoff{{TopicPartition: gregor.TopicPartition{Topic: topic, Partition: 0}, Before: 4}})
	if err != nil || dr[0].Err != nil || dr[0].LowWatermark != 4 {
		t.Fatalf("delete records: %v / %+v", err, dr)
	}
	check(4)
	// A cutoff past the high watermark is OFFSET_OUT_OF_RANGE and changes nothing.
	dr, err = b.adm.DeleteRecords(ctxFor(t, 30*time.Second), []admin.RecordsCutoff{{TopicPartition: gregor.TopicPartition{Topic: topic, Partition: 0}, Before: 11}})
	if err != nil || !errors.Is(dr[0].Err, wire.ErrOffsetOutOfRange) {
		t.Fatalf("delete past end: %v / %+v", err, dr)
	}
	check(4)
	// Max timestamp finds the last record (v7+).
	mt, err := b.adm.ListOffsets(ctxFor(t, 30*time.Second), []admin.OffsetQuery{q(1, admin.OffsetMaxTimestamp), q(1, admin.AtTimestamp(time.Now().Add(time.Hour)))}, admin.ListOffsetsOptions{})
	if err != nil || mt[0].Err != nil || mt[0].Offset != 2 || mt[1].Err != nil || mt[1].Found {
		t.Fatalf("max timestamp / future timestamp: %v / %+v", err, mt)
	}
}

// TestDescribeAndAlterTopicConfig: the described value of a key equals the
// observer's; an incremental SET changes exactly that key; ValidateOnly
// changes nothing; sensitive values never show.
func TestDescribeAndAlterTopicConfig(t *testing.T) {
	b := newBed(t)
	ret := "123456"
	topic := b.observedTopic(1, map[string]*string{"retention.ms": &ret})
	observed := func() map[string]string {
		rc, err := b.obs.DescribeTopicConfigs(ctxFor(t, 10*time.Second), topic)
		if err != nil || len(rc) != 1 || rc[0].Err != nil {
			t.Fatalf("observer describe configs: %v %+v", err, rc)
		}
		m := map[string]string{}
		for _, c := range rc[0].Configs {
			if c.Value != nil {
				m[c.Key] = *c.Value
			}
		}
		return m
	}
	res, err := b.adm.DescribeConfigs(ctxFor(t, 30*time.Second), []admin.ConfigResource{{Type: admin.ResourceTopic, Name: topic, Keys: []string{"retention.ms"}}})
	if err != nil || res[0].Err != nil {
		t.Fatalf("describe: %v / %+v", err, res)
	}
	e, ok := res[0].Entry("retention.ms")
	if !ok || e.Value == nil || *e.Value != observed()["retention.ms"] || *e.Value != "123456" || e.Source != admin.SourceDynamicTopic {
		t.Fatalf("retention.ms: %+v (observer %q)", e, observed()["retention.ms"])
	}
	if len(res[0].Entries) != 1 {
		t.Fatalf("asked one key, got %d entries", len(res[0].Entries))
	}
	before := observed()
	set := []admin.AlterConfigsResource{{Type: admin.ResourceTopic, Name: topic, Changes: []admin.ConfigChange{{Name: "retention.ms", Op: admin.OpSet, Value: "654321"}}}}
	ar, err := b.adm.IncrementalAlterConfigs(ctxFor(t, 30*time.Second), set, admin.AlterConfigsOptions{ValidateOnly: true})
	if err != nil || ar[0].Err != nil {
		t.Fatalf("validate alter: %v / %+v", err, ar)
	}
	if got := observed(); got["retention.ms"] != "123456" {
		t.Fatalf("validate-only alter changed retention.ms to %q", got["retention.ms"])
	}
	ar, err = b.adm.IncrementalAlterConfigs(ctxFor(t, 30*time.Second), set, admin.AlterConfigsOptions{})
	if err != nil || ar[0].Err != nil {
		t.Fatalf("alter: %v / %+v", err, ar)
	}
	eventually(t, 10*time.Second, func() error {
		after := observed()
		if after["retention.ms"] != "654321" {
			return errors.New("retention.ms not yet 654321: " + after["retention.ms"])
		}
		for k, v := range before {
			if k != "retention.ms" && after[k] != v {
				return errors.New("key " + k + " changed from " + v + " to " + after[k])
			}
		}
		return nil
	})
	// An invalid value answers INVALID_CONFIG with or without ValidateOnly.
	bad := []admin.AlterConfigsResource{{Type: admin.ResourceTopic, Name: topic, Changes: []admin.ConfigChange{{Name: "retention.ms", Op: admin.OpSet, Value: "soon"}}}}
	for _, v := range []bool{true, false} {
		ar, err = b.adm.IncrementalAlterConfigs(ctxFor(t, 30*time.Second), bad, admin.AlterConfigsOptions{ValidateOnly: v})
		if err != nil || !errors.Is(ar[0].Err, wire.ErrInvalidConfig) {
			t.Fatalf("bad value validate=%v: %v / %+v", v, err, ar)
		}
	}
	// Missing topic.
	res, err = b.adm.DescribeConfigs(ctxFor(t, 30*time.Second), []admin.ConfigResource{{Type: admin.ResourceTopic, Name: b.name("nocfg")}})
	if err != nil || !errors.Is(res[0].Err, wire.ErrUnknownTopicOrPartition) {
		t.Fatalf("describe missing topic config: %v / %+v", err, res)
	}
}

// TestBrokerConfigsAndCluster: describe cluster matches the observer's
// cluster ID and brokers; broker configs route to the broker and hide
// sensitive values.
func TestBrokerConfigsAndCluster(t *testing.T) {
	b := newBed(t)
	d, err := b.adm.DescribeCluster(ctxFor(t, 30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	md, err := b.obs.BrokerMetadata(ctxFor(t, 10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if d.ClusterID != md.Cluster || d.ClusterID != b.kc.ClusterID() {
		t.Fatalf("cluster ID %q, observer %q, test bed %q", d.ClusterID, md.Cluster, b.kc.ClusterID())
	}
	var obsIDs []int32
	for _, br := range md.Brokers {
		obsIDs = append(obsIDs, br.NodeID)
	}
	slices.Sort(obsIDs)
	if !slices.Equal(d.BrokerIDs(), obsIDs) || !slices.Equal(d.BrokerIDs(), b.kc.BrokerIDs()) {
		t.Fatalf("brokers %v, observer %v, test bed %v", d.BrokerIDs(), obsIDs, b.kc.BrokerIDs())
	}
	id := d.Brokers[0].ID
	res, err := b.adm.DescribeConfigs(ctxFor(t, 30*time.Second), []admin.ConfigResource{{Type: admin.ResourceBroker, Name: itoa(id)}})
	if err != nil || res[0].Err != nil || len(res[0].Entries) == 0 {
		t.Fatalf("broker configs: %v / %+v", err, res)
	}
	for _, e := range res[0].Entries {
		if e.Sensitive && e.Value != nil {
			t.Fatalf("sensitive %s shown", e.Name)
		}
	}
}

func itoa(v int32) string { return strconv.Itoa(int(v)) }
