package wire

import "testing"

// Golden bytes for the share-group APIs, produced by franz-go's kmsg v1.15.1
// (an independent encoder) from equivalent messages.

func TestShareGolden(t *testing.T) {
	tid := UUID{15: 1}
	checkGolden(t, 1, &ShareGroupHeartbeatRequest{GroupID: "g", MemberID: "m", SubscribedTopicNames: []string{"t"}}, new(ShareGroupHeartbeatRequest),
		"02 67 02 6d 00000000 00 02 02 74 00")
	checkGolden(t, 1, &ShareGroupHeartbeatResponse{MemberID: ptr("m"), MemberEpoch: 1, HeartbeatIntervalMs: 1000,
		Assignment: &ShareGroupHeartbeatAssignment{TopicPartitions: []ShareGroupTopicPartitions{{TopicID: tid, Partitions: []int32{0}}}}}, new(ShareGroupHeartbeatResponse),
		"00000000 0000 00 02 6d 00000001 000003e8 01 02 00000000000000000000000000000001 02 00000000 00 00 00")

	fetch := func(v int16) *ShareFetchRequest {
		m := &ShareFetchRequest{GroupID: ptr("g"), MemberID: ptr("m"), ShareSessionEpoch: 1, MaxWaitMs: 500, MinBytes: 1, MaxBytes: 1024, MaxRecords: 10, BatchSize: 5,
			Topics: []ShareFetchTopic{{TopicID: tid, Partitions: []ShareFetchPartition{{PartitionIndex: 0,
				AcknowledgementBatches: []ShareAcknowledgementBatch{{FirstOffset: 3, LastOffset: 4, AcknowledgeTypes: []int8{AckAccept, AckRelease}}}}}}}}
		if v >= 2 {
			m.ShareAcquireMode = ShareAcquireRecordLimit
		}
		return m
	}
	checkGolden(t, 1, fetch(1), new(ShareFetchRequest),
		"02 67 02 6d 00000001 000001f4 00000001 00000400 0000000a 00000005 02 00000000000000000000000000000001 02 00000000 02 0000000000000003 0000000000000004 03 01 02 00 00 00 01 00")
	checkGolden(t, 2, fetch(2), new(ShareFetchRequest),
		"02 67 02 6d 00000001 000001f4 00000001 00000400 0000000a 00000005 01 00 02 00000000000000000000000000000001 02 00000000 02 0000000000000003 0000000000000004 03 01 02 00 00 00 01 00")
	fr := &ShareFetchResponse{AcquisitionLockTimeoutMs: 30000, Responses: []ShareFetchTopicResponse{{TopicID: tid, Partitions: []ShareFetchPartitionResponse{{
		CurrentLeader: LeaderIDAndEpoch{LeaderID: 1}, Records: []byte{0xaa}, AcquiredRecords: []ShareAcquiredRecords{{FirstOffset: 3, LastOffset: 4, DeliveryCount: 2}}}}}}}
	for _, v := range []int16{1, 2} {
		checkGolden(t, v, fr, new(ShareFetchResponse),
			"00000000 0000 00 00007530 02 00000000000000000000000000000001 02 00000000 0000 00 0000 00 00000001 00000000 00 02 aa 02 0000000000000003 0000000000000004 0002 00 00 00 01 00")
	}

	ack := func(v int16) *ShareAcknowledgeRequest {
		return &ShareAcknowledgeRequest{GroupID: ptr("g"), MemberID: ptr("m"), ShareSessionEpoch: 2, IsRenewAck: v >= 2,
			Topics: []ShareAcknowledgeTopic{{TopicID: tid, Partitions: []ShareAcknowledgePartition{{PartitionIndex: 0,
				AcknowledgementBatches: []ShareAcknowledgementBatch{{FirstOffset: 3, LastOffset: 3, AcknowledgeTypes: []int8{AckRenew}}}}}}}}
	}
	checkGolden(t, 1, ack(1), new(ShareAcknowledgeRequest),
		"02 67 02 6d 00000002 02 00000000000000000000000000000001 02 00000000 02 0000000000000003 0000000000000003 02 04 00 00 00 00")
	checkGolden(t, 2, ack(2), new(ShareAcknowledgeRequest),
		"02 67 02 6d 00000002 01 02 00000000000000000000000000000001 02 00000000 02 0000000000000003 0000000000000003 02 04 00 00 00 00")
	ar := func(v int16) *ShareAcknowledgeResponse {
		m := &ShareAcknowledgeResponse{Responses: []ShareAcknowledgeTopicResponse{{TopicID: tid, Partitions: []ShareAcknowledgePartitionResponse{{ErrorCode: 121,
			CurrentLeader: LeaderIDAndEpoch{LeaderID: -1, LeaderEpoch: -1}}}}}}
		if v >= 2 {
			m.AcquisitionLockTimeoutMs = 15000
		}
		return m
	}
	checkGolden(t, 1, ar(1), new(ShareAcknowledgeResponse),
		"00000000 0000 00 02 00000000000000000000000000000001 02 00000000 0079 00 ffffffff ffffffff 00 00 00 01 00")
	checkGolden(t, 2, ar(2), new(ShareAcknowledgeResponse),
		"00000000 0000 00 00003a98 02 00000000000000000000000000000001 02 00000000 0079 00 ffffffff ffffffff 00 00 00 01 00")
}
