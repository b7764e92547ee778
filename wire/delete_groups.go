package wire

// DeleteGroupsRequest deletes empty groups (API key 42, versions 0-3,
// flexible from v2). Send it to each group's coordinator. Source:
// DeleteGroupsRequest.json; v3 adds a per-group error message (KAFKA-20620).
type DeleteGroupsRequest struct {
	// GroupsNames are the group IDs to delete.
	GroupsNames []string
	// UnknownTags keeps unknown tagged fields (v2+).
	UnknownTags []TaggedField
}

// Key returns KeyDeleteGroups.
func (*DeleteGroupsRequest) Key() APIKey { return KeyDeleteGroups }

// ResponseFor returns an empty *DeleteGroupsResponse.
func (*DeleteGroupsRequest) ResponseFor() Response { return &DeleteGroupsResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *DeleteGroupsRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 2
	dst = AppendStringArray(dst, flex, m.GroupsNames)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *DeleteGroupsRequest) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 2
	m.GroupsNames = r.StringArray(flex)
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// DeleteGroupsResponse answers a DeleteGroupsRequest, one result per group.
type DeleteGroupsResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// Results holds one result per resource, in the broker's order.
	Results []DeleteGroupsResult
	// UnknownTags keeps unknown tagged fields (v2+).
	UnknownTags []TaggedField
}

// DeleteGroupsResult is the outcome for one group (DeletableGroupResult).
type DeleteGroupsResult struct {
	// GroupID is the group ID.
	GroupID string
	// ErrorCode is the Kafka error code, 0 on success (e.g. 68
	// NON_EMPTY_GROUP, 69 GROUP_ID_NOT_FOUND).
	ErrorCode int16
	// ErrorMessage is the broker's message (v3+), or nil.
	ErrorMessage *string
	// UnknownTags keeps unknown tagged fields (v2+).
	UnknownTags []TaggedField
}

// Key returns KeyDeleteGroups.
func (*DeleteGroupsResponse) Key() APIKey { return KeyDeleteGroups }

// AppendTo appends the response body for version v (header excluded).
func (m *DeleteGroupsResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 2
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendArray(dst, flex, m.Results, func(dst []byte, g *DeleteGroupsResult) []byte {
		dst = AppendString(dst, g.GroupID, flex)
		dst = AppendInt16(dst, g.ErrorCode)
		if v >= 3 {
			dst = AppendNullableString(dst, g.ErrorMessage, flex)
		}
		return appendFlexTags(dst, flex, g.UnknownTags)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *DeleteGroupsResponse) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 2
	m.ThrottleTimeMs = r.Int32()
	m.Results = ReadArray(r, flex, 3, func(r *Reader, g *DeleteGroupsResult) {
		g.GroupID = r.String(flex)
		g.ErrorCode = r.Int16()
		if v >= 3 {
			g.ErrorMessage = r.NullableString(flex)
		}
		g.UnknownTags = readFlexTags(r, flex)
	})
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}
