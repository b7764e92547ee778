package wire

import "testing"

// The golden bytes below were written by Apache Kafka 4.4.0's own
// ConsumerGroupHeartbeatRequestData / ConsumerGroupHeartbeatResponseData
// (MessageUtil.toByteBufferAccessor, kafka-clients jar of the test bed),
// not by this package. testlab/wirecheck cross-checks every field against
// franz-go's kmsg as well.

var cghTopicID = UUID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}

func cghJoin(v int16) *ConsumerGroupHeartbeatRequest {
	m := &ConsumerGroupHeartbeatRequest{GroupID: "g", MemberID: "m", MemberEpoch: 0, InstanceID: ptr("i"), RackID: ptr("r"),
		RebalanceTimeoutMs: 300000, SubscribedTopicNames: []string{"t"}, ServerAssignor: ptr("uniform"),
		TopicPartitions: []ConsumerGroupHeartbeatTopicPartitions{{TopicID: cghTopicID, Partitions: []int32{0, 2}}}}
	if v >= 1 {
		m.SubscribedTopicRegex = ptr("t.*")
	}
	return m
}

func TestConsumerGroupHeartbeatGolden(t *testing.T) {
	checkGolden(t, 0, cghJoin(0), new(ConsumerGroupHeartbeatRequest),
		"0267026d00000000 026902 72 00 0493e0 02 027408756e69666f726d 02 0102030405060708090a0b0c0d0e0f10 03 00000000 00000002 00 00")
	checkGolden(t, 1, cghJoin(1), new(ConsumerGroupHeartbeatRequest),
		"0267026d00000000 026902 72 00 0493e0 02 0274 04742e2a 08756e69666f726d 02 0102030405060708090a0b0c0d0e0f10 03 00000000 00000002 00 00")
	hb := &ConsumerGroupHeartbeatRequest{GroupID: "g", MemberID: "m", MemberEpoch: 5, RebalanceTimeoutMs: -1}
	checkGolden(t, 0, hb, new(ConsumerGroupHeartbeatRequest), "0267026d00000005 00 00 ffffffff 00 00 00 00")
	checkGolden(t, 1, hb, new(ConsumerGroupHeartbeatRequest), "0267026d00000005 00 00 ffffffff 00 00 00 00 00")
	assigned := &ConsumerGroupHeartbeatResponse{MemberID: ptr("m"), MemberEpoch: 5, HeartbeatIntervalMs: 5000,
		Assignment: &ConsumerGroupHeartbeatAssignment{TopicPartitions: []ConsumerGroupHeartbeatTopicPartitions{{TopicID: cghTopicID, Partitions: []int32{1}}}}}
	fenced := &ConsumerGroupHeartbeatResponse{ErrorCode: 110, ErrorMessage: ptr("fenced"), MemberEpoch: -1}
	for v := int16(0); v <= 1; v++ {
		checkGolden(t, v, assigned, new(ConsumerGroupHeartbeatResponse),
			"00000000 0000 00 026d 00000005 00001388 01 02 0102030405060708090a0b0c0d0e0f10 02 00000001 00 00 00")
		checkGolden(t, v, fenced, new(ConsumerGroupHeartbeatResponse), "00000000 006e 0766656e636564 00 ffffffff 00000000 ff 00")
	}
}

func sampleConsumerGroupHeartbeatResponse(int16) *ConsumerGroupHeartbeatResponse {
	return &ConsumerGroupHeartbeatResponse{ThrottleTimeMs: 7, ErrorCode: 0, MemberID: ptr("m"), MemberEpoch: 9, HeartbeatIntervalMs: 5000,
		Assignment: &ConsumerGroupHeartbeatAssignment{
			TopicPartitions: []ConsumerGroupHeartbeatTopicPartitions{
				{TopicID: cghTopicID, Partitions: []int32{0, 3}, UnknownTags: tags(true, 1)},
				{TopicID: UUID{15: 1}}, // an empty array decodes as nil
			},
			UnknownTags: tags(true, 2)},
		UnknownTags: tags(true, 3)}
}

// TestConsumerGroupHeartbeatRoundTrip covers every version with null and
// empty arrays told apart, and truncations failing cleanly.
func TestConsumerGroupHeartbeatRoundTrip(t *testing.T) {
	forVersions(t, KeyConsumerGroupHeartbeat, func(t *testing.T, v int16) {
		full := cghJoin(v)
		full.UnknownTags = tags(true, 4)
		full.TopicPartitions[0].UnknownTags = tags(true, 5)
		checkRoundTrip(t, v, full, func() codec { return new(ConsumerGroupHeartbeatRequest) })
		empty := &ConsumerGroupHeartbeatRequest{GroupID: "g", MemberID: "m", MemberEpoch: -1, RebalanceTimeoutMs: -1,
			SubscribedTopicNames: []string{}, TopicPartitions: []ConsumerGroupHeartbeatTopicPartitions{}}
		checkRoundTrip(t, v, empty, func() codec { return new(ConsumerGroupHeartbeatRequest) })
		checkRoundTrip(t, v, sampleConsumerGroupHeartbeatResponse(v), func() codec { return new(ConsumerGroupHeartbeatResponse) })
		checkRoundTrip(t, v, &ConsumerGroupHeartbeatResponse{MemberEpoch: 1}, func() codec { return new(ConsumerGroupHeartbeatResponse) })
	})
	var req Request = new(ConsumerGroupHeartbeatRequest)
	if req.Key() != KeyConsumerGroupHeartbeat || req.ResponseFor().Key() != KeyConsumerGroupHeartbeat {
		t.Fatalf("keys %d/%d", req.Key(), req.ResponseFor().Key())
	}
	if info, ok := LookupAPI(KeyConsumerGroupHeartbeat); !ok || info.MinVersion != 0 || info.MaxVersion != 1 || info.Flexible != 0 {
		t.Fatalf("API table: %+v, %v", info, ok)
	}
}

// TestConsumerGroupHeartbeatRegexOnlyFromV1 checks that v0 neither writes
// nor reads SubscribedTopicRegex.
func TestConsumerGroupHeartbeatRegexOnlyFromV1(t *testing.T) {
	m := cghJoin(1)
	b0 := m.AppendTo(nil, 0)
	got := new(ConsumerGroupHeartbeatRequest)
	if err := got.DecodeFrom(NewReader(b0), 0); err != nil || got.SubscribedTopicRegex != nil {
		t.Fatalf("v0: regex %v, err %v", got.SubscribedTopicRegex, err)
	}
	if len(m.AppendTo(nil, 1)) != len(b0)+len("t.*")+1 {
		t.Fatal("v1 does not carry the regex")
	}
}

func FuzzConsumerGroupHeartbeatRequest(f *testing.F) {
	fuzzDecoder(f, KeyConsumerGroupHeartbeat, func() codec { return new(ConsumerGroupHeartbeatRequest) },
		cghJoin(1).AppendTo(nil, 1), cghJoin(0).AppendTo(nil, 0))
}

func FuzzConsumerGroupHeartbeatResponse(f *testing.F) {
	fuzzDecoder(f, KeyConsumerGroupHeartbeat, func() codec { return new(ConsumerGroupHeartbeatResponse) },
		sampleConsumerGroupHeartbeatResponse(1).AppendTo(nil, 1))
}
