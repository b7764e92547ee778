package wire

import (
	"bytes"
	"reflect"
	"testing"
)

// adminCase ties an API to its sample builders and empty constructors.
type adminCase struct {
	key     APIKey
	req     func(v int16) codec
	resp    func(v int16) codec
	newReq  func() codec
	newResp func() codec
}

var adminCases = []adminCase{
	{KeyCreateTopics, func(v int16) codec { return sampleCreateTopicsRequest(v) }, func(v int16) codec { return sampleCreateTopicsResponse(v) },
		func() codec { return new(CreateTopicsRequest) }, func() codec { return new(CreateTopicsResponse) }},
	{KeyDeleteTopics, func(v int16) codec { return sampleDeleteTopicsRequest(v) }, func(v int16) codec { return sampleDeleteTopicsResponse(v) },
		func() codec { return new(DeleteTopicsRequest) }, func() codec { return new(DeleteTopicsResponse) }},
	{KeyCreatePartitions, func(v int16) codec { return sampleCreatePartitionsRequest(v) }, func(v int16) codec { return sampleCreatePartitionsResponse(v) },
		func() codec { return new(CreatePartitionsRequest) }, func() codec { return new(CreatePartitionsResponse) }},
	{KeyDeleteRecords, func(v int16) codec { return sampleDeleteRecordsRequest(v) }, func(v int16) codec { return sampleDeleteRecordsResponse(v) },
		func() codec { return new(DeleteRecordsRequest) }, func() codec { return new(DeleteRecordsResponse) }},
	{KeyDescribeConfigs, func(v int16) codec { return sampleDescribeConfigsRequest(v) }, func(v int16) codec { return sampleDescribeConfigsResponse(v) },
		func() codec { return new(DescribeConfigsRequest) }, func() codec { return new(DescribeConfigsResponse) }},
	{KeyIncrementalAlterConfigs, func(v int16) codec { return sampleIncrementalAlterConfigsRequest(v) }, func(v int16) codec { return sampleIncrementalAlterConfigsResponse(v) },
		func() codec { return new(IncrementalAlterConfigsRequest) }, func() codec { return new(IncrementalAlterConfigsResponse) }},
	{KeyDescribeCluster, func(v int16) codec { return sampleDescribeClusterRequest(v) }, func(v int16) codec { return sampleDescribeClusterResponse(v) },
		func() codec { return new(DescribeClusterRequest) }, func() codec { return new(DescribeClusterResponse) }},
	{KeyListGroups, func(v int16) codec { return sampleListGroupsRequest(v) }, func(v int16) codec { return sampleListGroupsResponse(v) },
		func() codec { return new(ListGroupsRequest) }, func() codec { return new(ListGroupsResponse) }},
	{KeyDescribeGroups, func(v int16) codec { return sampleDescribeGroupsRequest(v) }, func(v int16) codec { return sampleDescribeGroupsResponse(v) },
		func() codec { return new(DescribeGroupsRequest) }, func() codec { return new(DescribeGroupsResponse) }},
	{KeyDeleteGroups, func(v int16) codec { return sampleDeleteGroupsRequest(v) }, func(v int16) codec { return sampleDeleteGroupsResponse(v) },
		func() codec { return new(DeleteGroupsRequest) }, func() codec { return new(DeleteGroupsResponse) }},
	{KeyOffsetCommit, func(v int16) codec { return sampleOffsetCommitRequest(v) }, func(v int16) codec { return sampleOffsetCommitResponse(v) },
		func() codec { return new(OffsetCommitRequest) }, func() codec { return new(OffsetCommitResponse) }},
	{KeyOffsetFetch, func(v int16) codec { return sampleOffsetFetchRequest(v) }, func(v int16) codec { return sampleOffsetFetchResponse(v) },
		func() codec { return new(OffsetFetchRequest) }, func() codec { return new(OffsetFetchResponse) }},
	{KeyOffsetDelete, func(v int16) codec { return sampleOffsetDeleteRequest(v) }, func(v int16) codec { return sampleOffsetDeleteResponse(v) },
		func() codec { return new(OffsetDeleteRequest) }, func() codec { return new(OffsetDeleteResponse) }},
	{KeyConsumerGroupDescribe, func(v int16) codec { return sampleConsumerGroupDescribeRequest(v) }, func(v int16) codec { return sampleConsumerGroupDescribeResponse(v) },
		func() codec { return new(ConsumerGroupDescribeRequest) }, func() codec { return new(ConsumerGroupDescribeResponse) }},
}

// TestAdminRoundTrip encodes every sample at every implemented version,
// decodes it back exactly, re-encodes byte-identically, and checks that every
// truncation fails cleanly.
func TestAdminRoundTrip(t *testing.T) {
	for _, c := range adminCases {
		info, _ := LookupAPI(c.key)
		t.Run(info.Name, func(t *testing.T) {
			forVersions(t, c.key, func(t *testing.T, v int16) {
				checkRoundTrip(t, v, c.req(v), c.newReq)
				checkRoundTrip(t, v, c.resp(v), c.newResp)
			})
		})
	}
}

// TestAdminKeysAndPairs checks Key and ResponseFor agree with the table.
func TestAdminKeysAndPairs(t *testing.T) {
	for _, c := range adminCases {
		req, ok := c.newReq().(Request)
		if !ok {
			t.Fatalf("%d: request type does not implement Request", c.key)
		}
		if _, ok := c.newReq().(RequestDecoder); !ok {
			t.Fatalf("%d: request is not a RequestDecoder", c.key)
		}
		if _, ok := c.newResp().(ResponseEncoder); !ok {
			t.Fatalf("%d: response is not a ResponseEncoder", c.key)
		}
		if req.Key() != c.key || req.ResponseFor().Key() != c.key {
			t.Fatalf("%d: keys %d/%d", c.key, req.Key(), req.ResponseFor().Key())
		}
		if reflect.TypeOf(req.ResponseFor()) != reflect.TypeOf(c.newResp()) {
			t.Fatalf("%d: ResponseFor returns %T", c.key, req.ResponseFor())
		}
		if _, ok := LookupAPI(c.key); !ok {
			t.Fatalf("%d: not in the API table", c.key)
		}
	}
	for _, a := range adminAPIs {
		found := false
		for _, c := range adminCases {
			found = found || c.key == a.Key
		}
		if !found {
			t.Errorf("%s has no test case", a.Name)
		}
	}
}

// TestAdminNullVersusEmpty pins that nullable arrays and strings keep null
// apart from empty in both directions.
func TestAdminNullVersusEmpty(t *testing.T) {
	// DescribeConfigs: null keys = all keys, empty = none.
	for _, v := range []int16{1, 4} {
		for _, keys := range [][]string{nil, {}} {
			m := &DescribeConfigsRequest{Resources: []DescribeConfigsResource{{ResourceType: 2, ResourceName: "t", ConfigurationKeys: keys}}}
			var got DescribeConfigsRequest
			if err := got.DecodeFrom(NewReader(m.AppendTo(nil, v)), v); err != nil {
				t.Fatal(err)
			}
			if (got.Resources[0].ConfigurationKeys == nil) != (keys == nil) {
				t.Fatalf("v%d: keys %#v decoded as %#v", v, keys, got.Resources[0].ConfigurationKeys)
			}
		}
	}
	// OffsetFetch: null topics = all topics (v2-7 and per group v8+).
	for _, v := range []int16{2, 7, 8, 10} {
		for _, topics := range [][]OffsetFetchRequestTopic{nil, {}} {
			m := &OffsetFetchRequest{GroupID: "g", Topics: topics, Groups: []OffsetFetchRequestGroup{{GroupID: "g", Topics: topics}}}
			var got OffsetFetchRequest
			if err := got.DecodeFrom(NewReader(m.AppendTo(nil, v)), v); err != nil {
				t.Fatal(err)
			}
			gt := got.Topics
			if v >= 8 {
				gt = got.Groups[0].Topics
			}
			if (gt == nil) != (topics == nil) {
				t.Fatalf("v%d: topics %#v decoded as %#v", v, topics, gt)
			}
		}
	}
	// CreatePartitions: null assignments vs empty.
	for _, v := range []int16{0, 3} {
		for _, as := range [][]CreatePartitionsAssignment{nil, {}} {
			m := &CreatePartitionsRequest{Topics: []CreatePartitionsTopic{{Name: "t", Count: 2, Assignments: as}}}
			var got CreatePartitionsRequest
			if err := got.DecodeFrom(NewReader(m.AppendTo(nil, v)), v); err != nil {
				t.Fatal(err)
			}
			if (got.Topics[0].Assignments == nil) != (as == nil) {
				t.Fatalf("v%d: assignments %#v decoded as %#v", v, as, got.Topics[0].Assignments)
			}
		}
	}
	// Nullable strings: null vs "" in a config value and an error message.
	for _, val := range []*string{nil, ptr("")} {
		m := &IncrementalAlterConfigsRequest{Resources: []IncrementalAlterConfigsResource{{ResourceType: 2, ResourceName: "t", Configs: []IncrementalAlterConfigsConfig{{Name: "k", Value: val}}}}}
		for _, v := range []int16{0, 1} {
			var got IncrementalAlterConfigsRequest
			if err := got.DecodeFrom(NewReader(m.AppendTo(nil, v)), v); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Resources[0].Configs[0].Value, val) {
				t.Fatalf("v%d: value %v decoded as %v", v, val, got.Resources[0].Configs[0].Value)
			}
		}
	}
	// Null in a non-nullable position is an error, not a panic or "".
	bad := unhex(t, "00000001 | 02 ffff | 00000000 | 00") // DescribeConfigs v1, null resource name
	if err := new(DescribeConfigsRequest).DecodeFrom(NewReader(bad), 1); err == nil {
		t.Fatal("null resource name decoded without error")
	}
}

// TestCreateTopicsTaggedConfigErrorCode checks the one known tagged field of
// the admin APIs (CreateTopicsResponse TopicConfigErrorCode, tag 0) is
// decoded into its field, written back in tag order before unknown tags, and
// omitted when zero.
func TestCreateTopicsTaggedConfigErrorCode(t *testing.T) {
	m := &CreateTopicsResponse{Topics: []CreateTopicsTopicResult{{Name: "a", NumPartitions: 1, ReplicationFactor: 1, TopicConfigErrorCode: 29,
		UnknownTags: []TaggedField{{Tag: 3, Data: []byte{7}}}}}}
	b := m.AppendTo(nil, 5)
	want := unhex(t, "00000000 | 02 | 02 61 | 0000 | 00 | 00000001 | 0001 | 00 | 02 00 02 001d 03 01 07 | 00")
	if !bytes.Equal(b, want) {
		t.Fatalf("got  %x\nwant %x", b, want)
	}
	m.Topics[0].TopicConfigErrorCode = 0
	m.Topics[0].UnknownTags = nil
	b = m.AppendTo(nil, 5)
	want = unhex(t, "00000000 | 02 | 02 61 | 0000 | 00 | 00000001 | 0001 | 00 | 00 | 00")
	if !bytes.Equal(b, want) {
		t.Fatalf("zero code: got %x\nwant %x", b, want)
	}
}

func fuzzAdminResponse(f *testing.F, key APIKey) {
	for _, c := range adminCases {
		if c.key != key {
			continue
		}
		info, _ := LookupAPI(key)
		var seeds [][]byte
		for v := info.MinVersion; v <= info.MaxVersion; v++ {
			seeds = append(seeds, c.resp(v).AppendTo(nil, v))
		}
		fuzzDecoder(f, key, c.newResp, seeds...)
		return
	}
	f.Fatalf("no case for key %d", key)
}

func fuzzAdminRequest(f *testing.F, key APIKey) {
	for _, c := range adminCases {
		if c.key != key {
			continue
		}
		info, _ := LookupAPI(key)
		fuzzDecoder(f, key, c.newReq, c.req(info.MaxVersion).AppendTo(nil, info.MaxVersion), c.req(info.MinVersion).AppendTo(nil, info.MinVersion))
		return
	}
	f.Fatalf("no case for key %d", key)
}

func FuzzCreateTopicsResponse(f *testing.F)     { fuzzAdminResponse(f, KeyCreateTopics) }
func FuzzDeleteTopicsResponse(f *testing.F)     { fuzzAdminResponse(f, KeyDeleteTopics) }
func FuzzCreatePartitionsResponse(f *testing.F) { fuzzAdminResponse(f, KeyCreatePartitions) }
func FuzzDeleteRecordsResponse(f *testing.F)    { fuzzAdminResponse(f, KeyDeleteRecords) }
func FuzzDescribeConfigsResponse(f *testing.F)  { fuzzAdminResponse(f, KeyDescribeConfigs) }
func FuzzIncrementalAlterConfigsResponse(f *testing.F) {
	fuzzAdminResponse(f, KeyIncrementalAlterConfigs)
}
func FuzzDescribeClusterResponse(f *testing.F)       { fuzzAdminResponse(f, KeyDescribeCluster) }
func FuzzListGroupsResponse(f *testing.F)            { fuzzAdminResponse(f, KeyListGroups) }
func FuzzDescribeGroupsResponse(f *testing.F)        { fuzzAdminResponse(f, KeyDescribeGroups) }
func FuzzDeleteGroupsResponse(f *testing.F)          { fuzzAdminResponse(f, KeyDeleteGroups) }
func FuzzOffsetCommitResponse(f *testing.F)          { fuzzAdminResponse(f, KeyOffsetCommit) }
func FuzzOffsetFetchResponse(f *testing.F)           { fuzzAdminResponse(f, KeyOffsetFetch) }
func FuzzOffsetDeleteResponse(f *testing.F)          { fuzzAdminResponse(f, KeyOffsetDelete) }
func FuzzConsumerGroupDescribeResponse(f *testing.F) { fuzzAdminResponse(f, KeyConsumerGroupDescribe) }

func FuzzCreateTopicsRequest(f *testing.F)    { fuzzAdminRequest(f, KeyCreateTopics) }
func FuzzOffsetFetchRequest(f *testing.F)     { fuzzAdminRequest(f, KeyOffsetFetch) }
func FuzzOffsetCommitRequest(f *testing.F)    { fuzzAdminRequest(f, KeyOffsetCommit) }
func FuzzDescribeConfigsRequest(f *testing.F) { fuzzAdminRequest(f, KeyDescribeConfigs) }
