package wire

// WriteTxnMarkersRequest writes transaction markers to partitions; it goes to each partition's leader (as a transaction coordinator would, or an operator aborting a hanging transaction) (API key 27, versions 1-2, all flexible).
// Source: WriteTxnMarkersRequest.json; KIP-98, KIP-664, KIP-890.
type WriteTxnMarkersRequest struct {
	// Markers holds the transaction markers to be written.
	Markers []WriteTxnMarkersWritableTxnMarker
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// WriteTxnMarkersWritableTxnMarker is the transaction markers to be written.
type WriteTxnMarkersWritableTxnMarker struct {
	// ProducerID is the current producer ID.
	ProducerID int64
	// ProducerEpoch is the current epoch associated with the producer ID.
	ProducerEpoch int16
	// TransactionResult is the result of the transaction to write to the partitions (false = ABORT, true = COMMIT).
	TransactionResult bool
	// Topics holds each topic that we want to write transaction marker(s) for.
	Topics []WriteTxnMarkersWritableTxnMarkerTopic
	// CoordinatorEpoch is the epoch associated with the transaction state partition hosted by this transaction coordinator.
	CoordinatorEpoch int32
	// TransactionVersion is the transaction version of the marker. Ex: 0/1 = legacy (TV0/TV1), 2 = TV2 etc. (v2+)
	TransactionVersion int8
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// WriteTxnMarkersWritableTxnMarkerTopic is each topic that we want to write transaction marker(s) for.
type WriteTxnMarkersWritableTxnMarkerTopic struct {
	// Name is the topic name.
	Name string
	// PartitionIndexes holds the indexes of the partitions to write transaction markers for.
	PartitionIndexes []int32
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyWriteTxnMarkers.
func (*WriteTxnMarkersRequest) Key() APIKey { return KeyWriteTxnMarkers }

// ResponseFor returns an empty *WriteTxnMarkersResponse.
func (*WriteTxnMarkersRequest) ResponseFor() Response { return &WriteTxnMarkersResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *WriteTxnMarkersRequest) AppendTo(dst []byte, v int16) []byte {
	const flex = true
	dst = AppendArray(dst, flex, m.Markers, func(dst []byte, x *WriteTxnMarkersWritableTxnMarker) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *WriteTxnMarkersRequest) DecodeFrom(r *Reader, v int16) error {
	const flex = true
	m.Markers = ReadArray(r, flex, 17, func(r *Reader, x *WriteTxnMarkersWritableTxnMarker) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *WriteTxnMarkersWritableTxnMarker) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt64(dst, m.ProducerID)
	dst = AppendInt16(dst, m.ProducerEpoch)
	dst = AppendBool(dst, m.TransactionResult)
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, x *WriteTxnMarkersWritableTxnMarkerTopic) []byte { return x.appendTo(dst, v, flex) })
	dst = AppendInt32(dst, m.CoordinatorEpoch)
	if v >= 2 {
		dst = AppendInt8(dst, m.TransactionVersion)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *WriteTxnMarkersWritableTxnMarker) readFrom(r *Reader, v int16, flex bool) {
	m.ProducerID = r.Int64()
	m.ProducerEpoch = r.Int16()
	m.TransactionResult = r.Bool()
	m.Topics = ReadArray(r, flex, 3, func(r *Reader, x *WriteTxnMarkersWritableTxnMarkerTopic) { x.readFrom(r, v, flex) })
	m.CoordinatorEpoch = r.Int32()
	if v >= 2 {
		m.TransactionVersion = r.Int8()
	}
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *WriteTxnMarkersWritableTxnMarkerTopic) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.Name, flex)
	dst = AppendArray(dst, flex, m.PartitionIndexes, func(dst []byte, x *int32) []byte { return AppendInt32(dst, *x) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *WriteTxnMarkersWritableTxnMarkerTopic) readFrom(r *Reader, v int16, flex bool) {
	m.Name = r.String(flex)
	m.PartitionIndexes = ReadArray(r, flex, 4, func(r *Reader, x *int32) { *x = r.Int32() })
	m.UnknownTags = readFlexTags(r, flex)
}

// WriteTxnMarkersResponse answers a WriteTxnMarkersRequest.
type WriteTxnMarkersResponse struct {
	// Markers holds the results for writing makers.
	Markers []WriteTxnMarkersWritableTxnMarkerResult
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// WriteTxnMarkersWritableTxnMarkerResult is the results for writing makers.
type WriteTxnMarkersWritableTxnMarkerResult struct {
	// ProducerID is the current producer ID in use by the transactional ID.
	ProducerID int64
	// Topics holds the results by topic.
	Topics []WriteTxnMarkersWritableTxnMarkerTopicResult
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// WriteTxnMarkersWritableTxnMarkerTopicResult is the results by topic.
type WriteTxnMarkersWritableTxnMarkerTopicResult struct {
	// Name is the topic name.
	Name string
	// Partitions holds the results by partition.
	Partitions []WriteTxnMarkersWritableTxnMarkerPartitionResult
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// WriteTxnMarkersWritableTxnMarkerPartitionResult is the results by partition.
type WriteTxnMarkersWritableTxnMarkerPartitionResult struct {
	// PartitionIndex is the partition index.
	PartitionIndex int32
	// ErrorCode is the error code, or 0 if there was no error.
	ErrorCode int16
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyWriteTxnMarkers.
func (*WriteTxnMarkersResponse) Key() APIKey { return KeyWriteTxnMarkers }

// AppendTo appends the response body for version v (header excluded).
func (m *WriteTxnMarkersResponse) AppendTo(dst []byte, v int16) []byte {
	const flex = true
	dst = AppendArray(dst, flex, m.Markers, func(dst []byte, x *WriteTxnMarkersWritableTxnMarkerResult) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *WriteTxnMarkersResponse) DecodeFrom(r *Reader, v int16) error {
	const flex = true
	m.Markers = ReadArray(r, flex, 10, func(r *Reader, x *WriteTxnMarkersWritableTxnMarkerResult) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *WriteTxnMarkersWritableTxnMarkerResult) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt64(dst, m.ProducerID)
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, x *WriteTxnMarkersWritableTxnMarkerTopicResult) []byte {
		return x.appendTo(dst, v, flex)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *WriteTxnMarkersWritableTxnMarkerResult) readFrom(r *Reader, v int16, flex bool) {
	m.ProducerID = r.Int64()
	m.Topics = ReadArray(r, flex, 3, func(r *Reader, x *WriteTxnMarkersWritableTxnMarkerTopicResult) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *WriteTxnMarkersWritableTxnMarkerTopicResult) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.Name, flex)
	dst = AppendArray(dst, flex, m.Partitions, func(dst []byte, x *WriteTxnMarkersWritableTxnMarkerPartitionResult) []byte {
		return x.appendTo(dst, v, flex)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *WriteTxnMarkersWritableTxnMarkerTopicResult) readFrom(r *Reader, v int16, flex bool) {
	m.Name = r.String(flex)
	m.Partitions = ReadArray(r, flex, 7, func(r *Reader, x *WriteTxnMarkersWritableTxnMarkerPartitionResult) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *WriteTxnMarkersWritableTxnMarkerPartitionResult) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt32(dst, m.PartitionIndex)
	dst = AppendInt16(dst, m.ErrorCode)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *WriteTxnMarkersWritableTxnMarkerPartitionResult) readFrom(r *Reader, v int16, flex bool) {
	m.PartitionIndex = r.Int32()
	m.ErrorCode = r.Int16()
	m.UnknownTags = readFlexTags(r, flex)
}
