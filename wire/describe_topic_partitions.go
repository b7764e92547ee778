package wire

// DescribeTopicPartitionsRequest describes the partitions of topics, paged by a cursor (API key 75, version 0, all flexible).
// Source: DescribeTopicPartitionsRequest.json; KIP-966.
type DescribeTopicPartitionsRequest struct {
	// Topics holds the topics to fetch details for.
	Topics []DescribeTopicPartitionsTopicRequest
	// ResponsePartitionLimit is the maximum number of partitions included in the response. Kafka's default: 2000.
	ResponsePartitionLimit int32
	// Cursor is the first topic and partition index to fetch details for. Nil is null.
	Cursor *DescribeTopicPartitionsCursor
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeTopicPartitionsTopicRequest is the topics to fetch details for.
type DescribeTopicPartitionsTopicRequest struct {
	// Name is the topic name.
	Name string
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeTopicPartitionsCursor is the first topic and partition index to fetch details for.
type DescribeTopicPartitionsCursor struct {
	// TopicName is the name for the first topic to process.
	TopicName string
	// PartitionIndex is the partition index to start with.
	PartitionIndex int32
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyDescribeTopicPartitions.
func (*DescribeTopicPartitionsRequest) Key() APIKey { return KeyDescribeTopicPartitions }

// ResponseFor returns an empty *DescribeTopicPartitionsResponse.
func (*DescribeTopicPartitionsRequest) ResponseFor() Response {
	return &DescribeTopicPartitionsResponse{}
}

// AppendTo appends the request body for version v (header excluded).
func (m *DescribeTopicPartitionsRequest) AppendTo(dst []byte, v int16) []byte {
	const flex = true
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, x *DescribeTopicPartitionsTopicRequest) []byte { return x.appendTo(dst, v, flex) })
	dst = AppendInt32(dst, m.ResponsePartitionLimit)
	if m.Cursor == nil {
		dst = AppendInt8(dst, -1)
	} else {
		dst = AppendInt8(dst, 1)
		dst = m.Cursor.appendTo(dst, v, flex)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *DescribeTopicPartitionsRequest) DecodeFrom(r *Reader, v int16) error {
	const flex = true
	m.Topics = ReadArray(r, flex, 2, func(r *Reader, x *DescribeTopicPartitionsTopicRequest) { x.readFrom(r, v, flex) })
	m.ResponsePartitionLimit = r.Int32()
	if r.Int8() >= 0 {
		m.Cursor = new(DescribeTopicPartitionsCursor)
		m.Cursor.readFrom(r, v, flex)
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *DescribeTopicPartitionsTopicRequest) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.Name, flex)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeTopicPartitionsTopicRequest) readFrom(r *Reader, v int16, flex bool) {
	m.Name = r.String(flex)
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *DescribeTopicPartitionsCursor) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.TopicName, flex)
	dst = AppendInt32(dst, m.PartitionIndex)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeTopicPartitionsCursor) readFrom(r *Reader, v int16, flex bool) {
	m.TopicName = r.String(flex)
	m.PartitionIndex = r.Int32()
	m.UnknownTags = readFlexTags(r, flex)
}

// DescribeTopicPartitionsResponse answers a DescribeTopicPartitionsRequest.
type DescribeTopicPartitionsResponse struct {
	// ThrottleTimeMs is the duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
	ThrottleTimeMs int32
	// Topics holds each topic in the response.
	Topics []DescribeTopicPartitionsResponseTopic
	// NextCursor is the next topic and partition index to fetch details for. Nil is null.
	NextCursor *DescribeTopicPartitionsResponseCursor
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeTopicPartitionsResponseTopic is each topic in the response.
type DescribeTopicPartitionsResponseTopic struct {
	// ErrorCode is the topic error, or 0 if there was no error.
	ErrorCode int16
	// Name is the topic name. Nil is null.
	Name *string
	// TopicID is the topic id.
	TopicID UUID
	// IsInternal is used true if the topic is internal.
	IsInternal bool
	// Partitions holds each partition in the topic.
	Partitions []DescribeTopicPartitionsResponsePartition
	// TopicAuthorizedOperations is the 32-bit bitfield to represent authorized operations for this topic. Kafka's default: -2147483648.
	TopicAuthorizedOperations int32
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeTopicPartitionsResponsePartition is each partition in the topic.
type DescribeTopicPartitionsResponsePartition struct {
	// ErrorCode is the partition error, or 0 if there was no error.
	ErrorCode int16
	// PartitionIndex is the partition index.
	PartitionIndex int32
	// LeaderID is the ID of the leader broker.
	LeaderID int32
	// LeaderEpoch is the leader epoch of this partition. Kafka's default: -1.
	LeaderEpoch int32
	// ReplicaNodes holds the set of all nodes that host this partition.
	ReplicaNodes []int32
	// IsrNodes holds the set of nodes that are in sync with the leader for this partition.
	IsrNodes []int32
	// EligibleLeaderReplicas holds the new eligible leader replicas otherwise. Nil is null.
	EligibleLeaderReplicas []int32
	// LastKnownElr holds the last known ELR. Nil is null.
	LastKnownElr []int32
	// OfflineReplicas holds the set of offline replicas of this partition.
	OfflineReplicas []int32
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeTopicPartitionsResponseCursor is the next topic and partition index to fetch details for.
type DescribeTopicPartitionsResponseCursor struct {
	// TopicName is the name for the first topic to process.
	TopicName string
	// PartitionIndex is the partition index to start with.
	PartitionIndex int32
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyDescribeTopicPartitions.
func (*DescribeTopicPartitionsResponse) Key() APIKey { return KeyDescribeTopicPartitions }

// AppendTo appends the response body for version v (header excluded).
func (m *DescribeTopicPartitionsResponse) AppendTo(dst []byte, v int16) []byte {
	const flex = true
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, x *DescribeTopicPartitionsResponseTopic) []byte { return x.appendTo(dst, v, flex) })
	if m.NextCursor == nil {
		dst = AppendInt8(dst, -1)
	} else {
		dst = AppendInt8(dst, 1)
		dst = m.NextCursor.appendTo(dst, v, flex)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *DescribeTopicPartitionsResponse) DecodeFrom(r *Reader, v int16) error {
	const flex = true
	m.ThrottleTimeMs = r.Int32()
	m.Topics = ReadArray(r, flex, 26, func(r *Reader, x *DescribeTopicPartitionsResponseTopic) { x.readFrom(r, v, flex) })
	if r.Int8() >= 0 {
		m.NextCursor = new(DescribeTopicPartitionsResponseCursor)
		m.NextCursor.readFrom(r, v, flex)
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *DescribeTopicPartitionsResponseTopic) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendNullableString(dst, m.Name, flex)
	dst = AppendUUID(dst, m.TopicID)
	dst = AppendBool(dst, m.IsInternal)
	dst = AppendArray(dst, flex, m.Partitions, func(dst []byte, x *DescribeTopicPartitionsResponsePartition) []byte { return x.appendTo(dst, v, flex) })
	dst = AppendInt32(dst, m.TopicAuthorizedOperations)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeTopicPartitionsResponseTopic) readFrom(r *Reader, v int16, flex bool) {
	m.ErrorCode = r.Int16()
	m.Name = r.NullableString(flex)
	m.TopicID = r.UUID()
	m.IsInternal = r.Bool()
	m.Partitions = ReadArray(r, flex, 20, func(r *Reader, x *DescribeTopicPartitionsResponsePartition) { x.readFrom(r, v, flex) })
	m.TopicAuthorizedOperations = r.Int32()
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *DescribeTopicPartitionsResponsePartition) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendInt32(dst, m.PartitionIndex)
	dst = AppendInt32(dst, m.LeaderID)
	dst = AppendInt32(dst, m.LeaderEpoch)
	dst = AppendArray(dst, flex, m.ReplicaNodes, func(dst []byte, x *int32) []byte { return AppendInt32(dst, *x) })
	dst = AppendArray(dst, flex, m.IsrNodes, func(dst []byte, x *int32) []byte { return AppendInt32(dst, *x) })
	dst = AppendNullableArray(dst, flex, m.EligibleLeaderReplicas, func(dst []byte, x *int32) []byte { return AppendInt32(dst, *x) })
	dst = AppendNullableArray(dst, flex, m.LastKnownElr, func(dst []byte, x *int32) []byte { return AppendInt32(dst, *x) })
	dst = AppendArray(dst, flex, m.OfflineReplicas, func(dst []byte, x *int32) []byte { return AppendInt32(dst, *x) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeTopicPartitionsResponsePartition) readFrom(r *Reader, v int16, flex bool) {
	m.ErrorCode = r.Int16()
	m.PartitionIndex = r.Int32()
	m.LeaderID = r.Int32()
	m.LeaderEpoch = r.Int32()
	m.ReplicaNodes = ReadArray(r, flex, 4, func(r *Reader, x *int32) { *x = r.Int32() })
	m.IsrNodes = ReadArray(r, flex, 4, func(r *Reader, x *int32) { *x = r.Int32() })
	m.EligibleLeaderReplicas = ReadNullableArray(r, flex, 4, func(r *Reader, x *int32) { *x = r.Int32() })
	m.LastKnownElr = ReadNullableArray(r, flex, 4, func(r *Reader, x *int32) { *x = r.Int32() })
	m.OfflineReplicas = ReadArray(r, flex, 4, func(r *Reader, x *int32) { *x = r.Int32() })
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *DescribeTopicPartitionsResponseCursor) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.TopicName, flex)
	dst = AppendInt32(dst, m.PartitionIndex)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeTopicPartitionsResponseCursor) readFrom(r *Reader, v int16, flex bool) {
	m.TopicName = r.String(flex)
	m.PartitionIndex = r.Int32()
	m.UnknownTags = readFlexTags(r, flex)
}
