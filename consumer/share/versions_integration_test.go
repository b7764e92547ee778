package share

import (
	"context"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// TestIntegrationShareAPIVersions: the test bed's Kafka 4.4 advertises
// exactly the share API versions gregor's table implements (so gregor
// speaks the newest), and every version of each round-trips: the broker
// decodes our request and we decode its answer.
func TestIntegrationShareAPIVersions(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b := newBed(ctx, t, 1)
	if !b.shareGroups(ctx, t) {
		return
	}
	g := b.newGroup(ctx, t)
	vers, err := b.cl.BrokerVersions(ctx, client.AnyBroker)
	if err != nil {
		t.Fatal(err)
	}
	keys := []wire.APIKey{wire.KeyShareGroupHeartbeat, wire.KeyShareGroupDescribe, wire.KeyShareFetch, wire.KeyShareAcknowledge,
		wire.KeyDescribeShareGroupOffsets, wire.KeyAlterShareGroupOffsets, wire.KeyDeleteShareGroupOffsets}
	for _, k := range keys {
		info, _ := wire.LookupAPI(k)
		if r, ok := vers[k]; !ok || r[0] > info.MinVersion || r[1] != info.MaxVersion {
			t.Errorf("%s: broker serves %v (advertised %v), gregor implements %d-%d", info.Name, r, ok, info.MinVersion, info.MaxVersion)
		}
	}
	coord, err := b.cl.Coordinator(ctx, client.CoordinatorGroup, g)
	if err != nil {
		t.Fatal(err)
	}
	md, err := b.cl.Metadata(ctx, []string{b.topic})
	if err != nil {
		t.Fatal(err)
	}
	tid, leader := md.Topics[b.topic].ID, md.Topics[b.topic].Partitions[0].Leader
	member := "versions-member-0000001"
	hb, err := b.cl.RequestVersion(ctx, coord, &wire.ShareGroupHeartbeatRequest{GroupID: g, MemberID: member, SubscribedTopicNames: []string{b.topic}}, 1)
	if err != nil || hb.(*wire.ShareGroupHeartbeatResponse).ErrorCode != 0 || hb.(*wire.ShareGroupHeartbeatResponse).MemberEpoch < 1 {
		t.Fatalf("ShareGroupHeartbeat v1 join: %v %+v", err, hb)
	}
	for v := int16(1); v <= 2; v++ {
		// a fresh session at epoch 0 per version; -1 closes it
		resp, err := b.cl.RequestVersion(ctx, leader, &wire.ShareFetchRequest{GroupID: &g, MemberID: &member, MaxWaitMs: 10, MinBytes: 1, MaxBytes: 1 << 20,
			MaxRecords: 10, BatchSize: 10, ShareAcquireMode: wire.ShareAcquireRecordLimit,
			Topics: []wire.ShareFetchTopic{{TopicID: tid, Partitions: []wire.ShareFetchPartition{{PartitionIndex: 0}}}}}, v)
		if err != nil || resp.(*wire.ShareFetchResponse).ErrorCode != 0 {
			t.Fatalf("ShareFetch v%d: %v %+v", v, err, resp)
		}
		resp, err = b.cl.RequestVersion(ctx, leader, &wire.ShareAcknowledgeRequest{GroupID: &g, MemberID: &member, ShareSessionEpoch: -1}, v)
		if err != nil || resp.(*wire.ShareAcknowledgeResponse).ErrorCode != 0 {
			t.Fatalf("ShareAcknowledge v%d closing the session: %v %+v", v, err, resp)
		}
	}
	resp, err := b.cl.RequestVersion(ctx, coord, &wire.ShareGroupDescribeRequest{GroupIDs: []string{g}}, 1)
	if err != nil || len(resp.(*wire.ShareGroupDescribeResponse).Groups) != 1 || resp.(*wire.ShareGroupDescribeResponse).Groups[0].ErrorCode != 0 {
		t.Fatalf("ShareGroupDescribe v1: %v %+v", err, resp)
	}
	for v := int16(0); v <= 1; v++ {
		resp, err := b.cl.RequestVersion(ctx, coord, &wire.DescribeShareGroupOffsetsRequest{Groups: []wire.DescribeShareGroupOffsetsGroup{{GroupID: g}}}, v)
		if err != nil || len(resp.(*wire.DescribeShareGroupOffsetsResponse).Groups) != 1 {
			t.Fatalf("DescribeShareGroupOffsets v%d: %v %+v", v, err, resp)
		}
	}
	// the member is still in the group: both refused with NON_EMPTY_GROUP
	resp, err = b.cl.RequestVersion(ctx, coord, &wire.AlterShareGroupOffsetsRequest{GroupID: g, Topics: []wire.AlterShareGroupOffsetsTopic{{TopicName: b.topic,
		Partitions: []wire.AlterShareGroupOffsetsPartition{{PartitionIndex: 0, StartOffset: 0}}}}}, 0)
	if err != nil || resp.(*wire.AlterShareGroupOffsetsResponse).ErrorCode != wire.ErrNonEmptyGroup.Code {
		t.Fatalf("AlterShareGroupOffsets v0: %v %+v", err, resp)
	}
	resp, err = b.cl.RequestVersion(ctx, coord, &wire.DeleteShareGroupOffsetsRequest{GroupID: g, Topics: []wire.DeleteShareGroupOffsetsTopic{{TopicName: b.topic}}}, 0)
	if err != nil || resp.(*wire.DeleteShareGroupOffsetsResponse).ErrorCode != wire.ErrNonEmptyGroup.Code {
		t.Fatalf("DeleteShareGroupOffsets v0: %v %+v", err, resp)
	}
	if _, err := b.cl.RequestVersion(ctx, coord, &wire.ShareGroupHeartbeatRequest{GroupID: g, MemberID: member, MemberEpoch: -1}, 1); err != nil {
		t.Fatal(err)
	}
}
