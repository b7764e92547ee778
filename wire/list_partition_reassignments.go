package wire

// ListPartitionReassignmentsRequest lists the ongoing partition reassignments (API key 46, version 0, all flexible).
// Source: ListPartitionReassignmentsRequest.json; KIP-455.
type ListPartitionReassignmentsRequest struct {
	// TimeoutMs is the time in ms to wait for the request to complete. Kafka's default: 60000.
	TimeoutMs int32
	// Topics holds the topics to list partition reassignments for, or null to list everything. Nil is null.
	Topics []ListPartitionReassignmentsTopics
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// ListPartitionReassignmentsTopics is the topics to list partition reassignments for, or null to list everything.
type ListPartitionReassignmentsTopics struct {
	// Name is the topic name.
	Name string
	// PartitionIndexes holds the partitions to list partition reassignments for.
	PartitionIndexes []int32
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyListPartitionReassignments.
func (*ListPartitionReassignmentsRequest) Key() APIKey { return KeyListPartitionReassignments }

// ResponseFor returns an empty *ListPartitionReassignmentsResponse.
func (*ListPartitionReassignmentsRequest) ResponseFor() Response {
	return &ListPartitionReassignmentsResponse{}
}

// AppendTo appends the request body for version v (header excluded).
func (m *ListPartitionReassignmentsRequest) AppendTo(dst []byte, v int16) []byte {
	const flex = true
	dst = AppendInt32(dst, m.TimeoutMs)
	dst = AppendNullableArray(dst, flex, m.Topics, func(dst []byte, x *ListPartitionReassignmentsTopics) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *ListPartitionReassignmentsRequest) DecodeFrom(r *Reader, v int16) error {
	const flex = true
	m.TimeoutMs = r.Int32()
	m.Topics = ReadNullableArray(r, flex, 3, func(r *Reader, x *ListPartitionReassignmentsTopics) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *ListPartitionReassignmentsTopics) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.Name, flex)
	dst = AppendArray(dst, flex, m.PartitionIndexes, func(dst []byte, x *int32) []byte { return AppendInt32(dst, *x) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *ListPartitionReassignmentsTopics) readFrom(r *Reader, v int16, flex bool) {
	m.Name = r.String(flex)
	m.PartitionIndexes = ReadArray(r, flex, 4, func(r *Reader, x *int32) { *x = r.Int32() })
	m.UnknownTags = readFlexTags(r, flex)
}

// ListPartitionReassignmentsResponse answers a ListPartitionReassignmentsRequest.
type ListPartitionReassignmentsResponse struct {
	// ThrottleTimeMs is the duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
	ThrottleTimeMs int32
	// ErrorCode is the top-level error code, or 0 if there was no error.
	ErrorCode int16
	// ErrorMessage is the top-level error message, or null if there was no error. Nil is null.
	ErrorMessage *string
	// Topics holds the ongoing reassignments for each topic.
	Topics []ListPartitionReassignmentsOngoingTopicReassignment
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// ListPartitionReassignmentsOngoingTopicReassignment is the ongoing reassignments for each topic.
type ListPartitionReassignmentsOngoingTopicReassignment struct {
	// Name is the topic name.
	Name string
	// Partitions holds the ongoing reassignments for each partition.
	Partitions []ListPartitionReassignmentsOngoingPartitionReassignment
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// ListPartitionReassignmentsOngoingPartitionReassignment is the ongoing reassignments for each partition.
type ListPartitionReassignmentsOngoingPartitionReassignment struct {
	// PartitionIndex is the index of the partition.
	PartitionIndex int32
	// Replicas holds the current replica set.
	Replicas []int32
	// AddingReplicas holds the set of replicas we are currently adding.
	AddingReplicas []int32
	// RemovingReplicas holds the set of replicas we are currently removing.
	RemovingReplicas []int32
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyListPartitionReassignments.
func (*ListPartitionReassignmentsResponse) Key() APIKey { return KeyListPartitionReassignments }

// AppendTo appends the response body for version v (header excluded).
func (m *ListPartitionReassignmentsResponse) AppendTo(dst []byte, v int16) []byte {
	const flex = true
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendNullableString(dst, m.ErrorMessage, flex)
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, x *ListPartitionReassignmentsOngoingTopicReassignment) []byte {
		return x.appendTo(dst, v, flex)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *ListPartitionReassignmentsResponse) DecodeFrom(r *Reader, v int16) error {
	const flex = true
	m.ThrottleTimeMs = r.Int32()
	m.ErrorCode = r.Int16()
	m.ErrorMessage = r.NullableString(flex)
	m.Topics = ReadArray(r, flex, 3, func(r *Reader, x *ListPartitionReassignmentsOngoingTopicReassignment) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *ListPartitionReassignmentsOngoingTopicReassignment) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.Name, flex)
	dst = AppendArray(dst, flex, m.Partitions, func(dst []byte, x *ListPartitionReassignmentsOngoingPartitionReassignment) []byte {
		return x.appendTo(dst, v, flex)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *ListPartitionReassignmentsOngoingTopicReassignment) readFrom(r *Reader, v int16, flex bool) {
	m.Name = r.String(flex)
	m.Partitions = ReadArray(r, flex, 8, func(r *Reader, x *ListPartitionReassignmentsOngoingPartitionReassignment) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *ListPartitionReassignmentsOngoingPartitionReassignment) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt32(dst, m.PartitionIndex)
	dst = AppendArray(dst, flex, m.Replicas, func(dst []byte, x *int32) []byte { return AppendInt32(dst, *x) })
	dst = AppendArray(dst, flex, m.AddingReplicas, func(dst []byte, x *int32) []byte { return AppendInt32(dst, *x) })
	dst = AppendArray(dst, flex, m.RemovingReplicas, func(dst []byte, x *int32) []byte { return AppendInt32(dst, *x) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *ListPartitionReassignmentsOngoingPartitionReassignment) readFrom(r *Reader, v int16, flex bool) {
	m.PartitionIndex = r.Int32()
	m.Replicas = ReadArray(r, flex, 4, func(r *Reader, x *int32) { *x = r.Int32() })
	m.AddingReplicas = ReadArray(r, flex, 4, func(r *Reader, x *int32) { *x = r.Int32() })
	m.RemovingReplicas = ReadArray(r, flex, 4, func(r *Reader, x *int32) { *x = r.Int32() })
	m.UnknownTags = readFlexTags(r, flex)
}
