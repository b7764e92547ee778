package wire

// ConsumerGroupDescribeRequest describes consumer-protocol groups (KIP-848;
// API key 69, versions 0-1, all flexible). Send it to each group's
// coordinator. Source: ConsumerGroupDescribeRequest.json; KIP-1099 (v1).
type ConsumerGroupDescribeRequest struct {
	// GroupIDs are the groups to describe.
	GroupIDs []string
	// IncludeAuthorizedOperations asks for each group's authorized operations.
	IncludeAuthorizedOperations bool
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// Key returns KeyConsumerGroupDescribe.
func (*ConsumerGroupDescribeRequest) Key() APIKey { return KeyConsumerGroupDescribe }

// ResponseFor returns an empty *ConsumerGroupDescribeResponse.
func (*ConsumerGroupDescribeRequest) ResponseFor() Response {
	return &ConsumerGroupDescribeResponse{}
}

// AppendTo appends the request body for version v (header excluded).
func (m *ConsumerGroupDescribeRequest) AppendTo(dst []byte, v int16) []byte {
	dst = AppendStringArray(dst, true, m.GroupIDs)
	dst = AppendBool(dst, m.IncludeAuthorizedOperations)
	return AppendTags(dst, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *ConsumerGroupDescribeRequest) DecodeFrom(r *Reader, v int16) error {
	m.GroupIDs = r.StringArray(true)
	m.IncludeAuthorizedOperations = r.Bool()
	m.UnknownTags = r.ReadTags(nil)
	return r.Err()
}

// ConsumerGroupDescribeResponse describes consumer-protocol groups.
type ConsumerGroupDescribeResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// Groups holds one entry per group.
	Groups []ConsumerGroupDescribeGroup
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// ConsumerGroupDescribeGroup is one described group (DescribedGroup).
type ConsumerGroupDescribeGroup struct {
	// ErrorCode is the Kafka error code, 0 on success (69
	// GROUP_ID_NOT_FOUND for a missing or classic group).
	ErrorCode int16
	// ErrorMessage is the broker's message for ErrorCode, or nil.
	ErrorMessage *string
	// GroupID is the group ID.
	GroupID string
	// GroupState is e.g. "empty", "assigning", "reconciling", "stable", "dead".
	GroupState string
	// GroupEpoch is the group epoch.
	GroupEpoch int32
	// AssignmentEpoch is the epoch of the target assignment.
	AssignmentEpoch int32
	// AssignorName is the server-side assignor in use.
	AssignorName string
	// Members are the group's members.
	Members []ConsumerGroupDescribeMember
	// AuthorizedOperations is a bitfield, math.MinInt32 when not requested.
	AuthorizedOperations int32
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// ConsumerGroupDescribeMember is one member of a consumer-protocol group.
type ConsumerGroupDescribeMember struct {
	// MemberID is the member ID the coordinator assigned.
	MemberID string
	// InstanceID is the static member ID (group.instance.id), or nil.
	InstanceID *string
	// RackID is the member's rack (client.rack), or nil.
	RackID *string
	// MemberEpoch is the member's current epoch.
	MemberEpoch int32
	// ClientID is the member's client.id.
	ClientID string
	// ClientHost is the member's host as the broker saw it.
	ClientHost string
	// SubscribedTopicNames are the member's subscribed topics.
	SubscribedTopicNames []string
	// SubscribedTopicRegex is the member's subscribed regex (KIP-848), or nil.
	SubscribedTopicRegex *string
	// Assignment is the member's current assignment.
	Assignment ConsumerGroupDescribeAssignment
	// TargetAssignment is the assignment the member is moving to.
	TargetAssignment ConsumerGroupDescribeAssignment
	// MemberType is -1 unknown, 0 classic, 1 consumer (v1+, KIP-1099).
	MemberType int8
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// ConsumerGroupDescribeAssignment is a member's (target) assignment.
type ConsumerGroupDescribeAssignment struct {
	// TopicPartitions lists the assigned partitions per topic.
	TopicPartitions []ConsumerGroupDescribeTopicPartitions
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// ConsumerGroupDescribeTopicPartitions lists assigned partitions of one topic.
type ConsumerGroupDescribeTopicPartitions struct {
	// TopicID is the topic ID (zero when unknown).
	TopicID UUID
	// TopicName is the topic name.
	TopicName string
	// Partitions are the assigned partition indexes.
	Partitions []int32
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// Key returns KeyConsumerGroupDescribe.
func (*ConsumerGroupDescribeResponse) Key() APIKey { return KeyConsumerGroupDescribe }

func appendCGDAssignment(dst []byte, a *ConsumerGroupDescribeAssignment) []byte {
	dst = AppendArray(dst, true, a.TopicPartitions, func(dst []byte, tp *ConsumerGroupDescribeTopicPartitions) []byte {
		dst = AppendUUID(dst, tp.TopicID)
		dst = AppendString(dst, tp.TopicName, true)
		dst = AppendInt32Array(dst, true, tp.Partitions)
		return AppendTags(dst, tp.UnknownTags)
	})
	return AppendTags(dst, a.UnknownTags)
}

func readCGDAssignment(r *Reader, a *ConsumerGroupDescribeAssignment) {
	a.TopicPartitions = ReadArray(r, true, 19, func(r *Reader, tp *ConsumerGroupDescribeTopicPartitions) {
		tp.TopicID = r.UUID()
		tp.TopicName = r.String(true)
		tp.Partitions = r.Int32Array(true)
		tp.UnknownTags = r.ReadTags(nil)
	})
	a.UnknownTags = r.ReadTags(nil)
}

// AppendTo appends the response body for version v (header excluded).
func (m *ConsumerGroupDescribeResponse) AppendTo(dst []byte, v int16) []byte {
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendArray(dst, true, m.Groups, func(dst []byte, g *ConsumerGroupDescribeGroup) []byte {
		dst = AppendInt16(dst, g.ErrorCode)
		dst = AppendNullableString(dst, g.ErrorMessage, true)
		dst = AppendString(dst, g.GroupID, true)
		dst = AppendString(dst, g.GroupState, true)
		dst = AppendInt32(dst, g.GroupEpoch)
		dst = AppendInt32(dst, g.AssignmentEpoch)
		dst = AppendString(dst, g.AssignorName, true)
		dst = AppendArray(dst, true, g.Members, func(dst []byte, mb *ConsumerGroupDescribeMember) []byte {
			dst = AppendString(dst, mb.MemberID, true)
			dst = AppendNullableString(dst, mb.InstanceID, true)
			dst = AppendNullableString(dst, mb.RackID, true)
			dst = AppendInt32(dst, mb.MemberEpoch)
			dst = AppendString(dst, mb.ClientID, true)
			dst = AppendString(dst, mb.ClientHost, true)
			dst = AppendStringArray(dst, true, mb.SubscribedTopicNames)
			dst = AppendNullableString(dst, mb.SubscribedTopicRegex, true)
			dst = appendCGDAssignment(dst, &mb.Assignment)
			dst = appendCGDAssignment(dst, &mb.TargetAssignment)
			if v >= 1 {
				dst = AppendInt8(dst, mb.MemberType)
			}
			return AppendTags(dst, mb.UnknownTags)
		})
		dst = AppendInt32(dst, g.AuthorizedOperations)
		return AppendTags(dst, g.UnknownTags)
	})
	return AppendTags(dst, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *ConsumerGroupDescribeResponse) DecodeFrom(r *Reader, v int16) error {
	m.ThrottleTimeMs = r.Int32()
	m.Groups = ReadArray(r, true, 20, func(r *Reader, g *ConsumerGroupDescribeGroup) {
		g.ErrorCode = r.Int16()
		g.ErrorMessage = r.NullableString(true)
		g.GroupID = r.String(true)
		g.GroupState = r.String(true)
		g.GroupEpoch = r.Int32()
		g.AssignmentEpoch = r.Int32()
		g.AssignorName = r.String(true)
		g.Members = ReadArray(r, true, 18, func(r *Reader, mb *ConsumerGroupDescribeMember) {
			mb.MemberID = r.String(true)
			mb.InstanceID = r.NullableString(true)
			mb.RackID = r.NullableString(true)
			mb.MemberEpoch = r.Int32()
			mb.ClientID = r.String(true)
			mb.ClientHost = r.String(true)
			mb.SubscribedTopicNames = r.StringArray(true)
			mb.SubscribedTopicRegex = r.NullableString(true)
			readCGDAssignment(r, &mb.Assignment)
			readCGDAssignment(r, &mb.TargetAssignment)
			mb.MemberType = -1
			if v >= 1 {
				mb.MemberType = r.Int8()
			}
			mb.UnknownTags = r.ReadTags(nil)
		})
		g.AuthorizedOperations = r.Int32()
		g.UnknownTags = r.ReadTags(nil)
	})
	m.UnknownTags = r.ReadTags(nil)
	return r.Err()
}
