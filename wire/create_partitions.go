package wire

// CreatePartitionsRequest raises the partition count of topics (API key 37,
// versions 0-3, flexible from v2). Source: CreatePartitionsRequest.json;
// KIP-195, KIP-599.
type CreatePartitionsRequest struct {
	// Topics are the topics to grow.
	Topics []CreatePartitionsTopic
	// TimeoutMs is how long to wait for the creation, in milliseconds.
	TimeoutMs int32
	// ValidateOnly checks the request without changing anything.
	ValidateOnly bool
	// UnknownTags keeps unknown tagged fields (v2+).
	UnknownTags []TaggedField
}

// CreatePartitionsTopic is one topic to grow.
type CreatePartitionsTopic struct {
	// Name is the topic name.
	Name string
	// Count is the new total partition count.
	Count int32
	// Assignments places each new partition (one entry per new partition),
	// or nil (null) for automatic placement.
	Assignments []CreatePartitionsAssignment
	// UnknownTags keeps unknown tagged fields (v2+).
	UnknownTags []TaggedField
}

// CreatePartitionsAssignment lists the replicas of one new partition.
type CreatePartitionsAssignment struct {
	// BrokerIDs are the replicas, preferred leader first.
	BrokerIDs []int32
	// UnknownTags keeps unknown tagged fields (v2+).
	UnknownTags []TaggedField
}

// Key returns KeyCreatePartitions.
func (*CreatePartitionsRequest) Key() APIKey { return KeyCreatePartitions }

// ResponseFor returns an empty *CreatePartitionsResponse.
func (*CreatePartitionsRequest) ResponseFor() Response { return &CreatePartitionsResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *CreatePartitionsRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 2
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, t *CreatePartitionsTopic) []byte {
		dst = AppendString(dst, t.Name, flex)
		dst = AppendInt32(dst, t.Count)
		dst = AppendNullableArray(dst, flex, t.Assignments, func(dst []byte, a *CreatePartitionsAssignment) []byte {
			dst = AppendInt32Array(dst, flex, a.BrokerIDs)
			return appendFlexTags(dst, flex, a.UnknownTags)
		})
		return appendFlexTags(dst, flex, t.UnknownTags)
	})
	dst = AppendInt32(dst, m.TimeoutMs)
	dst = AppendBool(dst, m.ValidateOnly)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *CreatePartitionsRequest) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 2
	m.Topics = ReadArray(r, flex, 6, func(r *Reader, t *CreatePartitionsTopic) {
		t.Name = r.String(flex)
		t.Count = r.Int32()
		t.Assignments = ReadNullableArray(r, flex, 1, func(r *Reader, a *CreatePartitionsAssignment) {
			a.BrokerIDs = r.Int32Array(flex)
			a.UnknownTags = readFlexTags(r, flex)
		})
		t.UnknownTags = readFlexTags(r, flex)
	})
	m.TimeoutMs = r.Int32()
	m.ValidateOnly = r.Bool()
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// CreatePartitionsResponse answers a CreatePartitionsRequest, one result per topic.
type CreatePartitionsResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// Results holds one result per topic.
	Results []CreatePartitionsTopicResult
	// UnknownTags keeps unknown tagged fields (v2+).
	UnknownTags []TaggedField
}

// CreatePartitionsTopicResult is the outcome for one topic.
type CreatePartitionsTopicResult struct {
	// Name is the topic name.
	Name string
	// ErrorCode is the Kafka error code, 0 on success.
	ErrorCode int16
	// ErrorMessage is the broker's message, or nil.
	ErrorMessage *string
	// UnknownTags keeps unknown tagged fields (v2+).
	UnknownTags []TaggedField
}

// Key returns KeyCreatePartitions.
func (*CreatePartitionsResponse) Key() APIKey { return KeyCreatePartitions }

// AppendTo appends the response body for version v (header excluded).
func (m *CreatePartitionsResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 2
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendArray(dst, flex, m.Results, func(dst []byte, t *CreatePartitionsTopicResult) []byte {
		dst = AppendString(dst, t.Name, flex)
		dst = AppendInt16(dst, t.ErrorCode)
		dst = AppendNullableString(dst, t.ErrorMessage, flex)
		return appendFlexTags(dst, flex, t.UnknownTags)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *CreatePartitionsResponse) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 2
	m.ThrottleTimeMs = r.Int32()
	m.Results = ReadArray(r, flex, 4, func(r *Reader, t *CreatePartitionsTopicResult) {
		t.Name = r.String(flex)
		t.ErrorCode = r.Int16()
		t.ErrorMessage = r.NullableString(flex)
		t.UnknownTags = readFlexTags(r, flex)
	})
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}
