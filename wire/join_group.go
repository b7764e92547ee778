package wire

// JoinGroupRequest asks the group coordinator to add a member to a classic
// group (API key 11, versions 2-9, flexible from v6). Since v4 a member
// without a member ID first gets MEMBER_ID_REQUIRED with its assigned ID
// and joins again with it (KIP-394). Source: JoinGroupRequest.json;
// KIP-345 (v5 group instance ID), KIP-800 (v8 reason).
type JoinGroupRequest struct {
	// GroupID is the group to join.
	GroupID string
	// SessionTimeoutMs is how long the coordinator waits for a heartbeat
	// before it removes the member.
	SessionTimeoutMs int32
	// RebalanceTimeoutMs is how long the coordinator waits for every member
	// to rejoin during a rebalance (v1+).
	RebalanceTimeoutMs int32
	// MemberID is the member ID the coordinator gave, "" for a new member.
	MemberID string
	// GroupInstanceID is the static member ID (v5+), or nil.
	GroupInstanceID *string
	// ProtocolType is the class of protocols, "consumer" for consumers.
	ProtocolType string
	// Protocols are the protocols (assignors) the member supports, in
	// order of preference, each with its metadata (a subscription).
	Protocols []JoinGroupRequestProtocol
	// Reason says why the member (re)joins (v8+), or nil.
	Reason *string
	// UnknownTags keeps unknown tagged fields (v6+).
	UnknownTags []TaggedField
}

// JoinGroupRequestProtocol is one protocol a joining member supports.
type JoinGroupRequestProtocol struct {
	// Name is the protocol (assignor) name.
	Name string
	// Metadata is the protocol metadata (ConsumerProtocolSubscription).
	Metadata []byte
	// UnknownTags keeps unknown tagged fields (v6+).
	UnknownTags []TaggedField
}

// Key returns KeyJoinGroup.
func (*JoinGroupRequest) Key() APIKey { return KeyJoinGroup }

// ResponseFor returns an empty *JoinGroupResponse.
func (*JoinGroupRequest) ResponseFor() Response { return &JoinGroupResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *JoinGroupRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 6
	dst = AppendString(dst, m.GroupID, flex)
	dst = AppendInt32(dst, m.SessionTimeoutMs)
	if v >= 1 {
		dst = AppendInt32(dst, m.RebalanceTimeoutMs)
	}
	dst = AppendString(dst, m.MemberID, flex)
	if v >= 5 {
		dst = AppendNullableString(dst, m.GroupInstanceID, flex)
	}
	dst = AppendString(dst, m.ProtocolType, flex)
	dst = AppendArray(dst, flex, m.Protocols, func(dst []byte, p *JoinGroupRequestProtocol) []byte {
		dst = AppendString(dst, p.Name, flex)
		dst = AppendBytes(dst, p.Metadata, flex)
		return appendFlexTags(dst, flex, p.UnknownTags)
	})
	if v >= 8 {
		dst = AppendNullableString(dst, m.Reason, flex)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *JoinGroupRequest) DecodeFrom(r *Reader, v int16) error {
	*m = JoinGroupRequest{RebalanceTimeoutMs: -1}
	flex := v >= 6
	m.GroupID = r.String(flex)
	m.SessionTimeoutMs = r.Int32()
	if v >= 1 {
		m.RebalanceTimeoutMs = r.Int32()
	}
	m.MemberID = r.String(flex)
	if v >= 5 {
		m.GroupInstanceID = r.NullableString(flex)
	}
	m.ProtocolType = r.String(flex)
	// name, metadata (and tags): at least 2 bytes compact, 6 otherwise.
	m.Protocols = ReadArray(r, flex, 2*minLen(flex, 3), func(r *Reader, p *JoinGroupRequestProtocol) {
		p.Name = r.String(flex)
		p.Metadata = r.Bytes(flex)
		p.UnknownTags = readFlexTags(r, flex)
	})
	if v >= 8 {
		m.Reason = r.NullableString(flex)
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// JoinGroupResponse answers a JoinGroupRequest. The leader (Leader ==
// MemberID) gets every member's metadata in Members and computes the
// assignment; followers get no members.
type JoinGroupResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds (v2+).
	ThrottleTimeMs int32
	// ErrorCode is 0 or e.g. MEMBER_ID_REQUIRED (79).
	ErrorCode int16
	// GenerationID is the group's new generation, -1 on error.
	GenerationID int32
	// ProtocolType is the group's protocol type (v7+), or nil.
	ProtocolType *string
	// ProtocolName is the protocol (assignor) the coordinator chose;
	// nullable from v7 (nil before v7 is written as "").
	ProtocolName *string
	// Leader is the leader's member ID.
	Leader string
	// SkipAssignment tells a static leader rejoining an unchanged group to
	// send its assignment without computing one (v9+).
	SkipAssignment bool
	// MemberID is this member's ID.
	MemberID string
	// Members are the members and their metadata (leader only).
	Members []JoinGroupResponseMember
	// UnknownTags keeps unknown tagged fields (v6+).
	UnknownTags []TaggedField
}

// JoinGroupResponseMember is one member of the group as the leader sees it.
type JoinGroupResponseMember struct {
	// MemberID is the member ID.
	MemberID string
	// GroupInstanceID is the member's static ID (v5+), or nil.
	GroupInstanceID *string
	// Metadata is the member's metadata for the chosen protocol.
	Metadata []byte
	// UnknownTags keeps unknown tagged fields (v6+).
	UnknownTags []TaggedField
}

// Key returns KeyJoinGroup.
func (*JoinGroupResponse) Key() APIKey { return KeyJoinGroup }

// AppendTo appends the response body for version v (header excluded).
func (m *JoinGroupResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 6
	if v >= 2 {
		dst = AppendInt32(dst, m.ThrottleTimeMs)
	}
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendInt32(dst, m.GenerationID)
	if v >= 7 {
		dst = AppendNullableString(dst, m.ProtocolType, flex)
	}
	dst = appendVersionedString(dst, m.ProtocolName, v >= 7, flex)
	dst = AppendString(dst, m.Leader, flex)
	if v >= 9 {
		dst = AppendBool(dst, m.SkipAssignment)
	}
	dst = AppendString(dst, m.MemberID, flex)
	dst = AppendArray(dst, flex, m.Members, func(dst []byte, p *JoinGroupResponseMember) []byte {
		dst = AppendString(dst, p.MemberID, flex)
		if v >= 5 {
			dst = AppendNullableString(dst, p.GroupInstanceID, flex)
		}
		dst = AppendBytes(dst, p.Metadata, flex)
		return appendFlexTags(dst, flex, p.UnknownTags)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *JoinGroupResponse) DecodeFrom(r *Reader, v int16) error {
	*m = JoinGroupResponse{}
	flex := v >= 6
	if v >= 2 {
		m.ThrottleTimeMs = r.Int32()
	}
	m.ErrorCode = r.Int16()
	m.GenerationID = r.Int32()
	if v >= 7 {
		m.ProtocolType = r.NullableString(flex)
	}
	m.ProtocolName = readVersionedString(r, v >= 7, flex)
	m.Leader = r.String(flex)
	if v >= 9 {
		m.SkipAssignment = r.Bool()
	}
	m.MemberID = r.String(flex)
	// member id, instance id, metadata: at least 2 bytes compact, 6 otherwise.
	m.Members = ReadArray(r, flex, 2*minLen(flex, 3), func(r *Reader, p *JoinGroupResponseMember) {
		p.MemberID = r.String(flex)
		if v >= 5 {
			p.GroupInstanceID = r.NullableString(flex)
		}
		p.Metadata = r.Bytes(flex)
		p.UnknownTags = readFlexTags(r, flex)
	})
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}
