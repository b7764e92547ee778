package wire

// ElectLeadersRequest elects preferred (ElectionType 0) or unclean (1) leaders for partitions (API key 43, versions 0-2, flexible from v2).
// Source: ElectLeadersRequest.json; KIP-183, KIP-460.
type ElectLeadersRequest struct {
	// ElectionType is the type of elections to conduct for the partition. A value of '0' elects the preferred replica. A value of '1' elects the first live replica if there are no in-sync replica. (v1+)
	ElectionType int8
	// TopicPartitions holds the topic partitions to elect leaders. Nil is null.
	TopicPartitions []ElectLeadersTopicPartitions
	// TimeoutMs is the time in ms to wait for the election to complete. Kafka's default: 60000.
	TimeoutMs int32
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// ElectLeadersTopicPartitions is the topic partitions to elect leaders.
type ElectLeadersTopicPartitions struct {
	// Topic is the name of a topic.
	Topic string
	// Partitions holds the partitions of this topic whose leader should be elected.
	Partitions []int32
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyElectLeaders.
func (*ElectLeadersRequest) Key() APIKey { return KeyElectLeaders }

// ResponseFor returns an empty *ElectLeadersResponse.
func (*ElectLeadersRequest) ResponseFor() Response { return &ElectLeadersResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *ElectLeadersRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 2
	if v >= 1 {
		dst = AppendInt8(dst, m.ElectionType)
	}
	dst = AppendNullableArray(dst, flex, m.TopicPartitions, func(dst []byte, x *ElectLeadersTopicPartitions) []byte { return x.appendTo(dst, v, flex) })
	dst = AppendInt32(dst, m.TimeoutMs)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *ElectLeadersRequest) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 2
	if v >= 1 {
		m.ElectionType = r.Int8()
	}
	m.TopicPartitions = ReadNullableArray(r, flex, 3, func(r *Reader, x *ElectLeadersTopicPartitions) { x.readFrom(r, v, flex) })
	m.TimeoutMs = r.Int32()
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *ElectLeadersTopicPartitions) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.Topic, flex)
	dst = AppendArray(dst, flex, m.Partitions, func(dst []byte, x *int32) []byte { return AppendInt32(dst, *x) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *ElectLeadersTopicPartitions) readFrom(r *Reader, v int16, flex bool) {
	m.Topic = r.String(flex)
	m.Partitions = ReadArray(r, flex, 4, func(r *Reader, x *int32) { *x = r.Int32() })
	m.UnknownTags = readFlexTags(r, flex)
}

// ElectLeadersResponse answers a ElectLeadersRequest.
type ElectLeadersResponse struct {
	// ThrottleTimeMs is the duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
	ThrottleTimeMs int32
	// ErrorCode is the top level response error code. (v1+)
	ErrorCode int16
	// ReplicaElectionResults holds the election results, or an empty array if the requester did not have permission and the request asks for all partitions.
	ReplicaElectionResults []ElectLeadersReplicaElectionResult
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// ElectLeadersReplicaElectionResult is the election results, or an empty array if the requester did not have permission and the request asks for all partitions.
type ElectLeadersReplicaElectionResult struct {
	// Topic is the topic name.
	Topic string
	// PartitionResult holds the results for each partition.
	PartitionResult []ElectLeadersPartitionResult
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// ElectLeadersPartitionResult is the results for each partition.
type ElectLeadersPartitionResult struct {
	// PartitionID is the partition id.
	PartitionID int32
	// ErrorCode is the result error, or zero if there was no error.
	ErrorCode int16
	// ErrorMessage is the result message, or null if there was no error. Nil is null.
	ErrorMessage *string
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyElectLeaders.
func (*ElectLeadersResponse) Key() APIKey { return KeyElectLeaders }

// AppendTo appends the response body for version v (header excluded).
func (m *ElectLeadersResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 2
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	if v >= 1 {
		dst = AppendInt16(dst, m.ErrorCode)
	}
	dst = AppendArray(dst, flex, m.ReplicaElectionResults, func(dst []byte, x *ElectLeadersReplicaElectionResult) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *ElectLeadersResponse) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 2
	m.ThrottleTimeMs = r.Int32()
	if v >= 1 {
		m.ErrorCode = r.Int16()
	}
	m.ReplicaElectionResults = ReadArray(r, flex, 3, func(r *Reader, x *ElectLeadersReplicaElectionResult) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *ElectLeadersReplicaElectionResult) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.Topic, flex)
	dst = AppendArray(dst, flex, m.PartitionResult, func(dst []byte, x *ElectLeadersPartitionResult) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *ElectLeadersReplicaElectionResult) readFrom(r *Reader, v int16, flex bool) {
	m.Topic = r.String(flex)
	m.PartitionResult = ReadArray(r, flex, 8, func(r *Reader, x *ElectLeadersPartitionResult) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *ElectLeadersPartitionResult) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt32(dst, m.PartitionID)
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendNullableString(dst, m.ErrorMessage, flex)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *ElectLeadersPartitionResult) readFrom(r *Reader, v int16, flex bool) {
	m.PartitionID = r.Int32()
	m.ErrorCode = r.Int16()
	m.ErrorMessage = r.NullableString(flex)
	m.UnknownTags = readFlexTags(r, flex)
}
