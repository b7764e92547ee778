package wire

// DescribeLogDirsRequest describes a broker's log directories and the replicas in them (API key 35, versions 1-5, flexible from v2).
// Source: DescribeLogDirsRequest.json; KIP-113, KIP-827, KIP-1042.
type DescribeLogDirsRequest struct {
	// Topics holds each topic that we want to describe log directories for, or null for all topics. Nil is null.
	Topics []DescribeLogDirsDescribableLogDirTopic
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeLogDirsDescribableLogDirTopic is each topic that we want to describe log directories for, or null for all topics.
type DescribeLogDirsDescribableLogDirTopic struct {
	// Topic is the topic name.
	Topic string
	// Partitions holds the partition indexes.
	Partitions []int32
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyDescribeLogDirs.
func (*DescribeLogDirsRequest) Key() APIKey { return KeyDescribeLogDirs }

// ResponseFor returns an empty *DescribeLogDirsResponse.
func (*DescribeLogDirsRequest) ResponseFor() Response { return &DescribeLogDirsResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *DescribeLogDirsRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 2
	dst = AppendNullableArray(dst, flex, m.Topics, func(dst []byte, x *DescribeLogDirsDescribableLogDirTopic) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *DescribeLogDirsRequest) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 2
	m.Topics = ReadNullableArray(r, flex, 3, func(r *Reader, x *DescribeLogDirsDescribableLogDirTopic) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *DescribeLogDirsDescribableLogDirTopic) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.Topic, flex)
	dst = AppendArray(dst, flex, m.Partitions, func(dst []byte, x *int32) []byte { return AppendInt32(dst, *x) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeLogDirsDescribableLogDirTopic) readFrom(r *Reader, v int16, flex bool) {
	m.Topic = r.String(flex)
	m.Partitions = ReadArray(r, flex, 4, func(r *Reader, x *int32) { *x = r.Int32() })
	m.UnknownTags = readFlexTags(r, flex)
}

// DescribeLogDirsResponse answers a DescribeLogDirsRequest.
type DescribeLogDirsResponse struct {
	// ThrottleTimeMs is the duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
	ThrottleTimeMs int32
	// ErrorCode is the error code, or 0 if there was no error. (v3+)
	ErrorCode int16
	// Results holds the log directories.
	Results []DescribeLogDirsResult
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeLogDirsResult is the log directories.
type DescribeLogDirsResult struct {
	// ErrorCode is the error code, or 0 if there was no error.
	ErrorCode int16
	// LogDir is the absolute log directory path.
	LogDir string
	// Topics holds the topics.
	Topics []DescribeLogDirsTopic
	// TotalBytes is the total size in bytes of the volume the log directory is in. This value does not include the size of data stored in remote storage. (v4+) Kafka's default: -1 (what decoding sets where the version lacks the field).
	TotalBytes int64
	// UsableBytes is the usable size in bytes of the volume the log directory is in. This value does not include the size of data stored in remote storage. (v4+) Kafka's default: -1 (what decoding sets where the version lacks the field).
	UsableBytes int64
	// IsCordoned is used true if this log directory is cordoned. (v5+)
	IsCordoned bool
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeLogDirsTopic is the topics.
type DescribeLogDirsTopic struct {
	// Name is the topic name.
	Name string
	// Partitions holds the partitions.
	Partitions []DescribeLogDirsPartition
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeLogDirsPartition is the partitions.
type DescribeLogDirsPartition struct {
	// PartitionIndex is the partition index.
	PartitionIndex int32
	// PartitionSize is the size of the log segments in this partition in bytes.
	PartitionSize int64
	// OffsetLag is the lag of the log's LEO w.r.t. partition's HW (if it is the current log for the partition) or current replica's LEO (if it is the future log for the partition).
	OffsetLag int64
	// IsFutureKey is used true if this log is created by AlterReplicaLogDirsRequest and will replace the current log of the replica in the future.
	IsFutureKey bool
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyDescribeLogDirs.
func (*DescribeLogDirsResponse) Key() APIKey { return KeyDescribeLogDirs }

// AppendTo appends the response body for version v (header excluded).
func (m *DescribeLogDirsResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 2
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	if v >= 3 {
		dst = AppendInt16(dst, m.ErrorCode)
	}
	dst = AppendArray(dst, flex, m.Results, func(dst []byte, x *DescribeLogDirsResult) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *DescribeLogDirsResponse) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 2
	m.ThrottleTimeMs = r.Int32()
	if v >= 3 {
		m.ErrorCode = r.Int16()
	}
	m.Results = ReadArray(r, flex, 5, func(r *Reader, x *DescribeLogDirsResult) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *DescribeLogDirsResult) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendString(dst, m.LogDir, flex)
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, x *DescribeLogDirsTopic) []byte { return x.appendTo(dst, v, flex) })
	if v >= 4 {
		dst = AppendInt64(dst, m.TotalBytes)
	}
	if v >= 4 {
		dst = AppendInt64(dst, m.UsableBytes)
	}
	if v >= 5 {
		dst = AppendBool(dst, m.IsCordoned)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeLogDirsResult) readFrom(r *Reader, v int16, flex bool) {
	m.TotalBytes = -1
	m.UsableBytes = -1
	m.ErrorCode = r.Int16()
	m.LogDir = r.String(flex)
	m.Topics = ReadArray(r, flex, 3, func(r *Reader, x *DescribeLogDirsTopic) { x.readFrom(r, v, flex) })
	if v >= 4 {
		m.TotalBytes = r.Int64()
	}
	if v >= 4 {
		m.UsableBytes = r.Int64()
	}
	if v >= 5 {
		m.IsCordoned = r.Bool()
	}
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *DescribeLogDirsTopic) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.Name, flex)
	dst = AppendArray(dst, flex, m.Partitions, func(dst []byte, x *DescribeLogDirsPartition) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeLogDirsTopic) readFrom(r *Reader, v int16, flex bool) {
	m.Name = r.String(flex)
	m.Partitions = ReadArray(r, flex, 21, func(r *Reader, x *DescribeLogDirsPartition) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *DescribeLogDirsPartition) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt32(dst, m.PartitionIndex)
	dst = AppendInt64(dst, m.PartitionSize)
	dst = AppendInt64(dst, m.OffsetLag)
	dst = AppendBool(dst, m.IsFutureKey)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeLogDirsPartition) readFrom(r *Reader, v int16, flex bool) {
	m.PartitionIndex = r.Int32()
	m.PartitionSize = r.Int64()
	m.OffsetLag = r.Int64()
	m.IsFutureKey = r.Bool()
	m.UnknownTags = readFlexTags(r, flex)
}
