package wire

import (
	"reflect"
	"testing"
)

// txnCases are the transaction APIs' samples, in the shape of adminCases.
var txnCases = []adminCase{
	{KeyAddPartitionsToTxn, func(v int16) codec { return sampleAddPartitionsToTxnRequest(v) }, func(v int16) codec { return sampleAddPartitionsToTxnResponse(v) },
		func() codec { return new(AddPartitionsToTxnRequest) }, func() codec { return new(AddPartitionsToTxnResponse) }},
	{KeyAddOffsetsToTxn, func(v int16) codec { return sampleAddOffsetsToTxnRequest(v) }, func(v int16) codec { return sampleAddOffsetsToTxnResponse(v) },
		func() codec { return new(AddOffsetsToTxnRequest) }, func() codec { return new(AddOffsetsToTxnResponse) }},
	{KeyEndTxn, func(v int16) codec { return sampleEndTxnRequest(v) }, func(v int16) codec { return sampleEndTxnResponse(v) },
		func() codec { return new(EndTxnRequest) }, func() codec { return new(EndTxnResponse) }},
	{KeyTxnOffsetCommit, func(v int16) codec { return sampleTxnOffsetCommitRequest(v) }, func(v int16) codec { return sampleTxnOffsetCommitResponse(v) },
		func() codec { return new(TxnOffsetCommitRequest) }, func() codec { return new(TxnOffsetCommitResponse) }},
}

func sampleAddPartitionsToTxnRequest(v int16) *AddPartitionsToTxnRequest {
	topics := []AddPartitionsToTxnTopic{{Name: "a", Partitions: []int32{0, 2}, UnknownTags: tags(v >= 3, 4)}, {Name: "b", Partitions: []int32{7}}}
	if v >= 4 {
		return &AddPartitionsToTxnRequest{Transactions: []AddPartitionsToTxnTransaction{
			{TransactionalID: "t1", ProducerID: 9, ProducerEpoch: 3, VerifyOnly: true, Topics: topics, UnknownTags: tags(true, 1)},
			{TransactionalID: "t2", ProducerID: 10, ProducerEpoch: 0, Topics: topics[1:]},
		}, UnknownTags: tags(true, 2)}
	}
	return &AddPartitionsToTxnRequest{TransactionalID: "t1", ProducerID: 9, ProducerEpoch: 3, Topics: topics, UnknownTags: tags(v >= 3, 2)}
}

func sampleAddPartitionsToTxnResponse(v int16) *AddPartitionsToTxnResponse {
	res := []AddPartitionsToTxnTopicResult{{Name: "a", ResultsByPartition: []AddPartitionsToTxnPartitionResult{
		{PartitionIndex: 0, PartitionErrorCode: 55}, {PartitionIndex: 2, PartitionErrorCode: 51, UnknownTags: tags(v >= 3, 3)}}}}
	if v >= 4 {
		return &AddPartitionsToTxnResponse{ThrottleTimeMs: 4, ErrorCode: 0,
			ResultsByTransaction: []AddPartitionsToTxnResult{{TransactionalID: "t1", TopicResults: res, UnknownTags: tags(true, 5)}}}
	}
	return &AddPartitionsToTxnResponse{ThrottleTimeMs: 4, ResultsByTopic: res, UnknownTags: tags(v >= 3, 1)}
}

func sampleAddOffsetsToTxnRequest(v int16) *AddOffsetsToTxnRequest {
	return &AddOffsetsToTxnRequest{TransactionalID: "t1", ProducerID: 9, ProducerEpoch: 3, GroupID: "g", UnknownTags: tags(v >= 3, 2)}
}

func sampleAddOffsetsToTxnResponse(v int16) *AddOffsetsToTxnResponse {
	return &AddOffsetsToTxnResponse{ThrottleTimeMs: 1, ErrorCode: 51, UnknownTags: tags(v >= 3, 0)}
}

func sampleEndTxnRequest(v int16) *EndTxnRequest {
	return &EndTxnRequest{TransactionalID: "t1", ProducerID: 9, ProducerEpoch: 3, Committed: v%2 == 0, UnknownTags: tags(v >= 3, 1)}
}

func sampleEndTxnResponse(v int16) *EndTxnResponse {
	m := &EndTxnResponse{ThrottleTimeMs: 2, ErrorCode: 0, ProducerID: -1, ProducerEpoch: -1, UnknownTags: tags(v >= 3, 4)}
	if v >= 5 {
		m.ProducerID, m.ProducerEpoch = 9, 4
	}
	return m
}

func sampleTxnOffsetCommitRequest(v int16) *TxnOffsetCommitRequest {
	m := &TxnOffsetCommitRequest{TransactionalID: "t1", GroupID: "g", ProducerID: 9, ProducerEpoch: 3, GenerationIDOrMemberEpoch: -1,
		UnknownTags: tags(v >= 3, 1)}
	if v >= 3 {
		m.GenerationIDOrMemberEpoch, m.MemberID, m.GroupInstanceID = 12, "m-1", ptr("inst")
	}
	p := []TxnOffsetCommitPartition{{PartitionIndex: 0, CommittedOffset: 42, CommittedLeaderEpoch: -1, CommittedMetadata: ptr("meta")},
		{PartitionIndex: 3, CommittedOffset: 7, CommittedLeaderEpoch: -1, UnknownTags: tags(v >= 3, 2)}}
	if v >= 2 {
		p[0].CommittedLeaderEpoch = 5
	}
	tp := TxnOffsetCommitTopic{Partitions: p, UnknownTags: tags(v >= 3, 0)}
	if v >= 6 {
		tp.TopicID = UUID{1, 2, 3, 15: 9}
	} else {
		tp.Name = "a"
	}
	m.Topics = []TxnOffsetCommitTopic{tp}
	return m
}

func sampleTxnOffsetCommitResponse(v int16) *TxnOffsetCommitResponse {
	tp := TxnOffsetCommitTopicResult{Partitions: []TxnOffsetCommitPartitionResult{{PartitionIndex: 0}, {PartitionIndex: 3, ErrorCode: 22, UnknownTags: tags(v >= 3, 6)}}}
	if v >= 6 {
		tp.TopicID = UUID{1, 2, 3, 15: 9}
	} else {
		tp.Name = "a"
	}
	return &TxnOffsetCommitResponse{ThrottleTimeMs: 3, Topics: []TxnOffsetCommitTopicResult{tp}, UnknownTags: tags(v >= 3, 2)}
}

// TestTxnRoundTrip encodes every sample at every implemented version,
// decodes it back exactly, re-encodes byte-identically, and checks that every
// truncation fails cleanly.
func TestTxnRoundTrip(t *testing.T) {
	for _, c := range txnCases {
		info, _ := LookupAPI(c.key)
		t.Run(info.Name, func(t *testing.T) {
			forVersions(t, c.key, func(t *testing.T, v int16) {
				checkRoundTrip(t, v, c.req(v), c.newReq)
				checkRoundTrip(t, v, c.resp(v), c.newResp)
			})
		})
	}
}

// TestTxnKeysAndPairs checks Key and ResponseFor agree with the table.
func TestTxnKeysAndPairs(t *testing.T) {
	for _, c := range txnCases {
		req := c.newReq().(Request)
		if _, ok := c.newResp().(ResponseEncoder); !ok {
			t.Fatalf("%d: response is not a ResponseEncoder", c.key)
		}
		if req.Key() != c.key || req.ResponseFor().Key() != c.key {
			t.Fatalf("%d: keys %d/%d", c.key, req.Key(), req.ResponseFor().Key())
		}
		if reflect.TypeOf(req.ResponseFor()) != reflect.TypeOf(c.newResp()) {
			t.Fatalf("%d: ResponseFor type %T", c.key, req.ResponseFor())
		}
	}
}

// TestTxnGolden pins the transaction codecs to franz-go's kmsg v1.15.1: the
// byte strings below were produced by kmsg from equivalent messages, not by
// this package.
func TestTxnGolden(t *testing.T) {
	end := &EndTxnRequest{TransactionalID: "t", ProducerID: 5, ProducerEpoch: 1, Committed: true}
	checkGolden(t, 0, end, new(EndTxnRequest), "0001 74 0000000000000005 0001 01")
	checkGolden(t, 5, end, new(EndTxnRequest), "02 74 0000000000000005 0001 01 00")
	checkGolden(t, 0, &EndTxnResponse{ErrorCode: 51, ProducerID: -1, ProducerEpoch: -1}, new(EndTxnResponse), "00000000 0033")
	checkGolden(t, 3, &EndTxnResponse{ErrorCode: 51, ProducerID: -1, ProducerEpoch: -1}, new(EndTxnResponse), "00000000 0033 00")
	checkGolden(t, 5, &EndTxnResponse{ErrorCode: 51, ProducerID: 5, ProducerEpoch: 2}, new(EndTxnResponse), "00000000 0033 0000000000000005 0002 00")

	ao := &AddOffsetsToTxnRequest{TransactionalID: "t", ProducerID: 5, ProducerEpoch: 1, GroupID: "g"}
	checkGolden(t, 0, ao, new(AddOffsetsToTxnRequest), "0001 74 0000000000000005 0001 0001 67")
	checkGolden(t, 4, ao, new(AddOffsetsToTxnRequest), "02 74 0000000000000005 0001 02 67 00")
	checkGolden(t, 0, &AddOffsetsToTxnResponse{ErrorCode: 90}, new(AddOffsetsToTxnResponse), "00000000 005a")
	checkGolden(t, 4, &AddOffsetsToTxnResponse{ErrorCode: 90}, new(AddOffsetsToTxnResponse), "00000000 005a 00")

	ap := &AddPartitionsToTxnRequest{TransactionalID: "t", ProducerID: 5, ProducerEpoch: 1,
		Topics: []AddPartitionsToTxnTopic{{Name: "a", Partitions: []int32{0, 2}}}}
	checkGolden(t, 0, ap, new(AddPartitionsToTxnRequest), "0001 74 0000000000000005 0001 00000001 0001 61 00000002 00000000 00000002")
	checkGolden(t, 3, ap, new(AddPartitionsToTxnRequest), "02 74 0000000000000005 0001 02 02 61 03 00000000 00000002 00 00")
	apr := &AddPartitionsToTxnResponse{ResultsByTopic: []AddPartitionsToTxnTopicResult{{Name: "a",
		ResultsByPartition: []AddPartitionsToTxnPartitionResult{{PartitionIndex: 2, PartitionErrorCode: 51}}}}}
	checkGolden(t, 0, apr, new(AddPartitionsToTxnResponse), "00000000 00000001 0001 61 00000001 00000002 0033")
	checkGolden(t, 3, apr, new(AddPartitionsToTxnResponse), "00000000 02 02 61 02 00000002 0033 00 00 00")
	checkGolden(t, 4, &AddPartitionsToTxnRequest{Transactions: []AddPartitionsToTxnTransaction{{TransactionalID: "t", ProducerID: 5, ProducerEpoch: 1,
		VerifyOnly: true, Topics: []AddPartitionsToTxnTopic{{Name: "a", Partitions: []int32{1}}}}}}, new(AddPartitionsToTxnRequest),
		"02 02 74 0000000000000005 0001 01 02 02 61 02 00000001 00 00 00")
	checkGolden(t, 5, &AddPartitionsToTxnResponse{ResultsByTransaction: []AddPartitionsToTxnResult{{TransactionalID: "t",
		TopicResults: []AddPartitionsToTxnTopicResult{{Name: "a", ResultsByPartition: []AddPartitionsToTxnPartitionResult{{PartitionIndex: 1, PartitionErrorCode: 120}}}}}}},
		new(AddPartitionsToTxnResponse), "00000000 0000 02 02 74 02 02 61 02 00000001 0078 00 00 00 00")

	toc := func(v int16) *TxnOffsetCommitRequest {
		m := &TxnOffsetCommitRequest{TransactionalID: "t", GroupID: "g", ProducerID: 5, ProducerEpoch: 1, GenerationIDOrMemberEpoch: -1}
		if v >= 3 {
			m.GenerationIDOrMemberEpoch, m.MemberID, m.GroupInstanceID = 7, "m", ptr("i")
		}
		tp := TxnOffsetCommitTopic{Partitions: []TxnOffsetCommitPartition{{PartitionIndex: 1, CommittedOffset: 2, CommittedLeaderEpoch: -1, CommittedMetadata: ptr("x")}}}
		if v >= 2 {
			tp.Partitions[0].CommittedLeaderEpoch = 3
		}
		if v >= 6 {
			tp.TopicID = UUID{15: 1}
		} else {
			tp.Name = "a"
		}
		m.Topics = []TxnOffsetCommitTopic{tp}
		return m
	}
	checkGolden(t, 0, toc(0), new(TxnOffsetCommitRequest), "0001 74 0001 67 0000000000000005 0001 00000001 0001 61 00000001 00000001 0000000000000002 0001 78")
	checkGolden(t, 2, toc(2), new(TxnOffsetCommitRequest), "0001 74 0001 67 0000000000000005 0001 00000001 0001 61 00000001 00000001 0000000000000002 00000003 0001 78")
	checkGolden(t, 3, toc(3), new(TxnOffsetCommitRequest), "02 74 02 67 0000000000000005 0001 00000007 02 6d 02 69 02 02 61 02 00000001 0000000000000002 00000003 02 78 00 00 00")
	checkGolden(t, 5, toc(5), new(TxnOffsetCommitRequest), "02 74 02 67 0000000000000005 0001 00000007 02 6d 02 69 02 02 61 02 00000001 0000000000000002 00000003 02 78 00 00 00")
	checkGolden(t, 6, toc(6), new(TxnOffsetCommitRequest),
		"02 74 02 67 0000000000000005 0001 00000007 02 6d 02 69 02 00000000000000000000000000000001 02 00000001 0000000000000002 00000003 02 78 00 00 00")
	tocr := func(v int16) *TxnOffsetCommitResponse {
		tp := TxnOffsetCommitTopicResult{Partitions: []TxnOffsetCommitPartitionResult{{PartitionIndex: 1, ErrorCode: 22}}}
		if v >= 6 {
			tp.TopicID = UUID{15: 1}
		} else {
			tp.Name = "a"
		}
		return &TxnOffsetCommitResponse{Topics: []TxnOffsetCommitTopicResult{tp}}
	}
	checkGolden(t, 0, tocr(0), new(TxnOffsetCommitResponse), "00000000 00000001 0001 61 00000001 00000001 0016")
	checkGolden(t, 3, tocr(3), new(TxnOffsetCommitResponse), "00000000 02 02 61 02 00000001 0016 00 00 00")
	checkGolden(t, 6, tocr(6), new(TxnOffsetCommitResponse), "00000000 02 00000000000000000000000000000001 02 00000001 0016 00 00 00")
}

func fuzzTxn(f *testing.F, key APIKey, request bool) {
	for _, c := range txnCases {
		if c.key != key {
			continue
		}
		info, _ := LookupAPI(key)
		var seeds [][]byte
		for v := info.MinVersion; v <= info.MaxVersion; v++ {
			if request {
				seeds = append(seeds, c.req(v).AppendTo(nil, v))
			} else {
				seeds = append(seeds, c.resp(v).AppendTo(nil, v))
			}
		}
		if request {
			fuzzDecoder(f, key, c.newReq, seeds...)
		} else {
			fuzzDecoder(f, key, c.newResp, seeds...)
		}
		return
	}
	f.Fatalf("no case for key %d", key)
}

func FuzzAddPartitionsToTxnResponse(f *testing.F) { fuzzTxn(f, KeyAddPartitionsToTxn, false) }
func FuzzAddPartitionsToTxnRequest(f *testing.F)  { fuzzTxn(f, KeyAddPartitionsToTxn, true) }
func FuzzAddOffsetsToTxnResponse(f *testing.F)    { fuzzTxn(f, KeyAddOffsetsToTxn, false) }
func FuzzEndTxnResponse(f *testing.F)             { fuzzTxn(f, KeyEndTxn, false) }
func FuzzEndTxnRequest(f *testing.F)              { fuzzTxn(f, KeyEndTxn, true) }
func FuzzTxnOffsetCommitResponse(f *testing.F)    { fuzzTxn(f, KeyTxnOffsetCommit, false) }
func FuzzTxnOffsetCommitRequest(f *testing.F)     { fuzzTxn(f, KeyTxnOffsetCommit, true) }
