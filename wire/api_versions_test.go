package wire

import (
	"reflect"
	"testing"
)

func sampleApiVersionsRequest(v int16) *ApiVersionsRequest {
	m := &ApiVersionsRequest{NodeID: -1}
	if v >= 3 {
		m.ClientSoftwareName = "gregor"
		m.ClientSoftwareVersion = "0.1.0"
		m.UnknownTags = []TaggedField{{Tag: 9, Data: []byte{1, 2}}}
	}
	if v >= 5 {
		m.ClusterID = ptr("clusterA")
		m.NodeID = 3
	}
	return m
}

func sampleApiVersionsResponse(v int16) *ApiVersionsResponse {
	m := &ApiVersionsResponse{
		ErrorCode:              0,
		ApiKeys:                []ApiVersionsResponseKey{{ApiKey: 0, MinVersion: 3, MaxVersion: 13}, {ApiKey: 18, MinVersion: 0, MaxVersion: 5}},
		FinalizedFeaturesEpoch: -1,
	}
	if v >= 1 {
		m.ThrottleTimeMs = 17
	}
	if v >= 3 {
		m.ApiKeys[1].UnknownTags = []TaggedField{{Tag: 4, Data: []byte{9}}}
		m.SupportedFeatures = []ApiVersionsSupportedFeature{{Name: "metadata.version", MinVersion: 7, MaxVersion: 27}, {Name: "kraft.version", MinVersion: 0, MaxVersion: 1, UnknownTags: []TaggedField{{Tag: 0, Data: []byte{}}}}}
		m.FinalizedFeaturesEpoch = 1234
		m.FinalizedFeatures = []ApiVersionsFinalizedFeature{{Name: "metadata.version", MaxVersionLevel: 27, MinVersionLevel: 27}}
		m.ZkMigrationReady = true
		m.UnknownTags = []TaggedField{{Tag: 10, Data: []byte("x")}}
	}
	return m
}

func TestApiVersionsRoundTrip(t *testing.T) {
	forVersions(t, KeyApiVersions, func(t *testing.T, v int16) {
		checkRoundTrip(t, v, sampleApiVersionsRequest(v), func() codec { return new(ApiVersionsRequest) })
		checkRoundTrip(t, v, sampleApiVersionsResponse(v), func() codec { return new(ApiVersionsResponse) })
		// Defaults: an empty message round-trips too.
		checkRoundTrip(t, v, &ApiVersionsRequest{NodeID: -1}, func() codec { return new(ApiVersionsRequest) })
	})
}

func TestApiVersionsGolden(t *testing.T) {
	// v0 request is empty; v3 request: two compact strings and no tags.
	checkGolden(t, 0, &ApiVersionsRequest{NodeID: -1}, new(ApiVersionsRequest), "")
	checkGolden(t, 3, &ApiVersionsRequest{ClientSoftwareName: "go", ClientSoftwareVersion: "1", NodeID: -1}, new(ApiVersionsRequest),
		"03 676f | 02 31 | 00")
	checkGolden(t, 5, &ApiVersionsRequest{ClientSoftwareName: "go", ClientSoftwareVersion: "1", ClusterID: ptr("c"), NodeID: 2}, new(ApiVersionsRequest),
		"03 676f | 02 31 | 02 63 | 00000002 | 00")
	// v0 response: error, int32 count, one key.
	checkGolden(t, 0, &ApiVersionsResponse{ApiKeys: []ApiVersionsResponseKey{{ApiKey: 18, MinVersion: 0, MaxVersion: 4}}, FinalizedFeaturesEpoch: -1},
		new(ApiVersionsResponse), "0000 | 00000001 | 0012 0000 0004")
}

// TestApiVersionsV3UnknownTags decodes a v3 response whose top-level tag
// section mixes a known tag (1, FinalizedFeaturesEpoch) with unknown tags 7
// and 12, and whose api key entry carries unknown tag 5; all unknown tags are
// kept and re-encoded in order.
func TestApiVersionsV3UnknownTags(t *testing.T) {
	in := unhex(t, "0000 | 02 | 0012 0000 0004 | 01 05 02 aabb | 00000000 |"+
		"03 | 01 08 0000000000000005 | 07 02 6162 | 0c 00")
	var m ApiVersionsResponse
	r := NewReader(in)
	if err := m.DecodeFrom(r, 3); err != nil {
		t.Fatal(err)
	}
	if err := r.Complete(); err != nil {
		t.Fatal(err)
	}
	if m.FinalizedFeaturesEpoch != 5 {
		t.Errorf("FinalizedFeaturesEpoch = %d, want 5", m.FinalizedFeaturesEpoch)
	}
	if len(m.UnknownTags) != 2 || m.UnknownTags[0].Tag != 7 || string(m.UnknownTags[0].Data) != "ab" || m.UnknownTags[1].Tag != 12 || len(m.UnknownTags[1].Data) != 0 {
		t.Errorf("UnknownTags = %+v", m.UnknownTags)
	}
	if k := m.ApiKeys[0]; len(k.UnknownTags) != 1 || k.UnknownTags[0].Tag != 5 || string(k.UnknownTags[0].Data) != "\xaa\xbb" {
		t.Errorf("key UnknownTags = %+v", k.UnknownTags)
	}
	if out := m.AppendTo(nil, 3); string(out) != string(in) {
		t.Errorf("re-encode:\n got %x\nwant %x", out, in)
	}
}

// TestApiVersionsUnsupportedVersionV0Body: a broker that does not know the
// requested version answers error 35 in the v0 body format (no throttle
// time, no tags, int32 array length), whatever version was asked.
func TestApiVersionsUnsupportedVersionV0Body(t *testing.T) {
	in := unhex(t, "0023 | 00000001 | 0012 0000 0003")
	for v := int16(0); v <= 5; v++ {
		var m ApiVersionsResponse
		r := NewReader(in)
		if err := m.DecodeFrom(r, v); err != nil {
			t.Fatalf("v%d: %v", v, err)
		}
		if err := r.Complete(); err != nil {
			t.Fatalf("v%d: %v", v, err)
		}
		if m.ErrorCode != 35 || len(m.ApiKeys) != 1 || !reflect.DeepEqual(m.ApiKeys[0], ApiVersionsResponseKey{ApiKey: KeyApiVersions, MaxVersion: 3}) {
			t.Fatalf("v%d: got %+v", v, m)
		}
		if out := m.AppendTo(nil, v); string(out) != string(in) {
			t.Fatalf("v%d re-encode: %x", v, out)
		}
	}
}

func FuzzApiVersionsResponse(f *testing.F) {
	seed := sampleApiVersionsResponse(3).AppendTo(nil, 3)
	fuzzDecoder(f, KeyApiVersions, func() codec { return new(ApiVersionsResponse) },
		seed, sampleApiVersionsResponse(0).AppendTo(nil, 0), []byte{0, 0x23, 0, 0, 0, 1, 0, 18, 0, 0, 0, 3})
}

func FuzzApiVersionsRequest(f *testing.F) {
	fuzzDecoder(f, KeyApiVersions, func() codec { return new(ApiVersionsRequest) }, sampleApiVersionsRequest(5).AppendTo(nil, 5))
}

// Feature names decode to the same strings whether known or not; the known
// ones (every connection decodes them) cost no allocation.
func TestApiVersionsFeatureNames(t *testing.T) {
	m := &ApiVersionsResponse{FinalizedFeaturesEpoch: 3}
	for _, n := range knownFeatures {
		m.SupportedFeatures = append(m.SupportedFeatures, ApiVersionsSupportedFeature{Name: n, MaxVersion: 1})
		m.FinalizedFeatures = append(m.FinalizedFeatures, ApiVersionsFinalizedFeature{Name: n, MaxVersionLevel: 1})
	}
	known := m.AppendTo(nil, 4)
	m.SupportedFeatures = append(m.SupportedFeatures, ApiVersionsSupportedFeature{Name: "future.version", MaxVersion: 2})
	m.FinalizedFeatures = append(m.FinalizedFeatures, ApiVersionsFinalizedFeature{Name: "metadata.versio", MaxVersionLevel: 2})
	checkRoundTrip(t, 4, m, func() codec { return new(ApiVersionsResponse) })

	decodeAllocs := func(b []byte) float64 {
		var got ApiVersionsResponse
		var r Reader
		return testing.AllocsPerRun(50, func() {
			r.Reset(b)
			if err := got.DecodeFrom(&r, 4); err != nil {
				t.Fatal(err)
			}
		})
	}
	none := (&ApiVersionsResponse{FinalizedFeaturesEpoch: 3}).AppendTo(nil, 4)
	// The two feature arrays; no name.
	if base, allocs := decodeAllocs(none), decodeAllocs(known); allocs != base+2 {
		t.Errorf("decoding %d known feature names twice: %v allocations, %v without features; want 2 more (the arrays)", len(knownFeatures), allocs, base)
	}
}
