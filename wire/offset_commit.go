package wire

// OffsetCommitRequest commits offsets for a group (API key 8, versions 2-10,
// flexible from v8). Send it to the group coordinator. An admin commit (alter
// offsets of an empty group) uses generation -1 and an empty member ID.
// Source: OffsetCommitRequest.json; KIP-320 (leader epoch), KIP-345, KIP-848
// (v9 member epochs, v10 topic IDs instead of names).
type OffsetCommitRequest struct {
	// GroupID is the group ID.
	GroupID string
	// GenerationIDOrMemberEpoch is the classic generation or the KIP-848
	// member epoch; -1 for an admin commit.
	GenerationIDOrMemberEpoch int32
	// MemberID is the member committing; "" for an admin commit.
	MemberID string
	// GroupInstanceID is the static member ID (v7+), or nil.
	GroupInstanceID *string
	// RetentionTimeMs is the offset retention (v2-4), -1 for the broker default.
	RetentionTimeMs int64
	// Topics are the topics of the request.
	Topics []OffsetCommitTopic
	// UnknownTags keeps unknown tagged fields (v8+).
	UnknownTags []TaggedField
}

// OffsetCommitTopic is one topic of an OffsetCommitRequest.
type OffsetCommitTopic struct {
	// Name is the topic name (v2-9).
	Name string
	// TopicID is the topic ID (v10+).
	TopicID UUID
	// Partitions are the partitions of the topic.
	Partitions []OffsetCommitPartition
	// UnknownTags keeps unknown tagged fields (v8+).
	UnknownTags []TaggedField
}

// OffsetCommitPartition is one offset to commit.
type OffsetCommitPartition struct {
	// PartitionIndex is the partition.
	PartitionIndex int32
	// CommittedOffset is the next offset to consume.
	CommittedOffset int64
	// CommittedLeaderEpoch is the leader epoch of the last consumed record
	// (v6+), -1 unknown.
	CommittedLeaderEpoch int32
	// CommittedMetadata is free-form metadata, or nil.
	CommittedMetadata *string
	// UnknownTags keeps unknown tagged fields (v8+).
	UnknownTags []TaggedField
}

// Key returns KeyOffsetCommit.
func (*OffsetCommitRequest) Key() APIKey { return KeyOffsetCommit }

// ResponseFor returns an empty *OffsetCommitResponse.
func (*OffsetCommitRequest) ResponseFor() Response { return &OffsetCommitResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *OffsetCommitRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 8
	dst = AppendString(dst, m.GroupID, flex)
	dst = AppendInt32(dst, m.GenerationIDOrMemberEpoch)
	dst = AppendString(dst, m.MemberID, flex)
	if v >= 7 {
		dst = AppendNullableString(dst, m.GroupInstanceID, flex)
	}
	if v <= 4 {
		dst = AppendInt64(dst, m.RetentionTimeMs)
	}
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, t *OffsetCommitTopic) []byte {
		if v >= 10 {
			dst = AppendUUID(dst, t.TopicID)
		} else {
			dst = AppendString(dst, t.Name, flex)
		}
		dst = AppendArray(dst, flex, t.Partitions, func(dst []byte, p *OffsetCommitPartition) []byte {
			dst = AppendInt32(dst, p.PartitionIndex)
			dst = AppendInt64(dst, p.CommittedOffset)
			if v >= 6 {
				dst = AppendInt32(dst, p.CommittedLeaderEpoch)
			}
			dst = AppendNullableString(dst, p.CommittedMetadata, flex)
			return appendFlexTags(dst, flex, p.UnknownTags)
		})
		return appendFlexTags(dst, flex, t.UnknownTags)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *OffsetCommitRequest) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 8
	m.GroupID = r.String(flex)
	m.GenerationIDOrMemberEpoch = r.Int32()
	m.MemberID = r.String(flex)
	if v >= 7 {
		m.GroupInstanceID = r.NullableString(flex)
	}
	m.RetentionTimeMs = -1
	if v <= 4 {
		m.RetentionTimeMs = r.Int64()
	}
	m.Topics = ReadArray(r, flex, 2, func(r *Reader, t *OffsetCommitTopic) {
		if v >= 10 {
			t.TopicID = r.UUID()
		} else {
			t.Name = r.String(flex)
		}
		t.Partitions = ReadArray(r, flex, 13, func(r *Reader, p *OffsetCommitPartition) {
			p.PartitionIndex = r.Int32()
			p.CommittedOffset = r.Int64()
			p.CommittedLeaderEpoch = -1
			if v >= 6 {
				p.CommittedLeaderEpoch = r.Int32()
			}
			p.CommittedMetadata = r.NullableString(flex)
			p.UnknownTags = readFlexTags(r, flex)
		})
		t.UnknownTags = readFlexTags(r, flex)
	})
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// OffsetCommitResponse answers an OffsetCommitRequest, one error per partition.
type OffsetCommitResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds (v3+).
	ThrottleTimeMs int32
	// Topics are the topics of the response.
	Topics []OffsetCommitTopicResult
	// UnknownTags keeps unknown tagged fields (v8+).
	UnknownTags []TaggedField
}

// OffsetCommitTopicResult is one topic of an OffsetCommitResponse.
type OffsetCommitTopicResult struct {
	// Name is the topic name (v2-9).
	Name string
	// TopicID is the topic ID (v10+).
	TopicID UUID
	// Partitions are the partitions of the topic.
	Partitions []OffsetCommitPartitionResult
	// UnknownTags keeps unknown tagged fields (v8+).
	UnknownTags []TaggedField
}

// OffsetCommitPartitionResult is the outcome for one partition.
type OffsetCommitPartitionResult struct {
	// PartitionIndex is the partition.
	PartitionIndex int32
	// ErrorCode is the Kafka error code, 0 on success.
	ErrorCode int16
	// UnknownTags keeps unknown tagged fields (v8+).
	UnknownTags []TaggedField
}

// Key returns KeyOffsetCommit.
func (*OffsetCommitResponse) Key() APIKey { return KeyOffsetCommit }

// AppendTo appends the response body for version v (header excluded).
func (m *OffsetCommitResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 8
	if v >= 3 {
		dst = AppendInt32(dst, m.ThrottleTimeMs)
	}
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, t *OffsetCommitTopicResult) []byte {
		if v >= 10 {
			dst = AppendUUID(dst, t.TopicID)
		} else {
			dst = AppendString(dst, t.Name, flex)
		}
		dst = AppendArray(dst, flex, t.Partitions, func(dst []byte, p *OffsetCommitPartitionResult) []byte {
			dst = AppendInt32(dst, p.PartitionIndex)
			dst = AppendInt16(dst, p.ErrorCode)
			return appendFlexTags(dst, flex, p.UnknownTags)
		})
		return appendFlexTags(dst, flex, t.UnknownTags)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *OffsetCommitResponse) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 8
	if v >= 3 {
		m.ThrottleTimeMs = r.Int32()
	}
	m.Topics = ReadArray(r, flex, 2, func(r *Reader, t *OffsetCommitTopicResult) {
		if v >= 10 {
			t.TopicID = r.UUID()
		} else {
			t.Name = r.String(flex)
		}
		t.Partitions = ReadArray(r, flex, 6, func(r *Reader, p *OffsetCommitPartitionResult) {
			p.PartitionIndex = r.Int32()
			p.ErrorCode = r.Int16()
			p.UnknownTags = readFlexTags(r, flex)
		})
		t.UnknownTags = readFlexTags(r, flex)
	})
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}
