package wire

import "math"

// Samples of every share-group message with every field valid at version v
// set to a non-default value and unknown tags (all versions are flexible).

var (
	sampleTopicA = UUID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	sampleTopicB = UUID{0xf0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0x0f}
)

func sampleShareGroupHeartbeatRequest(v int16) *ShareGroupHeartbeatRequest {
	return &ShareGroupHeartbeatRequest{GroupID: "g", MemberID: "m-1", MemberEpoch: 3, RackID: ptr("r1"),
		SubscribedTopicNames: []string{"t1", "t2"}, UnknownTags: tags(true, 4)}
}

func sampleShareGroupHeartbeatResponse(v int16) *ShareGroupHeartbeatResponse {
	return &ShareGroupHeartbeatResponse{ThrottleTimeMs: 5, ErrorCode: 0, ErrorMessage: ptr("msg"), MemberID: ptr("m-1"), MemberEpoch: 4,
		HeartbeatIntervalMs: 1000, Assignment: &ShareGroupHeartbeatAssignment{
			TopicPartitions: []ShareGroupTopicPartitions{{TopicID: sampleTopicA, Partitions: []int32{0, 2}, UnknownTags: tags(true, 1)}, {TopicID: sampleTopicB, Partitions: []int32{1}}},
			UnknownTags:     tags(true, 2)},
		UnknownTags: tags(true, 3)}
}

func sampleAckBatches() []ShareAcknowledgementBatch {
	return []ShareAcknowledgementBatch{
		{FirstOffset: 0, LastOffset: 9, AcknowledgeTypes: []int8{AckAccept}, UnknownTags: tags(true, 1)},
		{FirstOffset: 10, LastOffset: 13, AcknowledgeTypes: []int8{AckRelease, AckGap, AckReject, AckRenew}},
	}
}

func sampleShareFetchRequest(v int16) *ShareFetchRequest {
	m := &ShareFetchRequest{GroupID: ptr("g"), MemberID: ptr("m-1"), ShareSessionEpoch: 7, MaxWaitMs: 500, MinBytes: 1, MaxBytes: 1 << 20,
		MaxRecords: 500, BatchSize: 100,
		Topics: []ShareFetchTopic{{TopicID: sampleTopicA, Partitions: []ShareFetchPartition{
			{PartitionIndex: 0, AcknowledgementBatches: sampleAckBatches(), UnknownTags: tags(true, 2)}, {PartitionIndex: 3}}, UnknownTags: tags(true, 3)}},
		ForgottenTopicsData: []ShareForgottenTopic{{TopicID: sampleTopicB, Partitions: []int32{1, 2}, UnknownTags: tags(true, 4)}},
		UnknownTags:         tags(true, 5)}
	if v >= 2 {
		m.ShareAcquireMode = ShareAcquireRecordLimit
		m.IsRenewAck = true
	}
	return m
}

func sampleShareFetchResponse(v int16) *ShareFetchResponse {
	return &ShareFetchResponse{ThrottleTimeMs: 1, ErrorCode: 0, ErrorMessage: ptr("top"), AcquisitionLockTimeoutMs: 30000,
		Responses: []ShareFetchTopicResponse{{TopicID: sampleTopicA, Partitions: []ShareFetchPartitionResponse{
			{PartitionIndex: 0, ErrorCode: 6, ErrorMessage: ptr("nl"), AcknowledgeErrorCode: 121, AcknowledgeErrorMessage: ptr("state"),
				CurrentLeader: LeaderIDAndEpoch{LeaderID: 2, LeaderEpoch: 5, UnknownTags: tags(true, 6)}, Records: []byte{1, 2, 3},
				AcquiredRecords: []ShareAcquiredRecords{{FirstOffset: 10, LastOffset: 12, DeliveryCount: 1, UnknownTags: tags(true, 1)}, {FirstOffset: 3, LastOffset: 3, DeliveryCount: 2}},
				UnknownTags:     tags(true, 2)},
			{PartitionIndex: 1, CurrentLeader: LeaderIDAndEpoch{LeaderID: -1, LeaderEpoch: -1}, Records: []byte{9}},
		}, UnknownTags: tags(true, 3)}},
		NodeEndpoints: []NodeEndpoint{{NodeID: 2, Host: "h", Port: 9092, Rack: ptr("r"), UnknownTags: tags(true, 4)}},
		UnknownTags:   tags(true, 5)}
}

func sampleShareAcknowledgeRequest(v int16) *ShareAcknowledgeRequest {
	return &ShareAcknowledgeRequest{GroupID: ptr("g"), MemberID: ptr("m-1"), ShareSessionEpoch: 8, IsRenewAck: v >= 2,
		Topics: []ShareAcknowledgeTopic{{TopicID: sampleTopicA, Partitions: []ShareAcknowledgePartition{
			{PartitionIndex: 0, AcknowledgementBatches: sampleAckBatches(), UnknownTags: tags(true, 1)}}, UnknownTags: tags(true, 2)}},
		UnknownTags: tags(true, 3)}
}

func sampleShareAcknowledgeResponse(v int16) *ShareAcknowledgeResponse {
	m := &ShareAcknowledgeResponse{ThrottleTimeMs: 2, ErrorCode: 0, ErrorMessage: ptr("x"),
		Responses: []ShareAcknowledgeTopicResponse{{TopicID: sampleTopicA, Partitions: []ShareAcknowledgePartitionResponse{
			{PartitionIndex: 0, ErrorCode: 121, ErrorMessage: ptr("bad"), CurrentLeader: LeaderIDAndEpoch{LeaderID: 1, LeaderEpoch: 2}, UnknownTags: tags(true, 1)},
			{PartitionIndex: 1, CurrentLeader: LeaderIDAndEpoch{LeaderID: -1, LeaderEpoch: -1}}}, UnknownTags: tags(true, 2)}},
		NodeEndpoints: []NodeEndpoint{{NodeID: 1, Host: "h", Port: 1}},
		UnknownTags:   tags(true, 3)}
	if v >= 2 {
		m.AcquisitionLockTimeoutMs = 15000
	}
	return m
}

func sampleShareGroupDescribeRequest(v int16) *ShareGroupDescribeRequest {
	return &ShareGroupDescribeRequest{GroupIDs: []string{"g1", "g2"}, IncludeAuthorizedOperations: true, UnknownTags: tags(true, 1)}
}

func sampleShareGroupDescribeResponse(v int16) *ShareGroupDescribeResponse {
	return &ShareGroupDescribeResponse{ThrottleTimeMs: 3, Groups: []ShareGroupDescribeGroup{
		{GroupID: "g1", GroupState: "Stable", GroupEpoch: 4, AssignmentEpoch: 4, AssignorName: "simple",
			Members: []ShareGroupDescribeMember{{MemberID: "m", RackID: ptr("r"), MemberEpoch: 4, ClientID: "c", ClientHost: "/127.0.0.1",
				SubscribedTopicNames: []string{"t"}, Assignment: ConsumerGroupDescribeAssignment{TopicPartitions: []ConsumerGroupDescribeTopicPartitions{
					{TopicID: sampleTopicA, TopicName: "t", Partitions: []int32{0, 1}, UnknownTags: tags(true, 1)}}, UnknownTags: tags(true, 2)},
				UnknownTags: tags(true, 3)}},
			AuthorizedOperations: 0x0f00, UnknownTags: tags(true, 4)},
		{ErrorCode: 69, ErrorMessage: ptr("no group"), GroupID: "g2", AuthorizedOperations: math.MinInt32},
	}, UnknownTags: tags(true, 5)}
}

func sampleDescribeShareGroupOffsetsRequest(v int16) *DescribeShareGroupOffsetsRequest {
	return &DescribeShareGroupOffsetsRequest{Groups: []DescribeShareGroupOffsetsGroup{
		{GroupID: "g1", Topics: []DescribeShareGroupOffsetsTopic{{TopicName: "t", Partitions: []int32{0, 1}, UnknownTags: tags(true, 1)}}, UnknownTags: tags(true, 2)},
		{GroupID: "g2"}, // null topics: all
	}, UnknownTags: tags(true, 3)}
}

func sampleDescribeShareGroupOffsetsResponse(v int16) *DescribeShareGroupOffsetsResponse {
	lag := int64(-1)
	if v >= 1 {
		lag = 42
	}
	return &DescribeShareGroupOffsetsResponse{ThrottleTimeMs: 4, Groups: []DescribeShareGroupOffsetsGroupResult{
		{GroupID: "g1", Topics: []DescribeShareGroupOffsetsTopicResult{{TopicName: "t", TopicID: sampleTopicA, Partitions: []DescribeShareGroupOffsetsPartitionResult{
			{PartitionIndex: 0, StartOffset: 17, LeaderEpoch: 2, Lag: lag, UnknownTags: tags(true, 1)},
			{PartitionIndex: 1, StartOffset: -1, LeaderEpoch: -1, Lag: -1, ErrorCode: 3, ErrorMessage: ptr("unknown")}}, UnknownTags: tags(true, 2)}},
			UnknownTags: tags(true, 3)},
		{GroupID: "g2", ErrorCode: 69, ErrorMessage: ptr("none")},
	}, UnknownTags: tags(true, 4)}
}

func sampleAlterShareGroupOffsetsRequest(v int16) *AlterShareGroupOffsetsRequest {
	return &AlterShareGroupOffsetsRequest{GroupID: "g", Topics: []AlterShareGroupOffsetsTopic{{TopicName: "t", Partitions: []AlterShareGroupOffsetsPartition{
		{PartitionIndex: 0, StartOffset: 5, UnknownTags: tags(true, 1)}, {PartitionIndex: 1, StartOffset: 0}}, UnknownTags: tags(true, 2)}}, UnknownTags: tags(true, 3)}
}

func sampleAlterShareGroupOffsetsResponse(v int16) *AlterShareGroupOffsetsResponse {
	return &AlterShareGroupOffsetsResponse{ThrottleTimeMs: 1, ErrorCode: 68, ErrorMessage: ptr("non empty"), Responses: []ShareGroupOffsetsTopicResult{
		{TopicName: "t", TopicID: sampleTopicA, Partitions: []ShareGroupOffsetsPartitionResult{{PartitionIndex: 0, ErrorCode: 3, ErrorMessage: ptr("x"), UnknownTags: tags(true, 1)}, {PartitionIndex: 1}},
			UnknownTags: tags(true, 2)}}, UnknownTags: tags(true, 3)}
}

func sampleDeleteShareGroupOffsetsRequest(v int16) *DeleteShareGroupOffsetsRequest {
	return &DeleteShareGroupOffsetsRequest{GroupID: "g", Topics: []DeleteShareGroupOffsetsTopic{{TopicName: "t", UnknownTags: tags(true, 1)}, {TopicName: "u"}}, UnknownTags: tags(true, 2)}
}

func sampleDeleteShareGroupOffsetsResponse(v int16) *DeleteShareGroupOffsetsResponse {
	return &DeleteShareGroupOffsetsResponse{ThrottleTimeMs: 1, Responses: []DeleteShareGroupOffsetsTopicResult{
		{TopicName: "t", TopicID: sampleTopicA, UnknownTags: tags(true, 1)}, {TopicName: "u", ErrorCode: 3, ErrorMessage: ptr("unknown")}}, UnknownTags: tags(true, 2)}
}
