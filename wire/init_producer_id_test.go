package wire

import "testing"

func sampleInitProducerIdRequest(v int16) *InitProducerIdRequest {
	m := &InitProducerIdRequest{TransactionalID: ptr("txn-1"), TransactionTimeoutMs: 60000, ProducerID: -1, ProducerEpoch: -1}
	if v >= 2 {
		m.UnknownTags = []TaggedField{{Tag: 6, Data: []byte{1}}}
	}
	if v >= 3 {
		m.ProducerID, m.ProducerEpoch = 4000, 7
	}
	return m
}

func sampleInitProducerIdResponse(v int16) *InitProducerIdResponse {
	m := &InitProducerIdResponse{ThrottleTimeMs: 3, ErrorCode: 0, ProducerID: 4001, ProducerEpoch: 0}
	if v >= 2 {
		m.UnknownTags = []TaggedField{{Tag: 8, Data: []byte("x")}}
	}
	return m
}

func TestInitProducerIdRoundTrip(t *testing.T) {
	forVersions(t, KeyInitProducerId, func(t *testing.T, v int16) {
		checkRoundTrip(t, v, sampleInitProducerIdRequest(v), func() codec { return new(InitProducerIdRequest) })
		checkRoundTrip(t, v, sampleInitProducerIdResponse(v), func() codec { return new(InitProducerIdResponse) })
		checkRoundTrip(t, v, &InitProducerIdRequest{ProducerID: -1, ProducerEpoch: -1}, func() codec { return new(InitProducerIdRequest) })
	})
}

func TestInitProducerIdGolden(t *testing.T) {
	checkGolden(t, 0, &InitProducerIdRequest{TransactionTimeoutMs: 60000, ProducerID: -1, ProducerEpoch: -1}, new(InitProducerIdRequest), "ffff 0000ea60")
	checkGolden(t, 4, &InitProducerIdRequest{TransactionalID: ptr("t"), TransactionTimeoutMs: 60000, ProducerID: -1, ProducerEpoch: -1}, new(InitProducerIdRequest),
		"02 74 | 0000ea60 | ffffffffffffffff | ffff | 00")
	checkGolden(t, 0, &InitProducerIdResponse{ProducerID: 5, ProducerEpoch: 1}, new(InitProducerIdResponse), "00000000 0000 0000000000000005 0001")
	checkGolden(t, 5, &InitProducerIdResponse{ErrorCode: 90, ProducerID: -1, ProducerEpoch: -1}, new(InitProducerIdResponse), "00000000 005a ffffffffffffffff ffff 00")
}

func FuzzInitProducerIdResponse(f *testing.F) {
	fuzzDecoder(f, KeyInitProducerId, func() codec { return new(InitProducerIdResponse) },
		sampleInitProducerIdResponse(5).AppendTo(nil, 5), sampleInitProducerIdResponse(0).AppendTo(nil, 0))
}
