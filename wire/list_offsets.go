package wire

// Special ListOffsetsRequestPartition.Timestamp values.
const (
	ListOffsetsLatest                int64 = -1 // the log end offset (or LSO under read_committed)
	ListOffsetsEarliest              int64 = -2 // the log start offset
	ListOffsetsMaxTimestamp          int64 = -3 // the record with the largest timestamp, v7+ (KIP-734)
	ListOffsetsEarliestLocal         int64 = -4 // the local log start offset, v8+ (KIP-405)
	ListOffsetsLatestTiered          int64 = -5 // the last tiered offset, v9+ (KIP-1005)
	ListOffsetsEarliestPendingUpload int64 = -6 // the earliest offset pending upload, v11+ (KIP-1023)
)

// ListOffsetsRequest looks up offsets by timestamp (API key 2, versions
// 1-11, flexible from v6). Source: ListOffsetsRequest.json.
type ListOffsetsRequest struct {
	// ReplicaID is -1 for a consumer.
	ReplicaID int32
	// IsolationLevel is 0 (read_uncommitted) or 1 (read_committed), v2+.
	IsolationLevel int8
	// Topics lists the partitions to look up.
	Topics []ListOffsetsTopic
	// TimeoutMs bounds remote-storage lookups in milliseconds, v10+ (KIP-1075).
	TimeoutMs int32
	// UnknownTags keeps tagged fields this version does not define (v6+).
	UnknownTags []TaggedField
}

// ListOffsetsTopic lists one topic's partitions to look up.
type ListOffsetsTopic struct {
	// Name is the topic name.
	Name string
	// Partitions holds the per-partition entries.
	Partitions []ListOffsetsPartition
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// ListOffsetsPartition is one partition to look up.
type ListOffsetsPartition struct {
	// PartitionIndex is the partition index.
	PartitionIndex int32
	// CurrentLeaderEpoch fences stale leaders, -1 for none, v4+ (KIP-320).
	CurrentLeaderEpoch int32
	// Timestamp in Unix milliseconds, or one of the ListOffsets constants.
	Timestamp int64
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// Key returns KeyListOffsets.
func (*ListOffsetsRequest) Key() APIKey { return KeyListOffsets }

// ResponseFor returns an empty *ListOffsetsResponse.
func (*ListOffsetsRequest) ResponseFor() Response { return &ListOffsetsResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *ListOffsetsRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 6
	dst = AppendInt32(dst, m.ReplicaID)
	if v >= 2 {
		dst = AppendInt8(dst, m.IsolationLevel)
	}
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, t *ListOffsetsTopic) []byte {
		dst = AppendString(dst, t.Name, flex)
		dst = AppendArray(dst, flex, t.Partitions, func(dst []byte, p *ListOffsetsPartition) []byte {
			dst = AppendInt32(dst, p.PartitionIndex)
			if v >= 4 {
				dst = AppendInt32(dst, p.CurrentLeaderEpoch)
			}
			dst = AppendInt64(dst, p.Timestamp)
			return appendFlexTags(dst, flex, p.UnknownTags)
		})
		return appendFlexTags(dst, flex, t.UnknownTags)
	})
	if v >= 10 {
		dst = AppendInt32(dst, m.TimeoutMs)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v from r.
func (m *ListOffsetsRequest) DecodeFrom(r *Reader, v int16) error {
	*m = ListOffsetsRequest{}
	flex := v >= 6
	m.ReplicaID = r.Int32()
	if v >= 2 {
		m.IsolationLevel = r.Int8()
	}
	m.Topics = ReadArray(r, flex, minLen(flex, 2)+minLen(flex, 4)+tagsLen(flex), func(r *Reader, t *ListOffsetsTopic) {
		t.Name = r.String(flex)
		t.Partitions = ReadArray(r, flex, 12+tagsLen(flex), func(r *Reader, p *ListOffsetsPartition) {
			p.PartitionIndex = r.Int32()
			p.CurrentLeaderEpoch = -1
			if v >= 4 {
				p.CurrentLeaderEpoch = r.Int32()
			}
			p.Timestamp = r.Int64()
			p.UnknownTags = readFlexTags(r, flex)
		})
		t.UnknownTags = readFlexTags(r, flex)
	})
	if v >= 10 {
		m.TimeoutMs = r.Int32()
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// ListOffsetsResponse carries the offsets found (versions 1-11).
type ListOffsetsResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds, v2+.
	ThrottleTimeMs int32
	// Topics holds the per-topic entries.
	Topics []ListOffsetsTopicResponse
	// UnknownTags keeps tagged fields this version does not define (v6+).
	UnknownTags []TaggedField
}

// ListOffsetsTopicResponse holds one topic's results.
type ListOffsetsTopicResponse struct {
	// Name is the topic name.
	Name string
	// Partitions holds the per-partition entries.
	Partitions []ListOffsetsPartitionResponse
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// ListOffsetsPartitionResponse is one partition's result.
type ListOffsetsPartitionResponse struct {
	// PartitionIndex is the partition index.
	PartitionIndex int32
	// ErrorCode is the Kafka error code, 0 for none (see ErrorForCode).
	ErrorCode int16
	// Timestamp of the returned offset, -1 when none.
	Timestamp int64
	// Offset found, -1 when none.
	Offset int64
	// LeaderEpoch of the returned offset, v4+; -1 when absent.
	LeaderEpoch int32
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// Key returns KeyListOffsets.
func (*ListOffsetsResponse) Key() APIKey { return KeyListOffsets }

// AppendTo appends the response body for version v (header excluded).
func (m *ListOffsetsResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 6
	if v >= 2 {
		dst = AppendInt32(dst, m.ThrottleTimeMs)
	}
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, t *ListOffsetsTopicResponse) []byte {
		dst = AppendString(dst, t.Name, flex)
		dst = AppendArray(dst, flex, t.Partitions, func(dst []byte, p *ListOffsetsPartitionResponse) []byte {
			dst = AppendInt32(dst, p.PartitionIndex)
			dst = AppendInt16(dst, p.ErrorCode)
			dst = AppendInt64(dst, p.Timestamp)
			dst = AppendInt64(dst, p.Offset)
			if v >= 4 {
				dst = AppendInt32(dst, p.LeaderEpoch)
			}
			return appendFlexTags(dst, flex, p.UnknownTags)
		})
		return appendFlexTags(dst, flex, t.UnknownTags)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v from r.
func (m *ListOffsetsResponse) DecodeFrom(r *Reader, v int16) error {
	*m = ListOffsetsResponse{}
	flex := v >= 6
	if v >= 2 {
		m.ThrottleTimeMs = r.Int32()
	}
	m.Topics = ReadArray(r, flex, minLen(flex, 2)+minLen(flex, 4)+tagsLen(flex), func(r *Reader, t *ListOffsetsTopicResponse) {
		t.Name = r.String(flex)
		t.Partitions = ReadArray(r, flex, 22+tagsLen(flex), func(r *Reader, p *ListOffsetsPartitionResponse) {
			p.PartitionIndex = r.Int32()
			p.ErrorCode = r.Int16()
			p.Timestamp = r.Int64()
			p.Offset = r.Int64()
			p.LeaderEpoch = -1
			if v >= 4 {
				p.LeaderEpoch = r.Int32()
			}
			p.UnknownTags = readFlexTags(r, flex)
		})
		t.UnknownTags = readFlexTags(r, flex)
	})
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}
