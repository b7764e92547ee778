package wire

// SaslAuthenticateRequest carries one client step of a SASL exchange (API
// key 36, versions 0-2, flexible from v2; KIP-152, KIP-368 for session
// lifetimes). Source: SaslAuthenticateRequest.json.
type SaslAuthenticateRequest struct {
	// AuthBytes are the mechanism's client bytes.
	AuthBytes []byte
	// UnknownTags keeps tagged fields this version does not define (v2+).
	UnknownTags []TaggedField
}

// Key returns KeySaslAuthenticate.
func (*SaslAuthenticateRequest) Key() APIKey { return KeySaslAuthenticate }

// ResponseFor returns an empty *SaslAuthenticateResponse.
func (*SaslAuthenticateRequest) ResponseFor() Response { return &SaslAuthenticateResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *SaslAuthenticateRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 2
	dst = AppendBytes(dst, m.AuthBytes, flex)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v from r; AuthBytes
// aliases r's buffer.
func (m *SaslAuthenticateRequest) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 2
	m.AuthBytes = r.Bytes(flex)
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// SaslAuthenticateResponse carries one server step of a SASL exchange.
type SaslAuthenticateResponse struct {
	// ErrorCode is 0, or e.g. SASL_AUTHENTICATION_FAILED (58).
	ErrorCode int16
	// ErrorMessage explains the error, or nil.
	ErrorMessage *string
	// AuthBytes are the mechanism's server bytes (aliasing the decoded buffer).
	AuthBytes []byte
	// SessionLifetimeMs is how long the session may last before the client
	// must re-authenticate, 0 for no limit, v1+ (KIP-368).
	SessionLifetimeMs int64
	// UnknownTags keeps tagged fields this version does not define (v2+).
	UnknownTags []TaggedField
}

// Key returns KeySaslAuthenticate.
func (*SaslAuthenticateResponse) Key() APIKey { return KeySaslAuthenticate }

// AppendTo appends the response body for version v (header excluded).
func (m *SaslAuthenticateResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 2
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendNullableString(dst, m.ErrorMessage, flex)
	dst = AppendBytes(dst, m.AuthBytes, flex)
	if v >= 1 {
		dst = AppendInt64(dst, m.SessionLifetimeMs)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v from r.
func (m *SaslAuthenticateResponse) DecodeFrom(r *Reader, v int16) error {
	*m = SaslAuthenticateResponse{}
	flex := v >= 2
	m.ErrorCode = r.Int16()
	m.ErrorMessage = r.NullableString(flex)
	m.AuthBytes = r.Bytes(flex)
	if v >= 1 {
		m.SessionLifetimeMs = r.Int64()
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}
