package wire

import "testing"

func sampleMetadataRequest(v int16) *MetadataRequest {
	m := &MetadataRequest{AllowAutoTopicCreation: true}
	m.Topics = []MetadataRequestTopic{{Name: ptr("orders")}, {Name: ptr("")}}
	if v >= 4 {
		m.AllowAutoTopicCreation = false
	}
	if v >= 8 && v <= 10 {
		m.IncludeClusterAuthorizedOperations = true
	}
	if v >= 8 {
		m.IncludeTopicAuthorizedOperations = true
	}
	if v >= 9 {
		m.Topics[0].UnknownTags = []TaggedField{{Tag: 3, Data: []byte{7}}}
		m.UnknownTags = []TaggedField{{Tag: 0, Data: []byte{}}, {Tag: 200, Data: []byte("zz")}}
	}
	if v >= 10 {
		m.Topics[1] = MetadataRequestTopic{TopicID: UUID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}}
	}
	return m
}

func sampleMetadataResponse(v int16) *MetadataResponse {
	m := &MetadataResponse{
		Brokers: []MetadataResponseBroker{{NodeID: 1, Host: "b1.example", Port: 9092}, {NodeID: 2, Host: "b2", Port: 9093}},
		Topics: []MetadataResponseTopic{
			{ErrorCode: 0, Name: ptr("orders"), Partitions: []MetadataResponsePartition{
				{PartitionIndex: 0, LeaderID: 1, LeaderEpoch: -1, ReplicaNodes: []int32{1, 2}, IsrNodes: []int32{1}},
				{ErrorCode: 9, PartitionIndex: 1, LeaderID: -1, LeaderEpoch: -1, ReplicaNodes: []int32{2}},
			}, TopicAuthorizedOperations: AuthorizedOperationsOmitted},
			{ErrorCode: 3, Name: ptr("missing"), TopicAuthorizedOperations: AuthorizedOperationsOmitted},
		},
		ControllerID:                -1,
		ClusterAuthorizedOperations: AuthorizedOperationsOmitted,
	}
	if v >= 1 {
		m.Brokers[0].Rack = ptr("rack-a")
		m.ControllerID = 2
		m.Topics[0].IsInternal = true
	}
	if v >= 2 {
		m.ClusterID = ptr("cluster-1")
	}
	if v >= 3 {
		m.ThrottleTimeMs = 100
	}
	if v >= 5 {
		m.Topics[0].Partitions[1].OfflineReplicas = []int32{2}
	}
	if v >= 7 {
		m.Topics[0].Partitions[0].LeaderEpoch = 5
	}
	if v >= 8 {
		m.Topics[0].TopicAuthorizedOperations = 0x0ff8
	}
	if v >= 8 && v <= 10 {
		m.ClusterAuthorizedOperations = 0x1f0
	}
	if v >= 9 {
		m.Brokers[1].UnknownTags = []TaggedField{{Tag: 1, Data: []byte{1}}}
		m.Topics[0].Partitions[0].UnknownTags = []TaggedField{{Tag: 2, Data: []byte{2, 2}}}
		m.UnknownTags = []TaggedField{{Tag: 5, Data: []byte("t")}}
	}
	if v >= 10 {
		m.Topics[0].TopicID = UUID{0xaa, 15: 0xbb}
	}
	if v >= 12 {
		m.Topics[1].Name = nil
		m.Topics[1].TopicID = UUID{1}
	}
	if v >= 13 {
		m.ErrorCode = 0
	}
	return m
}

func TestMetadataRoundTrip(t *testing.T) {
	forVersions(t, KeyMetadata, func(t *testing.T, v int16) {
		checkRoundTrip(t, v, sampleMetadataRequest(v), func() codec { return new(MetadataRequest) })
		checkRoundTrip(t, v, sampleMetadataResponse(v), func() codec { return new(MetadataResponse) })
		if v >= 1 {
			// nil (all topics) and empty (no topics) stay distinct from v1.
			checkRoundTrip(t, v, &MetadataRequest{AllowAutoTopicCreation: true}, func() codec { return new(MetadataRequest) })
			checkRoundTrip(t, v, &MetadataRequest{Topics: []MetadataRequestTopic{}, AllowAutoTopicCreation: true}, func() codec { return new(MetadataRequest) })
		}
		checkRoundTrip(t, v, &MetadataResponse{ControllerID: -1, ClusterAuthorizedOperations: AuthorizedOperationsOmitted}, func() codec { return new(MetadataResponse) })
	})
}

func TestMetadataGolden(t *testing.T) {
	// v1: null topics = all topics.
	checkGolden(t, 1, &MetadataRequest{AllowAutoTopicCreation: true}, new(MetadataRequest), "ffffffff")
	// v4: empty topics = none, then allow_auto_topic_creation.
	checkGolden(t, 4, &MetadataRequest{Topics: []MetadataRequestTopic{}, AllowAutoTopicCreation: false}, new(MetadataRequest), "00000000 00")
	// v0: one topic "a".
	checkGolden(t, 0, &MetadataRequest{Topics: []MetadataRequestTopic{{Name: ptr("a")}}, AllowAutoTopicCreation: true}, new(MetadataRequest), "00000001 0001 61")
	// v12: compact nullable array of (uuid, compact nullable name, tags), then flags, tags.
	checkGolden(t, 12, &MetadataRequest{Topics: []MetadataRequestTopic{{TopicID: UUID{15: 1}}}, AllowAutoTopicCreation: true}, new(MetadataRequest),
		"02 | 00000000000000000000000000000001 | 00 | 00 | 01 | 00 | 00")
	// v12 null topics.
	checkGolden(t, 12, &MetadataRequest{AllowAutoTopicCreation: true}, new(MetadataRequest), "00 01 00 00")

	// v0 response: one broker, one topic with one partition.
	checkGolden(t, 0, &MetadataResponse{
		Brokers:                     []MetadataResponseBroker{{NodeID: 1, Host: "h", Port: 9092}},
		ControllerID:                -1,
		ClusterAuthorizedOperations: AuthorizedOperationsOmitted,
		Topics: []MetadataResponseTopic{{Name: ptr("t"), TopicAuthorizedOperations: AuthorizedOperationsOmitted,
			Partitions: []MetadataResponsePartition{{PartitionIndex: 0, LeaderID: 1, LeaderEpoch: -1, ReplicaNodes: []int32{1}, IsrNodes: []int32{1}}}}},
	}, new(MetadataResponse),
		"00000001 | 00000001 0001 68 00002384 | 00000001 | 0000 0001 74 | 00000001 | 0000 00000000 00000001 | 00000001 00000001 | 00000001 00000001")
	// v13 response (flexible), null rack, cluster id, topic with null name.
	checkGolden(t, 13, &MetadataResponse{
		ThrottleTimeMs:              1,
		Brokers:                     []MetadataResponseBroker{{NodeID: 1, Host: "h", Port: 9092}},
		ClusterID:                   ptr("c"),
		ControllerID:                1,
		ClusterAuthorizedOperations: AuthorizedOperationsOmitted,
		Topics:                      []MetadataResponseTopic{{ErrorCode: 100, TopicID: UUID{15: 9}, TopicAuthorizedOperations: -1}},
		ErrorCode:                   0,
	}, new(MetadataResponse),
		"00000001 | 02 00000001 02 68 00002384 00 00 | 02 63 | 00000001 |"+
			"02 0064 00 00000000000000000000000000000009 00 01 ffffffff 00 | 0000 | 00")
}

func FuzzMetadataResponse(f *testing.F) {
	fuzzDecoder(f, KeyMetadata, func() codec { return new(MetadataResponse) },
		sampleMetadataResponse(13).AppendTo(nil, 13), sampleMetadataResponse(5).AppendTo(nil, 5))
}

func FuzzMetadataRequest(f *testing.F) {
	fuzzDecoder(f, KeyMetadata, func() codec { return new(MetadataRequest) },
		sampleMetadataRequest(12).AppendTo(nil, 12), sampleMetadataRequest(4).AppendTo(nil, 4))
}
