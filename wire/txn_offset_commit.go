package wire

// TxnOffsetCommitRequest commits consumer offsets as part of a transaction
// (API key 28, versions 0-6, flexible from v3): they become visible when the
// transaction commits. Send it to the group coordinator. v3+ carries the
// consumer's group metadata so the coordinator can fence zombies (KIP-447);
// v5+ also adds the group to the transaction (transactions v2, KIP-890), and
// must not be used in a v1 transaction; v6 names topics by ID (KIP-1319).
// Source: TxnOffsetCommitRequest.json; KIP-98, KIP-447, KIP-890.
type TxnOffsetCommitRequest struct {
	// TransactionalID is the transactional ID.
	TransactionalID string
	// GroupID is the consumer group.
	GroupID string
	// ProducerID is the producer ID.
	ProducerID int64
	// ProducerEpoch is the producer's current epoch.
	ProducerEpoch int16
	// GenerationIDOrMemberEpoch is the classic generation or the KIP-848
	// member epoch (v3+), -1 if none.
	GenerationIDOrMemberEpoch int32
	// MemberID is the member ID (v3+), "" if none.
	MemberID string
	// GroupInstanceID is the static member's instance ID (v3+), or nil.
	GroupInstanceID *string
	// Topics are the offsets to commit.
	Topics []TxnOffsetCommitTopic
	// UnknownTags keeps tagged fields this version does not define (v3+).
	UnknownTags []TaggedField
	// VersionCap is the highest version to send, or 0 for none (see
	// VersionCapper): v4 or lower in a
	// transactions v1 transaction (v5+ adds the group to the transaction).
	VersionCap int16
}

// TxnOffsetCommitTopic is one topic of a TxnOffsetCommitRequest.
type TxnOffsetCommitTopic struct {
	// Name is the topic name (v0-5).
	Name string
	// TopicID is the topic ID (v6+).
	TopicID UUID
	// Partitions are the offsets of the topic.
	Partitions []TxnOffsetCommitPartition
	// UnknownTags keeps tagged fields this version does not define (v3+).
	UnknownTags []TaggedField
}

// TxnOffsetCommitPartition is one offset to commit.
type TxnOffsetCommitPartition struct {
	// PartitionIndex is the partition.
	PartitionIndex int32
	// CommittedOffset is the next offset to consume.
	CommittedOffset int64
	// CommittedLeaderEpoch is the leader epoch of the last consumed record
	// (v2+), -1 unknown.
	CommittedLeaderEpoch int32
	// CommittedMetadata is free-form metadata, or nil.
	CommittedMetadata *string
	// UnknownTags keeps tagged fields this version does not define (v3+).
	UnknownTags []TaggedField
}

// CapVersion returns VersionCap, or -1 when it is 0 (no cap).
func (m *TxnOffsetCommitRequest) CapVersion() int16 {
	if m.VersionCap <= 0 {
		return -1
	}
	return m.VersionCap
}

// Key returns KeyTxnOffsetCommit.
func (*TxnOffsetCommitRequest) Key() APIKey { return KeyTxnOffsetCommit }

// ResponseFor returns an empty *TxnOffsetCommitResponse.
func (*TxnOffsetCommitRequest) ResponseFor() Response { return &TxnOffsetCommitResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *TxnOffsetCommitRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 3
	dst = AppendString(dst, m.TransactionalID, flex)
	dst = AppendString(dst, m.GroupID, flex)
	dst = AppendInt64(dst, m.ProducerID)
	dst = AppendInt16(dst, m.ProducerEpoch)
	if v >= 3 {
		dst = AppendInt32(dst, m.GenerationIDOrMemberEpoch)
		dst = AppendString(dst, m.MemberID, flex)
		dst = AppendNullableString(dst, m.GroupInstanceID, flex)
	}
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, t *TxnOffsetCommitTopic) []byte {
		if v >= 6 {
			dst = AppendUUID(dst, t.TopicID)
		} else {
			dst = AppendString(dst, t.Name, flex)
		}
		dst = AppendArray(dst, flex, t.Partitions, func(dst []byte, p *TxnOffsetCommitPartition) []byte {
			dst = AppendInt32(dst, p.PartitionIndex)
			dst = AppendInt64(dst, p.CommittedOffset)
			if v >= 2 {
				dst = AppendInt32(dst, p.CommittedLeaderEpoch)
			}
			dst = AppendNullableString(dst, p.CommittedMetadata, flex)
			return appendFlexTags(dst, flex, p.UnknownTags)
		})
		return appendFlexTags(dst, flex, t.UnknownTags)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v from r; fields a
// version lacks take their defaults (-1 generation and leader epoch).
func (m *TxnOffsetCommitRequest) DecodeFrom(r *Reader, v int16) error {
	*m = TxnOffsetCommitRequest{GenerationIDOrMemberEpoch: -1}
	flex := v >= 3
	m.TransactionalID = r.String(flex)
	m.GroupID = r.String(flex)
	m.ProducerID = r.Int64()
	m.ProducerEpoch = r.Int16()
	if v >= 3 {
		m.GenerationIDOrMemberEpoch = r.Int32()
		m.MemberID = r.String(flex)
		m.GroupInstanceID = r.NullableString(flex)
	}
	m.Topics = ReadArray(r, flex, 2, func(r *Reader, t *TxnOffsetCommitTopic) {
		if v >= 6 {
			t.TopicID = r.UUID()
		} else {
			t.Name = r.String(flex)
		}
		t.Partitions = ReadArray(r, flex, 13, func(r *Reader, p *TxnOffsetCommitPartition) {
			p.PartitionIndex = r.Int32()
			p.CommittedOffset = r.Int64()
			p.CommittedLeaderEpoch = -1
			if v >= 2 {
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

// TxnOffsetCommitResponse answers a TxnOffsetCommitRequest, one error per
// partition.
type TxnOffsetCommitResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// Topics are the topics of the response.
	Topics []TxnOffsetCommitTopicResult
	// UnknownTags keeps tagged fields this version does not define (v3+).
	UnknownTags []TaggedField
}

// TxnOffsetCommitTopicResult is one topic of a TxnOffsetCommitResponse.
type TxnOffsetCommitTopicResult struct {
	// Name is the topic name (v0-5).
	Name string
	// TopicID is the topic ID (v6+).
	TopicID UUID
	// Partitions are the partitions of the topic.
	Partitions []TxnOffsetCommitPartitionResult
	// UnknownTags keeps tagged fields this version does not define (v3+).
	UnknownTags []TaggedField
}

// TxnOffsetCommitPartitionResult is one partition's outcome.
type TxnOffsetCommitPartitionResult struct {
	// PartitionIndex is the partition.
	PartitionIndex int32
	// ErrorCode is 0, or e.g. CONCURRENT_TRANSACTIONS (51),
	// ILLEGAL_GENERATION (22, v3+), FENCED_INSTANCE_ID (82, v3+),
	// TRANSACTION_ABORTABLE (120, v4+).
	ErrorCode int16
	// UnknownTags keeps tagged fields this version does not define (v3+).
	UnknownTags []TaggedField
}

// Key returns KeyTxnOffsetCommit.
func (*TxnOffsetCommitResponse) Key() APIKey { return KeyTxnOffsetCommit }

// AppendTo appends the response body for version v (header excluded).
func (m *TxnOffsetCommitResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 3
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, t *TxnOffsetCommitTopicResult) []byte {
		if v >= 6 {
			dst = AppendUUID(dst, t.TopicID)
		} else {
			dst = AppendString(dst, t.Name, flex)
		}
		dst = AppendArray(dst, flex, t.Partitions, func(dst []byte, p *TxnOffsetCommitPartitionResult) []byte {
			dst = AppendInt32(dst, p.PartitionIndex)
			dst = AppendInt16(dst, p.ErrorCode)
			return appendFlexTags(dst, flex, p.UnknownTags)
		})
		return appendFlexTags(dst, flex, t.UnknownTags)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v from r.
func (m *TxnOffsetCommitResponse) DecodeFrom(r *Reader, v int16) error {
	*m = TxnOffsetCommitResponse{}
	flex := v >= 3
	m.ThrottleTimeMs = r.Int32()
	m.Topics = ReadArray(r, flex, 2, func(r *Reader, t *TxnOffsetCommitTopicResult) {
		if v >= 6 {
			t.TopicID = r.UUID()
		} else {
			t.Name = r.String(flex)
		}
		t.Partitions = ReadArray(r, flex, 6, func(r *Reader, p *TxnOffsetCommitPartitionResult) {
			p.PartitionIndex = r.Int32()
			p.ErrorCode = r.Int16()
			p.UnknownTags = readFlexTags(r, flex)
		})
		t.UnknownTags = readFlexTags(r, flex)
	})
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}
