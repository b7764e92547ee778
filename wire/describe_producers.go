package wire

// DescribeProducersRequest describes the active producers of partitions; it goes to each partition's leader (API key 61, version 0, all flexible).
// Source: DescribeProducersRequest.json; KIP-664.
type DescribeProducersRequest struct {
	// Topics holds the topics to list producers for.
	Topics []DescribeProducersTopicRequest
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeProducersTopicRequest is the topics to list producers for.
type DescribeProducersTopicRequest struct {
	// Name is the topic name.
	Name string
	// PartitionIndexes holds the indexes of the partitions to list producers for.
	PartitionIndexes []int32
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyDescribeProducers.
func (*DescribeProducersRequest) Key() APIKey { return KeyDescribeProducers }

// ResponseFor returns an empty *DescribeProducersResponse.
func (*DescribeProducersRequest) ResponseFor() Response { return &DescribeProducersResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *DescribeProducersRequest) AppendTo(dst []byte, v int16) []byte {
	const flex = true
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, x *DescribeProducersTopicRequest) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *DescribeProducersRequest) DecodeFrom(r *Reader, v int16) error {
	const flex = true
	m.Topics = ReadArray(r, flex, 3, func(r *Reader, x *DescribeProducersTopicRequest) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *DescribeProducersTopicRequest) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.Name, flex)
	dst = AppendArray(dst, flex, m.PartitionIndexes, func(dst []byte, x *int32) []byte { return AppendInt32(dst, *x) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeProducersTopicRequest) readFrom(r *Reader, v int16, flex bool) {
	m.Name = r.String(flex)
	m.PartitionIndexes = ReadArray(r, flex, 4, func(r *Reader, x *int32) { *x = r.Int32() })
	m.UnknownTags = readFlexTags(r, flex)
}

// DescribeProducersResponse answers a DescribeProducersRequest.
type DescribeProducersResponse struct {
	// ThrottleTimeMs is the duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
	ThrottleTimeMs int32
	// Topics holds each topic in the response.
	Topics []DescribeProducersTopicResponse
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeProducersTopicResponse is each topic in the response.
type DescribeProducersTopicResponse struct {
	// Name is the topic name.
	Name string
	// Partitions holds each partition in the response.
	Partitions []DescribeProducersPartitionResponse
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeProducersPartitionResponse is each partition in the response.
type DescribeProducersPartitionResponse struct {
	// PartitionIndex is the partition index.
	PartitionIndex int32
	// ErrorCode is the partition error code, or 0 if there was no error.
	ErrorCode int16
	// ErrorMessage is the partition error message, which may be null if no additional details are available. Nil is null.
	ErrorMessage *string
	// ActiveProducers holds the active producers for the partition.
	ActiveProducers []DescribeProducersProducerState
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeProducersProducerState is the active producers for the partition.
type DescribeProducersProducerState struct {
	// ProducerID is the producer id.
	ProducerID int64
	// ProducerEpoch is the producer epoch.
	ProducerEpoch int32
	// LastSequence is the last sequence number sent by the producer. Kafka's default: -1.
	LastSequence int32
	// LastTimestamp is the last timestamp sent by the producer. Kafka's default: -1.
	LastTimestamp int64
	// CoordinatorEpoch is the current epoch of the producer group.
	CoordinatorEpoch int32
	// CurrentTxnStartOffset is the current transaction start offset of the producer. Kafka's default: -1.
	CurrentTxnStartOffset int64
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyDescribeProducers.
func (*DescribeProducersResponse) Key() APIKey { return KeyDescribeProducers }

// AppendTo appends the response body for version v (header excluded).
func (m *DescribeProducersResponse) AppendTo(dst []byte, v int16) []byte {
	const flex = true
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, x *DescribeProducersTopicResponse) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *DescribeProducersResponse) DecodeFrom(r *Reader, v int16) error {
	const flex = true
	m.ThrottleTimeMs = r.Int32()
	m.Topics = ReadArray(r, flex, 3, func(r *Reader, x *DescribeProducersTopicResponse) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *DescribeProducersTopicResponse) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.Name, flex)
	dst = AppendArray(dst, flex, m.Partitions, func(dst []byte, x *DescribeProducersPartitionResponse) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeProducersTopicResponse) readFrom(r *Reader, v int16, flex bool) {
	m.Name = r.String(flex)
	m.Partitions = ReadArray(r, flex, 9, func(r *Reader, x *DescribeProducersPartitionResponse) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *DescribeProducersPartitionResponse) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt32(dst, m.PartitionIndex)
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendNullableString(dst, m.ErrorMessage, flex)
	dst = AppendArray(dst, flex, m.ActiveProducers, func(dst []byte, x *DescribeProducersProducerState) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeProducersPartitionResponse) readFrom(r *Reader, v int16, flex bool) {
	m.PartitionIndex = r.Int32()
	m.ErrorCode = r.Int16()
	m.ErrorMessage = r.NullableString(flex)
	m.ActiveProducers = ReadArray(r, flex, 37, func(r *Reader, x *DescribeProducersProducerState) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *DescribeProducersProducerState) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt64(dst, m.ProducerID)
	dst = AppendInt32(dst, m.ProducerEpoch)
	dst = AppendInt32(dst, m.LastSequence)
	dst = AppendInt64(dst, m.LastTimestamp)
	dst = AppendInt32(dst, m.CoordinatorEpoch)
	dst = AppendInt64(dst, m.CurrentTxnStartOffset)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeProducersProducerState) readFrom(r *Reader, v int16, flex bool) {
	m.ProducerID = r.Int64()
	m.ProducerEpoch = r.Int32()
	m.LastSequence = r.Int32()
	m.LastTimestamp = r.Int64()
	m.CoordinatorEpoch = r.Int32()
	m.CurrentTxnStartOffset = r.Int64()
	m.UnknownTags = readFlexTags(r, flex)
}
