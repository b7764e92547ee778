package wire

// DescribeQuorumRequest describes the KRaft metadata quorum (API key 55, versions 0-2, all flexible).
// Source: DescribeQuorumRequest.json; KIP-595, KIP-853.
type DescribeQuorumRequest struct {
	// Topics holds the topics to describe.
	Topics []DescribeQuorumTopicData
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeQuorumTopicData is the topics to describe.
type DescribeQuorumTopicData struct {
	// TopicName is the topic name.
	TopicName string
	// Partitions holds the partitions to describe.
	Partitions []DescribeQuorumPartitionData
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeQuorumPartitionData is the partitions to describe.
type DescribeQuorumPartitionData struct {
	// PartitionIndex is the partition index.
	PartitionIndex int32
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyDescribeQuorum.
func (*DescribeQuorumRequest) Key() APIKey { return KeyDescribeQuorum }

// ResponseFor returns an empty *DescribeQuorumResponse.
func (*DescribeQuorumRequest) ResponseFor() Response { return &DescribeQuorumResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *DescribeQuorumRequest) AppendTo(dst []byte, v int16) []byte {
	const flex = true
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, x *DescribeQuorumTopicData) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *DescribeQuorumRequest) DecodeFrom(r *Reader, v int16) error {
	const flex = true
	m.Topics = ReadArray(r, flex, 3, func(r *Reader, x *DescribeQuorumTopicData) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *DescribeQuorumTopicData) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.TopicName, flex)
	dst = AppendArray(dst, flex, m.Partitions, func(dst []byte, x *DescribeQuorumPartitionData) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeQuorumTopicData) readFrom(r *Reader, v int16, flex bool) {
	m.TopicName = r.String(flex)
	m.Partitions = ReadArray(r, flex, 5, func(r *Reader, x *DescribeQuorumPartitionData) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *DescribeQuorumPartitionData) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt32(dst, m.PartitionIndex)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeQuorumPartitionData) readFrom(r *Reader, v int16, flex bool) {
	m.PartitionIndex = r.Int32()
	m.UnknownTags = readFlexTags(r, flex)
}

// DescribeQuorumResponse answers a DescribeQuorumRequest.
type DescribeQuorumResponse struct {
	// ErrorCode is the top level error code.
	ErrorCode int16
	// ErrorMessage is the error message, or null if there was no error. (v2+) Nil is null.
	ErrorMessage *string
	// Topics holds the response from the describe quorum API.
	Topics []DescribeQuorumResponseTopicData
	// Nodes holds the nodes in the quorum. (v2+)
	Nodes []DescribeQuorumNode
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeQuorumResponseTopicData is the response from the describe quorum API.
type DescribeQuorumResponseTopicData struct {
	// TopicName is the topic name.
	TopicName string
	// Partitions holds the partition data.
	Partitions []DescribeQuorumResponsePartitionData
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeQuorumResponsePartitionData is the partition data.
type DescribeQuorumResponsePartitionData struct {
	// PartitionIndex is the partition index.
	PartitionIndex int32
	// ErrorCode is the partition error code.
	ErrorCode int16
	// ErrorMessage is the error message, or null if there was no error. (v2+) Nil is null.
	ErrorMessage *string
	// LeaderID is the ID of the current leader or -1 if the leader is unknown.
	LeaderID int32
	// LeaderEpoch is the latest known leader epoch.
	LeaderEpoch int32
	// HighWatermark is the high water mark.
	HighWatermark int64
	// CurrentVoters holds the current voters of the partition.
	CurrentVoters []DescribeQuorumReplicaState
	// Observers holds the observers of the partition.
	Observers []DescribeQuorumReplicaState
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeQuorumReplicaState is the current voters of the partition.
type DescribeQuorumReplicaState struct {
	// ReplicaID is the ID of the replica.
	ReplicaID int32
	// ReplicaDirectoryID is the replica directory ID of the replica. (v2+)
	ReplicaDirectoryID UUID
	// LogEndOffset is the last known log end offset of the follower or -1 if it is unknown.
	LogEndOffset int64
	// LastFetchTimestamp is the last known leader wall clock time time when a follower fetched from the leader. This is reported as -1 both for the current leader or if it is unknown for a voter. (v1+) Kafka's default: -1 (what decoding sets where the version lacks the field).
	LastFetchTimestamp int64
	// LastCaughtUpTimestamp is the leader wall clock append time of the offset for which the follower made the most recent fetch request. This is reported as the current time for the leader and -1 if unknown for a voter. (v1+) Kafka's default: -1 (what decoding sets where the version lacks the field).
	LastCaughtUpTimestamp int64
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeQuorumNode is the nodes in the quorum.
type DescribeQuorumNode struct {
	// NodeID is the ID of the associated node. (v2+)
	NodeID int32
	// Listeners holds the listeners of this controller. (v2+)
	Listeners []DescribeQuorumListener
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeQuorumListener is the listeners of this controller.
type DescribeQuorumListener struct {
	// Name is the name of the endpoint. (v2+)
	Name string
	// Host is the hostname. (v2+)
	Host string
	// Port is the port. (v2+)
	Port uint16
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyDescribeQuorum.
func (*DescribeQuorumResponse) Key() APIKey { return KeyDescribeQuorum }

// AppendTo appends the response body for version v (header excluded).
func (m *DescribeQuorumResponse) AppendTo(dst []byte, v int16) []byte {
	const flex = true
	dst = AppendInt16(dst, m.ErrorCode)
	if v >= 2 {
		dst = AppendNullableString(dst, m.ErrorMessage, flex)
	}
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, x *DescribeQuorumResponseTopicData) []byte { return x.appendTo(dst, v, flex) })
	if v >= 2 {
		dst = AppendArray(dst, flex, m.Nodes, func(dst []byte, x *DescribeQuorumNode) []byte { return x.appendTo(dst, v, flex) })
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *DescribeQuorumResponse) DecodeFrom(r *Reader, v int16) error {
	const flex = true
	m.ErrorCode = r.Int16()
	if v >= 2 {
		m.ErrorMessage = r.NullableString(flex)
	}
	m.Topics = ReadArray(r, flex, 3, func(r *Reader, x *DescribeQuorumResponseTopicData) { x.readFrom(r, v, flex) })
	if v >= 2 {
		m.Nodes = ReadArray(r, flex, 1, func(r *Reader, x *DescribeQuorumNode) { x.readFrom(r, v, flex) })
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *DescribeQuorumResponseTopicData) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.TopicName, flex)
	dst = AppendArray(dst, flex, m.Partitions, func(dst []byte, x *DescribeQuorumResponsePartitionData) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeQuorumResponseTopicData) readFrom(r *Reader, v int16, flex bool) {
	m.TopicName = r.String(flex)
	m.Partitions = ReadArray(r, flex, 25, func(r *Reader, x *DescribeQuorumResponsePartitionData) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *DescribeQuorumResponsePartitionData) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt32(dst, m.PartitionIndex)
	dst = AppendInt16(dst, m.ErrorCode)
	if v >= 2 {
		dst = AppendNullableString(dst, m.ErrorMessage, flex)
	}
	dst = AppendInt32(dst, m.LeaderID)
	dst = AppendInt32(dst, m.LeaderEpoch)
	dst = AppendInt64(dst, m.HighWatermark)
	dst = AppendArray(dst, flex, m.CurrentVoters, func(dst []byte, x *DescribeQuorumReplicaState) []byte { return x.appendTo(dst, v, flex) })
	dst = AppendArray(dst, flex, m.Observers, func(dst []byte, x *DescribeQuorumReplicaState) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeQuorumResponsePartitionData) readFrom(r *Reader, v int16, flex bool) {
	m.PartitionIndex = r.Int32()
	m.ErrorCode = r.Int16()
	if v >= 2 {
		m.ErrorMessage = r.NullableString(flex)
	}
	m.LeaderID = r.Int32()
	m.LeaderEpoch = r.Int32()
	m.HighWatermark = r.Int64()
	m.CurrentVoters = ReadArray(r, flex, 13, func(r *Reader, x *DescribeQuorumReplicaState) { x.readFrom(r, v, flex) })
	m.Observers = ReadArray(r, flex, 13, func(r *Reader, x *DescribeQuorumReplicaState) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *DescribeQuorumReplicaState) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt32(dst, m.ReplicaID)
	if v >= 2 {
		dst = AppendUUID(dst, m.ReplicaDirectoryID)
	}
	dst = AppendInt64(dst, m.LogEndOffset)
	if v >= 1 {
		dst = AppendInt64(dst, m.LastFetchTimestamp)
	}
	if v >= 1 {
		dst = AppendInt64(dst, m.LastCaughtUpTimestamp)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeQuorumReplicaState) readFrom(r *Reader, v int16, flex bool) {
	m.LastFetchTimestamp = -1
	m.LastCaughtUpTimestamp = -1
	m.ReplicaID = r.Int32()
	if v >= 2 {
		m.ReplicaDirectoryID = r.UUID()
	}
	m.LogEndOffset = r.Int64()
	if v >= 1 {
		m.LastFetchTimestamp = r.Int64()
	}
	if v >= 1 {
		m.LastCaughtUpTimestamp = r.Int64()
	}
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *DescribeQuorumNode) appendTo(dst []byte, v int16, flex bool) []byte {
	if v >= 2 {
		dst = AppendInt32(dst, m.NodeID)
	}
	if v >= 2 {
		dst = AppendArray(dst, flex, m.Listeners, func(dst []byte, x *DescribeQuorumListener) []byte { return x.appendTo(dst, v, flex) })
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeQuorumNode) readFrom(r *Reader, v int16, flex bool) {
	if v >= 2 {
		m.NodeID = r.Int32()
	}
	if v >= 2 {
		m.Listeners = ReadArray(r, flex, 1, func(r *Reader, x *DescribeQuorumListener) { x.readFrom(r, v, flex) })
	}
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *DescribeQuorumListener) appendTo(dst []byte, v int16, flex bool) []byte {
	if v >= 2 {
		dst = AppendString(dst, m.Name, flex)
	}
	if v >= 2 {
		dst = AppendString(dst, m.Host, flex)
	}
	if v >= 2 {
		dst = AppendInt16(dst, int16(m.Port))
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeQuorumListener) readFrom(r *Reader, v int16, flex bool) {
	if v >= 2 {
		m.Name = r.String(flex)
	}
	if v >= 2 {
		m.Host = r.String(flex)
	}
	if v >= 2 {
		m.Port = uint16(r.Int16())
	}
	m.UnknownTags = readFlexTags(r, flex)
}
