package wire

// HeartbeatRequest keeps a classic group member alive between rebalances;
// REBALANCE_IN_PROGRESS in the response tells it to rejoin (API key 12,
// versions 0-4, flexible from v4). Source: HeartbeatRequest.json; KIP-345
// (v3 group instance ID).
type HeartbeatRequest struct {
	// GroupID is the group.
	GroupID string
	// GenerationID is the member's generation.
	GenerationID int32
	// MemberID is the member's ID.
	MemberID string
	// GroupInstanceID is the static member ID (v3+), or nil.
	GroupInstanceID *string
	// UnknownTags keeps unknown tagged fields (v4+).
	UnknownTags []TaggedField
}

// Key returns KeyHeartbeat.
func (*HeartbeatRequest) Key() APIKey { return KeyHeartbeat }

// ResponseFor returns an empty *HeartbeatResponse.
func (*HeartbeatRequest) ResponseFor() Response { return &HeartbeatResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *HeartbeatRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 4
	dst = AppendString(dst, m.GroupID, flex)
	dst = AppendInt32(dst, m.GenerationID)
	dst = AppendString(dst, m.MemberID, flex)
	if v >= 3 {
		dst = AppendNullableString(dst, m.GroupInstanceID, flex)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *HeartbeatRequest) DecodeFrom(r *Reader, v int16) error {
	*m = HeartbeatRequest{}
	flex := v >= 4
	m.GroupID = r.String(flex)
	m.GenerationID = r.Int32()
	m.MemberID = r.String(flex)
	if v >= 3 {
		m.GroupInstanceID = r.NullableString(flex)
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// HeartbeatResponse answers a HeartbeatRequest.
type HeartbeatResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds (v1+).
	ThrottleTimeMs int32
	// ErrorCode is 0 or e.g. REBALANCE_IN_PROGRESS (27).
	ErrorCode int16
	// UnknownTags keeps unknown tagged fields (v4+).
	UnknownTags []TaggedField
}

// Key returns KeyHeartbeat.
func (*HeartbeatResponse) Key() APIKey { return KeyHeartbeat }

// AppendTo appends the response body for version v (header excluded).
func (m *HeartbeatResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 4
	if v >= 1 {
		dst = AppendInt32(dst, m.ThrottleTimeMs)
	}
	dst = AppendInt16(dst, m.ErrorCode)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *HeartbeatResponse) DecodeFrom(r *Reader, v int16) error {
	*m = HeartbeatResponse{}
	flex := v >= 4
	if v >= 1 {
		m.ThrottleTimeMs = r.Int32()
	}
	m.ErrorCode = r.Int16()
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}
