package wire

import "testing"

func sampleSaslHandshakeRequest(v int16) *SaslHandshakeRequest {
	return &SaslHandshakeRequest{Mechanism: "SCRAM-SHA-512"}
}

func sampleSaslHandshakeResponse(v int16) *SaslHandshakeResponse {
	return &SaslHandshakeResponse{ErrorCode: 33, Mechanisms: []string{"PLAIN", "SCRAM-SHA-256"}}
}

func sampleSaslAuthenticateRequest(v int16) *SaslAuthenticateRequest {
	m := &SaslAuthenticateRequest{AuthBytes: []byte("\x00user\x00pass")}
	if v >= 2 {
		m.UnknownTags = []TaggedField{{Tag: 1, Data: []byte{1}}}
	}
	return m
}

func sampleSaslAuthenticateResponse(v int16) *SaslAuthenticateResponse {
	m := &SaslAuthenticateResponse{ErrorCode: 58, ErrorMessage: ptr("bad password"), AuthBytes: []byte("srv")}
	if v >= 1 {
		m.SessionLifetimeMs = 3600000
	}
	if v >= 2 {
		m.UnknownTags = []TaggedField{{Tag: 4, Data: []byte{}}}
	}
	return m
}

func TestSaslHandshakeRoundTrip(t *testing.T) {
	forVersions(t, KeySaslHandshake, func(t *testing.T, v int16) {
		checkRoundTrip(t, v, sampleSaslHandshakeRequest(v), func() codec { return new(SaslHandshakeRequest) })
		checkRoundTrip(t, v, sampleSaslHandshakeResponse(v), func() codec { return new(SaslHandshakeResponse) })
	})
}

func TestSaslAuthenticateRoundTrip(t *testing.T) {
	forVersions(t, KeySaslAuthenticate, func(t *testing.T, v int16) {
		checkRoundTrip(t, v, sampleSaslAuthenticateRequest(v), func() codec { return new(SaslAuthenticateRequest) })
		checkRoundTrip(t, v, sampleSaslAuthenticateResponse(v), func() codec { return new(SaslAuthenticateResponse) })
		// Empty auth bytes decode as empty (non-nil); a null message stays nil.
		checkRoundTrip(t, v, &SaslAuthenticateResponse{AuthBytes: []byte{}}, func() codec { return new(SaslAuthenticateResponse) })
	})
}

func TestSaslGolden(t *testing.T) {
	checkGolden(t, 1, &SaslHandshakeRequest{Mechanism: "PLAIN"}, new(SaslHandshakeRequest), "0005 504c41494e")
	checkGolden(t, 0, &SaslHandshakeResponse{Mechanisms: []string{"PLAIN"}}, new(SaslHandshakeResponse), "0000 00000001 0005 504c41494e")
	checkGolden(t, 0, &SaslAuthenticateRequest{AuthBytes: []byte("ab")}, new(SaslAuthenticateRequest), "00000002 6162")
	checkGolden(t, 2, &SaslAuthenticateRequest{AuthBytes: []byte("ab")}, new(SaslAuthenticateRequest), "03 6162 00")
	checkGolden(t, 1, &SaslAuthenticateResponse{AuthBytes: []byte{}, SessionLifetimeMs: 1}, new(SaslAuthenticateResponse),
		"0000 ffff 00000000 0000000000000001")
	checkGolden(t, 2, &SaslAuthenticateResponse{ErrorCode: 58, ErrorMessage: ptr("x"), AuthBytes: []byte{}}, new(SaslAuthenticateResponse),
		"003a 02 78 01 0000000000000000 00")
}

func FuzzSaslHandshakeResponse(f *testing.F) {
	fuzzDecoder(f, KeySaslHandshake, func() codec { return new(SaslHandshakeResponse) }, sampleSaslHandshakeResponse(1).AppendTo(nil, 1))
}

func FuzzSaslAuthenticateResponse(f *testing.F) {
	fuzzDecoder(f, KeySaslAuthenticate, func() codec { return new(SaslAuthenticateResponse) },
		sampleSaslAuthenticateResponse(2).AppendTo(nil, 2), sampleSaslAuthenticateResponse(0).AppendTo(nil, 0))
}
