package wire

// SaslHandshakeRequest chooses a SASL mechanism (API key 17, versions 0-1,
// never flexible). With v1 the SASL exchange then continues in
// SaslAuthenticate requests (KIP-152). Source: SaslHandshakeRequest.json.
type SaslHandshakeRequest struct {
	// Mechanism is the SASL mechanism, e.g. "PLAIN" or "SCRAM-SHA-512".
	Mechanism string
}

// Key returns KeySaslHandshake.
func (*SaslHandshakeRequest) Key() APIKey { return KeySaslHandshake }

// ResponseFor returns an empty *SaslHandshakeResponse.
func (*SaslHandshakeRequest) ResponseFor() Response { return &SaslHandshakeResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *SaslHandshakeRequest) AppendTo(dst []byte, v int16) []byte {
	return AppendString(dst, m.Mechanism, false)
}

// DecodeFrom decodes the request body for version v from r.
func (m *SaslHandshakeRequest) DecodeFrom(r *Reader, v int16) error {
	m.Mechanism = r.String(false)
	return r.Err()
}

// SaslHandshakeResponse answers a SaslHandshakeRequest (versions 0-1).
type SaslHandshakeResponse struct {
	// ErrorCode is 0, or e.g. UNSUPPORTED_SASL_MECHANISM (33).
	ErrorCode int16
	// Mechanisms lists the mechanisms the broker has enabled.
	Mechanisms []string
}

// Key returns KeySaslHandshake.
func (*SaslHandshakeResponse) Key() APIKey { return KeySaslHandshake }

// AppendTo appends the response body for version v (header excluded).
func (m *SaslHandshakeResponse) AppendTo(dst []byte, v int16) []byte {
	dst = AppendInt16(dst, m.ErrorCode)
	return AppendStringArray(dst, false, m.Mechanisms)
}

// DecodeFrom decodes the response body for version v from r.
func (m *SaslHandshakeResponse) DecodeFrom(r *Reader, v int16) error {
	*m = SaslHandshakeResponse{}
	m.ErrorCode = r.Int16()
	m.Mechanisms = r.StringArray(false)
	return r.Err()
}
