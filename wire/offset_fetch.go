package wire

// OffsetFetchRequest reads committed offsets of groups (API key 9, versions
// 1-10, flexible from v6). Send it to the group coordinator. Versions 1-7
// name one group (GroupID, Topics); v8+ batch several (Groups, KIP-709); v10
// names topics by ID (KIP-848). A caller that does not know the negotiated
// version may set both shapes. Source: OffsetFetchRequest.json; KIP-447
// (RequireStable).
type OffsetFetchRequest struct {
	// GroupID is the group (v1-7).
	GroupID string
	// Topics are the partitions to read (v1-7); nil (null, v2+) reads all.
	Topics []OffsetFetchRequestTopic
	// Groups are the groups to read (v8+).
	Groups []OffsetFetchRequestGroup
	// RequireStable makes the broker answer UNSTABLE_OFFSET_COMMIT (retriable)
	// for partitions with pending transactional commits (v7+).
	RequireStable bool
	// UnknownTags keeps unknown tagged fields (v6+).
	UnknownTags []TaggedField
}

// OffsetFetchRequestGroup is one group of an OffsetFetchRequest (v8+).
type OffsetFetchRequestGroup struct {
	// GroupID is the group ID.
	GroupID string
	// MemberID is the KIP-848 member reading (v9+), or nil.
	MemberID *string
	// MemberEpoch is the KIP-848 member epoch (v9+), -1 when not a member.
	MemberEpoch int32
	// Topics are the partitions to read; nil (null) reads all.
	Topics []OffsetFetchRequestTopic
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// OffsetFetchRequestTopic names partitions of one topic to read.
type OffsetFetchRequestTopic struct {
	// Name is the topic name (v1-9).
	Name string
	// TopicID is the topic ID (v10+).
	TopicID UUID
	// PartitionIndexes are the partitions to read.
	PartitionIndexes []int32
	// UnknownTags keeps unknown tagged fields (v6+).
	UnknownTags []TaggedField
}

// Key returns KeyOffsetFetch.
func (*OffsetFetchRequest) Key() APIKey { return KeyOffsetFetch }

// ResponseFor returns an empty *OffsetFetchResponse.
func (*OffsetFetchRequest) ResponseFor() Response { return &OffsetFetchResponse{} }

func appendOffsetFetchRequestTopic(dst []byte, t *OffsetFetchRequestTopic, v int16, flex bool) []byte {
	if v >= 10 {
		dst = AppendUUID(dst, t.TopicID)
	} else {
		dst = AppendString(dst, t.Name, flex)
	}
	dst = AppendInt32Array(dst, flex, t.PartitionIndexes)
	return appendFlexTags(dst, flex, t.UnknownTags)
}

func readOffsetFetchRequestTopic(r *Reader, t *OffsetFetchRequestTopic, v int16, flex bool) {
	if v >= 10 {
		t.TopicID = r.UUID()
	} else {
		t.Name = r.String(flex)
	}
	t.PartitionIndexes = r.Int32Array(flex)
	t.UnknownTags = readFlexTags(r, flex)
}

// AppendTo appends the request body for version v (header excluded).
func (m *OffsetFetchRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 6
	topic := func(dst []byte, t *OffsetFetchRequestTopic) []byte {
		return appendOffsetFetchRequestTopic(dst, t, v, flex)
	}
	if v <= 7 {
		dst = AppendString(dst, m.GroupID, flex)
		if v >= 2 {
			dst = AppendNullableArray(dst, flex, m.Topics, topic)
		} else {
			dst = AppendArray(dst, flex, m.Topics, topic)
		}
	} else {
		dst = AppendArray(dst, flex, m.Groups, func(dst []byte, g *OffsetFetchRequestGroup) []byte {
			dst = AppendString(dst, g.GroupID, flex)
			if v >= 9 {
				dst = AppendNullableString(dst, g.MemberID, flex)
				dst = AppendInt32(dst, g.MemberEpoch)
			}
			dst = AppendNullableArray(dst, flex, g.Topics, topic)
			return AppendTags(dst, g.UnknownTags)
		})
	}
	if v >= 7 {
		dst = AppendBool(dst, m.RequireStable)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *OffsetFetchRequest) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 6
	topic := func(r *Reader, t *OffsetFetchRequestTopic) { readOffsetFetchRequestTopic(r, t, v, flex) }
	if v <= 7 {
		m.GroupID = r.String(flex)
		if v >= 2 {
			m.Topics = ReadNullableArray(r, flex, 2, topic)
		} else {
			m.Topics = ReadArray(r, flex, 2, topic)
		}
	} else {
		m.Groups = ReadArray(r, flex, 3, func(r *Reader, g *OffsetFetchRequestGroup) {
			g.GroupID = r.String(flex)
			g.MemberEpoch = -1
			if v >= 9 {
				g.MemberID = r.NullableString(flex)
				g.MemberEpoch = r.Int32()
			}
			g.Topics = ReadNullableArray(r, flex, 2, topic)
			g.UnknownTags = r.ReadTags(nil)
		})
	}
	if v >= 7 {
		m.RequireStable = r.Bool()
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// OffsetFetchResponse answers an OffsetFetchRequest: Topics and ErrorCode for
// v1-7, Groups for v8+.
type OffsetFetchResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds (v3+).
	ThrottleTimeMs int32
	// Topics are the offsets of the one group (v1-7).
	Topics []OffsetFetchTopicResult
	// ErrorCode is the group-level Kafka error code (v2-7).
	ErrorCode int16
	// Groups are the per-group results (v8+).
	Groups []OffsetFetchGroupResult
	// UnknownTags keeps unknown tagged fields (v6+).
	UnknownTags []TaggedField
}

// OffsetFetchGroupResult is one group of an OffsetFetchResponse (v8+).
type OffsetFetchGroupResult struct {
	// GroupID is the group ID.
	GroupID string
	// Topics are the topics of the response.
	Topics []OffsetFetchTopicResult
	// ErrorCode is the group-level Kafka error code, 0 on success.
	ErrorCode int16
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// OffsetFetchTopicResult is one topic of an OffsetFetchResponse.
type OffsetFetchTopicResult struct {
	// Name is the topic name (v1-9).
	Name string
	// TopicID is the topic ID (v10+).
	TopicID UUID
	// Partitions are the partitions of the topic.
	Partitions []OffsetFetchPartitionResult
	// UnknownTags keeps unknown tagged fields (v6+).
	UnknownTags []TaggedField
}

// OffsetFetchPartitionResult is the committed offset of one partition.
type OffsetFetchPartitionResult struct {
	// PartitionIndex is the partition.
	PartitionIndex int32
	// CommittedOffset is the committed offset, or -1 when the group has no
	// commit for the partition.
	CommittedOffset int64
	// CommittedLeaderEpoch is the committed leader epoch (v5+), -1 unknown.
	CommittedLeaderEpoch int32
	// Metadata is the commit's metadata, or nil.
	Metadata *string
	// ErrorCode is the Kafka error code, 0 on success.
	ErrorCode int16
	// UnknownTags keeps unknown tagged fields (v6+).
	UnknownTags []TaggedField
}

// Key returns KeyOffsetFetch.
func (*OffsetFetchResponse) Key() APIKey { return KeyOffsetFetch }

// AppendTo appends the response body for version v (header excluded).
func (m *OffsetFetchResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 6
	if v >= 3 {
		dst = AppendInt32(dst, m.ThrottleTimeMs)
	}
	topic := func(dst []byte, t *OffsetFetchTopicResult) []byte {
		if v >= 10 {
			dst = AppendUUID(dst, t.TopicID)
		} else {
			dst = AppendString(dst, t.Name, flex)
		}
		dst = AppendArray(dst, flex, t.Partitions, func(dst []byte, p *OffsetFetchPartitionResult) []byte {
			dst = AppendInt32(dst, p.PartitionIndex)
			dst = AppendInt64(dst, p.CommittedOffset)
			if v >= 5 {
				dst = AppendInt32(dst, p.CommittedLeaderEpoch)
			}
			dst = AppendNullableString(dst, p.Metadata, flex)
			dst = AppendInt16(dst, p.ErrorCode)
			return appendFlexTags(dst, flex, p.UnknownTags)
		})
		return appendFlexTags(dst, flex, t.UnknownTags)
	}
	if v <= 7 {
		dst = AppendArray(dst, flex, m.Topics, topic)
		if v >= 2 {
			dst = AppendInt16(dst, m.ErrorCode)
		}
	} else {
		dst = AppendArray(dst, flex, m.Groups, func(dst []byte, g *OffsetFetchGroupResult) []byte {
			dst = AppendString(dst, g.GroupID, flex)
			dst = AppendArray(dst, flex, g.Topics, topic)
			dst = AppendInt16(dst, g.ErrorCode)
			return AppendTags(dst, g.UnknownTags)
		})
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *OffsetFetchResponse) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 6
	if v >= 3 {
		m.ThrottleTimeMs = r.Int32()
	}
	topic := func(r *Reader, t *OffsetFetchTopicResult) {
		if v >= 10 {
			t.TopicID = r.UUID()
		} else {
			t.Name = r.String(flex)
		}
		t.Partitions = ReadArray(r, flex, 15, func(r *Reader, p *OffsetFetchPartitionResult) {
			p.PartitionIndex = r.Int32()
			p.CommittedOffset = r.Int64()
			p.CommittedLeaderEpoch = -1
			if v >= 5 {
				p.CommittedLeaderEpoch = r.Int32()
			}
			p.Metadata = r.NullableString(flex)
			p.ErrorCode = r.Int16()
			p.UnknownTags = readFlexTags(r, flex)
		})
		t.UnknownTags = readFlexTags(r, flex)
	}
	if v <= 7 {
		m.Topics = ReadArray(r, flex, 2, topic)
		if v >= 2 {
			m.ErrorCode = r.Int16()
		}
	} else {
		m.Groups = ReadArray(r, flex, 5, func(r *Reader, g *OffsetFetchGroupResult) {
			g.GroupID = r.String(flex)
			g.Topics = ReadArray(r, flex, 2, topic)
			g.ErrorCode = r.Int16()
			g.UnknownTags = r.ReadTags(nil)
		})
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}
