package admincheck

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/wire"
)

// TestAdminAPIVersionsRoundTrip pins every version of every admin/group API
// that both gregor and the test bed's broker speak and completes a real
// round trip: the broker accepts our encoding and we decode its answer,
// whose error codes are the ones the request must get (observer: the broker).
func TestAdminAPIVersionsRoundTrip(t *testing.T) {
	b := newBed(t)
	cl, err := client.New(client.Config{Bootstrap: b.kc.Bootstrap(kafkatest.Plaintext), ClientID: "versions"})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	topic := b.observedTopic(1, nil)
	b.produce(topic, 0, 5)
	td, err := b.obs.ListTopics(ctxFor(t, 10*time.Second), topic)
	if err != nil {
		t.Fatal(err)
	}
	topicID := wire.UUID(td[topic].ID)
	broker := b.kc.BrokerIDs()[0]
	vers, err := cl.BrokerVersions(ctxFor(t, 10*time.Second), broker)
	if err != nil {
		t.Fatal(err)
	}
	group := b.name("vg")
	b.commit(group, topic, map[int32]int64{0: 2})
	missing := b.name("vmissing")

	codeIs := func(want int16, got int16) error {
		if got != want {
			return fmt.Errorf("error code %d (%v), want %d", got, wire.ErrorForCode(got), want)
		}
		return nil
	}
	cases := []struct {
		key   wire.APIKey
		req   func(v int16) wire.Request
		check func(v int16, resp wire.Response) error
	}{
		{wire.KeyCreateTopics, func(v int16) wire.Request {
			return &wire.CreateTopicsRequest{Topics: []wire.CreateTopicsTopic{{Name: topic, NumPartitions: 1, ReplicationFactor: 1}}, TimeoutMs: 5000, ValidateOnly: true}
		}, func(v int16, r wire.Response) error {
			return codeIs(36, r.(*wire.CreateTopicsResponse).Topics[0].ErrorCode)
		}},
		{wire.KeyDeleteTopics, func(v int16) wire.Request {
			return &wire.DeleteTopicsRequest{TopicNames: []string{missing}, Topics: []wire.DeleteTopicsTopic{{Name: &missing}}, TimeoutMs: 5000}
		}, func(v int16, r wire.Response) error {
			return codeIs(3, r.(*wire.DeleteTopicsResponse).Responses[0].ErrorCode)
		}},
		{wire.KeyCreatePartitions, func(v int16) wire.Request {
			return &wire.CreatePartitionsRequest{Topics: []wire.CreatePartitionsTopic{{Name: topic, Count: 3}}, TimeoutMs: 5000, ValidateOnly: true}
		}, func(v int16, r wire.Response) error {
			return codeIs(0, r.(*wire.CreatePartitionsResponse).Results[0].ErrorCode)
		}},
		{wire.KeyDeleteRecords, func(v int16) wire.Request {
			return &wire.DeleteRecordsRequest{Topics: []wire.DeleteRecordsTopic{{Name: topic, Partitions: []wire.DeleteRecordsPartition{{PartitionIndex: 0, Offset: int64(v) + 1}}}}, TimeoutMs: 5000}
		}, func(v int16, r wire.Response) error {
			p := r.(*wire.DeleteRecordsResponse).Topics[0].Partitions[0]
			if p.LowWatermark != int64(v)+1 {
				return fmt.Errorf("low watermark %d, want %d", p.LowWatermark, v+1)
			}
			return codeIs(0, p.ErrorCode)
		}},
		{wire.KeyDescribeConfigs, func(v int16) wire.Request {
			return &wire.DescribeConfigsRequest{Resources: []wire.DescribeConfigsResource{{ResourceType: wire.ConfigResourceTopic, ResourceName: topic, ConfigurationKeys: []string{"cleanup.policy"}}}, IncludeSynonyms: true, IncludeDocumentation: true}
		}, func(v int16, r wire.Response) error {
			res := r.(*wire.DescribeConfigsResponse).Results[0]
			if len(res.Configs) != 1 || res.Configs[0].Value == nil || *res.Configs[0].Value != "delete" {
				return fmt.Errorf("configs %+v", res.Configs)
			}
			if v >= 3 && res.Configs[0].Documentation == nil {
				return errors.New("no documentation at v3+")
			}
			return codeIs(0, res.ErrorCode)
		}},
		{wire.KeyIncrementalAlterConfigs, func(v int16) wire.Request {
			val := "86400000"
			return &wire.IncrementalAlterConfigsRequest{Resources: []wire.IncrementalAlterConfigsResource{{ResourceType: wire.ConfigResourceTopic, ResourceName: topic,
				Configs: []wire.IncrementalAlterConfigsConfig{{Name: "retention.ms", ConfigOperation: wire.ConfigOpSet, Value: &val}}}}, ValidateOnly: true}
		}, func(v int16, r wire.Response) error {
			return codeIs(0, r.(*wire.IncrementalAlterConfigsResponse).Responses[0].ErrorCode)
		}},
		{wire.KeyDescribeCluster, func(v int16) wire.Request {
			return &wire.DescribeClusterRequest{EndpointType: wire.EndpointTypeBrokers}
		}, func(v int16, r wire.Response) error {
			d := r.(*wire.DescribeClusterResponse)
			if d.ClusterID != b.kc.ClusterID() || len(d.Brokers) != len(b.kc.BrokerIDs()) {
				return fmt.Errorf("cluster %q brokers %d", d.ClusterID, len(d.Brokers))
			}
			return codeIs(0, d.ErrorCode)
		}},
		{wire.KeyListGroups, func(v int16) wire.Request { return &wire.ListGroupsRequest{} }, func(v int16, r wire.Response) error {
			l := r.(*wire.ListGroupsResponse)
			for _, g := range l.Groups {
				if g.GroupID == group {
					return codeIs(0, l.ErrorCode)
				}
			}
			return fmt.Errorf("group %s not listed", group)
		}},
		{wire.KeyDescribeGroups, func(v int16) wire.Request { return &wire.DescribeGroupsRequest{Groups: []string{group}} }, func(v int16, r wire.Response) error {
			g := r.(*wire.DescribeGroupsResponse).Groups[0]
			if g.GroupID != group || g.GroupState != "Empty" {
				return fmt.Errorf("group %+v", g)
			}
			return codeIs(0, g.ErrorCode)
		}},
		{wire.KeyDeleteGroups, func(v int16) wire.Request { return &wire.DeleteGroupsRequest{GroupsNames: []string{missing}} }, func(v int16, r wire.Response) error {
			return codeIs(69, r.(*wire.DeleteGroupsResponse).Results[0].ErrorCode)
		}},
		{wire.KeyOffsetCommit, func(v int16) wire.Request {
			return &wire.OffsetCommitRequest{GroupID: group, GenerationIDOrMemberEpoch: -1, RetentionTimeMs: -1,
				Topics: []wire.OffsetCommitTopic{{Name: topic, TopicID: topicID, Partitions: []wire.OffsetCommitPartition{{PartitionIndex: 0, CommittedOffset: 2, CommittedLeaderEpoch: -1}}}}}
		}, func(v int16, r wire.Response) error {
			t := r.(*wire.OffsetCommitResponse).Topics[0]
			if (v >= 10 && t.TopicID != topicID) || (v < 10 && t.Name != topic) {
				return fmt.Errorf("topic %+v", t)
			}
			return codeIs(0, t.Partitions[0].ErrorCode)
		}},
		{wire.KeyOffsetFetch, func(v int16) wire.Request {
			ts := []wire.OffsetFetchRequestTopic{{Name: topic, TopicID: topicID, PartitionIndexes: []int32{0}}}
			return &wire.OffsetFetchRequest{GroupID: group, Topics: ts, Groups: []wire.OffsetFetchRequestGroup{{GroupID: group, MemberEpoch: -1, Topics: ts}}, RequireStable: true}
		}, func(v int16, r wire.Response) error {
			resp := r.(*wire.OffsetFetchResponse)
			topics := resp.Topics
			if v >= 8 {
				topics = resp.Groups[0].Topics
			}
			p := topics[0].Partitions[0]
			if p.CommittedOffset != 2 {
				return fmt.Errorf("committed %d, want 2", p.CommittedOffset)
			}
			return codeIs(0, p.ErrorCode)
		}},
		{wire.KeyOffsetDelete, func(v int16) wire.Request {
			return &wire.OffsetDeleteRequest{GroupID: missing, Topics: []wire.OffsetDeleteTopic{{Name: topic, Partitions: []int32{0}}}}
		}, func(v int16, r wire.Response) error {
			return codeIs(69, r.(*wire.OffsetDeleteResponse).ErrorCode)
		}},
		{wire.KeyConsumerGroupDescribe, func(v int16) wire.Request { return &wire.ConsumerGroupDescribeRequest{GroupIDs: []string{group}} }, func(v int16, r wire.Response) error {
			// A classic group is not a consumer-protocol group.
			return codeIs(69, r.(*wire.ConsumerGroupDescribeResponse).Groups[0].ErrorCode)
		}},
		{wire.KeyConsumerGroupHeartbeat, func(v int16) wire.Request {
			// a member joins a consumer-protocol group of its own, subscribed to topic
			return &wire.ConsumerGroupHeartbeatRequest{GroupID: fmt.Sprintf("%s-848-v%d", group, v), MemberID: fmt.Sprintf("member-v%d-0123456789abc", v),
				MemberEpoch: 0, RebalanceTimeoutMs: 30000, SubscribedTopicNames: []string{topic}, TopicPartitions: []wire.ConsumerGroupHeartbeatTopicPartitions{}}
		}, func(v int16, r wire.Response) error {
			hb := r.(*wire.ConsumerGroupHeartbeatResponse)
			if err := codeIs(0, hb.ErrorCode); err != nil {
				return err
			}
			if hb.MemberEpoch < 1 || hb.HeartbeatIntervalMs <= 0 {
				return fmt.Errorf("joined with epoch %d, heartbeat interval %d ms", hb.MemberEpoch, hb.HeartbeatIntervalMs)
			}
			// the only member gets the topic's only partition at once
			if a := hb.Assignment; a == nil || len(a.TopicPartitions) != 1 || a.TopicPartitions[0].TopicID != topicID ||
				len(a.TopicPartitions[0].Partitions) != 1 || a.TopicPartitions[0].Partitions[0] != 0 {
				return fmt.Errorf("assignment %+v, want partition 0 of %s", a, topic)
			}
			// and leaves (epoch -1), so the group empties
			leave, err := cl.RequestVersion(ctxFor(t, 30*time.Second), broker, &wire.ConsumerGroupHeartbeatRequest{
				GroupID: fmt.Sprintf("%s-848-v%d", group, v), MemberID: fmt.Sprintf("member-v%d-0123456789abc", v), MemberEpoch: -1, RebalanceTimeoutMs: -1}, v)
			if err != nil {
				return err
			}
			if l := leave.(*wire.ConsumerGroupHeartbeatResponse); l.ErrorCode != 0 || l.MemberEpoch != -1 {
				return fmt.Errorf("leave: error %d, epoch %d", l.ErrorCode, l.MemberEpoch)
			}
			return nil
		}},
	}
	for _, c := range cases {
		info, _ := wire.LookupAPI(c.key)
		bv, ok := vers[c.key]
		if kip848 := c.key == wire.KeyConsumerGroupDescribe || c.key == wire.KeyConsumerGroupHeartbeat; kip848 && !b.kc.AtLeast(4, 0) {
			// Kafka 3.x: KIP-848 is off (ConsumerGroupHeartbeat v0 is
			// advertised and answered UNSUPPORTED_VERSION; gregor decides
			// from group.version, internal/featuretest).
			t.Logf("%s on Kafka %s: KIP-848 groups are off, not round-tripped", info.Name, b.kc.Version())
			continue
		}
		if !ok {
			t.Errorf("%s: broker does not advertise the API", info.Name)
			continue
		}
		for v := info.MinVersion; v <= info.MaxVersion; v++ {
			if v < bv[0] || v > bv[1] {
				t.Logf("%s v%d: broker speaks %d-%d, skipped", info.Name, v, bv[0], bv[1])
				continue
			}
			t.Run(fmt.Sprintf("%s/v%d", info.Name, v), func(t *testing.T) {
				resp, err := cl.RequestVersion(ctxFor(t, 30*time.Second), broker, c.req(v), v)
				if err != nil {
					t.Fatalf("round trip: %v", err)
				}
				if err := c.check(v, resp); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}
