package wire

import "math"

// MetadataRequest asks for brokers, topics and partition leaders (API key 3,
// versions 0-13, flexible from v9). Source: MetadataRequest.json; KIP-516
// (topic IDs), KIP-700 (cluster authorized operations moved to
// DescribeCluster).
type MetadataRequest struct {
	// Topics to describe. v1+: nil asks for all topics and an empty slice
	// for none. v0 cannot say "none": nil and empty both ask for all, and
	// an empty v0 array decodes as nil.
	Topics []MetadataRequestTopic
	// AllowAutoTopicCreation lets the broker create missing topics when it
	// is configured to, v4+. Decoding an older version yields true.
	AllowAutoTopicCreation bool
	// IncludeClusterAuthorizedOperations asks for the cluster's authorized
	// operations, v8-10 (KIP-430, removed by KIP-700).
	IncludeClusterAuthorizedOperations bool
	// IncludeTopicAuthorizedOperations asks for each topic's authorized
	// operations, v8+ (KIP-430).
	IncludeTopicAuthorizedOperations bool
	// UnknownTags keeps tagged fields this version does not define (v9+).
	UnknownTags []TaggedField
}

// MetadataRequestTopic names one topic to describe.
type MetadataRequestTopic struct {
	// TopicID identifies the topic, v10+ (honoured by brokers from v12).
	TopicID UUID
	// Name is the topic name; nil (v10+) when asking by TopicID.
	Name *string
	// UnknownTags keeps tagged fields this version does not define (v9+).
	UnknownTags []TaggedField
}

// Key returns KeyMetadata.
func (*MetadataRequest) Key() APIKey { return KeyMetadata }

// ResponseFor returns an empty *MetadataResponse.
func (*MetadataRequest) ResponseFor() Response { return &MetadataResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *MetadataRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 9
	topic := func(dst []byte, t *MetadataRequestTopic) []byte {
		if v >= 10 {
			dst = AppendUUID(dst, t.TopicID)
		}
		dst = appendVersionedString(dst, t.Name, v >= 10, flex)
		return appendFlexTags(dst, flex, t.UnknownTags)
	}
	if v >= 1 {
		dst = AppendNullableArray(dst, flex, m.Topics, topic)
	} else {
		dst = AppendArray(dst, flex, m.Topics, topic)
	}
	if v >= 4 {
		dst = AppendBool(dst, m.AllowAutoTopicCreation)
	}
	if v >= 8 && v <= 10 {
		dst = AppendBool(dst, m.IncludeClusterAuthorizedOperations)
	}
	if v >= 8 {
		dst = AppendBool(dst, m.IncludeTopicAuthorizedOperations)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v from r.
func (m *MetadataRequest) DecodeFrom(r *Reader, v int16) error {
	*m = MetadataRequest{AllowAutoTopicCreation: true}
	flex := v >= 9
	minTopic := minLen(flex, 2) + tagsLen(flex)
	if v >= 10 {
		minTopic += 16
	}
	topic := func(r *Reader, t *MetadataRequestTopic) {
		if v >= 10 {
			t.TopicID = r.UUID()
		}
		t.Name = readVersionedString(r, v >= 10, flex)
		t.UnknownTags = readFlexTags(r, flex)
	}
	if v >= 1 {
		m.Topics = ReadNullableArray(r, flex, minTopic, topic)
	} else {
		m.Topics = ReadArray(r, flex, minTopic, topic) // v0: empty (all topics) decodes as nil
	}
	if v >= 4 {
		m.AllowAutoTopicCreation = r.Bool()
	}
	if v >= 8 && v <= 10 {
		m.IncludeClusterAuthorizedOperations = r.Bool()
	}
	if v >= 8 {
		m.IncludeTopicAuthorizedOperations = r.Bool()
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// AuthorizedOperationsOmitted is the value of the authorized-operations
// bitfields (KIP-430) when they were not requested or not sent: INT32_MIN.
const AuthorizedOperationsOmitted int32 = math.MinInt32

// MetadataResponse describes brokers, the controller and topics (API key 3,
// versions 0-13, flexible from v9).
type MetadataResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds, v3+.
	ThrottleTimeMs int32
	// Brokers lists the live brokers.
	Brokers []MetadataResponseBroker
	// ClusterID is the cluster's ID, or nil, v2+.
	ClusterID *string
	// ControllerID is a controller's broker ID, -1 when unknown, v1+.
	ControllerID int32
	// Topics describes each topic.
	Topics []MetadataResponseTopic
	// ClusterAuthorizedOperations is a bitfield, v8-10; otherwise
	// AuthorizedOperationsOmitted.
	ClusterAuthorizedOperations int32
	// ErrorCode is the top-level error code, v13+ (e.g. REBOOTSTRAP_REQUIRED).
	ErrorCode int16
	// UnknownTags keeps tagged fields this version does not define (v9+).
	UnknownTags []TaggedField
}

// MetadataResponseBroker is one broker's address.
type MetadataResponseBroker struct {
	// NodeID is the broker's node ID.
	NodeID int32
	// Host is the broker's host name.
	Host string
	// Port is the broker's TCP port.
	Port int32
	// Rack is the broker's rack, or nil, v1+.
	Rack *string
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// MetadataResponseTopic describes one topic.
type MetadataResponseTopic struct {
	// ErrorCode is the Kafka error code, 0 for none (see ErrorForCode).
	ErrorCode int16
	// Name is the topic name; nil (v12+) for an unknown topic asked by ID.
	Name *string
	// TopicID is the topic's ID, zero for an unknown topic asked by name, v10+.
	TopicID UUID
	// IsInternal reports an internal topic (e.g. __consumer_offsets), v1+.
	IsInternal bool
	// Partitions holds the per-partition entries.
	Partitions []MetadataResponsePartition
	// TopicAuthorizedOperations is a bitfield, v8+; otherwise
	// AuthorizedOperationsOmitted.
	TopicAuthorizedOperations int32
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// MetadataResponsePartition describes one partition.
type MetadataResponsePartition struct {
	// ErrorCode is the Kafka error code, 0 for none (see ErrorForCode).
	ErrorCode int16
	// PartitionIndex is the partition index.
	PartitionIndex int32
	// LeaderID is the leader's broker ID, -1 when there is none.
	LeaderID int32
	// LeaderEpoch is the leader epoch, v7+; -1 when absent (KIP-320).
	LeaderEpoch int32
	// ReplicaNodes lists the replicas' broker IDs.
	ReplicaNodes []int32
	// IsrNodes lists the in-sync replicas' broker IDs.
	IsrNodes []int32
	// OfflineReplicas lists offline replicas, v5+.
	OfflineReplicas []int32
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// Key returns KeyMetadata.
func (*MetadataResponse) Key() APIKey { return KeyMetadata }

// AppendTo appends the response body for version v (header excluded).
func (m *MetadataResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 9
	if v >= 3 {
		dst = AppendInt32(dst, m.ThrottleTimeMs)
	}
	dst = AppendArray(dst, flex, m.Brokers, func(dst []byte, b *MetadataResponseBroker) []byte {
		dst = AppendInt32(dst, b.NodeID)
		dst = AppendString(dst, b.Host, flex)
		dst = AppendInt32(dst, b.Port)
		if v >= 1 {
			dst = AppendNullableString(dst, b.Rack, flex)
		}
		return appendFlexTags(dst, flex, b.UnknownTags)
	})
	if v >= 2 {
		dst = AppendNullableString(dst, m.ClusterID, flex)
	}
	if v >= 1 {
		dst = AppendInt32(dst, m.ControllerID)
	}
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, t *MetadataResponseTopic) []byte {
		dst = AppendInt16(dst, t.ErrorCode)
		dst = appendVersionedString(dst, t.Name, v >= 12, flex)
		if v >= 10 {
			dst = AppendUUID(dst, t.TopicID)
		}
		if v >= 1 {
			dst = AppendBool(dst, t.IsInternal)
		}
		dst = AppendArray(dst, flex, t.Partitions, func(dst []byte, p *MetadataResponsePartition) []byte {
			dst = AppendInt16(dst, p.ErrorCode)
			dst = AppendInt32(dst, p.PartitionIndex)
			dst = AppendInt32(dst, p.LeaderID)
			if v >= 7 {
				dst = AppendInt32(dst, p.LeaderEpoch)
			}
			dst = AppendInt32Array(dst, flex, p.ReplicaNodes)
			dst = AppendInt32Array(dst, flex, p.IsrNodes)
			if v >= 5 {
				dst = AppendInt32Array(dst, flex, p.OfflineReplicas)
			}
			return appendFlexTags(dst, flex, p.UnknownTags)
		})
		if v >= 8 {
			dst = AppendInt32(dst, t.TopicAuthorizedOperations)
		}
		return appendFlexTags(dst, flex, t.UnknownTags)
	})
	if v >= 8 && v <= 10 {
		dst = AppendInt32(dst, m.ClusterAuthorizedOperations)
	}
	if v >= 13 {
		dst = AppendInt16(dst, m.ErrorCode)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v from r. Fields the
// version lacks take Kafka's defaults (-1 epochs and IDs,
// AuthorizedOperationsOmitted).
func (m *MetadataResponse) DecodeFrom(r *Reader, v int16) error {
	*m = MetadataResponse{ControllerID: -1, ClusterAuthorizedOperations: AuthorizedOperationsOmitted}
	flex := v >= 9
	if v >= 3 {
		m.ThrottleTimeMs = r.Int32()
	}
	m.Brokers = ReadArray(r, flex, 8+minLen(flex, 2)+tagsLen(flex), func(r *Reader, b *MetadataResponseBroker) {
		b.NodeID = r.Int32()
		b.Host = r.String(flex)
		b.Port = r.Int32()
		if v >= 1 {
			b.Rack = r.NullableString(flex)
		}
		b.UnknownTags = readFlexTags(r, flex)
	})
	if v >= 2 {
		m.ClusterID = r.NullableString(flex)
	}
	if v >= 1 {
		m.ControllerID = r.Int32()
	}
	m.Topics = ReadArray(r, flex, 2+minLen(flex, 2)+minLen(flex, 4)+tagsLen(flex), func(r *Reader, t *MetadataResponseTopic) {
		t.TopicAuthorizedOperations = AuthorizedOperationsOmitted
		t.ErrorCode = r.Int16()
		t.Name = readVersionedString(r, v >= 12, flex)
		if v >= 10 {
			t.TopicID = r.UUID()
		}
		if v >= 1 {
			t.IsInternal = r.Bool()
		}
		t.Partitions = ReadArray(r, flex, 10+2*minLen(flex, 4)+tagsLen(flex), func(r *Reader, p *MetadataResponsePartition) {
			p.ErrorCode = r.Int16()
			p.PartitionIndex = r.Int32()
			p.LeaderID = r.Int32()
			p.LeaderEpoch = -1
			if v >= 7 {
				p.LeaderEpoch = r.Int32()
			}
			p.ReplicaNodes = r.Int32Array(flex)
			p.IsrNodes = r.Int32Array(flex)
			if v >= 5 {
				p.OfflineReplicas = r.Int32Array(flex)
			}
			p.UnknownTags = readFlexTags(r, flex)
		})
		if v >= 8 {
			t.TopicAuthorizedOperations = r.Int32()
		}
		t.UnknownTags = readFlexTags(r, flex)
	})
	if v >= 8 && v <= 10 {
		m.ClusterAuthorizedOperations = r.Int32()
	}
	if v >= 13 {
		m.ErrorCode = r.Int16()
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}
