package admin

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer/share"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

// TestIntegrationShareGroups: on Kafka 4.2+ (before, the share-group API
// fails with gregor.ErrUnsupportedFeature), a share group configured through
// IncrementalAlterConfigs (GROUP resource) is described with its member
// and assignment; its offsets cannot be altered while it has a member
// (NON_EMPTY_GROUP); once empty, AlterShareGroupOffsets moves the start
// offset (ListShareGroupOffsets reads it back), and DeleteShareGroupOffsets
// drops the state (start offset -1).
func TestIntegrationShareGroups(t *testing.T) {
	cluster := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cl, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext)})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	a := New(cl, Config{})
	topic, group := kafkatest.UniqueName(t, "share-admin"), kafkatest.UniqueName(t, "share-admin-group")
	if !cluster.AtLeast(4, 2) {
		// Share groups are off before Kafka 4.2 (share.version 0): the
		// share-group API fails at once with the typed error.
		d, err := a.DescribeShareGroups(ctx, []string{group})
		if err == nil && len(d) == 1 {
			err = d[0].Err
		}
		if !errors.Is(err, gregor.ErrUnsupportedFeature) {
			t.Fatalf("DescribeShareGroups on Kafka %s: %v, want gregor.ErrUnsupportedFeature", cluster.Version(), err)
		}
		return
	}
	if rs, err := a.CreateTopics(ctx, []NewTopic{{Name: topic, Partitions: 1, ReplicationFactor: 1}}, TopicOptions{WaitVisible: true}); err != nil || rs[0].Err != nil {
		t.Fatalf("CreateTopics: %v %+v", err, rs)
	}
	if rs, err := a.IncrementalAlterConfigs(ctx, []AlterConfigsResource{{Type: ResourceGroup, Name: group,
		Changes: []ConfigChange{{Name: "share.auto.offset.reset", Op: OpSet, Value: "earliest"}}}}, AlterConfigsOptions{}); err != nil || rs[0].Err != nil {
		t.Fatalf("share.auto.offset.reset: %v %+v", err, rs)
	}
	p, err := producer.New(cl, producer.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		d, err := p.Send(ctx, &producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: []byte(fmt.Sprint(i))})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Wait(ctx); err != nil {
			t.Fatal(err)
		}
	}
	_ = p.Close(ctx)

	c, err := share.New(cl, share.Config{GroupID: group, Topics: []string{topic}})
	if err != nil {
		t.Fatal(err)
	}
	// drain receives every record still deliverable, accepting them.
	drain := func(c *share.Consumer) []int64 {
		var offs []int64
		for wait := 6 * time.Second; ; wait = 2 * time.Second { // the first waits for the assignment
			rctx, rcancel := context.WithTimeout(ctx, wait)
			recs, err := c.Receive(rctx)
			rcancel()
			if err != nil {
				if !errors.Is(err, client.ErrTimeout) {
					t.Fatalf("Receive: %v", err)
				}
				break
			}
			for _, r := range recs {
				offs = append(offs, r.Offset)
			}
		}
		if err := c.Close(ctx); err != nil {
			t.Fatal(err)
		}
		return offs
	}

	if err := c.AwaitJoined(ctx); err != nil {
		t.Fatal(err)
	}
	var ds []GroupDescription
	for { // the assignment follows the join by a heartbeat
		if ds, err = a.DescribeShareGroups(ctx, []string{group, group + "-missing"}); err != nil {
			t.Fatal(err)
		}
		if len(ds[0].Members) == 1 && len(ds[0].Members[0].Assignment) == 1 || ctx.Err() != nil {
			break
		}
	}
	d := ds[0]
	if d.Err != nil || d.Type != "share" || d.State != "Stable" || len(d.Members) != 1 || d.Members[0].MemberID != c.MemberID() ||
		d.Members[0].Assignment[0] != (gregor.TopicPartition{Topic: topic, Partition: 0}) || d.Protocol == "" {
		t.Fatalf("share group description %+v", d)
	}
	if !errors.Is(ds[1].Err, wire.ErrGroupIDNotFound) {
		t.Fatalf("missing group: %v", ds[1].Err)
	}
	if _, err := a.AlterShareGroupOffsets(ctx, group, []ShareOffsetToSet{{gregor.TopicPartition{Topic: topic, Partition: 0}, 3}}); !errors.Is(err, wire.ErrNonEmptyGroup) {
		t.Fatalf("altering a group with a member: %v, want NON_EMPTY_GROUP", err)
	}
	if got := drain(c); len(got) != 5 {
		t.Fatalf("first member got offsets %v, want 0..4", got)
	}

	rs, err := a.AlterShareGroupOffsets(ctx, group, []ShareOffsetToSet{{gregor.TopicPartition{Topic: topic, Partition: 0}, 3}})
	if err != nil || len(rs) != 1 || rs[0].Err != nil {
		t.Fatalf("AlterShareGroupOffsets: %v %+v", err, rs)
	}
	offs, err := a.ListShareGroupOffsets(ctx, group, nil)
	if err != nil || len(offs) != 1 || offs[0].TopicPartition != (gregor.TopicPartition{Topic: topic, Partition: 0}) || offs[0].StartOffset != 3 || offs[0].Err != nil {
		t.Fatalf("ListShareGroupOffsets after alter: %v %+v", err, offs)
	}
	// (The broker keeps the share partition it has loaded with its own
	// start offset until its next state write is fenced, so a member's
	// deliveries right after the alter are not a reliable read-back.)

	dr, err := a.DeleteShareGroupOffsets(ctx, group, []string{topic})
	if err != nil || len(dr) != 1 || dr[0].Err != nil || dr[0].Name != topic {
		t.Fatalf("DeleteShareGroupOffsets: %v %+v", err, dr)
	}
	if offs, err = a.ListShareGroupOffsets(ctx, group, []string{topic}); err != nil || len(offs) != 1 || offs[0].StartOffset != -1 {
		t.Fatalf("ListShareGroupOffsets after delete: %v %+v", err, offs)
	}
}
