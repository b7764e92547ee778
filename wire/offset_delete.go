package wire

// OffsetDeleteRequest deletes committed offsets of a group for partitions the
// group no longer consumes (API key 47, version 0, not flexible). Send it to
// the group coordinator. Source: OffsetDeleteRequest.json; KIP-496.
type OffsetDeleteRequest struct {
	// GroupID is the group ID.
	GroupID string
	// Topics are the topics of the request.
	Topics []OffsetDeleteTopic
}

// OffsetDeleteTopic is one topic of an OffsetDeleteRequest.
type OffsetDeleteTopic struct {
	// Name is the topic name.
	Name string
	// Partitions are the partition indexes whose offsets to delete.
	Partitions []int32
}

// Key returns KeyOffsetDelete.
func (*OffsetDeleteRequest) Key() APIKey { return KeyOffsetDelete }

// ResponseFor returns an empty *OffsetDeleteResponse.
func (*OffsetDeleteRequest) ResponseFor() Response { return &OffsetDeleteResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *OffsetDeleteRequest) AppendTo(dst []byte, v int16) []byte {
	dst = AppendString(dst, m.GroupID, false)
	return AppendArray(dst, false, m.Topics, func(dst []byte, t *OffsetDeleteTopic) []byte {
		dst = AppendString(dst, t.Name, false)
		// Each partition is a struct holding only PartitionIndex.
		return AppendInt32Array(dst, false, t.Partitions)
	})
}

// DecodeFrom decodes the request body for version v.
func (m *OffsetDeleteRequest) DecodeFrom(r *Reader, v int16) error {
	m.GroupID = r.String(false)
	m.Topics = ReadArray(r, false, 6, func(r *Reader, t *OffsetDeleteTopic) {
		t.Name = r.String(false)
		t.Partitions = r.Int32Array(false)
	})
	return r.Err()
}

// OffsetDeleteResponse answers an OffsetDeleteRequest.
type OffsetDeleteResponse struct {
	// ErrorCode is the group-level Kafka error code, 0 on success.
	ErrorCode int16
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// Topics are the topics of the response.
	Topics []OffsetDeleteTopicResult
}

// OffsetDeleteTopicResult is one topic of an OffsetDeleteResponse.
type OffsetDeleteTopicResult struct {
	// Name is the topic name.
	Name string
	// Partitions are the partitions of the topic.
	Partitions []OffsetDeletePartitionResult
}

// OffsetDeletePartitionResult is the outcome for one partition (e.g. 86
// GROUP_SUBSCRIBED_TO_TOPIC when the group still consumes it).
type OffsetDeletePartitionResult struct {
	// PartitionIndex is the partition.
	PartitionIndex int32
	// ErrorCode is the Kafka error code, 0 on success (see ErrorForCode).
	ErrorCode int16
}

// Key returns KeyOffsetDelete.
func (*OffsetDeleteResponse) Key() APIKey { return KeyOffsetDelete }

// AppendTo appends the response body for version v (header excluded).
func (m *OffsetDeleteResponse) AppendTo(dst []byte, v int16) []byte {
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	return AppendArray(dst, false, m.Topics, func(dst []byte, t *OffsetDeleteTopicResult) []byte {
		dst = AppendString(dst, t.Name, false)
		return AppendArray(dst, false, t.Partitions, func(dst []byte, p *OffsetDeletePartitionResult) []byte {
			dst = AppendInt32(dst, p.PartitionIndex)
			return AppendInt16(dst, p.ErrorCode)
		})
	})
}

// DecodeFrom decodes the response body for version v.
func (m *OffsetDeleteResponse) DecodeFrom(r *Reader, v int16) error {
	m.ErrorCode = r.Int16()
	m.ThrottleTimeMs = r.Int32()
	m.Topics = ReadArray(r, false, 6, func(r *Reader, t *OffsetDeleteTopicResult) {
		t.Name = r.String(false)
		t.Partitions = ReadArray(r, false, 6, func(r *Reader, p *OffsetDeletePartitionResult) {
			p.PartitionIndex = r.Int32()
			p.ErrorCode = r.Int16()
		})
	})
	return r.Err()
}
