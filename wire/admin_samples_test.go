package wire

import "math"

// Samples of every admin/group message with every field valid at version v
// set to a non-default value, nullable fields exercising null where it is
// interesting, and unknown tags in flexible versions. Decoding an encoded
// sample must give back the sample exactly (see checkRoundTrip).

func tags(flex bool, tag uint32) []TaggedField {
	if !flex {
		return nil
	}
	return []TaggedField{{Tag: tag, Data: []byte{0xab, byte(tag)}}}
}

func sampleCreateTopicsRequest(v int16) *CreateTopicsRequest {
	flex := v >= 5
	return &CreateTopicsRequest{
		Topics: []CreateTopicsTopic{
			{Name: "t1", NumPartitions: 3, ReplicationFactor: 2,
				Configs:     []CreateTopicsConfig{{Name: "cleanup.policy", Value: ptr("compact"), UnknownTags: tags(flex, 3)}, {Name: "retention.ms", Value: nil}},
				UnknownTags: tags(flex, 4)},
			{Name: "t2", NumPartitions: -1, ReplicationFactor: -1,
				Assignments: []CreateTopicsAssignment{{PartitionIndex: 0, BrokerIDs: []int32{1, 2}, UnknownTags: tags(flex, 5)}, {PartitionIndex: 1, BrokerIDs: []int32{2, 3}}}},
		},
		TimeoutMs:    30000,
		ValidateOnly: true,
		UnknownTags:  tags(flex, 9),
	}
}

func sampleCreateTopicsResponse(v int16) *CreateTopicsResponse {
	flex := v >= 5
	m := &CreateTopicsResponse{
		ThrottleTimeMs: 5,
		Topics: []CreateTopicsTopicResult{
			{Name: "t1", ErrorCode: 36, ErrorMessage: ptr("Topic 't1' already exists."), NumPartitions: -1, ReplicationFactor: -1},
			{Name: "t2", NumPartitions: -1, ReplicationFactor: -1},
		},
		UnknownTags: tags(flex, 2),
	}
	if v >= 5 {
		t := &m.Topics[1]
		t.NumPartitions, t.ReplicationFactor = 4, 3
		t.TopicConfigErrorCode = 29
		t.Configs = []CreateTopicsConfigResult{
			{Name: "cleanup.policy", Value: ptr("delete"), ReadOnly: false, ConfigSource: 5, UnknownTags: tags(flex, 1)},
			{Name: "sasl.jaas.config", Value: nil, ReadOnly: true, ConfigSource: 4, IsSensitive: true},
		}
		t.UnknownTags = tags(flex, 6)
		m.Topics[0].Configs = []CreateTopicsConfigResult{} // empty, not null
	}
	if v >= 7 {
		m.Topics[1].TopicID = UUID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	}
	return m
}

func sampleDeleteTopicsRequest(v int16) *DeleteTopicsRequest {
	flex := v >= 4
	m := &DeleteTopicsRequest{TimeoutMs: 15000, UnknownTags: tags(flex, 3)}
	if v >= 6 {
		m.Topics = []DeleteTopicsTopic{{Name: ptr("t1"), UnknownTags: tags(flex, 1)}, {TopicID: UUID{9: 9}}}
	} else {
		m.TopicNames = []string{"t1", "t2"}
	}
	return m
}

func sampleDeleteTopicsResponse(v int16) *DeleteTopicsResponse {
	flex := v >= 4
	m := &DeleteTopicsResponse{
		ThrottleTimeMs: 7,
		Responses:      []DeleteTopicsTopicResult{{Name: ptr("t1"), UnknownTags: tags(flex, 2)}, {Name: ptr(""), ErrorCode: 3}},
		UnknownTags:    tags(flex, 5),
	}
	if v >= 5 {
		m.Responses[1].ErrorMessage = ptr("This server does not host this topic-partition.")
	}
	if v >= 6 {
		m.Responses[0].TopicID = UUID{1: 1}
		m.Responses[1].Name = nil
		m.Responses[1].TopicID = UUID{2: 2}
	}
	return m
}

func sampleCreatePartitionsRequest(v int16) *CreatePartitionsRequest {
	flex := v >= 2
	return &CreatePartitionsRequest{
		Topics: []CreatePartitionsTopic{
			{Name: "t1", Count: 6},
			{Name: "t2", Count: 3, Assignments: []CreatePartitionsAssignment{{BrokerIDs: []int32{1, 2}, UnknownTags: tags(flex, 1)}}, UnknownTags: tags(flex, 2)},
			{Name: "t3", Count: 1, Assignments: []CreatePartitionsAssignment{}},
		},
		TimeoutMs: 1000, ValidateOnly: true, UnknownTags: tags(flex, 4),
	}
}

func sampleCreatePartitionsResponse(v int16) *CreatePartitionsResponse {
	flex := v >= 2
	return &CreatePartitionsResponse{
		ThrottleTimeMs: 1,
		Results:        []CreatePartitionsTopicResult{{Name: "t1"}, {Name: "t2", ErrorCode: 37, ErrorMessage: ptr("bad"), UnknownTags: tags(flex, 3)}},
		UnknownTags:    tags(flex, 8),
	}
}

func sampleDeleteRecordsRequest(v int16) *DeleteRecordsRequest {
	flex := v >= 2
	return &DeleteRecordsRequest{
		Topics:    []DeleteRecordsTopic{{Name: "t1", Partitions: []DeleteRecordsPartition{{PartitionIndex: 0, Offset: 10, UnknownTags: tags(flex, 1)}, {PartitionIndex: 2, Offset: -1}}, UnknownTags: tags(flex, 2)}},
		TimeoutMs: 2000, UnknownTags: tags(flex, 3),
	}
}

func sampleDeleteRecordsResponse(v int16) *DeleteRecordsResponse {
	flex := v >= 2
	return &DeleteRecordsResponse{
		ThrottleTimeMs: 2,
		Topics: []DeleteRecordsTopicResult{{Name: "t1", Partitions: []DeleteRecordsPartitionResult{
			{PartitionIndex: 0, LowWatermark: 10, UnknownTags: tags(flex, 1)}, {PartitionIndex: 2, LowWatermark: -1, ErrorCode: 6}}, UnknownTags: tags(flex, 2)}},
		UnknownTags: tags(flex, 3),
	}
}

func sampleDescribeConfigsRequest(v int16) *DescribeConfigsRequest {
	flex := v >= 4
	m := &DescribeConfigsRequest{
		Resources: []DescribeConfigsResource{
			{ResourceType: ConfigResourceTopic, ResourceName: "t1", ConfigurationKeys: []string{"retention.ms", "cleanup.policy"}, UnknownTags: tags(flex, 1)},
			{ResourceType: ConfigResourceBroker, ResourceName: "1"},
			{ResourceType: ConfigResourceGroup, ResourceName: "g", ConfigurationKeys: []string{}},
		},
		IncludeSynonyms: true, UnknownTags: tags(flex, 2),
	}
	if v >= 3 {
		m.IncludeDocumentation = true
	}
	return m
}

func sampleDescribeConfigsResponse(v int16) *DescribeConfigsResponse {
	flex := v >= 4
	m := &DescribeConfigsResponse{
		ThrottleTimeMs: 3,
		Results: []DescribeConfigsResult{
			{ResourceType: ConfigResourceTopic, ResourceName: "t1", Configs: []DescribeConfigsConfig{
				{Name: "retention.ms", Value: ptr("1000"), ConfigSource: ConfigSourceDynamicTopic,
					Synonyms:    []DescribeConfigsSynonym{{Name: "retention.ms", Value: ptr("1000"), Source: 1, UnknownTags: tags(flex, 1)}, {Name: "log.retention.ms", Value: nil, Source: 5}},
					UnknownTags: tags(flex, 2)},
				{Name: "ssl.key.password", Value: nil, ReadOnly: true, ConfigSource: ConfigSourceStaticBroker, IsSensitive: true},
			}, UnknownTags: tags(flex, 3)},
			{ErrorCode: 3, ErrorMessage: ptr("missing"), ResourceType: ConfigResourceTopic, ResourceName: "nope"},
		},
		UnknownTags: tags(flex, 4),
	}
	if v >= 3 {
		m.Results[0].Configs[0].ConfigType = 5
		m.Results[0].Configs[0].Documentation = ptr("How long to keep logs.")
	}
	return m
}

func sampleIncrementalAlterConfigsRequest(v int16) *IncrementalAlterConfigsRequest {
	flex := v >= 1
	return &IncrementalAlterConfigsRequest{
		Resources: []IncrementalAlterConfigsResource{{ResourceType: ConfigResourceTopic, ResourceName: "t1", Configs: []IncrementalAlterConfigsConfig{
			{Name: "retention.ms", ConfigOperation: ConfigOpSet, Value: ptr("5000"), UnknownTags: tags(flex, 1)},
			{Name: "cleanup.policy", ConfigOperation: ConfigOpDelete},
			{Name: "leader.replication.throttled.replicas", ConfigOperation: ConfigOpAppend, Value: ptr("0:1")},
		}, UnknownTags: tags(flex, 2)}},
		ValidateOnly: true, UnknownTags: tags(flex, 3),
	}
}

func sampleIncrementalAlterConfigsResponse(v int16) *IncrementalAlterConfigsResponse {
	flex := v >= 1
	return &IncrementalAlterConfigsResponse{
		ThrottleTimeMs: 4,
		Responses:      []IncrementalAlterConfigsResult{{ResourceType: 2, ResourceName: "t1", UnknownTags: tags(flex, 1)}, {ErrorCode: 40, ErrorMessage: ptr("Invalid value"), ResourceType: 4, ResourceName: "1"}},
		UnknownTags:    tags(flex, 2),
	}
}

func sampleDescribeClusterRequest(v int16) *DescribeClusterRequest {
	m := &DescribeClusterRequest{IncludeClusterAuthorizedOperations: true, EndpointType: EndpointTypeBrokers, UnknownTags: tags(true, 1)}
	if v >= 1 {
		m.EndpointType = EndpointTypeControllers
	}
	if v >= 2 {
		m.IncludeFencedBrokers = true
	}
	return m
}

func sampleDescribeClusterResponse(v int16) *DescribeClusterResponse {
	m := &DescribeClusterResponse{
		ThrottleTimeMs: 1, ErrorCode: 0, ErrorMessage: nil, EndpointType: EndpointTypeBrokers,
		ClusterID: "MkU3OEVBNTcwNTJENDM2Qg", ControllerID: 2,
		Brokers: []DescribeClusterBroker{
			{BrokerID: 1, Host: "kafka-1", Port: 9092, Rack: ptr("r1"), UnknownTags: tags(true, 1)},
			{BrokerID: 2, Host: "kafka-2", Port: 9093},
		},
		ClusterAuthorizedOperations: math.MinInt32,
		UnknownTags:                 tags(true, 2),
	}
	if v >= 1 {
		m.EndpointType = EndpointTypeControllers
		m.ErrorMessage = ptr("")
	}
	if v >= 2 {
		m.Brokers[1].IsFenced = true
	}
	return m
}

func sampleListGroupsRequest(v int16) *ListGroupsRequest {
	flex := v >= 3
	m := &ListGroupsRequest{UnknownTags: tags(flex, 1)}
	if v >= 4 {
		m.StatesFilter = []string{"Stable", "Empty"}
	}
	if v >= 5 {
		m.TypesFilter = []string{"classic"}
	}
	return m
}

func sampleListGroupsResponse(v int16) *ListGroupsResponse {
	flex := v >= 3
	m := &ListGroupsResponse{
		ErrorCode:   0,
		Groups:      []ListGroupsGroup{{GroupID: "g1", ProtocolType: "consumer", UnknownTags: tags(flex, 1)}, {GroupID: "g2", ProtocolType: ""}},
		UnknownTags: tags(flex, 2),
	}
	if v >= 1 {
		m.ThrottleTimeMs = 9
	}
	if v >= 4 {
		m.Groups[0].GroupState, m.Groups[1].GroupState = "Stable", "Empty"
	}
	if v >= 5 {
		m.Groups[0].GroupType, m.Groups[1].GroupType = "classic", "consumer"
	}
	return m
}

func sampleDescribeGroupsRequest(v int16) *DescribeGroupsRequest {
	flex := v >= 5
	m := &DescribeGroupsRequest{Groups: []string{"g1", "g2"}, UnknownTags: tags(flex, 1)}
	if v >= 3 {
		m.IncludeAuthorizedOperations = true
	}
	return m
}

func sampleDescribeGroupsResponse(v int16) *DescribeGroupsResponse {
	flex := v >= 5
	m := &DescribeGroupsResponse{
		Groups: []DescribeGroupsGroup{
			{GroupID: "g1", GroupState: "Stable", ProtocolType: "consumer", ProtocolData: "range",
				Members: []DescribeGroupsMember{
					{MemberID: "m-1", ClientID: "c1", ClientHost: "/10.0.0.1", MemberMetadata: []byte{0, 1}, MemberAssignment: []byte{0, 1, 2}, UnknownTags: tags(flex, 1)},
					{MemberID: "m-2", ClientID: "c2", ClientHost: "/10.0.0.2", MemberMetadata: []byte{}, MemberAssignment: []byte{}},
				},
				AuthorizedOperations: math.MinInt32, UnknownTags: tags(flex, 2)},
			{ErrorCode: 69, GroupID: "g2", GroupState: "Dead", AuthorizedOperations: math.MinInt32},
		},
		UnknownTags: tags(flex, 3),
	}
	if v >= 1 {
		m.ThrottleTimeMs = 11
	}
	if v >= 3 {
		m.Groups[0].AuthorizedOperations = 0x1f8
	}
	if v >= 4 {
		m.Groups[0].Members[0].GroupInstanceID = ptr("static-1")
	}
	if v >= 6 {
		m.Groups[1].ErrorMessage = ptr("Group g2 not found.")
	}
	return m
}

func sampleDeleteGroupsRequest(v int16) *DeleteGroupsRequest {
	return &DeleteGroupsRequest{GroupsNames: []string{"g1", "g2"}, UnknownTags: tags(v >= 2, 1)}
}

func sampleDeleteGroupsResponse(v int16) *DeleteGroupsResponse {
	flex := v >= 2
	m := &DeleteGroupsResponse{
		ThrottleTimeMs: 12,
		Results:        []DeleteGroupsResult{{GroupID: "g1", UnknownTags: tags(flex, 1)}, {GroupID: "g2", ErrorCode: 68}},
		UnknownTags:    tags(flex, 2),
	}
	if v >= 3 {
		m.Results[1].ErrorMessage = ptr("The group is not empty.")
	}
	return m
}

func sampleOffsetDeleteRequest(int16) *OffsetDeleteRequest {
	return &OffsetDeleteRequest{GroupID: "g1", Topics: []OffsetDeleteTopic{{Name: "t1", Partitions: []int32{0, 3}}, {Name: "t2", Partitions: []int32{1}}}}
}

func sampleOffsetDeleteResponse(int16) *OffsetDeleteResponse {
	return &OffsetDeleteResponse{ErrorCode: 0, ThrottleTimeMs: 13, Topics: []OffsetDeleteTopicResult{
		{Name: "t1", Partitions: []OffsetDeletePartitionResult{{PartitionIndex: 0}, {PartitionIndex: 3, ErrorCode: 86}}}}}
}

func sampleOffsetCommitRequest(v int16) *OffsetCommitRequest {
	flex := v >= 8
	m := &OffsetCommitRequest{
		GroupID: "g1", GenerationIDOrMemberEpoch: 4, MemberID: "m-1", RetentionTimeMs: -1,
		Topics: []OffsetCommitTopic{{Name: "t1", Partitions: []OffsetCommitPartition{
			{PartitionIndex: 0, CommittedOffset: 100, CommittedLeaderEpoch: -1, CommittedMetadata: ptr("meta"), UnknownTags: tags(flex, 1)},
			{PartitionIndex: 1, CommittedOffset: 0, CommittedLeaderEpoch: -1},
		}, UnknownTags: tags(flex, 2)}},
		UnknownTags: tags(flex, 3),
	}
	if v <= 4 {
		m.RetentionTimeMs = 86400000
	}
	if v >= 6 {
		m.Topics[0].Partitions[0].CommittedLeaderEpoch = 7
	}
	if v >= 7 {
		m.GroupInstanceID = ptr("static-1")
	}
	if v >= 10 {
		m.Topics[0].Name = ""
		m.Topics[0].TopicID = UUID{0: 1, 15: 2}
	}
	return m
}

func sampleOffsetCommitResponse(v int16) *OffsetCommitResponse {
	flex := v >= 8
	m := &OffsetCommitResponse{
		Topics:      []OffsetCommitTopicResult{{Name: "t1", Partitions: []OffsetCommitPartitionResult{{PartitionIndex: 0, UnknownTags: tags(flex, 1)}, {PartitionIndex: 1, ErrorCode: 22}}, UnknownTags: tags(flex, 2)}},
		UnknownTags: tags(flex, 3),
	}
	if v >= 3 {
		m.ThrottleTimeMs = 14
	}
	if v >= 10 {
		m.Topics[0].Name = ""
		m.Topics[0].TopicID = UUID{3: 3}
	}
	return m
}

func sampleOffsetFetchRequest(v int16) *OffsetFetchRequest {
	flex := v >= 6
	m := &OffsetFetchRequest{UnknownTags: tags(flex, 1)}
	if v <= 7 {
		m.GroupID = "g1"
		m.Topics = []OffsetFetchRequestTopic{{Name: "t1", PartitionIndexes: []int32{0, 1}, UnknownTags: tags(flex, 2)}, {Name: "t2", PartitionIndexes: []int32{5}}}
	} else {
		m.Groups = []OffsetFetchRequestGroup{
			{GroupID: "g1", MemberEpoch: -1, Topics: []OffsetFetchRequestTopic{{Name: "t1", PartitionIndexes: []int32{0, 1}, UnknownTags: tags(flex, 2)}}, UnknownTags: tags(flex, 3)},
			{GroupID: "g2", MemberEpoch: -1, Topics: nil}, // null: all topics
		}
		if v >= 9 {
			m.Groups[0].MemberID = ptr("m-1")
			m.Groups[0].MemberEpoch = 5
		}
		if v >= 10 {
			m.Groups[0].Topics[0].Name = ""
			m.Groups[0].Topics[0].TopicID = UUID{4: 4}
		}
	}
	if v >= 7 {
		m.RequireStable = true
	}
	return m
}

func sampleOffsetFetchResponse(v int16) *OffsetFetchResponse {
	flex := v >= 6
	m := &OffsetFetchResponse{UnknownTags: tags(flex, 1)}
	if v >= 3 {
		m.ThrottleTimeMs = 15
	}
	parts := func() []OffsetFetchPartitionResult {
		p := []OffsetFetchPartitionResult{
			{PartitionIndex: 0, CommittedOffset: 42, CommittedLeaderEpoch: -1, Metadata: ptr(""), UnknownTags: tags(flex, 2)},
			{PartitionIndex: 1, CommittedOffset: -1, CommittedLeaderEpoch: -1, Metadata: nil, ErrorCode: 0},
		}
		if v >= 5 {
			p[0].CommittedLeaderEpoch = 3
		}
		return p
	}
	if v <= 7 {
		m.Topics = []OffsetFetchTopicResult{{Name: "t1", Partitions: parts(), UnknownTags: tags(flex, 3)}}
		if v >= 2 {
			m.ErrorCode = 0
		}
	} else {
		m.Groups = []OffsetFetchGroupResult{
			{GroupID: "g1", Topics: []OffsetFetchTopicResult{{Name: "t1", Partitions: parts(), UnknownTags: tags(flex, 3)}}, UnknownTags: tags(flex, 4)},
			{GroupID: "g2", ErrorCode: 16},
		}
		if v >= 10 {
			m.Groups[0].Topics[0].Name = ""
			m.Groups[0].Topics[0].TopicID = UUID{5: 5}
		}
	}
	return m
}

func sampleConsumerGroupDescribeRequest(int16) *ConsumerGroupDescribeRequest {
	return &ConsumerGroupDescribeRequest{GroupIDs: []string{"g1", "g2"}, IncludeAuthorizedOperations: true, UnknownTags: tags(true, 1)}
}

func sampleConsumerGroupDescribeResponse(v int16) *ConsumerGroupDescribeResponse {
	m := &ConsumerGroupDescribeResponse{
		ThrottleTimeMs: 16,
		Groups: []ConsumerGroupDescribeGroup{
			{GroupID: "g1", GroupState: "stable", GroupEpoch: 3, AssignmentEpoch: 3, AssignorName: "uniform",
				Members: []ConsumerGroupDescribeMember{{
					MemberID: "m-1", InstanceID: ptr("i-1"), RackID: nil, MemberEpoch: 3, ClientID: "c1", ClientHost: "/10.0.0.1",
					SubscribedTopicNames: []string{"t1"}, SubscribedTopicRegex: ptr("t.*"),
					Assignment:       ConsumerGroupDescribeAssignment{TopicPartitions: []ConsumerGroupDescribeTopicPartitions{{TopicID: UUID{1: 7}, TopicName: "t1", Partitions: []int32{0, 1}, UnknownTags: tags(true, 1)}}, UnknownTags: tags(true, 2)},
					TargetAssignment: ConsumerGroupDescribeAssignment{},
					MemberType:       -1,
					UnknownTags:      tags(true, 3),
				}},
				AuthorizedOperations: math.MinInt32, UnknownTags: tags(true, 4)},
			{ErrorCode: 69, ErrorMessage: ptr("Group g2 not found."), GroupID: "g2", AuthorizedOperations: math.MinInt32},
		},
		UnknownTags: tags(true, 5),
	}
	if v >= 1 {
		m.Groups[0].Members[0].MemberType = 1
	}
	return m
}
