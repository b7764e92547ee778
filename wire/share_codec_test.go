package wire

import (
	"reflect"
	"testing"
)

var shareCases = []adminCase{
	{KeyShareGroupHeartbeat, func(v int16) codec { return sampleShareGroupHeartbeatRequest(v) }, func(v int16) codec { return sampleShareGroupHeartbeatResponse(v) },
		func() codec { return new(ShareGroupHeartbeatRequest) }, func() codec { return new(ShareGroupHeartbeatResponse) }},
	{KeyShareGroupDescribe, func(v int16) codec { return sampleShareGroupDescribeRequest(v) }, func(v int16) codec { return sampleShareGroupDescribeResponse(v) },
		func() codec { return new(ShareGroupDescribeRequest) }, func() codec { return new(ShareGroupDescribeResponse) }},
	{KeyShareFetch, func(v int16) codec { return sampleShareFetchRequest(v) }, func(v int16) codec { return sampleShareFetchResponse(v) },
		func() codec { return new(ShareFetchRequest) }, func() codec { return new(ShareFetchResponse) }},
	{KeyShareAcknowledge, func(v int16) codec { return sampleShareAcknowledgeRequest(v) }, func(v int16) codec { return sampleShareAcknowledgeResponse(v) },
		func() codec { return new(ShareAcknowledgeRequest) }, func() codec { return new(ShareAcknowledgeResponse) }},
	{KeyDescribeShareGroupOffsets, func(v int16) codec { return sampleDescribeShareGroupOffsetsRequest(v) }, func(v int16) codec { return sampleDescribeShareGroupOffsetsResponse(v) },
		func() codec { return new(DescribeShareGroupOffsetsRequest) }, func() codec { return new(DescribeShareGroupOffsetsResponse) }},
	{KeyAlterShareGroupOffsets, func(v int16) codec { return sampleAlterShareGroupOffsetsRequest(v) }, func(v int16) codec { return sampleAlterShareGroupOffsetsResponse(v) },
		func() codec { return new(AlterShareGroupOffsetsRequest) }, func() codec { return new(AlterShareGroupOffsetsResponse) }},
	{KeyDeleteShareGroupOffsets, func(v int16) codec { return sampleDeleteShareGroupOffsetsRequest(v) }, func(v int16) codec { return sampleDeleteShareGroupOffsetsResponse(v) },
		func() codec { return new(DeleteShareGroupOffsetsRequest) }, func() codec { return new(DeleteShareGroupOffsetsResponse) }},
}

// TestShareRoundTrip encodes every share sample at every implemented version,
// decodes it back exactly, re-encodes byte-identically, and checks that every
// truncation fails cleanly.
func TestShareRoundTrip(t *testing.T) {
	for _, c := range shareCases {
		info, _ := LookupAPI(c.key)
		t.Run(info.Name, func(t *testing.T) {
			forVersions(t, c.key, func(t *testing.T, v int16) {
				checkRoundTrip(t, v, c.req(v), c.newReq)
				checkRoundTrip(t, v, c.resp(v), c.newResp)
			})
		})
	}
}

// TestShareKeysAndPairs checks Key and ResponseFor agree with the table and
// that every share API has a case.
func TestShareKeysAndPairs(t *testing.T) {
	for _, c := range shareCases {
		req := c.newReq().(RequestDecoder)
		if _, ok := c.newResp().(ResponseEncoder); !ok {
			t.Fatalf("%d: response is not a ResponseEncoder", c.key)
		}
		if req.Key() != c.key || req.ResponseFor().Key() != c.key {
			t.Fatalf("%d: keys %d/%d", c.key, req.Key(), req.ResponseFor().Key())
		}
		if reflect.TypeOf(req.ResponseFor()) != reflect.TypeOf(c.newResp()) {
			t.Fatalf("%d: ResponseFor returns %T", c.key, req.ResponseFor())
		}
	}
	if len(shareAPIs) != len(shareCases) {
		t.Fatalf("%d share APIs, %d cases", len(shareAPIs), len(shareCases))
	}
}

// TestShareNullVersusEmpty pins the nullable arrays of the share APIs: a null
// subscription means "unchanged" and null topics in DescribeShareGroupOffsets
// mean "all topics"; an absent heartbeat assignment stays nil.
func TestShareNullVersusEmpty(t *testing.T) {
	for _, subs := range [][]string{nil, {}} {
		var got ShareGroupHeartbeatRequest
		m := &ShareGroupHeartbeatRequest{GroupID: "g", MemberID: "m", SubscribedTopicNames: subs}
		if err := got.DecodeFrom(NewReader(m.AppendTo(nil, 1)), 1); err != nil {
			t.Fatal(err)
		}
		if (got.SubscribedTopicNames == nil) != (subs == nil) {
			t.Fatalf("subscription %#v decoded as %#v", subs, got.SubscribedTopicNames)
		}
	}
	for _, topics := range [][]DescribeShareGroupOffsetsTopic{nil, {}} {
		var got DescribeShareGroupOffsetsRequest
		m := &DescribeShareGroupOffsetsRequest{Groups: []DescribeShareGroupOffsetsGroup{{GroupID: "g", Topics: topics}}}
		if err := got.DecodeFrom(NewReader(m.AppendTo(nil, 0)), 0); err != nil {
			t.Fatal(err)
		}
		if (got.Groups[0].Topics == nil) != (topics == nil) {
			t.Fatalf("topics %#v decoded as %#v", topics, got.Groups[0].Topics)
		}
	}
	var hb ShareGroupHeartbeatResponse
	if err := hb.DecodeFrom(NewReader((&ShareGroupHeartbeatResponse{}).AppendTo(nil, 1)), 1); err != nil || hb.Assignment != nil {
		t.Fatalf("absent assignment: %v %+v", err, hb.Assignment)
	}
	// A presence byte other than -1 or 1 is malformed.
	b := (&ShareGroupHeartbeatResponse{}).AppendTo(nil, 1)
	b[len(b)-2] = 7
	if err := new(ShareGroupHeartbeatResponse).DecodeFrom(NewReader(b), 1); err == nil {
		t.Fatal("assignment presence byte 7 decoded without error")
	}
}

// TestShareAckTypesBounded: an acknowledge-types array longer than the bytes
// left fails before allocating.
func TestShareAckTypesBounded(t *testing.T) {
	// one topic, one partition, one batch whose type array claims 2^31 entries
	b := unhex(t, "02 00000000000000000000000000000001 02 00000000 02 0000000000000000 0000000000000001 ffffffff07")
	r := NewReader(b)
	readAckTopicsForTest(r)
	if r.Err() == nil {
		t.Fatal("huge acknowledge-types length decoded without error")
	}
}

func readAckTopicsForTest(r *Reader) {
	ReadArray(r, true, 18, func(r *Reader, t *ShareAcknowledgeTopic) {
		t.TopicID = r.UUID()
		t.Partitions = ReadArray(r, true, 6, func(r *Reader, p *ShareAcknowledgePartition) {
			p.PartitionIndex = r.Int32()
			p.AcknowledgementBatches = readAckBatches(r)
		})
	})
}

func fuzzShare(f *testing.F, key APIKey, request bool) {
	for _, c := range shareCases {
		if c.key != key {
			continue
		}
		info, _ := LookupAPI(key)
		var seeds [][]byte
		newMsg := c.newResp
		for v := info.MinVersion; v <= info.MaxVersion; v++ {
			if request {
				seeds = append(seeds, c.req(v).AppendTo(nil, v))
				newMsg = c.newReq
			} else {
				seeds = append(seeds, c.resp(v).AppendTo(nil, v))
			}
		}
		fuzzDecoder(f, key, newMsg, seeds...)
		return
	}
	f.Fatalf("no case for key %d", key)
}

func FuzzShareGroupHeartbeatResponse(f *testing.F) { fuzzShare(f, KeyShareGroupHeartbeat, false) }
func FuzzShareGroupDescribeResponse(f *testing.F)  { fuzzShare(f, KeyShareGroupDescribe, false) }
func FuzzShareFetchResponse(f *testing.F)          { fuzzShare(f, KeyShareFetch, false) }
func FuzzShareAcknowledgeResponse(f *testing.F)    { fuzzShare(f, KeyShareAcknowledge, false) }
func FuzzDescribeShareGroupOffsetsResponse(f *testing.F) {
	fuzzShare(f, KeyDescribeShareGroupOffsets, false)
}
func FuzzAlterShareGroupOffsetsResponse(f *testing.F) { fuzzShare(f, KeyAlterShareGroupOffsets, false) }
func FuzzDeleteShareGroupOffsetsResponse(f *testing.F) {
	fuzzShare(f, KeyDeleteShareGroupOffsets, false)
}
func FuzzShareFetchRequest(f *testing.F)          { fuzzShare(f, KeyShareFetch, true) }
func FuzzShareAcknowledgeRequest(f *testing.F)    { fuzzShare(f, KeyShareAcknowledge, true) }
func FuzzShareGroupHeartbeatRequest(f *testing.F) { fuzzShare(f, KeyShareGroupHeartbeat, true) }
