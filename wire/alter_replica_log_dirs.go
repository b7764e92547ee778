package wire

// AlterReplicaLogDirsRequest moves replicas between a broker's log directories (API key 34, versions 1-2, flexible from v2).
// Source: AlterReplicaLogDirsRequest.json; KIP-113.
type AlterReplicaLogDirsRequest struct {
	// Dirs holds the alterations to make for each directory.
	Dirs []AlterReplicaLogDirsAlterReplicaLogDir
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// AlterReplicaLogDirsAlterReplicaLogDir is the alterations to make for each directory.
type AlterReplicaLogDirsAlterReplicaLogDir struct {
	// Path is the absolute directory path.
	Path string
	// Topics holds the topics to add to the directory.
	Topics []AlterReplicaLogDirsAlterReplicaLogDirTopic
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// AlterReplicaLogDirsAlterReplicaLogDirTopic is the topics to add to the directory.
type AlterReplicaLogDirsAlterReplicaLogDirTopic struct {
	// Name is the topic name.
	Name string
	// Partitions holds the partition indexes.
	Partitions []int32
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyAlterReplicaLogDirs.
func (*AlterReplicaLogDirsRequest) Key() APIKey { return KeyAlterReplicaLogDirs }

// ResponseFor returns an empty *AlterReplicaLogDirsResponse.
func (*AlterReplicaLogDirsRequest) ResponseFor() Response { return &AlterReplicaLogDirsResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *AlterReplicaLogDirsRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 2
	dst = AppendArray(dst, flex, m.Dirs, func(dst []byte, x *AlterReplicaLogDirsAlterReplicaLogDir) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *AlterReplicaLogDirsRequest) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 2
	m.Dirs = ReadArray(r, flex, 3, func(r *Reader, x *AlterReplicaLogDirsAlterReplicaLogDir) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *AlterReplicaLogDirsAlterReplicaLogDir) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.Path, flex)
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, x *AlterReplicaLogDirsAlterReplicaLogDirTopic) []byte {
		return x.appendTo(dst, v, flex)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *AlterReplicaLogDirsAlterReplicaLogDir) readFrom(r *Reader, v int16, flex bool) {
	m.Path = r.String(flex)
	m.Topics = ReadArray(r, flex, 3, func(r *Reader, x *AlterReplicaLogDirsAlterReplicaLogDirTopic) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *AlterReplicaLogDirsAlterReplicaLogDirTopic) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.Name, flex)
	dst = AppendArray(dst, flex, m.Partitions, func(dst []byte, x *int32) []byte { return AppendInt32(dst, *x) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *AlterReplicaLogDirsAlterReplicaLogDirTopic) readFrom(r *Reader, v int16, flex bool) {
	m.Name = r.String(flex)
	m.Partitions = ReadArray(r, flex, 4, func(r *Reader, x *int32) { *x = r.Int32() })
	m.UnknownTags = readFlexTags(r, flex)
}

// AlterReplicaLogDirsResponse answers a AlterReplicaLogDirsRequest.
type AlterReplicaLogDirsResponse struct {
	// ThrottleTimeMs is the duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
	ThrottleTimeMs int32
	// Results holds the results for each topic.
	Results []AlterReplicaLogDirsAlterReplicaLogDirTopicResult
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// AlterReplicaLogDirsAlterReplicaLogDirTopicResult is the results for each topic.
type AlterReplicaLogDirsAlterReplicaLogDirTopicResult struct {
	// TopicName is the name of the topic.
	TopicName string
	// Partitions holds the results for each partition.
	Partitions []AlterReplicaLogDirsAlterReplicaLogDirPartitionResult
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// AlterReplicaLogDirsAlterReplicaLogDirPartitionResult is the results for each partition.
type AlterReplicaLogDirsAlterReplicaLogDirPartitionResult struct {
	// PartitionIndex is the partition index.
	PartitionIndex int32
	// ErrorCode is the error code, or 0 if there was no error.
	ErrorCode int16
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyAlterReplicaLogDirs.
func (*AlterReplicaLogDirsResponse) Key() APIKey { return KeyAlterReplicaLogDirs }

// AppendTo appends the response body for version v (header excluded).
func (m *AlterReplicaLogDirsResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 2
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendArray(dst, flex, m.Results, func(dst []byte, x *AlterReplicaLogDirsAlterReplicaLogDirTopicResult) []byte {
		return x.appendTo(dst, v, flex)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *AlterReplicaLogDirsResponse) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 2
	m.ThrottleTimeMs = r.Int32()
	m.Results = ReadArray(r, flex, 3, func(r *Reader, x *AlterReplicaLogDirsAlterReplicaLogDirTopicResult) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *AlterReplicaLogDirsAlterReplicaLogDirTopicResult) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.TopicName, flex)
	dst = AppendArray(dst, flex, m.Partitions, func(dst []byte, x *AlterReplicaLogDirsAlterReplicaLogDirPartitionResult) []byte {
		return x.appendTo(dst, v, flex)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *AlterReplicaLogDirsAlterReplicaLogDirTopicResult) readFrom(r *Reader, v int16, flex bool) {
	m.TopicName = r.String(flex)
	m.Partitions = ReadArray(r, flex, 6, func(r *Reader, x *AlterReplicaLogDirsAlterReplicaLogDirPartitionResult) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *AlterReplicaLogDirsAlterReplicaLogDirPartitionResult) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt32(dst, m.PartitionIndex)
	dst = AppendInt16(dst, m.ErrorCode)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *AlterReplicaLogDirsAlterReplicaLogDirPartitionResult) readFrom(r *Reader, v int16, flex bool) {
	m.PartitionIndex = r.Int32()
	m.ErrorCode = r.Int16()
	m.UnknownTags = readFlexTags(r, flex)
}
