package wire

// Coordinator key types of FindCoordinatorRequest.KeyType.
const (
	CoordinatorTypeGroup       int8 = 0
	CoordinatorTypeTransaction int8 = 1
	CoordinatorTypeShare       int8 = 2 // KIP-932; key is "groupId:topicId:partition"
)

// FindCoordinatorRequest locates the group, transaction or share
// coordinator for one key (v0-3) or a batch of keys (v4+, KIP-699). API key
// 10, versions 0-6, flexible from v3. Source: FindCoordinatorRequest.json.
type FindCoordinatorRequest struct {
	// CoordinatorKey is the group or transactional ID, v0-3 (the
	// protocol's field "Key", renamed because Key is the API key method).
	CoordinatorKey string
	// KeyType is one of the CoordinatorType constants, v1+.
	KeyType int8
	// CoordinatorKeys are the keys to look up, v4+.
	CoordinatorKeys []string
	// UnknownTags keeps tagged fields this version does not define (v3+).
	UnknownTags []TaggedField
}

// Key returns KeyFindCoordinator.
func (*FindCoordinatorRequest) Key() APIKey { return KeyFindCoordinator }

// ResponseFor returns an empty *FindCoordinatorResponse.
func (*FindCoordinatorRequest) ResponseFor() Response { return &FindCoordinatorResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *FindCoordinatorRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 3
	if v <= 3 {
		dst = AppendString(dst, m.CoordinatorKey, flex)
	}
	if v >= 1 {
		dst = AppendInt8(dst, m.KeyType)
	}
	if v >= 4 {
		dst = AppendStringArray(dst, flex, m.CoordinatorKeys)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v from r.
func (m *FindCoordinatorRequest) DecodeFrom(r *Reader, v int16) error {
	*m = FindCoordinatorRequest{}
	flex := v >= 3
	if v <= 3 {
		m.CoordinatorKey = r.String(flex)
	}
	if v >= 1 {
		m.KeyType = r.Int8()
	}
	if v >= 4 {
		m.CoordinatorKeys = r.StringArray(flex)
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// FindCoordinatorResponse answers a FindCoordinatorRequest: one coordinator
// in top-level fields (v0-3) or one entry per key in Coordinators (v4+).
type FindCoordinatorResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds, v1+.
	ThrottleTimeMs int32
	// ErrorCode is 0 or e.g. COORDINATOR_NOT_AVAILABLE (15), v0-3.
	ErrorCode int16
	// ErrorMessage explains the error, or nil, v1-3.
	ErrorMessage *string
	// NodeID, Host and Port locate the coordinator, v0-3.
	NodeID int32
	// Host is the broker's host name.
	Host string
	// Port is the broker's TCP port.
	Port int32
	// Coordinators holds one result per requested key, v4+.
	Coordinators []FindCoordinatorResponseCoordinator
	// UnknownTags keeps tagged fields this version does not define (v3+).
	UnknownTags []TaggedField
}

// FindCoordinatorResponseCoordinator is the coordinator of one key (v4+).
type FindCoordinatorResponseCoordinator struct {
	// Key is the coordinator key (group or transactional ID).
	Key string
	// NodeID is the broker's node ID.
	NodeID int32
	// Host is the broker's host name.
	Host string
	// Port is the broker's TCP port.
	Port int32
	// ErrorCode is the Kafka error code, 0 for none (see ErrorForCode).
	ErrorCode int16
	// ErrorMessage explains the error, or nil.
	ErrorMessage *string
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// Key returns KeyFindCoordinator.
func (*FindCoordinatorResponse) Key() APIKey { return KeyFindCoordinator }

// AppendTo appends the response body for version v (header excluded).
func (m *FindCoordinatorResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 3
	if v >= 1 {
		dst = AppendInt32(dst, m.ThrottleTimeMs)
	}
	if v <= 3 {
		dst = AppendInt16(dst, m.ErrorCode)
		if v >= 1 {
			dst = AppendNullableString(dst, m.ErrorMessage, flex)
		}
		dst = AppendInt32(dst, m.NodeID)
		dst = AppendString(dst, m.Host, flex)
		dst = AppendInt32(dst, m.Port)
	}
	if v >= 4 {
		dst = AppendArray(dst, flex, m.Coordinators, func(dst []byte, c *FindCoordinatorResponseCoordinator) []byte {
			dst = AppendString(dst, c.Key, flex)
			dst = AppendInt32(dst, c.NodeID)
			dst = AppendString(dst, c.Host, flex)
			dst = AppendInt32(dst, c.Port)
			dst = AppendInt16(dst, c.ErrorCode)
			dst = AppendNullableString(dst, c.ErrorMessage, flex)
			return appendFlexTags(dst, flex, c.UnknownTags)
		})
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v from r.
func (m *FindCoordinatorResponse) DecodeFrom(r *Reader, v int16) error {
	*m = FindCoordinatorResponse{}
	flex := v >= 3
	if v >= 1 {
		m.ThrottleTimeMs = r.Int32()
	}
	if v <= 3 {
		m.ErrorCode = r.Int16()
		if v >= 1 {
			m.ErrorMessage = r.NullableString(flex)
		}
		m.NodeID = r.Int32()
		m.Host = r.String(flex)
		m.Port = r.Int32()
	}
	if v >= 4 {
		// key, node, host, port, error, message, tags: at least 15 bytes.
		m.Coordinators = ReadArray(r, flex, 15, func(r *Reader, c *FindCoordinatorResponseCoordinator) {
			c.Key = r.String(flex)
			c.NodeID = r.Int32()
			c.Host = r.String(flex)
			c.Port = r.Int32()
			c.ErrorCode = r.Int16()
			c.ErrorMessage = r.NullableString(flex)
			c.UnknownTags = readFlexTags(r, flex)
		})
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}
