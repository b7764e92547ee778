package wire

import (
	"math"
	"testing"
)

func defaultFetchPartition(p int32, off int64) FetchPartition {
	return FetchPartition{Partition: p, CurrentLeaderEpoch: -1, FetchOffset: off, LastFetchedEpoch: -1, LogStartOffset: -1, PartitionMaxBytes: 1 << 20, HighWatermark: math.MaxInt64}
}

func sampleFetchRequest(v int16) *FetchRequest {
	m := &FetchRequest{ReplicaID: -1, ReplicaState: FetchReplicaState{ReplicaID: -1, ReplicaEpoch: -1}, MaxWaitMs: 500, MinBytes: 1, MaxBytes: 50 << 20,
		IsolationLevel: 1, SessionEpoch: -1,
		Topics: []FetchTopic{{Topic: "orders", Partitions: []FetchPartition{defaultFetchPartition(0, 100), defaultFetchPartition(1, 0)}}},
	}
	p := m.Topics[0].Partitions
	if v >= 5 {
		p[0].LogStartOffset = 0
	}
	if v >= 7 {
		m.SessionID, m.SessionEpoch = 77, 3
		m.ForgottenTopicsData = []FetchForgottenTopic{{Topic: "old", Partitions: []int32{4, 5}}}
	}
	if v >= 9 {
		p[0].CurrentLeaderEpoch = 12
	}
	if v >= 11 {
		m.RackID = "rack-b"
	}
	if v >= 12 {
		p[0].LastFetchedEpoch = 11
		p[1].UnknownTags = []TaggedField{{Tag: 5, Data: []byte{5}}}
		m.ClusterID = ptr("cluster-x")
		m.UnknownTags = []TaggedField{{Tag: 9, Data: []byte{9, 9}}}
	}
	if v >= 13 {
		m.Topics[0].Topic = ""
		m.Topics[0].TopicID = UUID{3, 15: 3}
		m.ForgottenTopicsData[0].Topic = ""
		m.ForgottenTopicsData[0].TopicID = UUID{4}
	}
	if v >= 15 {
		m.ReplicaID = -1
		m.ReplicaState = FetchReplicaState{ReplicaID: 2, ReplicaEpoch: 99}
	}
	if v >= 17 {
		p[0].ReplicaDirectoryID = UUID{0xd1, 15: 0xd1}
	}
	if v >= 18 {
		p[0].HighWatermark = 555
	}
	return m
}

func defaultFetchResponsePartition(p int32) FetchResponsePartition {
	return FetchResponsePartition{PartitionIndex: p, HighWatermark: -1, LastStableOffset: -1, LogStartOffset: -1,
		DivergingEpoch: FetchEpochEndOffset{Epoch: -1, EndOffset: -1}, CurrentLeader: defaultLeaderIDAndEpoch(),
		SnapshotID: FetchSnapshotID{EndOffset: -1, Epoch: -1}, PreferredReadReplica: -1}
}

func sampleFetchResponse(v int16) *FetchResponse {
	p0 := defaultFetchResponsePartition(0)
	p0.HighWatermark, p0.LastStableOffset = 200, 190
	p0.AbortedTransactions = []FetchAbortedTransaction{{ProducerID: 4000, FirstOffset: 150}}
	p0.Records = []byte("raw-record-batches")
	p1 := defaultFetchResponsePartition(1)
	p1.ErrorCode = 6
	p1.AbortedTransactions = []FetchAbortedTransaction{} // empty, not null
	p2 := defaultFetchResponsePartition(2)
	p2.Records = []byte{} // empty, not null
	m := &FetchResponse{ThrottleTimeMs: 4, Responses: []FetchResponseTopic{{Topic: "orders", Partitions: []FetchResponsePartition{p0, p1, p2}}}}
	ps := m.Responses[0].Partitions
	if v >= 5 {
		ps[0].LogStartOffset = 10
	}
	if v >= 7 {
		m.ErrorCode, m.SessionID = 0, 77
	}
	if v >= 11 {
		ps[0].PreferredReadReplica = 3
	}
	if v >= 12 {
		ps[0].DivergingEpoch = FetchEpochEndOffset{Epoch: 5, EndOffset: 180}
		ps[1].CurrentLeader = LeaderIDAndEpoch{LeaderID: 2, LeaderEpoch: 13}
		ps[2].SnapshotID = FetchSnapshotID{EndOffset: 1000, Epoch: 9, UnknownTags: []TaggedField{{Tag: 0, Data: []byte{}}}}
		ps[2].UnknownTags = []TaggedField{{Tag: 6, Data: []byte{6}}}
		m.UnknownTags = []TaggedField{{Tag: 4, Data: []byte("u")}}
	}
	if v >= 13 {
		m.Responses[0].Topic = ""
		m.Responses[0].TopicID = UUID{3, 15: 3}
	}
	if v >= 16 {
		m.NodeEndpoints = []NodeEndpoint{{NodeID: 2, Host: "b2", Port: 9092, Rack: ptr("r")}}
	}
	return m
}

func TestFetchRoundTrip(t *testing.T) {
	forVersions(t, KeyFetch, func(t *testing.T, v int16) {
		checkRoundTrip(t, v, sampleFetchRequest(v), func() codec { return new(FetchRequest) })
		checkRoundTrip(t, v, sampleFetchResponse(v), func() codec { return new(FetchResponse) })
	})
}

func TestFetchGolden(t *testing.T) {
	req4 := &FetchRequest{ReplicaID: -1, ReplicaState: FetchReplicaState{ReplicaID: -1, ReplicaEpoch: -1}, MaxWaitMs: 500, MinBytes: 1, MaxBytes: 1 << 20, SessionEpoch: -1,
		Topics: []FetchTopic{{Topic: "t", Partitions: []FetchPartition{defaultFetchPartition(0, 5)}}}}
	checkGolden(t, 4, req4, new(FetchRequest),
		"ffffffff 000001f4 00000001 00100000 00 | 00000001 0001 74 | 00000001 00000000 0000000000000005 00100000")

	req15 := &FetchRequest{ReplicaID: -1, ReplicaState: FetchReplicaState{ReplicaID: -1, ReplicaEpoch: -1}, MaxWaitMs: 500, MinBytes: 1, MaxBytes: 1 << 20,
		IsolationLevel: 1, SessionEpoch: -1, ClusterID: ptr("c"),
		Topics:              []FetchTopic{{TopicID: UUID{15: 1}, Partitions: []FetchPartition{defaultFetchPartition(0, 5)}}},
		ForgottenTopicsData: []FetchForgottenTopic{{TopicID: UUID{15: 2}, Partitions: []int32{3}}},
	}
	checkGolden(t, 15, req15, new(FetchRequest),
		"000001f4 00000001 00100000 01 00000000 ffffffff |"+
			"02 00000000000000000000000000000001 | 02 00000000 ffffffff 0000000000000005 ffffffff ffffffffffffffff 00100000 00 | 00 |"+
			"02 00000000000000000000000000000002 02 00000003 00 | 01 | 01 00 02 02 63")

	resp4 := &FetchResponse{Responses: []FetchResponseTopic{{Topic: "t", Partitions: []FetchResponsePartition{defaultFetchResponsePartition(0)}}}}
	resp4.Responses[0].Partitions[0].HighWatermark = 10
	resp4.Responses[0].Partitions[0].LastStableOffset = 10
	resp4.Responses[0].Partitions[0].Records = []byte("abc")
	checkGolden(t, 4, resp4, new(FetchResponse),
		"00000000 | 00000001 0001 74 | 00000001 | 00000000 0000 000000000000000a 000000000000000a | ffffffff | 00000003 616263")

	resp16 := &FetchResponse{SessionID: 7, Responses: []FetchResponseTopic{{TopicID: UUID{15: 1}, Partitions: []FetchResponsePartition{defaultFetchResponsePartition(0)}}}}
	p := &resp16.Responses[0].Partitions[0]
	p.HighWatermark, p.LastStableOffset, p.LogStartOffset = 10, 10, 0
	p.AbortedTransactions, p.Records = []FetchAbortedTransaction{}, []byte{}
	p.CurrentLeader = LeaderIDAndEpoch{LeaderID: 2, LeaderEpoch: 5}
	checkGolden(t, 16, resp16, new(FetchResponse),
		"00000000 0000 00000007 | 02 00000000000000000000000000000001 | 02 |"+
			"00000000 0000 000000000000000a 000000000000000a 0000000000000000 | 01 | ffffffff | 01 |"+
			"01 01 09 00000002 00000005 00 | 00 | 00")
}

// TestFetchNullVersusEmpty: null records and null aborted transactions stay
// distinct from empty ones in old and flexible versions.
func TestFetchNullVersusEmpty(t *testing.T) {
	for _, v := range []int16{4, 12, 18} {
		m := &FetchResponse{Responses: []FetchResponseTopic{{Partitions: []FetchResponsePartition{defaultFetchResponsePartition(0), defaultFetchResponsePartition(1)}}}}
		ps := m.Responses[0].Partitions
		ps[1].Records, ps[1].AbortedTransactions = []byte{}, []FetchAbortedTransaction{}
		var got FetchResponse
		if err := got.DecodeFrom(NewReader(m.AppendTo(nil, v)), v); err != nil {
			t.Fatal(err)
		}
		g := got.Responses[0].Partitions
		if g[0].Records != nil || g[0].AbortedTransactions != nil {
			t.Errorf("v%d: null decoded as non-nil", v)
		}
		if g[1].Records == nil || g[1].AbortedTransactions == nil {
			t.Errorf("v%d: empty decoded as nil", v)
		}
	}
}

func FuzzFetchResponse(f *testing.F) {
	fuzzDecoder(f, KeyFetch, func() codec { return new(FetchResponse) },
		sampleFetchResponse(18).AppendTo(nil, 18), sampleFetchResponse(12).AppendTo(nil, 12), sampleFetchResponse(4).AppendTo(nil, 4))
}

func FuzzFetchRequest(f *testing.F) {
	fuzzDecoder(f, KeyFetch, func() codec { return new(FetchRequest) },
		sampleFetchRequest(18).AppendTo(nil, 18), sampleFetchRequest(7).AppendTo(nil, 7))
}
