package wire

// OffsetForLeaderEpochRequest asks for the end offset of a leader epoch, to
// detect log truncation after a leader change (API key 23, versions 2-4,
// flexible from v4; KIP-101, KIP-320). Source: OffsetForLeaderEpochRequest.json.
type OffsetForLeaderEpochRequest struct {
	// ReplicaID is -1 for a consumer, v3+; decoding v2 yields -2 (Kafka's
	// default, the "debug" consumer).
	ReplicaID int32
	// Topics holds the per-topic entries.
	Topics []OffsetForLeaderTopic
	// UnknownTags keeps tagged fields this version does not define (v4+).
	UnknownTags []TaggedField
}

// OffsetForLeaderTopic lists one topic's partitions.
type OffsetForLeaderTopic struct {
	// Topic is the topic name.
	Topic string
	// Partitions holds the per-partition entries.
	Partitions []OffsetForLeaderPartition
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// OffsetForLeaderPartition asks about one partition.
type OffsetForLeaderPartition struct {
	// Partition is the partition index.
	Partition int32
	// CurrentLeaderEpoch fences stale metadata, -1 for none.
	CurrentLeaderEpoch int32
	// LeaderEpoch is the epoch whose end offset is wanted.
	LeaderEpoch int32
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// Key returns KeyOffsetForLeaderEpoch.
func (*OffsetForLeaderEpochRequest) Key() APIKey { return KeyOffsetForLeaderEpoch }

// ResponseFor returns an empty *OffsetForLeaderEpochResponse.
func (*OffsetForLeaderEpochRequest) ResponseFor() Response { return &OffsetForLeaderEpochResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *OffsetForLeaderEpochRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 4
	if v >= 3 {
		dst = AppendInt32(dst, m.ReplicaID)
	}
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, t *OffsetForLeaderTopic) []byte {
		dst = AppendString(dst, t.Topic, flex)
		dst = AppendArray(dst, flex, t.Partitions, func(dst []byte, p *OffsetForLeaderPartition) []byte {
			dst = AppendInt32(dst, p.Partition)
			dst = AppendInt32(dst, p.CurrentLeaderEpoch)
			dst = AppendInt32(dst, p.LeaderEpoch)
			return appendFlexTags(dst, flex, p.UnknownTags)
		})
		return appendFlexTags(dst, flex, t.UnknownTags)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v from r.
func (m *OffsetForLeaderEpochRequest) DecodeFrom(r *Reader, v int16) error {
	*m = OffsetForLeaderEpochRequest{ReplicaID: -2}
	flex := v >= 4
	if v >= 3 {
		m.ReplicaID = r.Int32()
	}
	m.Topics = ReadArray(r, flex, minLen(flex, 2)+minLen(flex, 4)+tagsLen(flex), func(r *Reader, t *OffsetForLeaderTopic) {
		t.Topic = r.String(flex)
		t.Partitions = ReadArray(r, flex, 12+tagsLen(flex), func(r *Reader, p *OffsetForLeaderPartition) {
			p.Partition = r.Int32()
			p.CurrentLeaderEpoch = r.Int32()
			p.LeaderEpoch = r.Int32()
			p.UnknownTags = readFlexTags(r, flex)
		})
		t.UnknownTags = readFlexTags(r, flex)
	})
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// OffsetForLeaderEpochResponse carries epoch end offsets (versions 2-4).
type OffsetForLeaderEpochResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// Topics holds the per-topic entries.
	Topics []OffsetForLeaderTopicResult
	// UnknownTags keeps tagged fields this version does not define (v4+).
	UnknownTags []TaggedField
}

// OffsetForLeaderTopicResult holds one topic's results.
type OffsetForLeaderTopicResult struct {
	// Topic is the topic name.
	Topic string
	// Partitions holds the per-partition entries.
	Partitions []EpochEndOffset
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// EpochEndOffset is one partition's result.
type EpochEndOffset struct {
	// ErrorCode is the Kafka error code, 0 for none (see ErrorForCode).
	ErrorCode int16
	// Partition is the partition index.
	Partition int32
	// LeaderEpoch is the largest epoch not above the requested one, -1 if none.
	LeaderEpoch int32
	// EndOffset is that epoch's end offset, -1 if none.
	EndOffset int64
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// Key returns KeyOffsetForLeaderEpoch.
func (*OffsetForLeaderEpochResponse) Key() APIKey { return KeyOffsetForLeaderEpoch }

// AppendTo appends the response body for version v (header excluded).
func (m *OffsetForLeaderEpochResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 4
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, t *OffsetForLeaderTopicResult) []byte {
		dst = AppendString(dst, t.Topic, flex)
		dst = AppendArray(dst, flex, t.Partitions, func(dst []byte, p *EpochEndOffset) []byte {
			dst = AppendInt16(dst, p.ErrorCode)
			dst = AppendInt32(dst, p.Partition)
			dst = AppendInt32(dst, p.LeaderEpoch)
			dst = AppendInt64(dst, p.EndOffset)
			return appendFlexTags(dst, flex, p.UnknownTags)
		})
		return appendFlexTags(dst, flex, t.UnknownTags)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v from r.
func (m *OffsetForLeaderEpochResponse) DecodeFrom(r *Reader, v int16) error {
	*m = OffsetForLeaderEpochResponse{}
	flex := v >= 4
	m.ThrottleTimeMs = r.Int32()
	m.Topics = ReadArray(r, flex, minLen(flex, 2)+minLen(flex, 4)+tagsLen(flex), func(r *Reader, t *OffsetForLeaderTopicResult) {
		t.Topic = r.String(flex)
		t.Partitions = ReadArray(r, flex, 18+tagsLen(flex), func(r *Reader, p *EpochEndOffset) {
			p.ErrorCode = r.Int16()
			p.Partition = r.Int32()
			p.LeaderEpoch = r.Int32()
			p.EndOffset = r.Int64()
			p.UnknownTags = readFlexTags(r, flex)
		})
		t.UnknownTags = readFlexTags(r, flex)
	})
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}
