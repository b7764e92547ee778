package wire

// DescribeShareGroupOffsetsRequest reads share groups' start offsets
// (KIP-932; API key 90, versions 0-1, flexible; v1 adds Lag, KIP-1226). Send
// it to the groups' coordinator. Source: DescribeShareGroupOffsetsRequest.json.
type DescribeShareGroupOffsetsRequest struct {
	// Groups are the groups to describe.
	Groups []DescribeShareGroupOffsetsGroup
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// DescribeShareGroupOffsetsGroup names one group and its topics.
type DescribeShareGroupOffsetsGroup struct {
	// GroupID is the group ID.
	GroupID string
	// Topics are the topics to describe, nil for all the group's topics.
	Topics []DescribeShareGroupOffsetsTopic
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// DescribeShareGroupOffsetsTopic names partitions of one topic.
type DescribeShareGroupOffsetsTopic struct {
	// TopicName is the topic name.
	TopicName string
	// Partitions are the partition indexes.
	Partitions []int32
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// Key returns KeyDescribeShareGroupOffsets.
func (*DescribeShareGroupOffsetsRequest) Key() APIKey { return KeyDescribeShareGroupOffsets }

// ResponseFor returns an empty *DescribeShareGroupOffsetsResponse.
func (*DescribeShareGroupOffsetsRequest) ResponseFor() Response {
	return &DescribeShareGroupOffsetsResponse{}
}

// AppendTo appends the request body for version v (header excluded).
func (m *DescribeShareGroupOffsetsRequest) AppendTo(dst []byte, v int16) []byte {
	dst = AppendArray(dst, true, m.Groups, func(dst []byte, g *DescribeShareGroupOffsetsGroup) []byte {
		dst = AppendString(dst, g.GroupID, true)
		dst = AppendNullableArray(dst, true, g.Topics, func(dst []byte, t *DescribeShareGroupOffsetsTopic) []byte {
			dst = AppendString(dst, t.TopicName, true)
			dst = AppendInt32Array(dst, true, t.Partitions)
			return AppendTags(dst, t.UnknownTags)
		})
		return AppendTags(dst, g.UnknownTags)
	})
	return AppendTags(dst, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *DescribeShareGroupOffsetsRequest) DecodeFrom(r *Reader, v int16) error {
	m.Groups = ReadArray(r, true, 3, func(r *Reader, g *DescribeShareGroupOffsetsGroup) {
		g.GroupID = r.String(true)
		g.Topics = ReadNullableArray(r, true, 3, func(r *Reader, t *DescribeShareGroupOffsetsTopic) {
			t.TopicName = r.String(true)
			t.Partitions = r.Int32Array(true)
			t.UnknownTags = r.ReadTags(nil)
		})
		g.UnknownTags = r.ReadTags(nil)
	})
	m.UnknownTags = r.ReadTags(nil)
	return r.Err()
}

// DescribeShareGroupOffsetsResponse holds share groups' start offsets.
type DescribeShareGroupOffsetsResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// Groups hold one entry per group.
	Groups []DescribeShareGroupOffsetsGroupResult
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// DescribeShareGroupOffsetsGroupResult is one group's offsets.
type DescribeShareGroupOffsetsGroupResult struct {
	// GroupID is the group ID.
	GroupID string
	// Topics hold one entry per topic.
	Topics []DescribeShareGroupOffsetsTopicResult
	// ErrorCode is the group-level error code, 0 on success.
	ErrorCode int16
	// ErrorMessage is the group-level error message, or nil.
	ErrorMessage *string
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// DescribeShareGroupOffsetsTopicResult is one topic's offsets.
type DescribeShareGroupOffsetsTopicResult struct {
	// TopicName is the topic name.
	TopicName string
	// TopicID is the topic ID.
	TopicID UUID
	// Partitions hold one entry per partition.
	Partitions []DescribeShareGroupOffsetsPartitionResult
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// DescribeShareGroupOffsetsPartitionResult is one partition's share-partition
// start offset (SPSO).
type DescribeShareGroupOffsetsPartitionResult struct {
	// PartitionIndex is the partition index.
	PartitionIndex int32
	// StartOffset is the share-partition start offset, -1 when not
	// initialized.
	StartOffset int64
	// LeaderEpoch is the leader epoch of the partition.
	LeaderEpoch int32
	// Lag is the number of records not yet acknowledged, -1 when unknown
	// (v1+; 0 and decoded as -1 below v1).
	Lag int64
	// ErrorCode is the partition's error code, 0 on success.
	ErrorCode int16
	// ErrorMessage is the partition's error message, or nil.
	ErrorMessage *string
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// Key returns KeyDescribeShareGroupOffsets.
func (*DescribeShareGroupOffsetsResponse) Key() APIKey { return KeyDescribeShareGroupOffsets }

// AppendTo appends the response body for version v (header excluded).
func (m *DescribeShareGroupOffsetsResponse) AppendTo(dst []byte, v int16) []byte {
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendArray(dst, true, m.Groups, func(dst []byte, g *DescribeShareGroupOffsetsGroupResult) []byte {
		dst = AppendString(dst, g.GroupID, true)
		dst = AppendArray(dst, true, g.Topics, func(dst []byte, t *DescribeShareGroupOffsetsTopicResult) []byte {
			dst = AppendString(dst, t.TopicName, true)
			dst = AppendUUID(dst, t.TopicID)
			dst = AppendArray(dst, true, t.Partitions, func(dst []byte, p *DescribeShareGroupOffsetsPartitionResult) []byte {
				dst = AppendInt32(dst, p.PartitionIndex)
				dst = AppendInt64(dst, p.StartOffset)
				dst = AppendInt32(dst, p.LeaderEpoch)
				if v >= 1 {
					dst = AppendInt64(dst, p.Lag)
				}
				dst = AppendInt16(dst, p.ErrorCode)
				dst = AppendNullableString(dst, p.ErrorMessage, true)
				return AppendTags(dst, p.UnknownTags)
			})
			return AppendTags(dst, t.UnknownTags)
		})
		dst = AppendInt16(dst, g.ErrorCode)
		dst = AppendNullableString(dst, g.ErrorMessage, true)
		return AppendTags(dst, g.UnknownTags)
	})
	return AppendTags(dst, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *DescribeShareGroupOffsetsResponse) DecodeFrom(r *Reader, v int16) error {
	m.ThrottleTimeMs = r.Int32()
	m.Groups = ReadArray(r, true, 6, func(r *Reader, g *DescribeShareGroupOffsetsGroupResult) {
		g.GroupID = r.String(true)
		g.Topics = ReadArray(r, true, 19, func(r *Reader, t *DescribeShareGroupOffsetsTopicResult) {
			t.TopicName = r.String(true)
			t.TopicID = r.UUID()
			t.Partitions = ReadArray(r, true, 20, func(r *Reader, p *DescribeShareGroupOffsetsPartitionResult) {
				p.PartitionIndex = r.Int32()
				p.StartOffset = r.Int64()
				p.LeaderEpoch = r.Int32()
				p.Lag = -1
				if v >= 1 {
					p.Lag = r.Int64()
				}
				p.ErrorCode = r.Int16()
				p.ErrorMessage = r.NullableString(true)
				p.UnknownTags = r.ReadTags(nil)
			})
			t.UnknownTags = r.ReadTags(nil)
		})
		g.ErrorCode = r.Int16()
		g.ErrorMessage = r.NullableString(true)
		g.UnknownTags = r.ReadTags(nil)
	})
	m.UnknownTags = r.ReadTags(nil)
	return r.Err()
}

// AlterShareGroupOffsetsRequest sets an empty share group's start offsets
// (KIP-932; API key 91, version 0, flexible). Send it to the group's
// coordinator. Source: AlterShareGroupOffsetsRequest.json.
type AlterShareGroupOffsetsRequest struct {
	// GroupID is the group ID.
	GroupID string
	// Topics are the topics to alter.
	Topics []AlterShareGroupOffsetsTopic
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// AlterShareGroupOffsetsTopic holds new start offsets of one topic.
type AlterShareGroupOffsetsTopic struct {
	// TopicName is the topic name.
	TopicName string
	// Partitions are the partitions with their new start offsets.
	Partitions []AlterShareGroupOffsetsPartition
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// AlterShareGroupOffsetsPartition is one partition's new start offset.
type AlterShareGroupOffsetsPartition struct {
	// PartitionIndex is the partition index.
	PartitionIndex int32
	// StartOffset is the new share-partition start offset.
	StartOffset int64
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// Key returns KeyAlterShareGroupOffsets.
func (*AlterShareGroupOffsetsRequest) Key() APIKey { return KeyAlterShareGroupOffsets }

// ResponseFor returns an empty *AlterShareGroupOffsetsResponse.
func (*AlterShareGroupOffsetsRequest) ResponseFor() Response {
	return &AlterShareGroupOffsetsResponse{}
}

// AppendTo appends the request body for version v (header excluded).
func (m *AlterShareGroupOffsetsRequest) AppendTo(dst []byte, v int16) []byte {
	dst = AppendString(dst, m.GroupID, true)
	dst = AppendArray(dst, true, m.Topics, func(dst []byte, t *AlterShareGroupOffsetsTopic) []byte {
		dst = AppendString(dst, t.TopicName, true)
		dst = AppendArray(dst, true, t.Partitions, func(dst []byte, p *AlterShareGroupOffsetsPartition) []byte {
			dst = AppendInt32(dst, p.PartitionIndex)
			dst = AppendInt64(dst, p.StartOffset)
			return AppendTags(dst, p.UnknownTags)
		})
		return AppendTags(dst, t.UnknownTags)
	})
	return AppendTags(dst, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *AlterShareGroupOffsetsRequest) DecodeFrom(r *Reader, v int16) error {
	m.GroupID = r.String(true)
	m.Topics = ReadArray(r, true, 3, func(r *Reader, t *AlterShareGroupOffsetsTopic) {
		t.TopicName = r.String(true)
		t.Partitions = ReadArray(r, true, 13, func(r *Reader, p *AlterShareGroupOffsetsPartition) {
			p.PartitionIndex = r.Int32()
			p.StartOffset = r.Int64()
			p.UnknownTags = r.ReadTags(nil)
		})
		t.UnknownTags = r.ReadTags(nil)
	})
	m.UnknownTags = r.ReadTags(nil)
	return r.Err()
}

// AlterShareGroupOffsetsResponse reports per-partition results.
type AlterShareGroupOffsetsResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// ErrorCode is the top-level error code (e.g. 68 NON_EMPTY_GROUP), 0 on
	// success.
	ErrorCode int16
	// ErrorMessage is the top-level error message, or nil.
	ErrorMessage *string
	// Responses hold one entry per topic.
	Responses []ShareGroupOffsetsTopicResult
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// ShareGroupOffsetsTopicResult is one topic's per-partition results of
// AlterShareGroupOffsets.
type ShareGroupOffsetsTopicResult struct {
	// TopicName is the topic name.
	TopicName string
	// TopicID is the topic ID.
	TopicID UUID
	// Partitions hold one entry per partition.
	Partitions []ShareGroupOffsetsPartitionResult
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// ShareGroupOffsetsPartitionResult is one partition's result.
type ShareGroupOffsetsPartitionResult struct {
	// PartitionIndex is the partition index.
	PartitionIndex int32
	// ErrorCode is the partition's error code, 0 on success.
	ErrorCode int16
	// ErrorMessage is the partition's error message, or nil.
	ErrorMessage *string
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// Key returns KeyAlterShareGroupOffsets.
func (*AlterShareGroupOffsetsResponse) Key() APIKey { return KeyAlterShareGroupOffsets }

// AppendTo appends the response body for version v (header excluded).
func (m *AlterShareGroupOffsetsResponse) AppendTo(dst []byte, v int16) []byte {
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendNullableString(dst, m.ErrorMessage, true)
	dst = AppendArray(dst, true, m.Responses, func(dst []byte, t *ShareGroupOffsetsTopicResult) []byte {
		dst = AppendString(dst, t.TopicName, true)
		dst = AppendUUID(dst, t.TopicID)
		dst = AppendArray(dst, true, t.Partitions, func(dst []byte, p *ShareGroupOffsetsPartitionResult) []byte {
			dst = AppendInt32(dst, p.PartitionIndex)
			dst = AppendInt16(dst, p.ErrorCode)
			dst = AppendNullableString(dst, p.ErrorMessage, true)
			return AppendTags(dst, p.UnknownTags)
		})
		return AppendTags(dst, t.UnknownTags)
	})
	return AppendTags(dst, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *AlterShareGroupOffsetsResponse) DecodeFrom(r *Reader, v int16) error {
	m.ThrottleTimeMs = r.Int32()
	m.ErrorCode = r.Int16()
	m.ErrorMessage = r.NullableString(true)
	m.Responses = ReadArray(r, true, 19, func(r *Reader, t *ShareGroupOffsetsTopicResult) {
		t.TopicName = r.String(true)
		t.TopicID = r.UUID()
		t.Partitions = ReadArray(r, true, 8, func(r *Reader, p *ShareGroupOffsetsPartitionResult) {
			p.PartitionIndex = r.Int32()
			p.ErrorCode = r.Int16()
			p.ErrorMessage = r.NullableString(true)
			p.UnknownTags = r.ReadTags(nil)
		})
		t.UnknownTags = r.ReadTags(nil)
	})
	m.UnknownTags = r.ReadTags(nil)
	return r.Err()
}

// DeleteShareGroupOffsetsRequest deletes an empty share group's state for
// whole topics (KIP-932; API key 92, version 0, flexible). Send it to the
// group's coordinator. Source: DeleteShareGroupOffsetsRequest.json.
type DeleteShareGroupOffsetsRequest struct {
	// GroupID is the group ID.
	GroupID string
	// Topics are the topics whose offsets are deleted.
	Topics []DeleteShareGroupOffsetsTopic
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// DeleteShareGroupOffsetsTopic names one topic.
type DeleteShareGroupOffsetsTopic struct {
	// TopicName is the topic name.
	TopicName string
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// Key returns KeyDeleteShareGroupOffsets.
func (*DeleteShareGroupOffsetsRequest) Key() APIKey { return KeyDeleteShareGroupOffsets }

// ResponseFor returns an empty *DeleteShareGroupOffsetsResponse.
func (*DeleteShareGroupOffsetsRequest) ResponseFor() Response {
	return &DeleteShareGroupOffsetsResponse{}
}

// AppendTo appends the request body for version v (header excluded).
func (m *DeleteShareGroupOffsetsRequest) AppendTo(dst []byte, v int16) []byte {
	dst = AppendString(dst, m.GroupID, true)
	dst = AppendArray(dst, true, m.Topics, func(dst []byte, t *DeleteShareGroupOffsetsTopic) []byte {
		dst = AppendString(dst, t.TopicName, true)
		return AppendTags(dst, t.UnknownTags)
	})
	return AppendTags(dst, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *DeleteShareGroupOffsetsRequest) DecodeFrom(r *Reader, v int16) error {
	m.GroupID = r.String(true)
	m.Topics = ReadArray(r, true, 2, func(r *Reader, t *DeleteShareGroupOffsetsTopic) {
		t.TopicName = r.String(true)
		t.UnknownTags = r.ReadTags(nil)
	})
	m.UnknownTags = r.ReadTags(nil)
	return r.Err()
}

// DeleteShareGroupOffsetsResponse reports per-topic results.
type DeleteShareGroupOffsetsResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// ErrorCode is the top-level error code (e.g. 68 NON_EMPTY_GROUP), 0 on
	// success.
	ErrorCode int16
	// ErrorMessage is the top-level error message, or nil.
	ErrorMessage *string
	// Responses hold one entry per topic.
	Responses []DeleteShareGroupOffsetsTopicResult
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// DeleteShareGroupOffsetsTopicResult is one topic's result.
type DeleteShareGroupOffsetsTopicResult struct {
	// TopicName is the topic name.
	TopicName string
	// TopicID is the topic ID.
	TopicID UUID
	// ErrorCode is the topic's error code, 0 on success.
	ErrorCode int16
	// ErrorMessage is the topic's error message, or nil.
	ErrorMessage *string
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// Key returns KeyDeleteShareGroupOffsets.
func (*DeleteShareGroupOffsetsResponse) Key() APIKey { return KeyDeleteShareGroupOffsets }

// AppendTo appends the response body for version v (header excluded).
func (m *DeleteShareGroupOffsetsResponse) AppendTo(dst []byte, v int16) []byte {
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendNullableString(dst, m.ErrorMessage, true)
	dst = AppendArray(dst, true, m.Responses, func(dst []byte, t *DeleteShareGroupOffsetsTopicResult) []byte {
		dst = AppendString(dst, t.TopicName, true)
		dst = AppendUUID(dst, t.TopicID)
		dst = AppendInt16(dst, t.ErrorCode)
		dst = AppendNullableString(dst, t.ErrorMessage, true)
		return AppendTags(dst, t.UnknownTags)
	})
	return AppendTags(dst, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *DeleteShareGroupOffsetsResponse) DecodeFrom(r *Reader, v int16) error {
	m.ThrottleTimeMs = r.Int32()
	m.ErrorCode = r.Int16()
	m.ErrorMessage = r.NullableString(true)
	m.Responses = ReadArray(r, true, 21, func(r *Reader, t *DeleteShareGroupOffsetsTopicResult) {
		t.TopicName = r.String(true)
		t.TopicID = r.UUID()
		t.ErrorCode = r.Int16()
		t.ErrorMessage = r.NullableString(true)
		t.UnknownTags = r.ReadTags(nil)
	})
	m.UnknownTags = r.ReadTags(nil)
	return r.Err()
}
