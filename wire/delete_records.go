package wire

// DeleteRecordsRequest advances the log start offset of partitions (API key
// 21, versions 0-2, flexible from v2). It goes to each partition's leader.
// Source: DeleteRecordsRequest.json; KIP-107.
type DeleteRecordsRequest struct {
	// Topics are the topics to delete records from.
	Topics []DeleteRecordsTopic
	// TimeoutMs is how long to wait for the deletion, in milliseconds.
	TimeoutMs int32
	// UnknownTags keeps unknown tagged fields (v2+).
	UnknownTags []TaggedField
}

// DeleteRecordsTopic is one topic of a DeleteRecordsRequest.
type DeleteRecordsTopic struct {
	// Name is the topic name.
	Name string
	// Partitions are the partitions of the topic.
	Partitions []DeleteRecordsPartition
	// UnknownTags keeps unknown tagged fields (v2+).
	UnknownTags []TaggedField
}

// DeleteRecordsPartition deletes the records of one partition before Offset.
type DeleteRecordsPartition struct {
	// PartitionIndex is the partition.
	PartitionIndex int32
	// Offset is the exclusive cutoff; -1 deletes up to the high watermark.
	Offset int64
	// UnknownTags keeps unknown tagged fields (v2+).
	UnknownTags []TaggedField
}

// Key returns KeyDeleteRecords.
func (*DeleteRecordsRequest) Key() APIKey { return KeyDeleteRecords }

// ResponseFor returns an empty *DeleteRecordsResponse.
func (*DeleteRecordsRequest) ResponseFor() Response { return &DeleteRecordsResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *DeleteRecordsRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 2
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, t *DeleteRecordsTopic) []byte {
		dst = AppendString(dst, t.Name, flex)
		dst = AppendArray(dst, flex, t.Partitions, func(dst []byte, p *DeleteRecordsPartition) []byte {
			dst = AppendInt32(dst, p.PartitionIndex)
			dst = AppendInt64(dst, p.Offset)
			return appendFlexTags(dst, flex, p.UnknownTags)
		})
		return appendFlexTags(dst, flex, t.UnknownTags)
	})
	dst = AppendInt32(dst, m.TimeoutMs)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *DeleteRecordsRequest) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 2
	m.Topics = ReadArray(r, flex, 2, func(r *Reader, t *DeleteRecordsTopic) {
		t.Name = r.String(flex)
		t.Partitions = ReadArray(r, flex, 12, func(r *Reader, p *DeleteRecordsPartition) {
			p.PartitionIndex = r.Int32()
			p.Offset = r.Int64()
			p.UnknownTags = readFlexTags(r, flex)
		})
		t.UnknownTags = readFlexTags(r, flex)
	})
	m.TimeoutMs = r.Int32()
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// DeleteRecordsResponse answers a DeleteRecordsRequest.
type DeleteRecordsResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// Topics are the topics of the response.
	Topics []DeleteRecordsTopicResult
	// UnknownTags keeps unknown tagged fields (v2+).
	UnknownTags []TaggedField
}

// DeleteRecordsTopicResult is one topic of a DeleteRecordsResponse.
type DeleteRecordsTopicResult struct {
	// Name is the topic name.
	Name string
	// Partitions are the partitions of the topic.
	Partitions []DeleteRecordsPartitionResult
	// UnknownTags keeps unknown tagged fields (v2+).
	UnknownTags []TaggedField
}

// DeleteRecordsPartitionResult is the outcome for one partition.
type DeleteRecordsPartitionResult struct {
	// PartitionIndex is the partition.
	PartitionIndex int32
	// LowWatermark is the partition's log start offset after the deletion.
	LowWatermark int64
	// ErrorCode is the Kafka error code, 0 on success.
	ErrorCode int16
	// UnknownTags keeps unknown tagged fields (v2+).
	UnknownTags []TaggedField
}

// Key returns KeyDeleteRecords.
func (*DeleteRecordsResponse) Key() APIKey { return KeyDeleteRecords }

// AppendTo appends the response body for version v (header excluded).
func (m *DeleteRecordsResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 2
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, t *DeleteRecordsTopicResult) []byte {
		dst = AppendString(dst, t.Name, flex)
		dst = AppendArray(dst, flex, t.Partitions, func(dst []byte, p *DeleteRecordsPartitionResult) []byte {
			dst = AppendInt32(dst, p.PartitionIndex)
			dst = AppendInt64(dst, p.LowWatermark)
			dst = AppendInt16(dst, p.ErrorCode)
			return appendFlexTags(dst, flex, p.UnknownTags)
		})
		return appendFlexTags(dst, flex, t.UnknownTags)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *DeleteRecordsResponse) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 2
	m.ThrottleTimeMs = r.Int32()
	m.Topics = ReadArray(r, flex, 2, func(r *Reader, t *DeleteRecordsTopicResult) {
		t.Name = r.String(flex)
		t.Partitions = ReadArray(r, flex, 14, func(r *Reader, p *DeleteRecordsPartitionResult) {
			p.PartitionIndex = r.Int32()
			p.LowWatermark = r.Int64()
			p.ErrorCode = r.Int16()
			p.UnknownTags = readFlexTags(r, flex)
		})
		t.UnknownTags = readFlexTags(r, flex)
	})
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}
