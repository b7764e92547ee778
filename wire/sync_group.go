package wire

// SyncGroupRequest ends a classic rebalance: the leader sends every
// member's assignment, followers send none, and each gets its own back (API
// key 14, versions 0-5, flexible from v4). Source: SyncGroupRequest.json;
// KIP-345 (v3 group instance ID), KIP-559 (v5 protocol type and name).
type SyncGroupRequest struct {
	// GroupID is the group.
	GroupID string
	// GenerationID is the generation JoinGroup returned.
	GenerationID int32
	// MemberID is this member's ID.
	MemberID string
	// GroupInstanceID is the static member ID (v3+), or nil.
	GroupInstanceID *string
	// ProtocolType is the protocol type, "consumer" (v5+), or nil.
	ProtocolType *string
	// ProtocolName is the chosen protocol (v5+), or nil.
	ProtocolName *string
	// Assignments are the members' assignments (leader only).
	Assignments []SyncGroupRequestAssignment
	// UnknownTags keeps unknown tagged fields (v4+).
	UnknownTags []TaggedField
}

// SyncGroupRequestAssignment is one member's assignment.
type SyncGroupRequestAssignment struct {
	// MemberID is the member.
	MemberID string
	// Assignment is its assignment (ConsumerProtocolAssignment).
	Assignment []byte
	// UnknownTags keeps unknown tagged fields (v4+).
	UnknownTags []TaggedField
}

// Key returns KeySyncGroup.
func (*SyncGroupRequest) Key() APIKey { return KeySyncGroup }

// ResponseFor returns an empty *SyncGroupResponse.
func (*SyncGroupRequest) ResponseFor() Response { return &SyncGroupResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *SyncGroupRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 4
	dst = AppendString(dst, m.GroupID, flex)
	dst = AppendInt32(dst, m.GenerationID)
	dst = AppendString(dst, m.MemberID, flex)
	if v >= 3 {
		dst = AppendNullableString(dst, m.GroupInstanceID, flex)
	}
	if v >= 5 {
		dst = AppendNullableString(dst, m.ProtocolType, flex)
		dst = AppendNullableString(dst, m.ProtocolName, flex)
	}
	dst = AppendArray(dst, flex, m.Assignments, func(dst []byte, a *SyncGroupRequestAssignment) []byte {
		dst = AppendString(dst, a.MemberID, flex)
		dst = AppendBytes(dst, a.Assignment, flex)
		return appendFlexTags(dst, flex, a.UnknownTags)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *SyncGroupRequest) DecodeFrom(r *Reader, v int16) error {
	*m = SyncGroupRequest{}
	flex := v >= 4
	m.GroupID = r.String(flex)
	m.GenerationID = r.Int32()
	m.MemberID = r.String(flex)
	if v >= 3 {
		m.GroupInstanceID = r.NullableString(flex)
	}
	if v >= 5 {
		m.ProtocolType = r.NullableString(flex)
		m.ProtocolName = r.NullableString(flex)
	}
	m.Assignments = ReadArray(r, flex, 2*minLen(flex, 3), func(r *Reader, a *SyncGroupRequestAssignment) {
		a.MemberID = r.String(flex)
		a.Assignment = r.Bytes(flex)
		a.UnknownTags = readFlexTags(r, flex)
	})
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// SyncGroupResponse carries this member's assignment.
type SyncGroupResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds (v1+).
	ThrottleTimeMs int32
	// ErrorCode is 0 or e.g. REBALANCE_IN_PROGRESS (27).
	ErrorCode int16
	// ProtocolType is the group's protocol type (v5+), or nil.
	ProtocolType *string
	// ProtocolName is the group's protocol (v5+), or nil.
	ProtocolName *string
	// Assignment is this member's assignment (ConsumerProtocolAssignment).
	Assignment []byte
	// UnknownTags keeps unknown tagged fields (v4+).
	UnknownTags []TaggedField
}

// Key returns KeySyncGroup.
func (*SyncGroupResponse) Key() APIKey { return KeySyncGroup }

// AppendTo appends the response body for version v (header excluded).
func (m *SyncGroupResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 4
	if v >= 1 {
		dst = AppendInt32(dst, m.ThrottleTimeMs)
	}
	dst = AppendInt16(dst, m.ErrorCode)
	if v >= 5 {
		dst = AppendNullableString(dst, m.ProtocolType, flex)
		dst = AppendNullableString(dst, m.ProtocolName, flex)
	}
	dst = AppendBytes(dst, m.Assignment, flex)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *SyncGroupResponse) DecodeFrom(r *Reader, v int16) error {
	*m = SyncGroupResponse{}
	flex := v >= 4
	if v >= 1 {
		m.ThrottleTimeMs = r.Int32()
	}
	m.ErrorCode = r.Int16()
	if v >= 5 {
		m.ProtocolType = r.NullableString(flex)
		m.ProtocolName = r.NullableString(flex)
	}
	m.Assignment = r.Bytes(flex)
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}
