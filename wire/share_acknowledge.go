package wire

// ShareAcknowledgeRequest acknowledges records acquired by ShareFetch
// without fetching more (KIP-932; API key 79, versions 1-2, flexible; v2 adds
// IsRenewAck, KIP-1222). Send it to the broker whose share session acquired
// the records. Source: ShareAcknowledgeRequest.json.
type ShareAcknowledgeRequest struct {
	// GroupID is the share group's ID.
	GroupID *string
	// MemberID is the member ID used in ShareGroupHeartbeat.
	MemberID *string
	// ShareSessionEpoch is the share session epoch (never 0: acknowledging
	// needs an open session; -1 closes it).
	ShareSessionEpoch int32
	// IsRenewAck says the batches contain AckRenew (v2+).
	IsRenewAck bool
	// Topics are the partitions acknowledged.
	Topics []ShareAcknowledgeTopic
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// ShareAcknowledgeTopic is one topic of a ShareAcknowledgeRequest.
type ShareAcknowledgeTopic struct {
	// TopicID is the topic ID.
	TopicID UUID
	// Partitions are the topic's partitions.
	Partitions []ShareAcknowledgePartition
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// ShareAcknowledgePartition is one partition of a ShareAcknowledgeRequest.
type ShareAcknowledgePartition struct {
	// PartitionIndex is the partition index.
	PartitionIndex int32
	// AcknowledgementBatches are the acknowledged offset ranges.
	AcknowledgementBatches []ShareAcknowledgementBatch
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// Key returns KeyShareAcknowledge.
func (*ShareAcknowledgeRequest) Key() APIKey { return KeyShareAcknowledge }

// ResponseFor returns an empty *ShareAcknowledgeResponse.
func (*ShareAcknowledgeRequest) ResponseFor() Response { return &ShareAcknowledgeResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *ShareAcknowledgeRequest) AppendTo(dst []byte, v int16) []byte {
	dst = AppendNullableString(dst, m.GroupID, true)
	dst = AppendNullableString(dst, m.MemberID, true)
	dst = AppendInt32(dst, m.ShareSessionEpoch)
	if v >= 2 {
		dst = AppendBool(dst, m.IsRenewAck)
	}
	dst = AppendArray(dst, true, m.Topics, func(dst []byte, t *ShareAcknowledgeTopic) []byte {
		dst = AppendUUID(dst, t.TopicID)
		dst = AppendArray(dst, true, t.Partitions, func(dst []byte, p *ShareAcknowledgePartition) []byte {
			dst = AppendInt32(dst, p.PartitionIndex)
			dst = appendAckBatches(dst, p.AcknowledgementBatches)
			return AppendTags(dst, p.UnknownTags)
		})
		return AppendTags(dst, t.UnknownTags)
	})
	return AppendTags(dst, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *ShareAcknowledgeRequest) DecodeFrom(r *Reader, v int16) error {
	m.GroupID = r.NullableString(true)
	m.MemberID = r.NullableString(true)
	m.ShareSessionEpoch = r.Int32()
	m.IsRenewAck = false
	if v >= 2 {
		m.IsRenewAck = r.Bool()
	}
	m.Topics = ReadArray(r, true, 18, func(r *Reader, t *ShareAcknowledgeTopic) {
		t.TopicID = r.UUID()
		t.Partitions = ReadArray(r, true, 6, func(r *Reader, p *ShareAcknowledgePartition) {
			p.PartitionIndex = r.Int32()
			p.AcknowledgementBatches = readAckBatches(r)
			p.UnknownTags = r.ReadTags(nil)
		})
		t.UnknownTags = r.ReadTags(nil)
	})
	m.UnknownTags = r.ReadTags(nil)
	return r.Err()
}

// ShareAcknowledgeResponse reports acknowledgement results per partition.
type ShareAcknowledgeResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// ErrorCode is the top-level error code, 0 on success.
	ErrorCode int16
	// ErrorMessage is the broker's message for ErrorCode, or nil.
	ErrorMessage *string
	// AcquisitionLockTimeoutMs is the lock duration of renewed records,
	// milliseconds (v2+).
	AcquisitionLockTimeoutMs int32
	// Responses hold one entry per topic.
	Responses []ShareAcknowledgeTopicResponse
	// NodeEndpoints locate the leaders named in CurrentLeader.
	NodeEndpoints []NodeEndpoint
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// ShareAcknowledgeTopicResponse is one topic of a ShareAcknowledgeResponse.
type ShareAcknowledgeTopicResponse struct {
	// TopicID is the topic ID.
	TopicID UUID
	// Partitions hold one entry per partition.
	Partitions []ShareAcknowledgePartitionResponse
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// ShareAcknowledgePartitionResponse is one partition's acknowledgement
// result: one code for all the partition's batches in the request.
type ShareAcknowledgePartitionResponse struct {
	// PartitionIndex is the partition index.
	PartitionIndex int32
	// ErrorCode is the error code (e.g. 121 INVALID_RECORD_STATE), 0 on
	// success.
	ErrorCode int16
	// ErrorMessage is the error message, or nil.
	ErrorMessage *string
	// CurrentLeader is the partition's leader.
	CurrentLeader LeaderIDAndEpoch
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// Key returns KeyShareAcknowledge.
func (*ShareAcknowledgeResponse) Key() APIKey { return KeyShareAcknowledge }

// AppendTo appends the response body for version v (header excluded).
func (m *ShareAcknowledgeResponse) AppendTo(dst []byte, v int16) []byte {
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendNullableString(dst, m.ErrorMessage, true)
	if v >= 2 {
		dst = AppendInt32(dst, m.AcquisitionLockTimeoutMs)
	}
	dst = AppendArray(dst, true, m.Responses, func(dst []byte, t *ShareAcknowledgeTopicResponse) []byte {
		dst = AppendUUID(dst, t.TopicID)
		dst = AppendArray(dst, true, t.Partitions, func(dst []byte, p *ShareAcknowledgePartitionResponse) []byte {
			dst = AppendInt32(dst, p.PartitionIndex)
			dst = AppendInt16(dst, p.ErrorCode)
			dst = AppendNullableString(dst, p.ErrorMessage, true)
			dst = p.CurrentLeader.appendTo(dst)
			return AppendTags(dst, p.UnknownTags)
		})
		return AppendTags(dst, t.UnknownTags)
	})
	dst = append(dst, appendNodeEndpoints(m.NodeEndpoints)...)
	return AppendTags(dst, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *ShareAcknowledgeResponse) DecodeFrom(r *Reader, v int16) error {
	m.ThrottleTimeMs = r.Int32()
	m.ErrorCode = r.Int16()
	m.ErrorMessage = r.NullableString(true)
	m.AcquisitionLockTimeoutMs = 0
	if v >= 2 {
		m.AcquisitionLockTimeoutMs = r.Int32()
	}
	m.Responses = ReadArray(r, true, 18, func(r *Reader, t *ShareAcknowledgeTopicResponse) {
		t.TopicID = r.UUID()
		t.Partitions = ReadArray(r, true, 17, func(r *Reader, p *ShareAcknowledgePartitionResponse) {
			p.PartitionIndex = r.Int32()
			p.ErrorCode = r.Int16()
			p.ErrorMessage = r.NullableString(true)
			p.CurrentLeader.readFrom(r)
			p.UnknownTags = r.ReadTags(nil)
		})
		t.UnknownTags = r.ReadTags(nil)
	})
	m.NodeEndpoints = readNodeEndpoints(r)
	m.UnknownTags = r.ReadTags(nil)
	return r.Err()
}
