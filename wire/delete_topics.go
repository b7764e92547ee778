package wire

// DeleteTopicsRequest deletes topics by name or (v6+) by topic ID (API key 20,
// versions 1-6, flexible from v4). Source: DeleteTopicsRequest.json; KIP-599,
// KIP-516 (topic IDs).
type DeleteTopicsRequest struct {
	// Topics names the topics by name or ID (v6+).
	Topics []DeleteTopicsTopic
	// TopicNames names the topics (v1-5). A caller that does not know the
	// negotiated version sets both Topics and TopicNames.
	TopicNames []string
	// TimeoutMs is how long to wait for the deletions, in milliseconds.
	TimeoutMs int32
	// UnknownTags keeps unknown tagged fields (v4+).
	UnknownTags []TaggedField
}

// DeleteTopicsTopic names one topic to delete (DeleteTopicState, v6+).
type DeleteTopicsTopic struct {
	// Name is the topic name, or nil when TopicID names it.
	Name *string
	// TopicID is the topic ID, or zero when Name names it.
	TopicID UUID
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// Key returns KeyDeleteTopics.
func (*DeleteTopicsRequest) Key() APIKey { return KeyDeleteTopics }

// ResponseFor returns an empty *DeleteTopicsResponse.
func (*DeleteTopicsRequest) ResponseFor() Response { return &DeleteTopicsResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *DeleteTopicsRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 4
	if v >= 6 {
		dst = AppendArray(dst, flex, m.Topics, func(dst []byte, t *DeleteTopicsTopic) []byte {
			dst = AppendNullableString(dst, t.Name, flex)
			dst = AppendUUID(dst, t.TopicID)
			return AppendTags(dst, t.UnknownTags)
		})
	} else {
		dst = AppendStringArray(dst, flex, m.TopicNames)
	}
	dst = AppendInt32(dst, m.TimeoutMs)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *DeleteTopicsRequest) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 4
	if v >= 6 {
		m.Topics = ReadArray(r, flex, 18, func(r *Reader, t *DeleteTopicsTopic) {
			t.Name = r.NullableString(flex)
			t.TopicID = r.UUID()
			t.UnknownTags = r.ReadTags(nil)
		})
	} else {
		m.TopicNames = r.StringArray(flex)
	}
	m.TimeoutMs = r.Int32()
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// DeleteTopicsResponse answers a DeleteTopicsRequest with one result per topic.
type DeleteTopicsResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// Responses holds one result per topic.
	Responses []DeleteTopicsTopicResult
	// UnknownTags keeps unknown tagged fields (v4+).
	UnknownTags []TaggedField
}

// DeleteTopicsTopicResult is the outcome for one topic (DeletableTopicResult).
type DeleteTopicsTopicResult struct {
	// Name is the topic name; nil (v6+) when the request named it by ID and
	// the ID is unknown.
	Name *string
	// TopicID is the topic ID (v6+).
	TopicID UUID
	// ErrorCode is the Kafka error code, 0 on success.
	ErrorCode int16
	// ErrorMessage is the broker's message (v5+), or nil.
	ErrorMessage *string
	// UnknownTags keeps unknown tagged fields (v4+).
	UnknownTags []TaggedField
}

// Key returns KeyDeleteTopics.
func (*DeleteTopicsResponse) Key() APIKey { return KeyDeleteTopics }

// AppendTo appends the response body for version v (header excluded). Before
// v6 a nil Name is written as the empty string.
func (m *DeleteTopicsResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 4
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendArray(dst, flex, m.Responses, func(dst []byte, t *DeleteTopicsTopicResult) []byte {
		if v >= 6 {
			dst = AppendNullableString(dst, t.Name, flex)
			dst = AppendUUID(dst, t.TopicID)
		} else {
			var name string
			if t.Name != nil {
				name = *t.Name
			}
			dst = AppendString(dst, name, flex)
		}
		dst = AppendInt16(dst, t.ErrorCode)
		if v >= 5 {
			dst = AppendNullableString(dst, t.ErrorMessage, flex)
		}
		return appendFlexTags(dst, flex, t.UnknownTags)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *DeleteTopicsResponse) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 4
	m.ThrottleTimeMs = r.Int32()
	m.Responses = ReadArray(r, flex, 3, func(r *Reader, t *DeleteTopicsTopicResult) {
		if v >= 6 {
			t.Name = r.NullableString(flex)
			t.TopicID = r.UUID()
		} else {
			s := r.String(flex)
			t.Name = &s
		}
		t.ErrorCode = r.Int16()
		if v >= 5 {
			t.ErrorMessage = r.NullableString(flex)
		}
		t.UnknownTags = readFlexTags(r, flex)
	})
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}
