package wire

// CreateTopicsRequest creates topics (API key 19, versions 2-7, flexible from
// v5). In KRaft any broker accepts it and forwards it to the controller.
// Source: CreateTopicsRequest.json; KIP-464 (defaults for partitions and
// replication factor), KIP-525 (configs in the response), KIP-599 (quota).
type CreateTopicsRequest struct {
	// Topics are the topics to create, each with a unique name.
	Topics []CreateTopicsTopic
	// TimeoutMs is how long the controller may wait for the creation, in
	// milliseconds (Kafka's default 60000).
	TimeoutMs int32
	// ValidateOnly checks that the topics can be created without creating them.
	ValidateOnly bool
	// UnknownTags keeps tagged fields this client does not know (v5+).
	UnknownTags []TaggedField
}

// CreateTopicsTopic is one topic to create (CreatableTopic).
type CreateTopicsTopic struct {
	// Name is the topic name.
	Name string
	// NumPartitions is the partition count, or -1 for the broker default or
	// when Assignments is given.
	NumPartitions int32
	// ReplicationFactor is the replica count per partition, or -1 for the
	// broker default or when Assignments is given.
	ReplicationFactor int16
	// Assignments is an explicit replica assignment, empty for automatic.
	Assignments []CreateTopicsAssignment
	// Configs are topic configs to set at creation.
	Configs []CreateTopicsConfig
	// UnknownTags keeps unknown tagged fields (v5+).
	UnknownTags []TaggedField
}

// CreateTopicsAssignment places one partition on brokers (CreatableReplicaAssignment).
type CreateTopicsAssignment struct {
	// PartitionIndex is the partition.
	PartitionIndex int32
	// BrokerIDs are the replicas, preferred leader first.
	BrokerIDs []int32
	// UnknownTags keeps unknown tagged fields (v5+).
	UnknownTags []TaggedField
}

// CreateTopicsConfig is one config of a topic to create (CreatableTopicConfig).
type CreateTopicsConfig struct {
	// Name is the config key.
	Name string
	// Value is the config value; nil is null.
	Value *string
	// UnknownTags keeps unknown tagged fields (v5+).
	UnknownTags []TaggedField
}

// Key returns KeyCreateTopics.
func (*CreateTopicsRequest) Key() APIKey { return KeyCreateTopics }

// ResponseFor returns an empty *CreateTopicsResponse.
func (*CreateTopicsRequest) ResponseFor() Response { return &CreateTopicsResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *CreateTopicsRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 5
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, t *CreateTopicsTopic) []byte {
		dst = AppendString(dst, t.Name, flex)
		dst = AppendInt32(dst, t.NumPartitions)
		dst = AppendInt16(dst, t.ReplicationFactor)
		dst = AppendArray(dst, flex, t.Assignments, func(dst []byte, a *CreateTopicsAssignment) []byte {
			dst = AppendInt32(dst, a.PartitionIndex)
			dst = AppendInt32Array(dst, flex, a.BrokerIDs)
			return appendFlexTags(dst, flex, a.UnknownTags)
		})
		dst = AppendArray(dst, flex, t.Configs, func(dst []byte, c *CreateTopicsConfig) []byte {
			dst = AppendString(dst, c.Name, flex)
			dst = AppendNullableString(dst, c.Value, flex)
			return appendFlexTags(dst, flex, c.UnknownTags)
		})
		return appendFlexTags(dst, flex, t.UnknownTags)
	})
	dst = AppendInt32(dst, m.TimeoutMs)
	dst = AppendBool(dst, m.ValidateOnly)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *CreateTopicsRequest) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 5
	m.Topics = ReadArray(r, flex, 9, func(r *Reader, t *CreateTopicsTopic) {
		t.Name = r.String(flex)
		t.NumPartitions = r.Int32()
		t.ReplicationFactor = r.Int16()
		t.Assignments = ReadArray(r, flex, 5, func(r *Reader, a *CreateTopicsAssignment) {
			a.PartitionIndex = r.Int32()
			a.BrokerIDs = r.Int32Array(flex)
			a.UnknownTags = readFlexTags(r, flex)
		})
		t.Configs = ReadArray(r, flex, 2, func(r *Reader, c *CreateTopicsConfig) {
			c.Name = r.String(flex)
			c.Value = r.NullableString(flex)
			c.UnknownTags = readFlexTags(r, flex)
		})
		t.UnknownTags = readFlexTags(r, flex)
	})
	m.TimeoutMs = r.Int32()
	m.ValidateOnly = r.Bool()
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// CreateTopicsResponse answers a CreateTopicsRequest with one result per topic.
type CreateTopicsResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// Topics holds one result per requested topic.
	Topics []CreateTopicsTopicResult
	// UnknownTags keeps unknown tagged fields (v5+).
	UnknownTags []TaggedField
}

// CreateTopicsTopicResult is the outcome for one topic (CreatableTopicResult).
type CreateTopicsTopicResult struct {
	// Name is the topic name.
	Name string
	// TopicID is the new topic's ID (v7+; zero before).
	TopicID UUID
	// ErrorCode is the Kafka error code, 0 on success (see ErrorForCode).
	ErrorCode int16
	// ErrorMessage is the broker's message, or nil.
	ErrorMessage *string
	// TopicConfigErrorCode is set when configs could not be returned (tag 0, v5+).
	TopicConfigErrorCode int16
	// NumPartitions is the topic's partition count (v5+; -1 before or unknown).
	NumPartitions int32
	// ReplicationFactor is the topic's replication factor (v5+; -1 before).
	ReplicationFactor int16
	// Configs are the topic's configs (v5+); nil is null.
	Configs []CreateTopicsConfigResult
	// UnknownTags keeps unknown tagged fields (v5+).
	UnknownTags []TaggedField
}

// CreateTopicsConfigResult is one config of a created topic (CreatableTopicConfigs, v5+).
type CreateTopicsConfigResult struct {
	// Name is the config key.
	Name  string
	Value *string // nil is null (e.g. sensitive)
	// ReadOnly reports a config that cannot be changed.
	ReadOnly bool
	// ConfigSource is the source (see DescribeConfigs), -1 unknown.
	ConfigSource int8
	// IsSensitive reports a secret whose value is never returned.
	IsSensitive bool
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// Key returns KeyCreateTopics.
func (*CreateTopicsResponse) Key() APIKey { return KeyCreateTopics }

// AppendTo appends the response body for version v (header excluded).
func (m *CreateTopicsResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 5
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, t *CreateTopicsTopicResult) []byte {
		dst = AppendString(dst, t.Name, flex)
		if v >= 7 {
			dst = AppendUUID(dst, t.TopicID)
		}
		dst = AppendInt16(dst, t.ErrorCode)
		dst = AppendNullableString(dst, t.ErrorMessage, flex)
		if v >= 5 {
			dst = AppendInt32(dst, t.NumPartitions)
			dst = AppendInt16(dst, t.ReplicationFactor)
			dst = AppendNullableArray(dst, flex, t.Configs, func(dst []byte, c *CreateTopicsConfigResult) []byte {
				dst = AppendString(dst, c.Name, flex)
				dst = AppendNullableString(dst, c.Value, flex)
				dst = AppendBool(dst, c.ReadOnly)
				dst = AppendInt8(dst, c.ConfigSource)
				dst = AppendBool(dst, c.IsSensitive)
				return AppendTags(dst, c.UnknownTags)
			})
			var known []TaggedField
			if t.TopicConfigErrorCode != 0 {
				known = []TaggedField{{Tag: 0, Data: AppendInt16(nil, t.TopicConfigErrorCode)}}
			}
			dst = appendTagSection(dst, known, t.UnknownTags)
		}
		return dst
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *CreateTopicsResponse) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 5
	m.ThrottleTimeMs = r.Int32()
	m.Topics = ReadArray(r, flex, 5, func(r *Reader, t *CreateTopicsTopicResult) {
		t.Name = r.String(flex)
		if v >= 7 {
			t.TopicID = r.UUID()
		}
		t.ErrorCode = r.Int16()
		t.ErrorMessage = r.NullableString(flex)
		t.NumPartitions, t.ReplicationFactor = -1, -1
		if v >= 5 {
			t.NumPartitions = r.Int32()
			t.ReplicationFactor = r.Int16()
			t.Configs = ReadNullableArray(r, flex, 6, func(r *Reader, c *CreateTopicsConfigResult) {
				c.Name = r.String(flex)
				c.Value = r.NullableString(flex)
				c.ReadOnly = r.Bool()
				c.ConfigSource = r.Int8()
				c.IsSensitive = r.Bool()
				c.UnknownTags = r.ReadTags(nil)
			})
			t.UnknownTags = r.ReadTags(func(tag uint32, fr *Reader) bool {
				if tag != 0 {
					return false
				}
				t.TopicConfigErrorCode = fr.Int16()
				return true
			})
		}
	})
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}
