package wire

import "math"

// DescribeGroupsRequest describes classic groups (API key 15, versions 0-6,
// flexible from v5). Send it to each group's coordinator. Source:
// DescribeGroupsRequest.json; KIP-345 (instance IDs), KIP-1043 (v6).
type DescribeGroupsRequest struct {
	// Groups are the group IDs to describe.
	Groups []string
	// IncludeAuthorizedOperations asks for each group's authorized operations (v3+).
	IncludeAuthorizedOperations bool
	// UnknownTags keeps unknown tagged fields (v5+).
	UnknownTags []TaggedField
}

// Key returns KeyDescribeGroups.
func (*DescribeGroupsRequest) Key() APIKey { return KeyDescribeGroups }

// ResponseFor returns an empty *DescribeGroupsResponse.
func (*DescribeGroupsRequest) ResponseFor() Response { return &DescribeGroupsResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *DescribeGroupsRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 5
	dst = AppendStringArray(dst, flex, m.Groups)
	if v >= 3 {
		dst = AppendBool(dst, m.IncludeAuthorizedOperations)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *DescribeGroupsRequest) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 5
	m.Groups = r.StringArray(flex)
	if v >= 3 {
		m.IncludeAuthorizedOperations = r.Bool()
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// DescribeGroupsResponse describes classic groups, one entry per group.
type DescribeGroupsResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds (v1+).
	ThrottleTimeMs int32
	// Groups holds one entry per group.
	Groups []DescribeGroupsGroup
	// UnknownTags keeps unknown tagged fields (v5+).
	UnknownTags []TaggedField
}

// DescribeGroupsGroup is one described group (DescribedGroup).
type DescribeGroupsGroup struct {
	// ErrorCode is the Kafka error code, 0 on success.
	ErrorCode int16
	// ErrorMessage is the broker's message (v6+), or nil.
	ErrorMessage *string
	// GroupID is the group ID.
	GroupID string
	// GroupState is e.g. "Empty", "Stable", "Dead".
	GroupState string
	// ProtocolType is the group protocol type ("consumer"), or "".
	ProtocolType string
	// ProtocolData is the chosen protocol (the assignor), when Stable.
	ProtocolData string
	// Members are the group's members.
	Members []DescribeGroupsMember
	// AuthorizedOperations is a bitfield (v3+), math.MinInt32 when absent.
	AuthorizedOperations int32
	// UnknownTags keeps unknown tagged fields (v5+).
	UnknownTags []TaggedField
}

// DescribeGroupsMember is one member of a described group.
type DescribeGroupsMember struct {
	// MemberID is the member ID the coordinator assigned.
	MemberID string
	// GroupInstanceID is the static member ID (v4+), or nil.
	GroupInstanceID *string
	// ClientID is the member's client.id.
	ClientID string
	// ClientHost is the member's host as the broker saw it.
	ClientHost string
	// MemberMetadata is the member's protocol metadata (subscription), when Stable.
	MemberMetadata []byte
	// MemberAssignment is the member's assignment, when Stable.
	MemberAssignment []byte
	// UnknownTags keeps unknown tagged fields (v5+).
	UnknownTags []TaggedField
}

// Key returns KeyDescribeGroups.
func (*DescribeGroupsResponse) Key() APIKey { return KeyDescribeGroups }

// AppendTo appends the response body for version v (header excluded).
func (m *DescribeGroupsResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 5
	if v >= 1 {
		dst = AppendInt32(dst, m.ThrottleTimeMs)
	}
	dst = AppendArray(dst, flex, m.Groups, func(dst []byte, g *DescribeGroupsGroup) []byte {
		dst = AppendInt16(dst, g.ErrorCode)
		if v >= 6 {
			dst = AppendNullableString(dst, g.ErrorMessage, flex)
		}
		dst = AppendString(dst, g.GroupID, flex)
		dst = AppendString(dst, g.GroupState, flex)
		dst = AppendString(dst, g.ProtocolType, flex)
		dst = AppendString(dst, g.ProtocolData, flex)
		dst = AppendArray(dst, flex, g.Members, func(dst []byte, mb *DescribeGroupsMember) []byte {
			dst = AppendString(dst, mb.MemberID, flex)
			if v >= 4 {
				dst = AppendNullableString(dst, mb.GroupInstanceID, flex)
			}
			dst = AppendString(dst, mb.ClientID, flex)
			dst = AppendString(dst, mb.ClientHost, flex)
			dst = AppendBytes(dst, mb.MemberMetadata, flex)
			dst = AppendBytes(dst, mb.MemberAssignment, flex)
			return appendFlexTags(dst, flex, mb.UnknownTags)
		})
		if v >= 3 {
			dst = AppendInt32(dst, g.AuthorizedOperations)
		}
		return appendFlexTags(dst, flex, g.UnknownTags)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *DescribeGroupsResponse) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 5
	if v >= 1 {
		m.ThrottleTimeMs = r.Int32()
	}
	m.Groups = ReadArray(r, flex, 6, func(r *Reader, g *DescribeGroupsGroup) {
		g.ErrorCode = r.Int16()
		if v >= 6 {
			g.ErrorMessage = r.NullableString(flex)
		}
		g.GroupID = r.String(flex)
		g.GroupState = r.String(flex)
		g.ProtocolType = r.String(flex)
		g.ProtocolData = r.String(flex)
		g.Members = ReadArray(r, flex, 4, func(r *Reader, mb *DescribeGroupsMember) {
			mb.MemberID = r.String(flex)
			if v >= 4 {
				mb.GroupInstanceID = r.NullableString(flex)
			}
			mb.ClientID = r.String(flex)
			mb.ClientHost = r.String(flex)
			mb.MemberMetadata = r.Bytes(flex)
			mb.MemberAssignment = r.Bytes(flex)
			mb.UnknownTags = readFlexTags(r, flex)
		})
		g.AuthorizedOperations = math.MinInt32
		if v >= 3 {
			g.AuthorizedOperations = r.Int32()
		}
		g.UnknownTags = readFlexTags(r, flex)
	})
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}
