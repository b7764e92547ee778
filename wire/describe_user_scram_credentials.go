package wire

// DescribeUserScramCredentialsRequest describes users' SCRAM credentials (mechanisms and iterations, never secrets) (API key 50, version 0, all flexible).
// Source: DescribeUserScramCredentialsRequest.json; KIP-554.
type DescribeUserScramCredentialsRequest struct {
	// Users holds the users to describe, or null/empty to describe all users. Nil is null.
	Users []DescribeUserScramCredentialsUserName
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeUserScramCredentialsUserName is the users to describe, or null/empty to describe all users.
type DescribeUserScramCredentialsUserName struct {
	// Name is the user name.
	Name string
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyDescribeUserScramCredentials.
func (*DescribeUserScramCredentialsRequest) Key() APIKey { return KeyDescribeUserScramCredentials }

// ResponseFor returns an empty *DescribeUserScramCredentialsResponse.
func (*DescribeUserScramCredentialsRequest) ResponseFor() Response {
	return &DescribeUserScramCredentialsResponse{}
}

// AppendTo appends the request body for version v (header excluded).
func (m *DescribeUserScramCredentialsRequest) AppendTo(dst []byte, v int16) []byte {
	const flex = true
	dst = AppendNullableArray(dst, flex, m.Users, func(dst []byte, x *DescribeUserScramCredentialsUserName) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *DescribeUserScramCredentialsRequest) DecodeFrom(r *Reader, v int16) error {
	const flex = true
	m.Users = ReadNullableArray(r, flex, 2, func(r *Reader, x *DescribeUserScramCredentialsUserName) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *DescribeUserScramCredentialsUserName) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.Name, flex)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeUserScramCredentialsUserName) readFrom(r *Reader, v int16, flex bool) {
	m.Name = r.String(flex)
	m.UnknownTags = readFlexTags(r, flex)
}

// DescribeUserScramCredentialsResponse answers a DescribeUserScramCredentialsRequest.
type DescribeUserScramCredentialsResponse struct {
	// ThrottleTimeMs is the duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
	ThrottleTimeMs int32
	// ErrorCode is the message-level error code, 0 except for user authorization or infrastructure issues.
	ErrorCode int16
	// ErrorMessage is the message-level error message, if any. Nil is null.
	ErrorMessage *string
	// Results holds the results for descriptions, one per user.
	Results []DescribeUserScramCredentialsResult
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeUserScramCredentialsResult is the results for descriptions, one per user.
type DescribeUserScramCredentialsResult struct {
	// User is the user name.
	User string
	// ErrorCode is the user-level error code.
	ErrorCode int16
	// ErrorMessage is the user-level error message, if any. Nil is null.
	ErrorMessage *string
	// CredentialInfos holds the mechanism and related information associated with the user's SCRAM credentials.
	CredentialInfos []DescribeUserScramCredentialsCredentialInfo
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeUserScramCredentialsCredentialInfo is the mechanism and related information associated with the user's SCRAM credentials.
type DescribeUserScramCredentialsCredentialInfo struct {
	// Mechanism is the SCRAM mechanism.
	Mechanism int8
	// Iterations is the number of iterations used in the SCRAM credential.
	Iterations int32
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyDescribeUserScramCredentials.
func (*DescribeUserScramCredentialsResponse) Key() APIKey { return KeyDescribeUserScramCredentials }

// AppendTo appends the response body for version v (header excluded).
func (m *DescribeUserScramCredentialsResponse) AppendTo(dst []byte, v int16) []byte {
	const flex = true
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendNullableString(dst, m.ErrorMessage, flex)
	dst = AppendArray(dst, flex, m.Results, func(dst []byte, x *DescribeUserScramCredentialsResult) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *DescribeUserScramCredentialsResponse) DecodeFrom(r *Reader, v int16) error {
	const flex = true
	m.ThrottleTimeMs = r.Int32()
	m.ErrorCode = r.Int16()
	m.ErrorMessage = r.NullableString(flex)
	m.Results = ReadArray(r, flex, 6, func(r *Reader, x *DescribeUserScramCredentialsResult) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *DescribeUserScramCredentialsResult) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.User, flex)
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendNullableString(dst, m.ErrorMessage, flex)
	dst = AppendArray(dst, flex, m.CredentialInfos, func(dst []byte, x *DescribeUserScramCredentialsCredentialInfo) []byte {
		return x.appendTo(dst, v, flex)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeUserScramCredentialsResult) readFrom(r *Reader, v int16, flex bool) {
	m.User = r.String(flex)
	m.ErrorCode = r.Int16()
	m.ErrorMessage = r.NullableString(flex)
	m.CredentialInfos = ReadArray(r, flex, 6, func(r *Reader, x *DescribeUserScramCredentialsCredentialInfo) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *DescribeUserScramCredentialsCredentialInfo) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt8(dst, m.Mechanism)
	dst = AppendInt32(dst, m.Iterations)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeUserScramCredentialsCredentialInfo) readFrom(r *Reader, v int16, flex bool) {
	m.Mechanism = r.Int8()
	m.Iterations = r.Int32()
	m.UnknownTags = readFlexTags(r, flex)
}
