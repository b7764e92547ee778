package wire

import "testing"

func sampleListOffsetsRequest(v int16) *ListOffsetsRequest {
	m := &ListOffsetsRequest{ReplicaID: -1, Topics: []ListOffsetsTopic{
		{Name: "orders", Partitions: []ListOffsetsPartition{{PartitionIndex: 0, CurrentLeaderEpoch: -1, Timestamp: ListOffsetsEarliest}, {PartitionIndex: 1, CurrentLeaderEpoch: -1, Timestamp: 1700000000000}}},
	}}
	if v >= 2 {
		m.IsolationLevel = 1
	}
	if v >= 4 {
		m.Topics[0].Partitions[1].CurrentLeaderEpoch = 4
	}
	if v >= 6 {
		m.Topics[0].UnknownTags = []TaggedField{{Tag: 2, Data: []byte{2}}}
		m.UnknownTags = []TaggedField{{Tag: 1, Data: []byte{}}}
	}
	if v >= 10 {
		m.TimeoutMs = 30000
	}
	return m
}

func sampleListOffsetsResponse(v int16) *ListOffsetsResponse {
	m := &ListOffsetsResponse{Topics: []ListOffsetsTopicResponse{
		{Name: "orders", Partitions: []ListOffsetsPartitionResponse{{PartitionIndex: 0, Timestamp: -1, Offset: 42, LeaderEpoch: -1}, {PartitionIndex: 1, ErrorCode: 6, Timestamp: -1, Offset: -1, LeaderEpoch: -1}}},
	}}
	if v >= 2 {
		m.ThrottleTimeMs = 1
	}
	if v >= 4 {
		m.Topics[0].Partitions[0].LeaderEpoch = 3
	}
	if v >= 6 {
		m.Topics[0].Partitions[1].UnknownTags = []TaggedField{{Tag: 0, Data: []byte("a")}}
		m.UnknownTags = []TaggedField{{Tag: 7, Data: []byte{7}}}
	}
	return m
}

func TestListOffsetsRoundTrip(t *testing.T) {
	forVersions(t, KeyListOffsets, func(t *testing.T, v int16) {
		checkRoundTrip(t, v, sampleListOffsetsRequest(v), func() codec { return new(ListOffsetsRequest) })
		checkRoundTrip(t, v, sampleListOffsetsResponse(v), func() codec { return new(ListOffsetsResponse) })
	})
}

func TestListOffsetsGolden(t *testing.T) {
	checkGolden(t, 1, &ListOffsetsRequest{ReplicaID: -1, Topics: []ListOffsetsTopic{{Name: "t", Partitions: []ListOffsetsPartition{{CurrentLeaderEpoch: -1, Timestamp: -2}}}}},
		new(ListOffsetsRequest), "ffffffff | 00000001 0001 74 | 00000001 00000000 fffffffffffffffe")
	checkGolden(t, 11, &ListOffsetsRequest{ReplicaID: -1, IsolationLevel: 1, TimeoutMs: 5, Topics: []ListOffsetsTopic{{Name: "t", Partitions: []ListOffsetsPartition{{CurrentLeaderEpoch: 2, Timestamp: -1}}}}},
		new(ListOffsetsRequest), "ffffffff 01 | 02 02 74 | 02 00000000 00000002 ffffffffffffffff 00 | 00 | 00000005 | 00")
	checkGolden(t, 1, &ListOffsetsResponse{Topics: []ListOffsetsTopicResponse{{Name: "t", Partitions: []ListOffsetsPartitionResponse{{Timestamp: -1, Offset: 8, LeaderEpoch: -1}}}}},
		new(ListOffsetsResponse), "00000001 0001 74 | 00000001 00000000 0000 ffffffffffffffff 0000000000000008")
	checkGolden(t, 6, &ListOffsetsResponse{Topics: []ListOffsetsTopicResponse{{Name: "t", Partitions: []ListOffsetsPartitionResponse{{Timestamp: -1, Offset: 8, LeaderEpoch: 1}}}}},
		new(ListOffsetsResponse), "00000000 | 02 02 74 | 02 00000000 0000 ffffffffffffffff 0000000000000008 00000001 00 | 00 | 00")
}

func FuzzListOffsetsResponse(f *testing.F) {
	fuzzDecoder(f, KeyListOffsets, func() codec { return new(ListOffsetsResponse) },
		sampleListOffsetsResponse(11).AppendTo(nil, 11), sampleListOffsetsResponse(1).AppendTo(nil, 1))
}
