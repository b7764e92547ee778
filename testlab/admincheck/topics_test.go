package admincheck

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// TestCreateExistingTopic: creating a topic that exists answers
// TOPIC_ALREADY_EXISTS (36) as the topic's error and leaves the original
// partition count unchanged (observer).
func TestCreateExistingTopic(t *testing.T) {
	b := newBed(t)
	topic := b.observedTopic(2, nil)
	for _, validate := range []bool{false, true} {
		res, err := b.adm.CreateTopics(ctxFor(t, 30*time.Second), []admin.NewTopic{{Name: topic, Partitions: 5, ReplicationFactor: 1}}, admin.TopicOptions{ValidateOnly: validate})
		if err != nil {
			t.Fatalf("validate=%v: operation error %v", validate, err)
		}
		if len(res) != 1 || res[0].Name != topic || !errors.Is(res[0].Err, wire.ErrTopicAlreadyExists) {
			t.Fatalf("validate=%v: got %+v, want TOPIC_ALREADY_EXISTS", validate, res)
		}
		var ke *wire.KafkaError
		if !errors.As(res[0].Err, &ke) || ke.Code != 36 {
			t.Fatalf("validate=%v: error %v is not Kafka code 36", validate, res[0].Err)
		}
	}
	if n := b.observedPartitions(topic); n != 2 {
		t.Fatalf("observer sees %d partitions, want the original 2", n)
	}
}

// TestCreateInvalid: invalid partitions and replication factor map to the
// matching errors, the same with ValidateOnly, and nothing is created.
func TestCreateInvalid(t *testing.T) {
	b := newBed(t)
	replicas := int16(len(b.kc.BrokerIDs()) + 1)
	cases := []struct {
		name string
		nt   admin.NewTopic
		want error
	}{
		{"negative partitions", admin.NewTopic{Partitions: -7, ReplicationFactor: 1}, wire.ErrInvalidPartitions},
		{"too many replicas", admin.NewTopic{Partitions: 1, ReplicationFactor: replicas}, wire.ErrInvalidReplicationFactor},
	}
	for _, c := range cases {
		for _, validate := range []bool{true, false} {
			nt := c.nt
			nt.Name = b.name("inv")
			res, err := b.adm.CreateTopics(ctxFor(t, 30*time.Second), []admin.NewTopic{nt}, admin.TopicOptions{ValidateOnly: validate})
			if err != nil {
				t.Fatalf("%s validate=%v: operation error %v", c.name, validate, err)
			}
			if !errors.Is(res[0].Err, c.want) {
				t.Fatalf("%s validate=%v: got %v, want %v", c.name, validate, res[0].Err, c.want)
			}
			if n := b.observedPartitions(nt.Name); n != -1 {
				t.Fatalf("%s validate=%v: observer sees the topic with %d partitions", c.name, validate, n)
			}
		}
	}
}

// TestValidateOnlyChangesNothing: a valid ValidateOnly create succeeds and
// creates nothing; a ValidateOnly partition increase succeeds and leaves
// the count unchanged.
func TestValidateOnlyChangesNothing(t *testing.T) {
	b := newBed(t)
	name := b.name("vo")
	res, err := b.adm.CreateTopics(ctxFor(t, 30*time.Second), []admin.NewTopic{{Name: name, Partitions: 3, ReplicationFactor: 1}}, admin.TopicOptions{ValidateOnly: true})
	if err != nil || res[0].Err != nil {
		t.Fatalf("validate create: %v / %+v", err, res)
	}
	if res[0].Partitions != 3 {
		t.Fatalf("validated partitions %d, want 3", res[0].Partitions)
	}
	if n := b.observedPartitions(name); n != -1 {
		t.Fatalf("observer sees validated-only topic with %d partitions", n)
	}
	topic := b.observedTopic(1, nil)
	pr, err := b.adm.CreatePartitions(ctxFor(t, 30*time.Second), []admin.PartitionsIncrease{{Topic: topic, TotalCount: 4}}, admin.TopicOptions{ValidateOnly: true})
	if err != nil || pr[0].Err != nil {
		t.Fatalf("validate create partitions: %v / %+v", err, pr)
	}
	if n := b.observedPartitions(topic); n != 1 {
		t.Fatalf("observer sees %d partitions after validate-only increase, want 1", n)
	}
	// Same errors as a real request: shrinking is INVALID_PARTITIONS.
	pr, err = b.adm.CreatePartitions(ctxFor(t, 30*time.Second), []admin.PartitionsIncrease{{Topic: topic, TotalCount: 1}}, admin.TopicOptions{ValidateOnly: true})
	if err != nil || !errors.Is(pr[0].Err, wire.ErrInvalidPartitions) {
		t.Fatalf("validate non-increase: %v / %+v", err, pr)
	}
}

// TestBatchCreateOneFails: a batch where one topic fails returns one outcome
// per topic, in request order; the others exist (observer).
func TestBatchCreateOneFails(t *testing.T) {
	b := newBed(t)
	existing := b.observedTopic(1, nil)
	a, c := b.name("ba"), b.name("bc")
	t.Cleanup(func() { b.obs.DeleteTopics(ctxFor(t, 30*time.Second), a, c) })
	topics := []admin.NewTopic{{Name: a, Partitions: 2, ReplicationFactor: 1}, {Name: existing, Partitions: 1, ReplicationFactor: 1}, {Name: c, Partitions: 3, ReplicationFactor: 1}}
	res, err := b.adm.CreateTopics(ctxFor(t, 30*time.Second), topics, admin.TopicOptions{WaitVisible: true})
	if err != nil {
		t.Fatalf("operation error: %v", err)
	}
	if len(res) != 3 || res[0].Name != a || res[1].Name != existing || res[2].Name != c {
		t.Fatalf("results out of order: %+v", res)
	}
	if res[0].Err != nil || !errors.Is(res[1].Err, wire.ErrTopicAlreadyExists) || res[2].Err != nil {
		t.Fatalf("outcomes: %v / %v / %v", res[0].Err, res[1].Err, res[2].Err)
	}
	if res[0].TopicID.IsZero() || res[2].TopicID.IsZero() {
		t.Fatalf("created topics lack IDs: %+v", res)
	}
	// WaitVisible: the observer sees them at once.
	if n := b.observedPartitions(a); n != 2 {
		t.Fatalf("observer sees %s with %d partitions, want 2", a, n)
	}
	if n := b.observedPartitions(c); n != 3 {
		t.Fatalf("observer sees %s with %d partitions, want 3", c, n)
	}
}

// TestDescribeListMissingTopic: describe of a missing topic answers
// UNKNOWN_TOPIC_OR_PARTITION (3), so do create_partitions, delete and list
// offsets; list_topics does not show it.
func TestDescribeListMissingTopic(t *testing.T) {
	b := newBed(t)
	missing := b.name("missing")
	d, err := b.adm.DescribeTopics(ctxFor(t, 30*time.Second), []string{missing})
	if err != nil || !errors.Is(d[0].Err, wire.ErrUnknownTopicOrPartition) {
		t.Fatalf("describe missing: %v / %+v", err, d)
	}
	pr, err := b.adm.CreatePartitions(ctxFor(t, 30*time.Second), []admin.PartitionsIncrease{{Topic: missing, TotalCount: 3}}, admin.TopicOptions{})
	if err != nil || !errors.Is(pr[0].Err, wire.ErrUnknownTopicOrPartition) {
		t.Fatalf("create partitions of missing: %v / %+v", err, pr)
	}
	dr, err := b.adm.DeleteTopics(ctxFor(t, 30*time.Second), []admin.TopicRef{{Name: missing}}, admin.TopicOptions{})
	if err != nil || !errors.Is(dr[0].Err, wire.ErrUnknownTopicOrPartition) {
		t.Fatalf("delete missing: %v / %+v", err, dr)
	}
	lo, err := b.adm.ListOffsets(ctxFor(t, 30*time.Second), []admin.OffsetQuery{{TopicPartition: gregor.TopicPartition{Topic: missing}, Spec: admin.OffsetLatest}}, admin.ListOffsetsOptions{})
	if err != nil || !errors.Is(lo[0].Err, wire.ErrUnknownTopicOrPartition) {
		t.Fatalf("list offsets of missing: %v / %+v", err, lo)
	}
	// A missing partition of an existing topic too.
	topic := b.observedTopic(1, nil)
	lo, err = b.adm.ListOffsets(ctxFor(t, 30*time.Second), []admin.OffsetQuery{{TopicPartition: gregor.TopicPartition{Topic: topic, Partition: 5}, Spec: admin.OffsetLatest}}, admin.ListOffsetsOptions{})
	if err != nil || !errors.Is(lo[0].Err, wire.ErrUnknownTopicOrPartition) {
		t.Fatalf("list offsets of missing partition: %v / %+v", err, lo)
	}
	for _, e := range []error{d[0].Err, pr[0].Err, dr[0].Err, lo[0].Err} {
		if errors.Is(e, client.ErrTimeout) {
			t.Fatalf("missing topic retried until the deadline: %v", e)
		}
	}
	list, err := b.adm.ListTopics(ctxFor(t, 30*time.Second), false)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range list {
		if l.Name == missing {
			t.Fatalf("list shows missing topic")
		}
	}
}

// TestDescribeAndListTopics: describe matches the observer's view
// (partitions, leaders, replicas, ISR, topic ID); list is sorted and
// includes the topic, and internal topics only on request.
func TestDescribeAndListTopics(t *testing.T) {
	b := newBed(t)
	topic := b.observedTopic(3, nil)
	d, err := b.adm.DescribeTopics(ctxFor(t, 30*time.Second), []string{topic})
	if err != nil || d[0].Err != nil {
		t.Fatalf("describe: %v / %+v", err, d)
	}
	td, err := b.obs.ListTopics(ctxFor(t, 10*time.Second), topic)
	if err != nil {
		t.Fatal(err)
	}
	od := td[topic]
	if [16]byte(od.ID) != [16]byte(d[0].ID) {
		t.Fatalf("topic ID %v, observer %v", d[0].ID, od.ID)
	}
	if len(d[0].Partitions) != len(od.Partitions) {
		t.Fatalf("%d partitions, observer %d", len(d[0].Partitions), len(od.Partitions))
	}
	for i, p := range d[0].Partitions {
		op := od.Partitions[p.Partition]
		if p.Partition != int32(i) || p.Leader != op.Leader || p.LeaderEpoch != op.LeaderEpoch ||
			fmt.Sprint(p.Replicas) != fmt.Sprint(op.Replicas) || fmt.Sprint(p.ISR) != fmt.Sprint(op.ISR) {
			t.Fatalf("partition %d: ours %+v, observer %+v", i, p, op)
		}
	}
	list, err := b.adm.ListTopics(ctxFor(t, 30*time.Second), false)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for i, l := range list {
		if i > 0 && list[i-1].Name >= l.Name {
			t.Fatalf("list not sorted at %d: %q >= %q", i, list[i-1].Name, l.Name)
		}
		if l.Internal {
			t.Fatalf("internal topic %q listed without includeInternal", l.Name)
		}
		found = found || l.Name == topic
	}
	if !found {
		t.Fatalf("list lacks %s", topic)
	}
}

// TestCreatePartitionsAndDelete: growing a topic is seen by the observer;
// deleting it with WaitVisible leaves no trace for the observer.
func TestCreatePartitionsAndDelete(t *testing.T) {
	b := newBed(t)
	name := b.name("grow")
	res, err := b.adm.CreateTopics(ctxFor(t, 30*time.Second), []admin.NewTopic{{Name: name, Partitions: 1, ReplicationFactor: -1}}, admin.TopicOptions{WaitVisible: true})
	if err != nil || res[0].Err != nil {
		t.Fatalf("create: %v / %+v", err, res)
	}
	pr, err := b.adm.CreatePartitions(ctxFor(t, 30*time.Second), []admin.PartitionsIncrease{{Topic: name, TotalCount: 4}}, admin.TopicOptions{WaitVisible: true})
	if err != nil || pr[0].Err != nil {
		t.Fatalf("create partitions: %v / %+v", err, pr)
	}
	if n := b.observedPartitions(name); n != 4 {
		t.Fatalf("observer sees %d partitions, want 4", n)
	}
	dr, err := b.adm.DeleteTopics(ctxFor(t, 30*time.Second), []admin.TopicRef{{Name: name}}, admin.TopicOptions{WaitVisible: true})
	if err != nil || dr[0].Err != nil {
		t.Fatalf("delete: %v / %+v", err, dr)
	}
	if n := b.observedPartitions(name); n != -1 {
		t.Fatalf("observer still sees the deleted topic (%d partitions)", n)
	}
}

// TestDeleteTopicByID: a topic named only by its ID (DeleteTopics v6+) is
// deleted; an unknown ID answers UNKNOWN_TOPIC_ID.
func TestDeleteTopicByID(t *testing.T) {
	b := newBed(t)
	topic := b.observedTopic(1, nil)
	d, err := b.adm.DescribeTopics(ctxFor(t, 30*time.Second), []string{topic})
	if err != nil || d[0].Err != nil || d[0].ID.IsZero() {
		t.Fatalf("describe: %v / %+v", err, d)
	}
	res, err := b.adm.DeleteTopics(ctxFor(t, 30*time.Second), []admin.TopicRef{{ID: d[0].ID}, {ID: wire.UUID{1, 2, 3}}}, admin.TopicOptions{WaitVisible: true})
	if err != nil || res[0].Err != nil || res[0].Name != topic || res[0].TopicID != d[0].ID {
		t.Fatalf("delete by ID: %v / %+v", err, res)
	}
	if !errors.Is(res[1].Err, wire.ErrUnknownTopicID) || errors.Is(res[1].Err, client.ErrTimeout) {
		t.Fatalf("unknown ID: %+v (an answer, not retried until the deadline)", res[1])
	}
	if n := b.observedPartitions(topic); n != -1 {
		t.Fatalf("observer still sees topic deleted by ID (%d partitions)", n)
	}
}
