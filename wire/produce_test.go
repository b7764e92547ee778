package wire

import (
	"reflect"
	"testing"
)

func sampleProduceRequest(v int16) *ProduceRequest {
	m := &ProduceRequest{TransactionalID: ptr("txn"), Acks: -1, TimeoutMs: 30000,
		TopicData: []ProduceRequestTopic{
			{Name: "orders", PartitionData: []ProduceRequestPartition{{Index: 0, Records: []byte("batch-bytes")}, {Index: 3, Records: nil}, {Index: 4, Records: []byte{}}}},
			{Name: "t2"},
		}}
	if v >= 9 {
		m.TopicData[0].PartitionData[0].UnknownTags = []TaggedField{{Tag: 1, Data: []byte{5}}}
		m.UnknownTags = []TaggedField{{Tag: 0, Data: []byte{}}}
	}
	if v >= 13 {
		for i := range m.TopicData {
			m.TopicData[i].Name = ""
			m.TopicData[i].TopicID = UUID{byte(i + 1), 15: 0xee}
		}
	}
	return m
}

func sampleProduceResponse(v int16) *ProduceResponse {
	m := &ProduceResponse{ThrottleTimeMs: 9, Responses: []ProduceResponseTopic{
		{Name: "orders", PartitionResponses: []ProduceResponsePartition{
			{Index: 0, BaseOffset: 100, LogAppendTimeMs: 1700000000000, LogStartOffset: -1, CurrentLeader: defaultLeaderIDAndEpoch()},
			{Index: 3, ErrorCode: 6, BaseOffset: -1, LogAppendTimeMs: -1, LogStartOffset: -1, CurrentLeader: defaultLeaderIDAndEpoch()},
		}},
	}}
	p := m.Responses[0].PartitionResponses
	if v >= 5 {
		p[0].LogStartOffset = 7
	}
	if v >= 8 {
		p[1].RecordErrors = []ProduceResponseRecordError{{BatchIndex: 2, BatchIndexErrorMessage: ptr("too big")}, {BatchIndex: 3}}
		p[1].ErrorMessage = ptr("invalid record")
	}
	if v >= 9 {
		p[0].UnknownTags = []TaggedField{{Tag: 4, Data: []byte{4}}}
		m.UnknownTags = []TaggedField{{Tag: 3, Data: []byte{3}}}
	}
	if v >= 10 {
		p[1].CurrentLeader = LeaderIDAndEpoch{LeaderID: 2, LeaderEpoch: 11}
		m.NodeEndpoints = []NodeEndpoint{{NodeID: 2, Host: "b2", Port: 9092, Rack: ptr("r1")}, {NodeID: 3, Host: "b3", Port: 9093}}
	}
	if v >= 13 {
		m.Responses[0].Name = ""
		m.Responses[0].TopicID = UUID{9}
	}
	return m
}

func TestProduceRoundTrip(t *testing.T) {
	forVersions(t, KeyProduce, func(t *testing.T, v int16) {
		checkRoundTrip(t, v, sampleProduceRequest(v), func() codec { return new(ProduceRequest) })
		checkRoundTrip(t, v, sampleProduceResponse(v), func() codec { return new(ProduceResponse) })
	})
}

func TestProduceGolden(t *testing.T) {
	checkGolden(t, 3, &ProduceRequest{Acks: -1, TimeoutMs: 30000, TopicData: []ProduceRequestTopic{{Name: "t",
		PartitionData: []ProduceRequestPartition{{Index: 0, Records: []byte("abc")}}}}}, new(ProduceRequest),
		"ffff | ffff | 00007530 | 00000001 | 0001 74 | 00000001 | 00000000 | 00000003 616263")
	checkGolden(t, 13, &ProduceRequest{Acks: -1, TimeoutMs: 30000, TopicData: []ProduceRequestTopic{{TopicID: UUID{15: 1},
		PartitionData: []ProduceRequestPartition{{Index: 0}}}}}, new(ProduceRequest),
		"00 | ffff | 00007530 | 02 | 00000000000000000000000000000001 | 02 | 00000000 | 00 | 00 | 00 | 00")
	checkGolden(t, 3, &ProduceResponse{Responses: []ProduceResponseTopic{{Name: "t", PartitionResponses: []ProduceResponsePartition{
		{BaseOffset: 10, LogAppendTimeMs: -1, LogStartOffset: -1, CurrentLeader: defaultLeaderIDAndEpoch()}}}}}, new(ProduceResponse),
		"00000001 | 0001 74 | 00000001 | 00000000 0000 000000000000000a ffffffffffffffff | 00000000")
	checkGolden(t, 10, &ProduceResponse{
		Responses: []ProduceResponseTopic{{Name: "t", PartitionResponses: []ProduceResponsePartition{
			{ErrorCode: 6, BaseOffset: -1, LogAppendTimeMs: -1, LogStartOffset: -1, RecordErrors: nil,
				CurrentLeader: LeaderIDAndEpoch{LeaderID: 2, LeaderEpoch: 7}}}}},
		NodeEndpoints: []NodeEndpoint{{NodeID: 2, Host: "h", Port: 9092}},
	}, new(ProduceResponse),
		"02 | 02 74 | 02 | 00000000 0006 ffffffffffffffff ffffffffffffffff ffffffffffffffff | 01 | 00 |"+
			"01 00 09 00000002 00000007 00 | 00 | 00000000 | 01 00 0d 02 00000002 02 68 00002384 00 00")
}

func FuzzProduceResponse(f *testing.F) {
	fuzzDecoder(f, KeyProduce, func() codec { return new(ProduceResponse) },
		sampleProduceResponse(13).AppendTo(nil, 13), sampleProduceResponse(10).AppendTo(nil, 10), sampleProduceResponse(3).AppendTo(nil, 3))
}

// FuzzProduceResponseReuse: decoding any input into a response that held
// another (SetResponseInto) gives what a fresh decode gives.
func FuzzProduceResponseReuse(f *testing.F) {
	for _, v := range []int16{3, 8, 10, 13} {
		f.Add(byte(v), sampleProduceResponse(v).AppendTo(nil, v))
	}
	f.Fuzz(func(t *testing.T, vb byte, body []byte) {
		v := 3 + int16(vb%11)
		var used ProduceResponse
		if err := used.DecodeFrom(NewReader(sampleProduceResponse(v).AppendTo(nil, v)), v); err != nil {
			t.Fatal(err)
		}
		errUsed := used.DecodeFrom(NewReader(body), v)
		var fresh ProduceResponse
		errFresh := fresh.DecodeFrom(NewReader(body), v)
		if (errUsed == nil) != (errFresh == nil) {
			t.Fatalf("v%d: reused decode error %v, fresh %v", v, errUsed, errFresh)
		}
		if errFresh == nil && !reflect.DeepEqual(used, fresh) {
			t.Fatalf("v%d: reused decode\n got %+v\nwant %+v", v, used, fresh)
		}
	})
}

func FuzzProduceRequest(f *testing.F) {
	fuzzDecoder(f, KeyProduce, func() codec { return new(ProduceRequest) },
		sampleProduceRequest(13).AppendTo(nil, 13), sampleProduceRequest(3).AppendTo(nil, 3))
}

// TestProduceResponseDecodeReuses: decoding into a ProduceResponse that held
// a response gives exactly what a fresh decode gives (every field of the
// previous one reset, including v8+ record errors when the next has none),
// reuses its topic and partition arrays, and allocates nothing but the topic
// names' strings when they are large enough (ProduceRequest.SetResponseInto).
func TestProduceResponseDecodeReuses(t *testing.T) {
	forVersions(t, KeyProduce, func(t *testing.T, v int16) {
		big := sampleProduceResponse(v).AppendTo(nil, v)
		small := &ProduceResponse{Responses: []ProduceResponseTopic{{Name: "small-topic", PartitionResponses: []ProduceResponsePartition{
			{Index: 1, BaseOffset: 5, LogAppendTimeMs: -1, LogStartOffset: -1, CurrentLeader: defaultLeaderIDAndEpoch()}}}}}
		if v >= 5 {
			small.Responses[0].PartitionResponses[0].LogStartOffset = 0
		}
		if v >= 13 {
			small.Responses[0].Name, small.Responses[0].TopicID = "", UUID{7}
		}
		smallBytes := small.AppendTo(nil, v)

		var m ProduceResponse
		if err := m.DecodeFrom(NewReader(big), v); err != nil {
			t.Fatal(err)
		}
		topics, parts := &m.Responses[0], &m.Responses[0].PartitionResponses[0]
		if err := m.DecodeFrom(NewReader(smallBytes), v); err != nil {
			t.Fatal(err)
		}
		fresh := new(ProduceResponse)
		if err := fresh.DecodeFrom(NewReader(smallBytes), v); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(&m, fresh) {
			t.Fatalf("decode into a used response:\n got %+v\nwant %+v", m, *fresh)
		}
		if &m.Responses[0] != topics || &m.Responses[0].PartitionResponses[0] != parts {
			t.Fatal("topic or partition array not reused")
		}
		// Up to v12 the topic name is a string of its own (a copy: the
		// response never aliases its frame); v13 names topics by ID.
		want := 1.0
		if v >= 13 {
			want = 0
		}
		r := NewReader(nil)
		if n := testing.AllocsPerRun(100, func() {
			r.Reset(smallBytes)
			if err := m.DecodeFrom(r, v); err != nil {
				t.Fatal(err)
			}
		}); n != want {
			t.Fatalf("%v allocations per decode into a used response, want %v", n, want)
		}
	})
}

// TestProduceResponseKeepsNoFrame: a decoded ProduceResponse is unchanged
// when its frame is overwritten afterwards (ProduceRequest is a
// FrameFreeResponder, so a connection reuses the frame's buffer), at every
// version, with record errors, node endpoints and unknown tagged fields.
func TestProduceResponseKeepsNoFrame(t *testing.T) {
	var _ FrameFreeResponder = (*ProduceRequest)(nil)
	forVersions(t, KeyProduce, func(t *testing.T, v int16) {
		frame := sampleProduceResponse(v).AppendTo(nil, v)
		var want, got ProduceResponse
		if err := want.DecodeFrom(NewReader(append([]byte(nil), frame...)), v); err != nil {
			t.Fatal(err)
		}
		if err := got.DecodeFrom(NewReader(frame), v); err != nil {
			t.Fatal(err)
		}
		for i := range frame {
			frame[i] = 0xAA
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("the decoded response changed with its frame:\n got %+v\nwant %+v", got, want)
		}
	})
}
