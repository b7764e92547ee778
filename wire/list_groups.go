package wire

// ListGroupsRequest lists the groups a broker coordinates (API key 16,
// versions 0-5, flexible from v3). Send it to every broker to list all groups.
// Source: ListGroupsRequest.json; KIP-518 (states filter), KIP-848 (types).
type ListGroupsRequest struct {
	// StatesFilter keeps only groups in these states (v4+); empty keeps all.
	StatesFilter []string
	// TypesFilter keeps only groups of these types (v5+); empty keeps all.
	TypesFilter []string
	// UnknownTags keeps unknown tagged fields (v3+).
	UnknownTags []TaggedField
}

// Key returns KeyListGroups.
func (*ListGroupsRequest) Key() APIKey { return KeyListGroups }

// ResponseFor returns an empty *ListGroupsResponse.
func (*ListGroupsRequest) ResponseFor() Response { return &ListGroupsResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *ListGroupsRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 3
	if v >= 4 {
		dst = AppendStringArray(dst, flex, m.StatesFilter)
	}
	if v >= 5 {
		dst = AppendStringArray(dst, flex, m.TypesFilter)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *ListGroupsRequest) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 3
	if v >= 4 {
		m.StatesFilter = r.StringArray(flex)
	}
	if v >= 5 {
		m.TypesFilter = r.StringArray(flex)
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// ListGroupsResponse lists the groups one broker coordinates.
type ListGroupsResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds (v1+).
	ThrottleTimeMs int32
	// ErrorCode is the Kafka error code, 0 on success.
	ErrorCode int16
	// Groups holds one entry per group.
	Groups []ListGroupsGroup
	// UnknownTags keeps unknown tagged fields (v3+).
	UnknownTags []TaggedField
}

// ListGroupsGroup is one listed group (ListedGroup).
type ListGroupsGroup struct {
	// GroupID is the group ID.
	GroupID string
	// ProtocolType is "consumer" for consumer groups, "" for others.
	ProtocolType string
	// GroupState is the state name (v4+).
	GroupState string
	// GroupType is "classic", "consumer", "share" or "streams" (v5+).
	GroupType string
	// UnknownTags keeps unknown tagged fields (v3+).
	UnknownTags []TaggedField
}

// Key returns KeyListGroups.
func (*ListGroupsResponse) Key() APIKey { return KeyListGroups }

// AppendTo appends the response body for version v (header excluded).
func (m *ListGroupsResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 3
	if v >= 1 {
		dst = AppendInt32(dst, m.ThrottleTimeMs)
	}
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendArray(dst, flex, m.Groups, func(dst []byte, g *ListGroupsGroup) []byte {
		dst = AppendString(dst, g.GroupID, flex)
		dst = AppendString(dst, g.ProtocolType, flex)
		if v >= 4 {
			dst = AppendString(dst, g.GroupState, flex)
		}
		if v >= 5 {
			dst = AppendString(dst, g.GroupType, flex)
		}
		return appendFlexTags(dst, flex, g.UnknownTags)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *ListGroupsResponse) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 3
	if v >= 1 {
		m.ThrottleTimeMs = r.Int32()
	}
	m.ErrorCode = r.Int16()
	m.Groups = ReadArray(r, flex, 2, func(r *Reader, g *ListGroupsGroup) {
		g.GroupID = r.String(flex)
		g.ProtocolType = r.String(flex)
		if v >= 4 {
			g.GroupState = r.String(flex)
		}
		if v >= 5 {
			g.GroupType = r.String(flex)
		}
		g.UnknownTags = readFlexTags(r, flex)
	})
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}
