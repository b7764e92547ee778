package wire

// Acknowledge types of ShareFetch and ShareAcknowledge acknowledgement
// batches (KIP-932; Renew is KIP-1222, version 2+).
const (
	// AckGap marks an offset with no record (a compacted or control record).
	AckGap int8 = 0
	// AckAccept marks a record processed: it is not delivered again.
	AckAccept int8 = 1
	// AckRelease hands a record back for redelivery.
	AckRelease int8 = 2
	// AckReject marks a record unprocessable: it is archived, never
	// delivered again.
	AckReject int8 = 3
	// AckRenew extends the record's acquisition lock (KIP-1222).
	AckRenew int8 = 4
)

// ShareAcquireMode values of ShareFetch v2+ (KIP-1206).
const (
	// ShareAcquireBatchOptimized lets the broker round MaxRecords up to
	// whole record batches (the default).
	ShareAcquireBatchOptimized int8 = 0
	// ShareAcquireRecordLimit makes MaxRecords a strict limit.
	ShareAcquireRecordLimit int8 = 1
)

// ShareFetchRequest fetches records for a share group, acquiring them under
// a time-limited lock, and may carry acknowledgements of records acquired
// earlier (KIP-932; API key 78, versions 1-2, flexible). Send it to each
// partition's leader; the share session on that broker is keyed by group and
// member. Source: ShareFetchRequest.json.
type ShareFetchRequest struct {
	// GroupID is the share group's ID.
	GroupID *string
	// MemberID is the member ID used in ShareGroupHeartbeat.
	MemberID *string
	// ShareSessionEpoch is 0 to open a share session, -1 to close it, and
	// otherwise one more than the last request's epoch on that broker.
	ShareSessionEpoch int32
	// MaxWaitMs is the longest the broker waits for MinBytes, milliseconds.
	MaxWaitMs int32
	// MinBytes is the least the broker accumulates before answering.
	MinBytes int32
	// MaxBytes bounds the response's record bytes.
	MaxBytes int32
	// MaxRecords bounds the records acquired (strict in ShareAcquireMode 1).
	MaxRecords int32
	// BatchSize is the preferred number of records per acquired batch.
	BatchSize int32
	// ShareAcquireMode is ShareAcquireBatchOptimized or
	// ShareAcquireRecordLimit (v2+, KIP-1206).
	ShareAcquireMode int8
	// IsRenewAck says the acknowledgements contain AckRenew; the broker then
	// acquires no new records (v2+, KIP-1222).
	IsRenewAck bool
	// Topics are the partitions to add to the session or acknowledge.
	Topics []ShareFetchTopic
	// ForgottenTopicsData are the partitions to remove from the session.
	ForgottenTopicsData []ShareForgottenTopic
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// ShareFetchTopic is one topic of a ShareFetchRequest.
type ShareFetchTopic struct {
	// TopicID is the topic ID.
	TopicID UUID
	// Partitions are the topic's partitions.
	Partitions []ShareFetchPartition
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// ShareFetchPartition is one partition of a ShareFetchRequest.
type ShareFetchPartition struct {
	// PartitionIndex is the partition index.
	PartitionIndex int32
	// AcknowledgementBatches acknowledge records acquired earlier.
	AcknowledgementBatches []ShareAcknowledgementBatch
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// ShareAcknowledgementBatch acknowledges the offsets FirstOffset..LastOffset
// (inclusive). AcknowledgeTypes holds either one type for the whole range or
// one type per offset (AckGap, AckAccept, AckRelease, AckReject, AckRenew).
type ShareAcknowledgementBatch struct {
	// FirstOffset is the first offset acknowledged.
	FirstOffset int64
	// LastOffset is the last offset acknowledged (inclusive).
	LastOffset int64
	// AcknowledgeTypes are the acknowledge types.
	AcknowledgeTypes []int8
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// ShareForgottenTopic names partitions of one topic to leave the session.
type ShareForgottenTopic struct {
	// TopicID is the topic ID.
	TopicID UUID
	// Partitions are the partition indexes.
	Partitions []int32
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// Key returns KeyShareFetch.
func (*ShareFetchRequest) Key() APIKey { return KeyShareFetch }

// ResponseFor returns an empty *ShareFetchResponse.
func (*ShareFetchRequest) ResponseFor() Response { return &ShareFetchResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *ShareFetchRequest) AppendTo(dst []byte, v int16) []byte {
	dst = AppendNullableString(dst, m.GroupID, true)
	dst = AppendNullableString(dst, m.MemberID, true)
	dst = AppendInt32(dst, m.ShareSessionEpoch)
	dst = AppendInt32(dst, m.MaxWaitMs)
	dst = AppendInt32(dst, m.MinBytes)
	dst = AppendInt32(dst, m.MaxBytes)
	dst = AppendInt32(dst, m.MaxRecords)
	dst = AppendInt32(dst, m.BatchSize)
	if v >= 2 {
		dst = AppendInt8(dst, m.ShareAcquireMode)
		dst = AppendBool(dst, m.IsRenewAck)
	}
	dst = AppendArray(dst, true, m.Topics, func(dst []byte, t *ShareFetchTopic) []byte {
		dst = AppendUUID(dst, t.TopicID)
		dst = AppendArray(dst, true, t.Partitions, func(dst []byte, p *ShareFetchPartition) []byte {
			dst = AppendInt32(dst, p.PartitionIndex)
			dst = appendAckBatches(dst, p.AcknowledgementBatches)
			return AppendTags(dst, p.UnknownTags)
		})
		return AppendTags(dst, t.UnknownTags)
	})
	dst = AppendArray(dst, true, m.ForgottenTopicsData, func(dst []byte, t *ShareForgottenTopic) []byte {
		dst = AppendUUID(dst, t.TopicID)
		dst = AppendInt32Array(dst, true, t.Partitions)
		return AppendTags(dst, t.UnknownTags)
	})
	return AppendTags(dst, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *ShareFetchRequest) DecodeFrom(r *Reader, v int16) error {
	m.GroupID = r.NullableString(true)
	m.MemberID = r.NullableString(true)
	m.ShareSessionEpoch = r.Int32()
	m.MaxWaitMs = r.Int32()
	m.MinBytes = r.Int32()
	m.MaxBytes = r.Int32()
	m.MaxRecords = r.Int32()
	m.BatchSize = r.Int32()
	m.ShareAcquireMode, m.IsRenewAck = 0, false
	if v >= 2 {
		m.ShareAcquireMode = r.Int8()
		m.IsRenewAck = r.Bool()
	}
	m.Topics = ReadArray(r, true, 18, func(r *Reader, t *ShareFetchTopic) {
		t.TopicID = r.UUID()
		t.Partitions = ReadArray(r, true, 6, func(r *Reader, p *ShareFetchPartition) {
			p.PartitionIndex = r.Int32()
			p.AcknowledgementBatches = readAckBatches(r)
			p.UnknownTags = r.ReadTags(nil)
		})
		t.UnknownTags = r.ReadTags(nil)
	})
	m.ForgottenTopicsData = ReadArray(r, true, 18, func(r *Reader, t *ShareForgottenTopic) {
		t.TopicID = r.UUID()
		t.Partitions = r.Int32Array(true)
		t.UnknownTags = r.ReadTags(nil)
	})
	m.UnknownTags = r.ReadTags(nil)
	return r.Err()
}

func appendAckBatches(dst []byte, bs []ShareAcknowledgementBatch) []byte {
	return AppendArray(dst, true, bs, func(dst []byte, b *ShareAcknowledgementBatch) []byte {
		dst = AppendInt64(dst, b.FirstOffset)
		dst = AppendInt64(dst, b.LastOffset)
		dst = AppendArrayLen(dst, len(b.AcknowledgeTypes), true)
		for _, t := range b.AcknowledgeTypes {
			dst = AppendInt8(dst, t)
		}
		return AppendTags(dst, b.UnknownTags)
	})
}

func readAckBatches(r *Reader) []ShareAcknowledgementBatch {
	return ReadArray(r, true, 18, func(r *Reader, b *ShareAcknowledgementBatch) {
		b.FirstOffset = r.Int64()
		b.LastOffset = r.Int64()
		b.AcknowledgeTypes = readInt8Array(r)
		b.UnknownTags = r.ReadTags(nil)
	})
}

// readInt8Array reads a compact array of INT8 (bounded by the remaining
// bytes before allocating); empty or null is nil.
func readInt8Array(r *Reader) []int8 {
	n := r.ArrayLen(true, 1)
	if n <= 0 || r.Err() != nil {
		return nil
	}
	raw := r.take(n)
	if raw == nil {
		return nil
	}
	out := make([]int8, n)
	for i, b := range raw {
		out[i] = int8(b)
	}
	return out
}

// ShareFetchResponse carries acquired records and acknowledgement results.
// Records alias the frame the response was decoded from.
type ShareFetchResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// ErrorCode is the top-level error code (e.g. 122
	// SHARE_SESSION_NOT_FOUND, 123 INVALID_SHARE_SESSION_EPOCH), 0 on success.
	ErrorCode int16
	// ErrorMessage is the broker's message for ErrorCode, or nil.
	ErrorMessage *string
	// AcquisitionLockTimeoutMs is how long the acquired records stay locked,
	// milliseconds.
	AcquisitionLockTimeoutMs int32
	// Responses hold one entry per topic.
	Responses []ShareFetchTopicResponse
	// NodeEndpoints locate the leaders named in CurrentLeader.
	NodeEndpoints []NodeEndpoint
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// ShareFetchTopicResponse is one topic of a ShareFetchResponse.
type ShareFetchTopicResponse struct {
	// TopicID is the topic ID.
	TopicID UUID
	// Partitions hold one entry per partition.
	Partitions []ShareFetchPartitionResponse
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// ShareFetchPartitionResponse is one partition of a ShareFetchResponse: its
// fetch error, its acknowledgement error (for acknowledgements the request
// carried), the records, and which of their offsets this member acquired.
type ShareFetchPartitionResponse struct {
	// PartitionIndex is the partition index.
	PartitionIndex int32
	// ErrorCode is the fetch error code, 0 on success.
	ErrorCode int16
	// ErrorMessage is the fetch error message, or nil.
	ErrorMessage *string
	// AcknowledgeErrorCode is the acknowledgement error code (e.g. 121
	// INVALID_RECORD_STATE), 0 on success.
	AcknowledgeErrorCode int16
	// AcknowledgeErrorMessage is the acknowledgement error message, or nil.
	AcknowledgeErrorMessage *string
	// CurrentLeader is the partition's leader.
	CurrentLeader LeaderIDAndEpoch
	// Records are the raw record batches (aliasing the frame); they may
	// hold records outside AcquiredRecords, which are not this member's.
	Records []byte
	// AcquiredRecords are the offset ranges acquired, with delivery counts.
	AcquiredRecords []ShareAcquiredRecords
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// ShareAcquiredRecords is one range of acquired offsets.
type ShareAcquiredRecords struct {
	// FirstOffset is the first offset acquired.
	FirstOffset int64
	// LastOffset is the last offset acquired (inclusive).
	LastOffset int64
	// DeliveryCount is how many times these records have been delivered,
	// this delivery included.
	DeliveryCount int16
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// Key returns KeyShareFetch.
func (*ShareFetchResponse) Key() APIKey { return KeyShareFetch }

// AppendTo appends the response body for version v (header excluded).
func (m *ShareFetchResponse) AppendTo(dst []byte, v int16) []byte {
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendNullableString(dst, m.ErrorMessage, true)
	dst = AppendInt32(dst, m.AcquisitionLockTimeoutMs)
	dst = AppendArray(dst, true, m.Responses, func(dst []byte, t *ShareFetchTopicResponse) []byte {
		dst = AppendUUID(dst, t.TopicID)
		dst = AppendArray(dst, true, t.Partitions, func(dst []byte, p *ShareFetchPartitionResponse) []byte {
			dst = AppendInt32(dst, p.PartitionIndex)
			dst = AppendInt16(dst, p.ErrorCode)
			dst = AppendNullableString(dst, p.ErrorMessage, true)
			dst = AppendInt16(dst, p.AcknowledgeErrorCode)
			dst = AppendNullableString(dst, p.AcknowledgeErrorMessage, true)
			dst = p.CurrentLeader.appendTo(dst)
			dst = AppendBytes(dst, p.Records, true) // not nullable in v1+
			dst = AppendArray(dst, true, p.AcquiredRecords, func(dst []byte, a *ShareAcquiredRecords) []byte {
				dst = AppendInt64(dst, a.FirstOffset)
				dst = AppendInt64(dst, a.LastOffset)
				dst = AppendInt16(dst, a.DeliveryCount)
				return AppendTags(dst, a.UnknownTags)
			})
			return AppendTags(dst, p.UnknownTags)
		})
		return AppendTags(dst, t.UnknownTags)
	})
	dst = append(dst, appendNodeEndpoints(m.NodeEndpoints)...)
	return AppendTags(dst, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v. A null Records (which
// v1+ does not allow, but is harmless) decodes as empty.
func (m *ShareFetchResponse) DecodeFrom(r *Reader, v int16) error {
	m.ThrottleTimeMs = r.Int32()
	m.ErrorCode = r.Int16()
	m.ErrorMessage = r.NullableString(true)
	m.AcquisitionLockTimeoutMs = r.Int32()
	m.Responses = ReadArray(r, true, 18, func(r *Reader, t *ShareFetchTopicResponse) {
		t.TopicID = r.UUID()
		t.Partitions = ReadArray(r, true, 21, func(r *Reader, p *ShareFetchPartitionResponse) {
			p.PartitionIndex = r.Int32()
			p.ErrorCode = r.Int16()
			p.ErrorMessage = r.NullableString(true)
			p.AcknowledgeErrorCode = r.Int16()
			p.AcknowledgeErrorMessage = r.NullableString(true)
			p.CurrentLeader.readFrom(r)
			if p.Records = r.NullableBytes(true); p.Records == nil && r.Err() == nil {
				p.Records = []byte{} // null is not valid in v1+; read as empty
			}
			p.AcquiredRecords = ReadArray(r, true, 19, func(r *Reader, a *ShareAcquiredRecords) {
				a.FirstOffset = r.Int64()
				a.LastOffset = r.Int64()
				a.DeliveryCount = r.Int16()
				a.UnknownTags = r.ReadTags(nil)
			})
			p.UnknownTags = r.ReadTags(nil)
		})
		t.UnknownTags = r.ReadTags(nil)
	})
	m.NodeEndpoints = readNodeEndpoints(r)
	m.UnknownTags = r.ReadTags(nil)
	return r.Err()
}
