package wire

// ShareGroupDescribeRequest describes share groups (KIP-932; API key 77,
// version 1, flexible). Send it to each group's coordinator. Source:
// ShareGroupDescribeRequest.json.
type ShareGroupDescribeRequest struct {
	// GroupIDs are the groups to describe.
	GroupIDs []string
	// IncludeAuthorizedOperations asks for each group's authorized operations.
	IncludeAuthorizedOperations bool
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// Key returns KeyShareGroupDescribe.
func (*ShareGroupDescribeRequest) Key() APIKey { return KeyShareGroupDescribe }

// ResponseFor returns an empty *ShareGroupDescribeResponse.
func (*ShareGroupDescribeRequest) ResponseFor() Response { return &ShareGroupDescribeResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *ShareGroupDescribeRequest) AppendTo(dst []byte, v int16) []byte {
	dst = AppendStringArray(dst, true, m.GroupIDs)
	dst = AppendBool(dst, m.IncludeAuthorizedOperations)
	return AppendTags(dst, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *ShareGroupDescribeRequest) DecodeFrom(r *Reader, v int16) error {
	m.GroupIDs = r.StringArray(true)
	m.IncludeAuthorizedOperations = r.Bool()
	m.UnknownTags = r.ReadTags(nil)
	return r.Err()
}

// ShareGroupDescribeResponse describes share groups.
type ShareGroupDescribeResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// Groups holds one entry per group.
	Groups []ShareGroupDescribeGroup
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// ShareGroupDescribeGroup is one described share group.
type ShareGroupDescribeGroup struct {
	// ErrorCode is the Kafka error code, 0 on success (69
	// GROUP_ID_NOT_FOUND for a missing group or one of another type).
	ErrorCode int16
	// ErrorMessage is the broker's message for ErrorCode, or nil.
	ErrorMessage *string
	// GroupID is the group ID.
	GroupID string
	// GroupState is "Empty", "Stable" or "Dead".
	GroupState string
	// GroupEpoch is the group epoch.
	GroupEpoch int32
	// AssignmentEpoch is the epoch of the target assignment.
	AssignmentEpoch int32
	// AssignorName is the server-side assignor in use ("simple").
	AssignorName string
	// Members are the group's members.
	Members []ShareGroupDescribeMember
	// AuthorizedOperations is a bitfield, math.MinInt32 when not requested.
	AuthorizedOperations int32
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// ShareGroupDescribeMember is one member of a share group.
type ShareGroupDescribeMember struct {
	// MemberID is the member ID.
	MemberID string
	// RackID is the member's rack, or nil.
	RackID *string
	// MemberEpoch is the member's current epoch.
	MemberEpoch int32
	// ClientID is the member's client.id.
	ClientID string
	// ClientHost is the member's host as the broker saw it.
	ClientHost string
	// SubscribedTopicNames are the member's subscribed topics.
	SubscribedTopicNames []string
	// Assignment is the member's assignment (the ConsumerGroupDescribe
	// shape: topic ID, name, partitions).
	Assignment ConsumerGroupDescribeAssignment
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// Key returns KeyShareGroupDescribe.
func (*ShareGroupDescribeResponse) Key() APIKey { return KeyShareGroupDescribe }

// AppendTo appends the response body for version v (header excluded).
func (m *ShareGroupDescribeResponse) AppendTo(dst []byte, v int16) []byte {
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendArray(dst, true, m.Groups, func(dst []byte, g *ShareGroupDescribeGroup) []byte {
		dst = AppendInt16(dst, g.ErrorCode)
		dst = AppendNullableString(dst, g.ErrorMessage, true)
		dst = AppendString(dst, g.GroupID, true)
		dst = AppendString(dst, g.GroupState, true)
		dst = AppendInt32(dst, g.GroupEpoch)
		dst = AppendInt32(dst, g.AssignmentEpoch)
		dst = AppendString(dst, g.AssignorName, true)
		dst = AppendArray(dst, true, g.Members, func(dst []byte, mb *ShareGroupDescribeMember) []byte {
			dst = AppendString(dst, mb.MemberID, true)
			dst = AppendNullableString(dst, mb.RackID, true)
			dst = AppendInt32(dst, mb.MemberEpoch)
			dst = AppendString(dst, mb.ClientID, true)
			dst = AppendString(dst, mb.ClientHost, true)
			dst = AppendStringArray(dst, true, mb.SubscribedTopicNames)
			dst = appendCGDAssignment(dst, &mb.Assignment)
			return AppendTags(dst, mb.UnknownTags)
		})
		dst = AppendInt32(dst, g.AuthorizedOperations)
		return AppendTags(dst, g.UnknownTags)
	})
	return AppendTags(dst, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *ShareGroupDescribeResponse) DecodeFrom(r *Reader, v int16) error {
	m.ThrottleTimeMs = r.Int32()
	m.Groups = ReadArray(r, true, 20, func(r *Reader, g *ShareGroupDescribeGroup) {
		g.ErrorCode = r.Int16()
		g.ErrorMessage = r.NullableString(true)
		g.GroupID = r.String(true)
		g.GroupState = r.String(true)
		g.GroupEpoch = r.Int32()
		g.AssignmentEpoch = r.Int32()
		g.AssignorName = r.String(true)
		g.Members = ReadArray(r, true, 11, func(r *Reader, mb *ShareGroupDescribeMember) {
			mb.MemberID = r.String(true)
			mb.RackID = r.NullableString(true)
			mb.MemberEpoch = r.Int32()
			mb.ClientID = r.String(true)
			mb.ClientHost = r.String(true)
			mb.SubscribedTopicNames = r.StringArray(true)
			readCGDAssignment(r, &mb.Assignment)
			mb.UnknownTags = r.ReadTags(nil)
		})
		g.AuthorizedOperations = r.Int32()
		g.UnknownTags = r.ReadTags(nil)
	})
	m.UnknownTags = r.ReadTags(nil)
	return r.Err()
}
