package wire

// LeaveGroupRequest removes members from a classic group: one member by ID
// (v0-2), or a batch of members by member ID or group instance ID (v3+,
// KIP-345; an admin removes static members by instance ID with an empty
// member ID). API key 13, versions 0-5, flexible from v4. Source:
// LeaveGroupRequest.json; KIP-800 (v5 reason).
type LeaveGroupRequest struct {
	// GroupID is the group.
	GroupID string
	// MemberID is the leaving member (v0-2).
	MemberID string
	// Members are the leaving members (v3+).
	Members []LeaveGroupMember
	// UnknownTags keeps unknown tagged fields (v4+).
	UnknownTags []TaggedField
}

// LeaveGroupMember identifies one leaving member (v3+).
type LeaveGroupMember struct {
	// MemberID is the member ID, "" to remove by instance ID only.
	MemberID string
	// GroupInstanceID is the static member ID, or nil.
	GroupInstanceID *string
	// Reason says why the member leaves (v5+), or nil.
	Reason *string
	// UnknownTags keeps unknown tagged fields (v4+).
	UnknownTags []TaggedField
}

// Key returns KeyLeaveGroup.
func (*LeaveGroupRequest) Key() APIKey { return KeyLeaveGroup }

// ResponseFor returns an empty *LeaveGroupResponse.
func (*LeaveGroupRequest) ResponseFor() Response { return &LeaveGroupResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *LeaveGroupRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 4
	dst = AppendString(dst, m.GroupID, flex)
	if v <= 2 {
		dst = AppendString(dst, m.MemberID, flex)
	} else {
		dst = AppendArray(dst, flex, m.Members, func(dst []byte, p *LeaveGroupMember) []byte {
			dst = AppendString(dst, p.MemberID, flex)
			dst = AppendNullableString(dst, p.GroupInstanceID, flex)
			if v >= 5 {
				dst = AppendNullableString(dst, p.Reason, flex)
			}
			return appendFlexTags(dst, flex, p.UnknownTags)
		})
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *LeaveGroupRequest) DecodeFrom(r *Reader, v int16) error {
	*m = LeaveGroupRequest{}
	flex := v >= 4
	m.GroupID = r.String(flex)
	if v <= 2 {
		m.MemberID = r.String(flex)
	} else {
		m.Members = ReadArray(r, flex, 2*minLen(flex, 2), func(r *Reader, p *LeaveGroupMember) {
			p.MemberID = r.String(flex)
			p.GroupInstanceID = r.NullableString(flex)
			if v >= 5 {
				p.Reason = r.NullableString(flex)
			}
			p.UnknownTags = readFlexTags(r, flex)
		})
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// LeaveGroupResponse answers a LeaveGroupRequest: a top-level error and,
// from v3, one error per member.
type LeaveGroupResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds (v1+).
	ThrottleTimeMs int32
	// ErrorCode is the top-level error, 0 for none.
	ErrorCode int16
	// Members are the per-member outcomes (v3+).
	Members []LeaveGroupMemberResult
	// UnknownTags keeps unknown tagged fields (v4+).
	UnknownTags []TaggedField
}

// LeaveGroupMemberResult is the outcome for one leaving member (v3+).
type LeaveGroupMemberResult struct {
	// MemberID is the member ID.
	MemberID string
	// GroupInstanceID is the static member ID, or nil.
	GroupInstanceID *string
	// ErrorCode is 0 or e.g. UNKNOWN_MEMBER_ID (25).
	ErrorCode int16
	// UnknownTags keeps unknown tagged fields (v4+).
	UnknownTags []TaggedField
}

// Key returns KeyLeaveGroup.
func (*LeaveGroupResponse) Key() APIKey { return KeyLeaveGroup }

// AppendTo appends the response body for version v (header excluded).
func (m *LeaveGroupResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 4
	if v >= 1 {
		dst = AppendInt32(dst, m.ThrottleTimeMs)
	}
	dst = AppendInt16(dst, m.ErrorCode)
	if v >= 3 {
		dst = AppendArray(dst, flex, m.Members, func(dst []byte, p *LeaveGroupMemberResult) []byte {
			dst = AppendString(dst, p.MemberID, flex)
			dst = AppendNullableString(dst, p.GroupInstanceID, flex)
			dst = AppendInt16(dst, p.ErrorCode)
			return appendFlexTags(dst, flex, p.UnknownTags)
		})
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *LeaveGroupResponse) DecodeFrom(r *Reader, v int16) error {
	*m = LeaveGroupResponse{}
	flex := v >= 4
	if v >= 1 {
		m.ThrottleTimeMs = r.Int32()
	}
	m.ErrorCode = r.Int16()
	if v >= 3 {
		m.Members = ReadArray(r, flex, 2*minLen(flex, 2)+2, func(r *Reader, p *LeaveGroupMemberResult) {
			p.MemberID = r.String(flex)
			p.GroupInstanceID = r.NullableString(flex)
			p.ErrorCode = r.Int16()
			p.UnknownTags = readFlexTags(r, flex)
		})
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}
