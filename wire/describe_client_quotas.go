package wire

// DescribeClientQuotasRequest describes the client quotas matching entity filters (API key 48, versions 0-1, flexible from v1).
// Source: DescribeClientQuotasRequest.json; KIP-546.
type DescribeClientQuotasRequest struct {
	// Components holds the filter components to apply to quota entities.
	Components []DescribeClientQuotasComponentData
	// Strict is set whether the match is strict, i.e. should exclude entities with unspecified entity types.
	Strict bool
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeClientQuotasComponentData is the filter components to apply to quota entities.
type DescribeClientQuotasComponentData struct {
	// EntityType is the entity type that the filter component applies to.
	EntityType string
	// MatchType is how to match the entity {0 = exact name, 1 = default name, 2 = any specified name}.
	MatchType int8
	// Match is the string to match against, or null if unused for the match type. Nil is null.
	Match *string
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyDescribeClientQuotas.
func (*DescribeClientQuotasRequest) Key() APIKey { return KeyDescribeClientQuotas }

// ResponseFor returns an empty *DescribeClientQuotasResponse.
func (*DescribeClientQuotasRequest) ResponseFor() Response { return &DescribeClientQuotasResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *DescribeClientQuotasRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 1
	dst = AppendArray(dst, flex, m.Components, func(dst []byte, x *DescribeClientQuotasComponentData) []byte { return x.appendTo(dst, v, flex) })
	dst = AppendBool(dst, m.Strict)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *DescribeClientQuotasRequest) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 1
	m.Components = ReadArray(r, flex, 4, func(r *Reader, x *DescribeClientQuotasComponentData) { x.readFrom(r, v, flex) })
	m.Strict = r.Bool()
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *DescribeClientQuotasComponentData) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.EntityType, flex)
	dst = AppendInt8(dst, m.MatchType)
	dst = AppendNullableString(dst, m.Match, flex)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeClientQuotasComponentData) readFrom(r *Reader, v int16, flex bool) {
	m.EntityType = r.String(flex)
	m.MatchType = r.Int8()
	m.Match = r.NullableString(flex)
	m.UnknownTags = readFlexTags(r, flex)
}

// DescribeClientQuotasResponse answers a DescribeClientQuotasRequest.
type DescribeClientQuotasResponse struct {
	// ThrottleTimeMs is the duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
	ThrottleTimeMs int32
	// ErrorCode is the error code, or `0` if the quota description succeeded.
	ErrorCode int16
	// ErrorMessage is the error message, or `null` if the quota description succeeded. Nil is null.
	ErrorMessage *string
	// Entries holds a result entry. Nil is null.
	Entries []DescribeClientQuotasEntryData
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeClientQuotasEntryData is a result entry.
type DescribeClientQuotasEntryData struct {
	// Entity holds the quota entity description.
	Entity []DescribeClientQuotasEntityData
	// Values holds the quota values for the entity.
	Values []DescribeClientQuotasValueData
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeClientQuotasEntityData is the quota entity description.
type DescribeClientQuotasEntityData struct {
	// EntityType is the entity type.
	EntityType string
	// EntityName is the entity name, or null if the default. Nil is null.
	EntityName *string
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeClientQuotasValueData is the quota values for the entity.
type DescribeClientQuotasValueData struct {
	// Key is the quota configuration key.
	Key string
	// Value is the quota configuration value.
	Value float64
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyDescribeClientQuotas.
func (*DescribeClientQuotasResponse) Key() APIKey { return KeyDescribeClientQuotas }

// AppendTo appends the response body for version v (header excluded).
func (m *DescribeClientQuotasResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 1
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendNullableString(dst, m.ErrorMessage, flex)
	dst = AppendNullableArray(dst, flex, m.Entries, func(dst []byte, x *DescribeClientQuotasEntryData) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *DescribeClientQuotasResponse) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 1
	m.ThrottleTimeMs = r.Int32()
	m.ErrorCode = r.Int16()
	m.ErrorMessage = r.NullableString(flex)
	m.Entries = ReadNullableArray(r, flex, 3, func(r *Reader, x *DescribeClientQuotasEntryData) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *DescribeClientQuotasEntryData) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendArray(dst, flex, m.Entity, func(dst []byte, x *DescribeClientQuotasEntityData) []byte { return x.appendTo(dst, v, flex) })
	dst = AppendArray(dst, flex, m.Values, func(dst []byte, x *DescribeClientQuotasValueData) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeClientQuotasEntryData) readFrom(r *Reader, v int16, flex bool) {
	m.Entity = ReadArray(r, flex, 3, func(r *Reader, x *DescribeClientQuotasEntityData) { x.readFrom(r, v, flex) })
	m.Values = ReadArray(r, flex, 10, func(r *Reader, x *DescribeClientQuotasValueData) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *DescribeClientQuotasEntityData) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.EntityType, flex)
	dst = AppendNullableString(dst, m.EntityName, flex)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeClientQuotasEntityData) readFrom(r *Reader, v int16, flex bool) {
	m.EntityType = r.String(flex)
	m.EntityName = r.NullableString(flex)
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *DescribeClientQuotasValueData) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.Key, flex)
	dst = AppendFloat64(dst, m.Value)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeClientQuotasValueData) readFrom(r *Reader, v int16, flex bool) {
	m.Key = r.String(flex)
	m.Value = r.Float64()
	m.UnknownTags = readFlexTags(r, flex)
}
