package wire

// AlterPartitionReassignmentsRequest changes the replica sets of partitions, or cancels their reassignment; it goes to the controller (via any broker) (API key 45, versions 0-1, all flexible).
// Source: AlterPartitionReassignmentsRequest.json; KIP-455, KIP-1102 (AllowReplicationFactorChange, v1).
type AlterPartitionReassignmentsRequest struct {
	// TimeoutMs is the time in ms to wait for the request to complete. Kafka's default: 60000.
	TimeoutMs int32
	// AllowReplicationFactorChange is the option indicating whether changing the replication factor of any given partition as part of this request is a valid move. (v1+) Kafka's default: true (what decoding sets where the version lacks the field).
	AllowReplicationFactorChange bool
	// Topics holds the topics to reassign.
	Topics []AlterPartitionReassignmentsReassignableTopic
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// AlterPartitionReassignmentsReassignableTopic is the topics to reassign.
type AlterPartitionReassignmentsReassignableTopic struct {
	// Name is the topic name.
	Name string
	// Partitions holds the partitions to reassign.
	Partitions []AlterPartitionReassignmentsReassignablePartition
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// AlterPartitionReassignmentsReassignablePartition is the partitions to reassign.
type AlterPartitionReassignmentsReassignablePartition struct {
	// PartitionIndex is the partition index.
	PartitionIndex int32
	// Replicas holds the replicas to place the partitions on, or null to cancel a pending reassignment for this partition. Nil is null.
	Replicas []int32
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyAlterPartitionReassignments.
func (*AlterPartitionReassignmentsRequest) Key() APIKey { return KeyAlterPartitionReassignments }

// ResponseFor returns an empty *AlterPartitionReassignmentsResponse.
func (*AlterPartitionReassignmentsRequest) ResponseFor() Response {
	return &AlterPartitionReassignmentsResponse{}
}

// AppendTo appends the request body for version v (header excluded).
func (m *AlterPartitionReassignmentsRequest) AppendTo(dst []byte, v int16) []byte {
	const flex = true
	dst = AppendInt32(dst, m.TimeoutMs)
	if v >= 1 {
		dst = AppendBool(dst, m.AllowReplicationFactorChange)
	}
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, x *AlterPartitionReassignmentsReassignableTopic) []byte {
		return x.appendTo(dst, v, flex)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *AlterPartitionReassignmentsRequest) DecodeFrom(r *Reader, v int16) error {
	const flex = true
	m.AllowReplicationFactorChange = true
	m.TimeoutMs = r.Int32()
	if v >= 1 {
		m.AllowReplicationFactorChange = r.Bool()
	}
	m.Topics = ReadArray(r, flex, 3, func(r *Reader, x *AlterPartitionReassignmentsReassignableTopic) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *AlterPartitionReassignmentsReassignableTopic) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.Name, flex)
	dst = AppendArray(dst, flex, m.Partitions, func(dst []byte, x *AlterPartitionReassignmentsReassignablePartition) []byte {
		return x.appendTo(dst, v, flex)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *AlterPartitionReassignmentsReassignableTopic) readFrom(r *Reader, v int16, flex bool) {
	m.Name = r.String(flex)
	m.Partitions = ReadArray(r, flex, 6, func(r *Reader, x *AlterPartitionReassignmentsReassignablePartition) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *AlterPartitionReassignmentsReassignablePartition) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt32(dst, m.PartitionIndex)
	dst = AppendNullableArray(dst, flex, m.Replicas, func(dst []byte, x *int32) []byte { return AppendInt32(dst, *x) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *AlterPartitionReassignmentsReassignablePartition) readFrom(r *Reader, v int16, flex bool) {
	m.PartitionIndex = r.Int32()
	m.Replicas = ReadNullableArray(r, flex, 4, func(r *Reader, x *int32) { *x = r.Int32() })
	m.UnknownTags = readFlexTags(r, flex)
}

// AlterPartitionReassignmentsResponse answers a AlterPartitionReassignmentsRequest.
type AlterPartitionReassignmentsResponse struct {
	// ThrottleTimeMs is the duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
	ThrottleTimeMs int32
	// AllowReplicationFactorChange is the option indicating whether changing the replication factor of any given partition as part of the request was allowed. (v1+) Kafka's default: true (what decoding sets where the version lacks the field).
	AllowReplicationFactorChange bool
	// ErrorCode is the top-level error code, or 0 if there was no error.
	ErrorCode int16
	// ErrorMessage is the top-level error message, or null if there was no error. Nil is null.
	ErrorMessage *string
	// Responses holds the responses to topics to reassign.
	Responses []AlterPartitionReassignmentsReassignableTopicResponse
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// AlterPartitionReassignmentsReassignableTopicResponse is the responses to topics to reassign.
type AlterPartitionReassignmentsReassignableTopicResponse struct {
	// Name is the topic name.
	Name string
	// Partitions holds the responses to partitions to reassign.
	Partitions []AlterPartitionReassignmentsReassignablePartitionResponse
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// AlterPartitionReassignmentsReassignablePartitionResponse is the responses to partitions to reassign.
type AlterPartitionReassignmentsReassignablePartitionResponse struct {
	// PartitionIndex is the partition index.
	PartitionIndex int32
	// ErrorCode is the error code for this partition, or 0 if there was no error.
	ErrorCode int16
	// ErrorMessage is the error message for this partition, or null if there was no error. Nil is null.
	ErrorMessage *string
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyAlterPartitionReassignments.
func (*AlterPartitionReassignmentsResponse) Key() APIKey { return KeyAlterPartitionReassignments }

// AppendTo appends the response body for version v (header excluded).
func (m *AlterPartitionReassignmentsResponse) AppendTo(dst []byte, v int16) []byte {
	const flex = true
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	if v >= 1 {
		dst = AppendBool(dst, m.AllowReplicationFactorChange)
	}
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendNullableString(dst, m.ErrorMessage, flex)
	dst = AppendArray(dst, flex, m.Responses, func(dst []byte, x *AlterPartitionReassignmentsReassignableTopicResponse) []byte {
		return x.appendTo(dst, v, flex)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *AlterPartitionReassignmentsResponse) DecodeFrom(r *Reader, v int16) error {
	const flex = true
	m.AllowReplicationFactorChange = true
	m.ThrottleTimeMs = r.Int32()
	if v >= 1 {
		m.AllowReplicationFactorChange = r.Bool()
	}
	m.ErrorCode = r.Int16()
	m.ErrorMessage = r.NullableString(flex)
	m.Responses = ReadArray(r, flex, 3, func(r *Reader, x *AlterPartitionReassignmentsReassignableTopicResponse) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *AlterPartitionReassignmentsReassignableTopicResponse) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.Name, flex)
	dst = AppendArray(dst, flex, m.Partitions, func(dst []byte, x *AlterPartitionReassignmentsReassignablePartitionResponse) []byte {
		return x.appendTo(dst, v, flex)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *AlterPartitionReassignmentsReassignableTopicResponse) readFrom(r *Reader, v int16, flex bool) {
	m.Name = r.String(flex)
	m.Partitions = ReadArray(r, flex, 8, func(r *Reader, x *AlterPartitionReassignmentsReassignablePartitionResponse) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *AlterPartitionReassignmentsReassignablePartitionResponse) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt32(dst, m.PartitionIndex)
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendNullableString(dst, m.ErrorMessage, flex)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *AlterPartitionReassignmentsReassignablePartitionResponse) readFrom(r *Reader, v int16, flex bool) {
	m.PartitionIndex = r.Int32()
	m.ErrorCode = r.Int16()
	m.ErrorMessage = r.NullableString(flex)
	m.UnknownTags = readFlexTags(r, flex)
}
