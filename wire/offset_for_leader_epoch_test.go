package wire

import "testing"

func sampleOffsetForLeaderEpochRequest(v int16) *OffsetForLeaderEpochRequest {
	m := &OffsetForLeaderEpochRequest{ReplicaID: -2, Topics: []OffsetForLeaderTopic{
		{Topic: "orders", Partitions: []OffsetForLeaderPartition{{Partition: 0, CurrentLeaderEpoch: 5, LeaderEpoch: 4}, {Partition: 2, CurrentLeaderEpoch: -1, LeaderEpoch: 0}}},
	}}
	if v >= 3 {
		m.ReplicaID = -1
	}
	if v >= 4 {
		m.Topics[0].Partitions[0].UnknownTags = []TaggedField{{Tag: 3, Data: []byte{3}}}
		m.UnknownTags = []TaggedField{{Tag: 0, Data: []byte("z")}}
	}
	return m
}

func sampleOffsetForLeaderEpochResponse(v int16) *OffsetForLeaderEpochResponse {
	m := &OffsetForLeaderEpochResponse{ThrottleTimeMs: 2, Topics: []OffsetForLeaderTopicResult{
		{Topic: "orders", Partitions: []EpochEndOffset{{Partition: 0, LeaderEpoch: 4, EndOffset: 1000}, {ErrorCode: 74, Partition: 2, LeaderEpoch: -1, EndOffset: -1}}},
	}}
	if v >= 4 {
		m.Topics[0].UnknownTags = []TaggedField{{Tag: 1, Data: []byte{}}}
	}
	return m
}

func TestOffsetForLeaderEpochRoundTrip(t *testing.T) {
	forVersions(t, KeyOffsetForLeaderEpoch, func(t *testing.T, v int16) {
		checkRoundTrip(t, v, sampleOffsetForLeaderEpochRequest(v), func() codec { return new(OffsetForLeaderEpochRequest) })
		checkRoundTrip(t, v, sampleOffsetForLeaderEpochResponse(v), func() codec { return new(OffsetForLeaderEpochResponse) })
	})
}

func TestOffsetForLeaderEpochGolden(t *testing.T) {
	checkGolden(t, 2, &OffsetForLeaderEpochRequest{ReplicaID: -2, Topics: []OffsetForLeaderTopic{{Topic: "t", Partitions: []OffsetForLeaderPartition{{Partition: 1, CurrentLeaderEpoch: 3, LeaderEpoch: 2}}}}},
		new(OffsetForLeaderEpochRequest), "00000001 0001 74 | 00000001 00000001 00000003 00000002")
	checkGolden(t, 4, &OffsetForLeaderEpochRequest{ReplicaID: -1, Topics: []OffsetForLeaderTopic{{Topic: "t", Partitions: []OffsetForLeaderPartition{{Partition: 1, CurrentLeaderEpoch: 3, LeaderEpoch: 2}}}}},
		new(OffsetForLeaderEpochRequest), "ffffffff | 02 02 74 | 02 00000001 00000003 00000002 00 | 00 | 00")
	checkGolden(t, 3, &OffsetForLeaderEpochResponse{Topics: []OffsetForLeaderTopicResult{{Topic: "t", Partitions: []EpochEndOffset{{Partition: 1, LeaderEpoch: 2, EndOffset: 9}}}}},
		new(OffsetForLeaderEpochResponse), "00000000 | 00000001 0001 74 | 00000001 0000 00000001 00000002 0000000000000009")
}

func FuzzOffsetForLeaderEpochResponse(f *testing.F) {
	fuzzDecoder(f, KeyOffsetForLeaderEpoch, func() codec { return new(OffsetForLeaderEpochResponse) },
		sampleOffsetForLeaderEpochResponse(4).AppendTo(nil, 4), sampleOffsetForLeaderEpochResponse(2).AppendTo(nil, 2))
}
