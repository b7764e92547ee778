package wire

import "math"

// FetchRequest reads record batches from partition leaders (API key 1,
// versions 4-18, flexible from v12). Fetch sessions (KIP-227) are v7+;
// topic IDs replace names from v13 (KIP-516); zstd data needs v10+
// (KIP-110). Source: FetchRequest.json.
type FetchRequest struct {
	// ClusterID is the cluster ID if known, or nil (tag 0, v12+).
	ClusterID *string
	// ReplicaID is -1 for a consumer, v4-14 (v15+ sends ReplicaState).
	ReplicaID int32
	// ReplicaState identifies a follower, v15+ (tag 1, KIP-903); {-1, -1}
	// (not sent) for a consumer.
	ReplicaState FetchReplicaState
	// MaxWaitMs is how long the broker may wait for MinBytes, in ms.
	MaxWaitMs int32
	// MinBytes is the minimum data to accumulate before answering.
	MinBytes int32
	// MaxBytes caps the whole response (KIP-74).
	MaxBytes int32
	// IsolationLevel is 0 (read_uncommitted) or 1 (read_committed).
	IsolationLevel int8
	// SessionID is the fetch session ID, 0 for none, v7+ (KIP-227).
	SessionID int32
	// SessionEpoch is the fetch session epoch: -1 for a full fetch without
	// a session, 0 to create a session, v7+ (KIP-227).
	SessionEpoch int32
	// Topics lists the partitions to fetch (in an incremental fetch, those
	// added or changed).
	Topics []FetchTopic
	// ForgottenTopicsData lists partitions to drop from the session, v7+.
	ForgottenTopicsData []FetchForgottenTopic
	// RackID is the consumer's rack, for follower fetching, v11+ (KIP-392).
	RackID string
	// UnknownTags keeps tagged fields this version does not define (v12+).
	UnknownTags []TaggedField
}

// FetchReplicaState identifies a fetching follower (KIP-903).
type FetchReplicaState struct {
	// ReplicaID is the follower's ID, -1 for a consumer.
	ReplicaID int32
	// ReplicaEpoch is the follower's broker epoch, -1 if unknown.
	ReplicaEpoch int64
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

func (s *FetchReplicaState) isDefault() bool {
	return s.ReplicaID == -1 && s.ReplicaEpoch == -1 && len(s.UnknownTags) == 0
}

// FetchTopic lists one topic's partitions to fetch.
type FetchTopic struct {
	// Topic is the topic name, v4-12.
	Topic string
	// TopicID is the topic ID, v13+.
	TopicID UUID
	// Partitions holds the per-partition entries.
	Partitions []FetchPartition
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// FetchPartition is one partition to fetch.
type FetchPartition struct {
	// Partition is the partition index.
	Partition int32
	// CurrentLeaderEpoch fences stale leaders, -1 for none, v9+ (KIP-320).
	CurrentLeaderEpoch int32
	// FetchOffset is the first offset wanted.
	FetchOffset int64
	// LastFetchedEpoch is the epoch of the last fetched record, -1 for
	// none, v12+ (KIP-595).
	LastFetchedEpoch int32
	// LogStartOffset is a follower's log start offset, -1 for a consumer, v5+.
	LogStartOffset int64
	// PartitionMaxBytes caps this partition's data (KIP-74).
	PartitionMaxBytes int32
	// ReplicaDirectoryID is a follower's log directory (tag 0, v17+,
	// KIP-853); zero when not sent.
	ReplicaDirectoryID UUID
	// HighWatermark is the follower's known high watermark (tag 1, v18+,
	// KIP-1166); math.MaxInt64 (the default) when not sent.
	HighWatermark int64
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// FetchForgottenTopic lists one topic's partitions to drop from a session.
type FetchForgottenTopic struct {
	// Topic is the topic name, v7-12.
	Topic string
	// TopicID is the topic ID, v13+.
	TopicID UUID
	// Partitions holds the per-partition entries.
	Partitions []int32
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// Default sets every field to Kafka's default for a consumer's full fetch:
// ReplicaID -1, ReplicaState {-1, -1} (not sent), MaxBytes 0x7fffffff,
// SessionID 0, SessionEpoch -1 (no session), and zero or empty elsewhere.
// The zero FetchRequest is not a consumer's request (it names replica 0).
func (m *FetchRequest) Default() {
	*m = FetchRequest{ReplicaID: -1, ReplicaState: FetchReplicaState{ReplicaID: -1, ReplicaEpoch: -1}, MaxBytes: math.MaxInt32, SessionEpoch: -1}
}

// Default sets every field to Kafka's default: epochs and LogStartOffset
// -1, HighWatermark math.MaxInt64 (not sent), zero elsewhere.
func (p *FetchPartition) Default() {
	*p = FetchPartition{CurrentLeaderEpoch: -1, LastFetchedEpoch: -1, LogStartOffset: -1, HighWatermark: math.MaxInt64}
}

// Key returns KeyFetch.
func (*FetchRequest) Key() APIKey { return KeyFetch }

// ResponseFor returns an empty *FetchResponse.
func (*FetchRequest) ResponseFor() Response { return &FetchResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *FetchRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 12
	if v <= 14 {
		dst = AppendInt32(dst, m.ReplicaID)
	}
	dst = AppendInt32(dst, m.MaxWaitMs)
	dst = AppendInt32(dst, m.MinBytes)
	dst = AppendInt32(dst, m.MaxBytes)
	dst = AppendInt8(dst, m.IsolationLevel)
	if v >= 7 {
		dst = AppendInt32(dst, m.SessionID)
		dst = AppendInt32(dst, m.SessionEpoch)
	}
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, t *FetchTopic) []byte {
		if v <= 12 {
			dst = AppendString(dst, t.Topic, flex)
		} else {
			dst = AppendUUID(dst, t.TopicID)
		}
		dst = AppendArray(dst, flex, t.Partitions, func(dst []byte, p *FetchPartition) []byte {
			dst = AppendInt32(dst, p.Partition)
			if v >= 9 {
				dst = AppendInt32(dst, p.CurrentLeaderEpoch)
			}
			dst = AppendInt64(dst, p.FetchOffset)
			if v >= 12 {
				dst = AppendInt32(dst, p.LastFetchedEpoch)
			}
			if v >= 5 {
				dst = AppendInt64(dst, p.LogStartOffset)
			}
			dst = AppendInt32(dst, p.PartitionMaxBytes)
			if !flex {
				return dst
			}
			var known []TaggedField
			if v >= 17 && !p.ReplicaDirectoryID.IsZero() {
				known = append(known, TaggedField{Tag: 0, Data: AppendUUID(nil, p.ReplicaDirectoryID)})
			}
			if v >= 18 && p.HighWatermark != math.MaxInt64 {
				known = append(known, TaggedField{Tag: 1, Data: AppendInt64(nil, p.HighWatermark)})
			}
			return appendTagSection(dst, known, p.UnknownTags)
		})
		return appendFlexTags(dst, flex, t.UnknownTags)
	})
	if v >= 7 {
		dst = AppendArray(dst, flex, m.ForgottenTopicsData, func(dst []byte, t *FetchForgottenTopic) []byte {
			if v <= 12 {
				dst = AppendString(dst, t.Topic, flex)
			} else {
				dst = AppendUUID(dst, t.TopicID)
			}
			dst = AppendInt32Array(dst, flex, t.Partitions)
			return appendFlexTags(dst, flex, t.UnknownTags)
		})
	}
	if v >= 11 {
		dst = AppendString(dst, m.RackID, flex)
	}
	if !flex {
		return dst
	}
	var known []TaggedField
	if m.ClusterID != nil {
		known = append(known, TaggedField{Tag: 0, Data: AppendNullableString(nil, m.ClusterID, true)})
	}
	if v >= 15 && !m.ReplicaState.isDefault() {
		rs := AppendInt32(nil, m.ReplicaState.ReplicaID)
		rs = AppendInt64(rs, m.ReplicaState.ReplicaEpoch)
		known = append(known, TaggedField{Tag: 1, Data: AppendTags(rs, m.ReplicaState.UnknownTags)})
	}
	return appendTagSection(dst, known, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v from r. Absent fields
// take Kafka's defaults (ReplicaID -1, SessionEpoch -1, epochs and
// LogStartOffset -1, HighWatermark math.MaxInt64).
func (m *FetchRequest) DecodeFrom(r *Reader, v int16) error {
	m.Default()
	flex := v >= 12
	if v <= 14 {
		m.ReplicaID = r.Int32()
	}
	m.MaxWaitMs = r.Int32()
	m.MinBytes = r.Int32()
	m.MaxBytes = r.Int32()
	m.IsolationLevel = r.Int8()
	if v >= 7 {
		m.SessionID = r.Int32()
		m.SessionEpoch = r.Int32()
	}
	minTopic := minLen(flex, 2) + minLen(flex, 4) + tagsLen(flex)
	if v >= 13 {
		minTopic = 16 + 1 + 1
	}
	m.Topics = ReadArray(r, flex, minTopic, func(r *Reader, t *FetchTopic) {
		if v <= 12 {
			t.Topic = r.String(flex)
		} else {
			t.TopicID = r.UUID()
		}
		t.Partitions = ReadArray(r, flex, 16+tagsLen(flex), func(r *Reader, p *FetchPartition) {
			p.Default()
			p.Partition = r.Int32()
			if v >= 9 {
				p.CurrentLeaderEpoch = r.Int32()
			}
			p.FetchOffset = r.Int64()
			if v >= 12 {
				p.LastFetchedEpoch = r.Int32()
			}
			if v >= 5 {
				p.LogStartOffset = r.Int64()
			}
			p.PartitionMaxBytes = r.Int32()
			if !flex {
				return
			}
			p.UnknownTags = r.ReadTags(func(tag uint32, fr *Reader) bool {
				switch {
				case tag == 0 && v >= 17:
					p.ReplicaDirectoryID = fr.UUID()
				case tag == 1 && v >= 18:
					p.HighWatermark = fr.Int64()
				default:
					return false
				}
				return true
			})
		})
		t.UnknownTags = readFlexTags(r, flex)
	})
	if v >= 7 {
		m.ForgottenTopicsData = ReadArray(r, flex, minTopic, func(r *Reader, t *FetchForgottenTopic) {
			if v <= 12 {
				t.Topic = r.String(flex)
			} else {
				t.TopicID = r.UUID()
			}
			t.Partitions = r.Int32Array(flex)
			t.UnknownTags = readFlexTags(r, flex)
		})
	}
	if v >= 11 {
		m.RackID = r.String(flex)
	}
	if flex {
		m.UnknownTags = r.ReadTags(func(tag uint32, fr *Reader) bool {
			switch {
			case tag == 0:
				m.ClusterID = fr.NullableString(true)
			case tag == 1 && v >= 15:
				m.ReplicaState.ReplicaID = fr.Int32()
				m.ReplicaState.ReplicaEpoch = fr.Int64()
				m.ReplicaState.UnknownTags = fr.ReadTags(nil)
			default:
				return false
			}
			return true
		})
	}
	return r.Err()
}

// FetchResponse carries fetched data per partition (versions 4-18).
type FetchResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// ErrorCode is the top-level error (e.g. a fetch session error), v7+.
	ErrorCode int16
	// SessionID is the fetch session ID, 0 for none, v7+ (KIP-227).
	SessionID int32
	// Responses holds the data per topic.
	Responses []FetchResponseTopic
	// NodeEndpoints locates the new leaders named in CurrentLeader (tag 0,
	// v16+, KIP-951).
	NodeEndpoints []NodeEndpoint
	// UnknownTags keeps tagged fields this version does not define (v12+).
	UnknownTags []TaggedField
}

// FetchResponseTopic holds one topic's partitions.
type FetchResponseTopic struct {
	// Topic is the topic name, v4-12.
	Topic string
	// TopicID is the topic ID, v13+.
	TopicID UUID
	// Partitions holds the per-partition entries.
	Partitions []FetchResponsePartition
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// FetchResponsePartition is one partition's data and state.
type FetchResponsePartition struct {
	// PartitionIndex is the partition index.
	PartitionIndex int32
	// ErrorCode is the Kafka error code, 0 for none (see ErrorForCode).
	ErrorCode int16
	// HighWatermark is the partition's high watermark.
	HighWatermark int64
	// LastStableOffset is the LSO (read_committed bound), -1 if unknown.
	LastStableOffset int64
	// LogStartOffset is the log start offset, v5+; -1 when absent.
	LogStartOffset int64
	// DivergingEpoch reports log divergence (tag 0, v12+, KIP-595);
	// {-1, -1} when absent.
	DivergingEpoch FetchEpochEndOffset
	// CurrentLeader names the new leader (tag 1, v12+, KIP-951); {-1, -1}
	// when absent.
	CurrentLeader LeaderIDAndEpoch
	// SnapshotID names the snapshot to fetch when the offset is below the
	// log start (tag 2, v12+, KIP-630); {-1, -1} when absent.
	SnapshotID FetchSnapshotID
	// AbortedTransactions lists aborted transactions in the returned range
	// under read_committed; nil (null) is distinct from empty.
	AbortedTransactions []FetchAbortedTransaction
	// PreferredReadReplica is the replica to fetch from next, -1 for the
	// leader, v11+ (KIP-392).
	PreferredReadReplica int32
	// Records are the raw record batches (decode with record_batch*.go),
	// aliasing the decoded buffer; nil when null. The last batch may be
	// truncated.
	Records []byte
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// FetchEpochEndOffset is an epoch and its end offset.
type FetchEpochEndOffset struct {
	// Epoch is the largest epoch, -1 when absent.
	Epoch int32
	// EndOffset is the epoch's end offset, -1 when absent.
	EndOffset int64
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// FetchSnapshotID names a snapshot by end offset and epoch.
type FetchSnapshotID struct {
	// EndOffset is the snapshot's end offset, -1 when absent.
	EndOffset int64
	// Epoch is the snapshot's epoch, -1 when absent.
	Epoch int32
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// FetchAbortedTransaction is one aborted transaction.
type FetchAbortedTransaction struct {
	// ProducerID is the producer ID of the aborted transaction.
	ProducerID int64
	// FirstOffset is the transaction's first offset.
	FirstOffset int64
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// Key returns KeyFetch.
func (*FetchResponse) Key() APIKey { return KeyFetch }

// AppendTo appends the response body for version v (header excluded).
func (m *FetchResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 12
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	if v >= 7 {
		dst = AppendInt16(dst, m.ErrorCode)
		dst = AppendInt32(dst, m.SessionID)
	}
	dst = AppendArray(dst, flex, m.Responses, func(dst []byte, t *FetchResponseTopic) []byte {
		if v <= 12 {
			dst = AppendString(dst, t.Topic, flex)
		} else {
			dst = AppendUUID(dst, t.TopicID)
		}
		dst = AppendArray(dst, flex, t.Partitions, func(dst []byte, p *FetchResponsePartition) []byte {
			dst = AppendInt32(dst, p.PartitionIndex)
			dst = AppendInt16(dst, p.ErrorCode)
			dst = AppendInt64(dst, p.HighWatermark)
			dst = AppendInt64(dst, p.LastStableOffset)
			if v >= 5 {
				dst = AppendInt64(dst, p.LogStartOffset)
			}
			dst = AppendNullableArray(dst, flex, p.AbortedTransactions, func(dst []byte, a *FetchAbortedTransaction) []byte {
				dst = AppendInt64(dst, a.ProducerID)
				dst = AppendInt64(dst, a.FirstOffset)
				return appendFlexTags(dst, flex, a.UnknownTags)
			})
			if v >= 11 {
				dst = AppendInt32(dst, p.PreferredReadReplica)
			}
			dst = AppendNullableBytes(dst, p.Records, flex)
			if !flex {
				return dst
			}
			var known []TaggedField
			if d := &p.DivergingEpoch; d.Epoch != -1 || d.EndOffset != -1 || len(d.UnknownTags) > 0 {
				b := AppendInt32(nil, d.Epoch)
				b = AppendInt64(b, d.EndOffset)
				known = append(known, TaggedField{Tag: 0, Data: AppendTags(b, d.UnknownTags)})
			}
			if !p.CurrentLeader.isDefault() {
				known = append(known, TaggedField{Tag: 1, Data: p.CurrentLeader.appendTo(nil)})
			}
			if s := &p.SnapshotID; s.EndOffset != -1 || s.Epoch != -1 || len(s.UnknownTags) > 0 {
				b := AppendInt64(nil, s.EndOffset)
				b = AppendInt32(b, s.Epoch)
				known = append(known, TaggedField{Tag: 2, Data: AppendTags(b, s.UnknownTags)})
			}
			return appendTagSection(dst, known, p.UnknownTags)
		})
		return appendFlexTags(dst, flex, t.UnknownTags)
	})
	if !flex {
		return dst
	}
	var known []TaggedField
	if v >= 16 && len(m.NodeEndpoints) > 0 {
		known = append(known, TaggedField{Tag: 0, Data: appendNodeEndpoints(m.NodeEndpoints)})
	}
	return appendTagSection(dst, known, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v from r. Records and
// unknown tag data alias r's buffer. Absent fields take Kafka's defaults.
//
// It decodes into m's topic and partition arrays when they have the
// capacity (a caller may reuse one FetchResponse for many frames).
func (m *FetchResponse) DecodeFrom(r *Reader, v int16) error {
	topics := m.Responses
	*m = FetchResponse{}
	flex := v >= 12
	m.ThrottleTimeMs = r.Int32()
	if v >= 7 {
		m.ErrorCode = r.Int16()
		m.SessionID = r.Int32()
	}
	minTopic := minLen(flex, 2) + minLen(flex, 4) + tagsLen(flex)
	if v >= 13 {
		minTopic = 16 + 1 + 1
	}
	m.Responses = ReadArrayInto(r, flex, minTopic, topics, func(r *Reader, t *FetchResponseTopic) {
		parts := t.Partitions
		*t = FetchResponseTopic{}
		if v <= 12 {
			t.Topic = r.String(flex)
		} else {
			t.TopicID = r.UUID()
		}
		// index, error, hw, lso, aborted, records (+ tags) at least.
		t.Partitions = ReadArrayInto(r, flex, 22+2*minLen(flex, 4)+tagsLen(flex), parts, func(r *Reader, p *FetchResponsePartition) {
			*p = FetchResponsePartition{}
			p.LogStartOffset, p.PreferredReadReplica = -1, -1
			p.DivergingEpoch = FetchEpochEndOffset{Epoch: -1, EndOffset: -1}
			p.CurrentLeader = defaultLeaderIDAndEpoch()
			p.SnapshotID = FetchSnapshotID{EndOffset: -1, Epoch: -1}
			p.PartitionIndex = r.Int32()
			p.ErrorCode = r.Int16()
			p.HighWatermark = r.Int64()
			p.LastStableOffset = r.Int64()
			if v >= 5 {
				p.LogStartOffset = r.Int64()
			}
			p.AbortedTransactions = ReadNullableArray(r, flex, 16+tagsLen(flex), func(r *Reader, a *FetchAbortedTransaction) {
				a.ProducerID = r.Int64()
				a.FirstOffset = r.Int64()
				a.UnknownTags = readFlexTags(r, flex)
			})
			if v >= 11 {
				p.PreferredReadReplica = r.Int32()
			}
			p.Records = r.NullableBytes(flex)
			if !flex {
				return
			}
			p.UnknownTags = r.ReadTags(func(tag uint32, fr *Reader) bool {
				switch tag {
				case 0:
					p.DivergingEpoch.Epoch = fr.Int32()
					p.DivergingEpoch.EndOffset = fr.Int64()
					p.DivergingEpoch.UnknownTags = fr.ReadTags(nil)
				case 1:
					p.CurrentLeader.readFrom(fr)
				case 2:
					p.SnapshotID.EndOffset = fr.Int64()
					p.SnapshotID.Epoch = fr.Int32()
					p.SnapshotID.UnknownTags = fr.ReadTags(nil)
				default:
					return false
				}
				return true
			})
		})
		t.UnknownTags = readFlexTags(r, flex)
	})
	if flex {
		m.UnknownTags = r.ReadTags(func(tag uint32, fr *Reader) bool {
			if tag == 0 && v >= 16 {
				m.NodeEndpoints = readNodeEndpoints(fr)
				return true
			}
			return false
		})
	}
	return r.Err()
}
