package wire

import (
	"math"
	"testing"
)

// Golden bytes for one old and one flexible version of every admin/group API,
// request and response. The byte strings were produced by an independent
// encoder (franz-go's kmsg v1.15.1, from equivalent messages), not by this
// package, so they pin our encoding to a second implementation.

func TestAdminGoldenTopics(t *testing.T) {
	ct := func() *CreateTopicsRequest {
		return &CreateTopicsRequest{Topics: []CreateTopicsTopic{{Name: "a", NumPartitions: 1, ReplicationFactor: 3,
			Configs: []CreateTopicsConfig{{Name: "k", Value: ptr("v")}}}}, TimeoutMs: 1000}
	}
	checkGolden(t, 2, ct(), new(CreateTopicsRequest), "00000001 0001 61 00000001 0003 00000000 00000001 0001 6b 0001 76 000003e8 00")
	checkGolden(t, 5, ct(), new(CreateTopicsRequest), "02 02 61 00000001 0003 01 02 02 6b 02 76 00 00 000003e8 00 00")
	ctr := func() *CreateTopicsResponse {
		return &CreateTopicsResponse{Topics: []CreateTopicsTopicResult{{Name: "a", ErrorCode: 36, ErrorMessage: ptr("x"), NumPartitions: -1, ReplicationFactor: -1}}}
	}
	checkGolden(t, 2, ctr(), new(CreateTopicsResponse), "00000000 00000001 0001 61 0024 0001 78")
	checkGolden(t, 5, ctr(), new(CreateTopicsResponse), "00000000 02 02 61 0024 02 78 ffffffff ffff 00 00 00")

	checkGolden(t, 1, &DeleteTopicsRequest{TopicNames: []string{"a"}, TimeoutMs: 1000}, new(DeleteTopicsRequest), "00000001 0001 61 000003e8")
	checkGolden(t, 6, &DeleteTopicsRequest{Topics: []DeleteTopicsTopic{{Name: ptr("a")}}, TimeoutMs: 1000}, new(DeleteTopicsRequest),
		"02 02 61 00000000000000000000000000000000 00 000003e8 00")
	dtr := &DeleteTopicsResponse{Responses: []DeleteTopicsTopicResult{{Name: ptr("a"), ErrorCode: 3}}}
	checkGolden(t, 1, dtr, new(DeleteTopicsResponse), "00000000 00000001 0001 61 0003")
	checkGolden(t, 6, dtr, new(DeleteTopicsResponse), "00000000 02 02 61 00000000000000000000000000000000 0003 00 00 00")

	cp := &CreatePartitionsRequest{Topics: []CreatePartitionsTopic{{Name: "a", Count: 4}}, TimeoutMs: 1000, ValidateOnly: true}
	checkGolden(t, 0, cp, new(CreatePartitionsRequest), "00000001 0001 61 00000004 ffffffff 000003e8 01")
	checkGolden(t, 2, cp, new(CreatePartitionsRequest), "02 02 61 00000004 00 00 000003e8 01 00")
	cpr := &CreatePartitionsResponse{Results: []CreatePartitionsTopicResult{{Name: "a", ErrorCode: 37}}}
	checkGolden(t, 0, cpr, new(CreatePartitionsResponse), "00000000 00000001 0001 61 0025 ffff")
	checkGolden(t, 2, cpr, new(CreatePartitionsResponse), "00000000 02 02 61 0025 00 00 00")

	dr := &DeleteRecordsRequest{Topics: []DeleteRecordsTopic{{Name: "a", Partitions: []DeleteRecordsPartition{{PartitionIndex: 1, Offset: 5}}}}, TimeoutMs: 1000}
	checkGolden(t, 0, dr, new(DeleteRecordsRequest), "00000001 0001 61 00000001 00000001 0000000000000005 000003e8")
	checkGolden(t, 2, dr, new(DeleteRecordsRequest), "02 02 61 02 00000001 0000000000000005 00 00 000003e8 00")
	drr := &DeleteRecordsResponse{Topics: []DeleteRecordsTopicResult{{Name: "a", Partitions: []DeleteRecordsPartitionResult{{PartitionIndex: 1, LowWatermark: 5}}}}}
	checkGolden(t, 0, drr, new(DeleteRecordsResponse), "00000000 00000001 0001 61 00000001 00000001 0000000000000005 0000")
	checkGolden(t, 2, drr, new(DeleteRecordsResponse), "00000000 02 02 61 02 00000001 0000000000000005 0000 00 00 00")
}

func TestAdminGoldenConfigsCluster(t *testing.T) {
	dc := &DescribeConfigsRequest{Resources: []DescribeConfigsResource{{ResourceType: 2, ResourceName: "a", ConfigurationKeys: []string{"k"}}}}
	checkGolden(t, 1, dc, new(DescribeConfigsRequest), "00000001 02 0001 61 00000001 0001 6b 00")
	checkGolden(t, 4, dc, new(DescribeConfigsRequest), "02 02 02 61 02 02 6b 00 00 00 00")
	dcr := &DescribeConfigsResponse{Results: []DescribeConfigsResult{{ResourceType: 2, ResourceName: "a",
		Configs: []DescribeConfigsConfig{{Name: "k", Value: ptr("v"), ConfigSource: 1}}}}}
	checkGolden(t, 1, dcr, new(DescribeConfigsResponse), "00000000 00000001 0000 ffff 02 0001 61 00000001 0001 6b 0001 76 00 01 00 00000000")
	checkGolden(t, 4, dcr, new(DescribeConfigsResponse), "00000000 02 0000 00 02 02 61 02 02 6b 02 76 00 01 00 01 00 00 00 00 00")

	ia := &IncrementalAlterConfigsRequest{Resources: []IncrementalAlterConfigsResource{{ResourceType: 2, ResourceName: "a",
		Configs: []IncrementalAlterConfigsConfig{{Name: "k", ConfigOperation: ConfigOpSet, Value: ptr("v")}}}}, ValidateOnly: true}
	checkGolden(t, 0, ia, new(IncrementalAlterConfigsRequest), "00000001 02 0001 61 00000001 0001 6b 00 0001 76 01")
	checkGolden(t, 1, ia, new(IncrementalAlterConfigsRequest), "02 02 02 61 02 02 6b 00 02 76 00 00 01 00")
	iar := &IncrementalAlterConfigsResponse{Responses: []IncrementalAlterConfigsResult{{ResourceType: 2, ResourceName: "a"}}}
	checkGolden(t, 0, iar, new(IncrementalAlterConfigsResponse), "00000000 00000001 0000 ffff 02 0001 61")
	checkGolden(t, 1, iar, new(IncrementalAlterConfigsResponse), "00000000 02 0000 00 02 02 61 00 00")

	checkGolden(t, 0, &DescribeClusterRequest{EndpointType: 1}, new(DescribeClusterRequest), "00 00")
	checkGolden(t, 2, &DescribeClusterRequest{EndpointType: 1}, new(DescribeClusterRequest), "00 01 00 00")
	dcl := &DescribeClusterResponse{EndpointType: 1, ClusterID: "c", ControllerID: 1,
		Brokers: []DescribeClusterBroker{{BrokerID: 1, Host: "h", Port: 9092}}, ClusterAuthorizedOperations: math.MinInt32}
	checkGolden(t, 0, dcl, new(DescribeClusterResponse), "00000000 0000 00 02 63 00000001 02 00000001 02 68 00002384 00 00 80000000 00")
	checkGolden(t, 2, dcl, new(DescribeClusterResponse), "00000000 0000 00 01 02 63 00000001 02 00000001 02 68 00002384 00 00 00 80000000 00")
}

func TestAdminGoldenGroups(t *testing.T) {
	checkGolden(t, 0, &ListGroupsRequest{}, new(ListGroupsRequest), "")
	checkGolden(t, 5, &ListGroupsRequest{}, new(ListGroupsRequest), "01 01 00")
	checkGolden(t, 0, &ListGroupsResponse{Groups: []ListGroupsGroup{{GroupID: "g", ProtocolType: "consumer"}}}, new(ListGroupsResponse),
		"0000 00000001 0001 67 0008 636f6e73756d6572")
	checkGolden(t, 5, &ListGroupsResponse{Groups: []ListGroupsGroup{{GroupID: "g", ProtocolType: "consumer", GroupState: "Empty", GroupType: "classic"}}}, new(ListGroupsResponse),
		"00000000 0000 02 02 67 09 636f6e73756d6572 06 456d707479 08 636c6173736963 00 00")

	checkGolden(t, 0, &DescribeGroupsRequest{Groups: []string{"g"}}, new(DescribeGroupsRequest), "00000001 0001 67")
	checkGolden(t, 5, &DescribeGroupsRequest{Groups: []string{"g"}}, new(DescribeGroupsRequest), "02 02 67 00 00")
	dg := &DescribeGroupsResponse{Groups: []DescribeGroupsGroup{{GroupID: "g", GroupState: "Stable", ProtocolType: "consumer", ProtocolData: "range",
		Members:              []DescribeGroupsMember{{MemberID: "m", ClientID: "c", ClientHost: "h", MemberMetadata: []byte{1}, MemberAssignment: []byte{2}}},
		AuthorizedOperations: math.MinInt32}}}
	checkGolden(t, 0, dg, new(DescribeGroupsResponse),
		"00000001 0000 0001 67 0006 537461626c65 0008 636f6e73756d6572 0005 72616e6765 00000001 0001 6d 0001 63 0001 68 00000001 01 00000001 02")
	checkGolden(t, 5, dg, new(DescribeGroupsResponse),
		"00000000 02 0000 02 67 07 537461626c65 09 636f6e73756d6572 06 72616e6765 02 02 6d 00 02 63 02 68 02 01 02 02 00 80000000 00 00")

	checkGolden(t, 0, &DeleteGroupsRequest{GroupsNames: []string{"g"}}, new(DeleteGroupsRequest), "00000001 0001 67")
	checkGolden(t, 2, &DeleteGroupsRequest{GroupsNames: []string{"g"}}, new(DeleteGroupsRequest), "02 02 67 00")
	dgr := &DeleteGroupsResponse{Results: []DeleteGroupsResult{{GroupID: "g", ErrorCode: 68}}}
	checkGolden(t, 0, dgr, new(DeleteGroupsResponse), "00000000 00000001 0001 67 0044")
	checkGolden(t, 2, dgr, new(DeleteGroupsResponse), "00000000 02 02 67 0044 00 00")

	oc := func(v int16) *OffsetCommitRequest {
		m := &OffsetCommitRequest{GroupID: "g", GenerationIDOrMemberEpoch: -1, RetentionTimeMs: -1,
			Topics: []OffsetCommitTopic{{Name: "a", Partitions: []OffsetCommitPartition{{PartitionIndex: 0, CommittedOffset: 7, CommittedLeaderEpoch: -1}}}}}
		return m
	}
	checkGolden(t, 2, oc(2), new(OffsetCommitRequest), "0001 67 ffffffff 0000 ffffffffffffffff 00000001 0001 61 00000001 00000000 0000000000000007 ffff")
	checkGolden(t, 8, oc(8), new(OffsetCommitRequest), "02 67 ffffffff 01 00 02 02 61 02 00000000 0000000000000007 ffffffff 00 00 00 00")
	ocr := &OffsetCommitResponse{Topics: []OffsetCommitTopicResult{{Name: "a", Partitions: []OffsetCommitPartitionResult{{PartitionIndex: 0}}}}}
	checkGolden(t, 2, ocr, new(OffsetCommitResponse), "00000001 0001 61 00000001 00000000 0000")
	checkGolden(t, 8, ocr, new(OffsetCommitResponse), "00000000 02 02 61 02 00000000 0000 00 00 00")

	checkGolden(t, 1, &OffsetFetchRequest{GroupID: "g", Topics: []OffsetFetchRequestTopic{{Name: "a", PartitionIndexes: []int32{0}}}}, new(OffsetFetchRequest),
		"0001 67 00000001 0001 61 00000001 00000000")
	checkGolden(t, 8, &OffsetFetchRequest{Groups: []OffsetFetchRequestGroup{{GroupID: "g", MemberEpoch: -1, Topics: []OffsetFetchRequestTopic{{Name: "a", PartitionIndexes: []int32{0}}}}}}, new(OffsetFetchRequest),
		"02 02 67 02 02 61 02 00000000 00 00 00 00")
	part := []OffsetFetchPartitionResult{{PartitionIndex: 0, CommittedOffset: -1, CommittedLeaderEpoch: -1}}
	checkGolden(t, 1, &OffsetFetchResponse{Topics: []OffsetFetchTopicResult{{Name: "a", Partitions: part}}}, new(OffsetFetchResponse),
		"00000001 0001 61 00000001 00000000 ffffffffffffffff ffff 0000")
	checkGolden(t, 8, &OffsetFetchResponse{Groups: []OffsetFetchGroupResult{{GroupID: "g", Topics: []OffsetFetchTopicResult{{Name: "a", Partitions: part}}}}}, new(OffsetFetchResponse),
		"00000000 02 02 67 02 02 61 02 00000000 ffffffffffffffff ffffffff 00 0000 00 00 0000 00 00")

	checkGolden(t, 0, &OffsetDeleteRequest{GroupID: "g", Topics: []OffsetDeleteTopic{{Name: "a", Partitions: []int32{2}}}}, new(OffsetDeleteRequest),
		"0001 67 00000001 0001 61 00000001 00000002")
	checkGolden(t, 0, &OffsetDeleteResponse{Topics: []OffsetDeleteTopicResult{{Name: "a", Partitions: []OffsetDeletePartitionResult{{PartitionIndex: 2, ErrorCode: 86}}}}}, new(OffsetDeleteResponse),
		"0000 00000000 00000001 0001 61 00000001 00000002 0056")

	checkGolden(t, 0, &ConsumerGroupDescribeRequest{GroupIDs: []string{"g"}}, new(ConsumerGroupDescribeRequest), "02 02 67 00 00")
	checkGolden(t, 1, &ConsumerGroupDescribeRequest{GroupIDs: []string{"g"}}, new(ConsumerGroupDescribeRequest), "02 02 67 00 00")
	cgd := func(memberType int8) *ConsumerGroupDescribeResponse {
		return &ConsumerGroupDescribeResponse{Groups: []ConsumerGroupDescribeGroup{{GroupID: "g", GroupState: "stable", GroupEpoch: 2, AssignmentEpoch: 2, AssignorName: "uniform",
			Members:              []ConsumerGroupDescribeMember{{MemberID: "m", MemberEpoch: 2, ClientID: "c", ClientHost: "h", MemberType: memberType}},
			AuthorizedOperations: math.MinInt32}}}
	}
	checkGolden(t, 0, cgd(-1), new(ConsumerGroupDescribeResponse),
		"00000000 02 0000 00 02 67 07 737461626c65 00000002 00000002 08 756e69666f726d 02 02 6d 00 00 00000002 02 63 02 68 01 00 01 00 01 00 00 80000000 00 00")
	checkGolden(t, 1, cgd(1), new(ConsumerGroupDescribeResponse),
		"00000000 02 0000 00 02 67 07 737461626c65 00000002 00000002 08 756e69666f726d 02 02 6d 00 00 00000002 02 63 02 68 01 00 01 00 01 00 01 00 80000000 00 00")
}
