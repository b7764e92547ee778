package wire

import (
	"bytes"
	"testing"
)

func sampleGetTelemetrySubscriptionsRequest() *GetTelemetrySubscriptionsRequest {
	return &GetTelemetrySubscriptionsRequest{ClientInstanceID: UUID{1, 2, 3, 15: 4}, UnknownTags: tags(true, 1)}
}

func sampleGetTelemetrySubscriptionsResponse() *GetTelemetrySubscriptionsResponse {
	return &GetTelemetrySubscriptionsResponse{
		ThrottleTimeMs: 5, ClientInstanceID: UUID{9, 15: 9}, SubscriptionID: -123456,
		AcceptedCompressionTypes: []int8{int8(CompressionZstd), int8(CompressionLZ4), int8(CompressionGzip), int8(CompressionSnappy)},
		PushIntervalMs:           30000, TelemetryMaxBytes: 1 << 20, DeltaTemporality: true,
		RequestedMetrics: []string{"org.apache.kafka.producer.", "org.apache.kafka.consumer.node"},
		UnknownTags:      tags(true, 2),
	}
}

func samplePushTelemetryRequest() *PushTelemetryRequest {
	return &PushTelemetryRequest{ClientInstanceID: UUID{7, 15: 7}, SubscriptionID: 42, Terminating: true,
		CompressionType: int8(CompressionZstd), Metrics: []byte{0x0a, 0x02, 0x0a, 0x00}}
}

func samplePushTelemetryResponse() *PushTelemetryResponse {
	return &PushTelemetryResponse{ThrottleTimeMs: 100, ErrorCode: ErrUnknownSubscriptionID.Code, UnknownTags: tags(true, 3)}
}

var telemetryCases = []adminCase{
	{KeyGetTelemetrySubscriptions, func(int16) codec { return sampleGetTelemetrySubscriptionsRequest() }, func(int16) codec { return sampleGetTelemetrySubscriptionsResponse() },
		func() codec { return new(GetTelemetrySubscriptionsRequest) }, func() codec { return new(GetTelemetrySubscriptionsResponse) }},
	{KeyPushTelemetry, func(int16) codec { return samplePushTelemetryRequest() }, func(int16) codec { return samplePushTelemetryResponse() },
		func() codec { return new(PushTelemetryRequest) }, func() codec { return new(PushTelemetryResponse) }},
}

// TestTelemetryRoundTrip encodes every telemetry sample, decodes it back
// exactly, re-encodes byte-identically, and checks truncations fail cleanly.
func TestTelemetryRoundTrip(t *testing.T) {
	for _, c := range telemetryCases {
		info, _ := LookupAPI(c.key)
		t.Run(info.Name, func(t *testing.T) {
			forVersions(t, c.key, func(t *testing.T, v int16) {
				checkRoundTrip(t, v, c.req(v), c.newReq)
				checkRoundTrip(t, v, c.resp(v), c.newResp)
			})
		})
	}
	if len(telemetryAPIs) != len(telemetryCases) {
		t.Fatalf("%d telemetry APIs, %d cases", len(telemetryAPIs), len(telemetryCases))
	}
	for _, c := range telemetryCases {
		req := c.newReq().(Request)
		if req.Key() != c.key || req.ResponseFor().Key() != c.key {
			t.Fatalf("%d: keys %d/%d", c.key, req.Key(), req.ResponseFor().Key())
		}
	}
}

// TestTelemetryLayout pins the byte layout of both APIs to the field order
// and types of Kafka's GetTelemetrySubscriptionsResponse.json and
// PushTelemetryRequest.json (compact arrays and bytes, length+1 varints,
// an empty tag section).
func TestTelemetryLayout(t *testing.T) {
	id := UUID{0xaa, 15: 0xbb}
	resp := &GetTelemetrySubscriptionsResponse{ThrottleTimeMs: 1, ErrorCode: 0, ClientInstanceID: id, SubscriptionID: 2,
		AcceptedCompressionTypes: []int8{4, 3}, PushIntervalMs: 3, TelemetryMaxBytes: 4, DeltaTemporality: true,
		RequestedMetrics: []string{"ab"}}
	want := []byte{0, 0, 0, 1, 0, 0}
	want = append(want, id[:]...)
	want = append(want, 0, 0, 0, 2, 3, 4, 3, 0, 0, 0, 3, 0, 0, 0, 4, 1, 2, 3, 'a', 'b', 0)
	if got := resp.AppendTo(nil, 0); !bytes.Equal(got, want) {
		t.Fatalf("GetTelemetrySubscriptionsResponse:\n got %x\nwant %x", got, want)
	}
	push := &PushTelemetryRequest{ClientInstanceID: id, SubscriptionID: 5, Terminating: true, CompressionType: 1, Metrics: []byte{9, 8}}
	want = append(append([]byte(nil), id[:]...), 0, 0, 0, 5, 1, 1, 3, 9, 8, 0)
	if got := push.AppendTo(nil, 0); !bytes.Equal(got, want) {
		t.Fatalf("PushTelemetryRequest:\n got %x\nwant %x", got, want)
	}
}

// TestTelemetryBoundedLengths checks that a length prefix larger than the
// input fails before allocating.
func TestTelemetryBoundedLengths(t *testing.T) {
	body := append(make([]byte, 16+4+1+1), 0xff, 0xff, 0xff, 0xff, 0x0f) // Metrics claims ~4 GiB
	var m PushTelemetryRequest
	if err := m.DecodeFrom(NewReader(body), 0); err == nil {
		t.Fatal("oversized Metrics length decoded")
	}
	resp := append(make([]byte, 4+2+16+4), 0xff, 0xff, 0xff, 0x7f) // AcceptedCompressionTypes claims 268M entries
	var g GetTelemetrySubscriptionsResponse
	if err := g.DecodeFrom(NewReader(resp), 0); err == nil {
		t.Fatal("oversized AcceptedCompressionTypes length decoded")
	}
}

func fuzzTelemetry(f *testing.F, key APIKey, request bool) {
	for _, c := range telemetryCases {
		if c.key != key {
			continue
		}
		if request {
			fuzzDecoder(f, key, c.newReq, c.req(0).AppendTo(nil, 0))
		} else {
			fuzzDecoder(f, key, c.newResp, c.resp(0).AppendTo(nil, 0))
		}
		return
	}
	f.Fatalf("no case for key %d", key)
}

func FuzzGetTelemetrySubscriptionsResponse(f *testing.F) {
	fuzzTelemetry(f, KeyGetTelemetrySubscriptions, false)
}
func FuzzGetTelemetrySubscriptionsRequest(f *testing.F) {
	fuzzTelemetry(f, KeyGetTelemetrySubscriptions, true)
}
func FuzzPushTelemetryRequest(f *testing.F)  { fuzzTelemetry(f, KeyPushTelemetry, true) }
func FuzzPushTelemetryResponse(f *testing.F) { fuzzTelemetry(f, KeyPushTelemetry, false) }
