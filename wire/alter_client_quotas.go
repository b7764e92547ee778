package wire

// AlterClientQuotasRequest sets and removes client quotas (API key 49, versions 0-1, flexible from v1).
// Source: AlterClientQuotasRequest.json; KIP-546.
type AlterClientQuotasRequest struct {
	// Entries holds the quota configuration entries to alter.
	Entries []AlterClientQuotasEntryData
	// ValidateOnly is set whether the alteration should be validated, but not performed.
	ValidateOnly bool
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// AlterClientQuotasEntryData is the quota configuration entries to alter.
type AlterClientQuotasEntryData struct {
	// Entity holds the quota entity to alter.
	Entity []AlterClientQuotasEntityData
	// Ops holds an individual quota configuration entry to alter.
	Ops []AlterClientQuotasOpData
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// AlterClientQuotasEntityData is the quota entity to alter.
type AlterClientQuotasEntityData struct {
	// EntityType is the entity type.
	EntityType string
	// EntityName is the name of the entity, or null if the default. Nil is null.
	EntityName *string
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// AlterClientQuotasOpData is an individual quota configuration entry to alter.
type AlterClientQuotasOpData struct {
	// Key is the quota configuration key.
	Key string
	// Value is the value to set, otherwise ignored if the value is to be removed.
	Value float64
	// Remove is set whether the quota configuration value should be removed, otherwise set.
	Remove bool
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyAlterClientQuotas.
func (*AlterClientQuotasRequest) Key() APIKey { return KeyAlterClientQuotas }

// ResponseFor returns an empty *AlterClientQuotasResponse.
func (*AlterClientQuotasRequest) ResponseFor() Response { return &AlterClientQuotasResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *AlterClientQuotasRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 1
	dst = AppendArray(dst, flex, m.Entries, func(dst []byte, x *AlterClientQuotasEntryData) []byte { return x.appendTo(dst, v, flex) })
	dst = AppendBool(dst, m.ValidateOnly)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *AlterClientQuotasRequest) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 1
	m.Entries = ReadArray(r, flex, 3, func(r *Reader, x *AlterClientQuotasEntryData) { x.readFrom(r, v, flex) })
	m.ValidateOnly = r.Bool()
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *AlterClientQuotasEntryData) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendArray(dst, flex, m.Entity, func(dst []byte, x *AlterClientQuotasEntityData) []byte { return x.appendTo(dst, v, flex) })
	dst = AppendArray(dst, flex, m.Ops, func(dst []byte, x *AlterClientQuotasOpData) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *AlterClientQuotasEntryData) readFrom(r *Reader, v int16, flex bool) {
	m.Entity = ReadArray(r, flex, 3, func(r *Reader, x *AlterClientQuotasEntityData) { x.readFrom(r, v, flex) })
	m.Ops = ReadArray(r, flex, 11, func(r *Reader, x *AlterClientQuotasOpData) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *AlterClientQuotasEntityData) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.EntityType, flex)
	dst = AppendNullableString(dst, m.EntityName, flex)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *AlterClientQuotasEntityData) readFrom(r *Reader, v int16, flex bool) {
	m.EntityType = r.String(flex)
	m.EntityName = r.NullableString(flex)
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *AlterClientQuotasOpData) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.Key, flex)
	dst = AppendFloat64(dst, m.Value)
	dst = AppendBool(dst, m.Remove)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *AlterClientQuotasOpData) readFrom(r *Reader, v int16, flex bool) {
	m.Key = r.String(flex)
	m.Value = r.Float64()
	m.Remove = r.Bool()
	m.UnknownTags = readFlexTags(r, flex)
}

// AlterClientQuotasResponse answers a AlterClientQuotasRequest.
type AlterClientQuotasResponse struct {
	// ThrottleTimeMs is the duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
	ThrottleTimeMs int32
	// Entries holds the quota configuration entries to alter.
	Entries []AlterClientQuotasResponseEntryData
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// AlterClientQuotasResponseEntryData is the quota configuration entries to alter.
type AlterClientQuotasResponseEntryData struct {
	// ErrorCode is the error code, or `0` if the quota alteration succeeded.
	ErrorCode int16
	// ErrorMessage is the error message, or `null` if the quota alteration succeeded. Nil is null.
	ErrorMessage *string
	// Entity holds the quota entity to alter.
	Entity []AlterClientQuotasResponseEntityData
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// AlterClientQuotasResponseEntityData is the quota entity to alter.
type AlterClientQuotasResponseEntityData struct {
	// EntityType is the entity type.
	EntityType string
	// EntityName is the name of the entity, or null if the default. Nil is null.
	EntityName *string
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyAlterClientQuotas.
func (*AlterClientQuotasResponse) Key() APIKey { return KeyAlterClientQuotas }

// AppendTo appends the response body for version v (header excluded).
func (m *AlterClientQuotasResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 1
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendArray(dst, flex, m.Entries, func(dst []byte, x *AlterClientQuotasResponseEntryData) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *AlterClientQuotasResponse) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 1
	m.ThrottleTimeMs = r.Int32()
	m.Entries = ReadArray(r, flex, 5, func(r *Reader, x *AlterClientQuotasResponseEntryData) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *AlterClientQuotasResponseEntryData) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendNullableString(dst, m.ErrorMessage, flex)
	dst = AppendArray(dst, flex, m.Entity, func(dst []byte, x *AlterClientQuotasResponseEntityData) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *AlterClientQuotasResponseEntryData) readFrom(r *Reader, v int16, flex bool) {
	m.ErrorCode = r.Int16()
	m.ErrorMessage = r.NullableString(flex)
	m.Entity = ReadArray(r, flex, 3, func(r *Reader, x *AlterClientQuotasResponseEntityData) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *AlterClientQuotasResponseEntityData) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.EntityType, flex)
	dst = AppendNullableString(dst, m.EntityName, flex)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *AlterClientQuotasResponseEntityData) readFrom(r *Reader, v int16, flex bool) {
	m.EntityType = r.String(flex)
	m.EntityName = r.NullableString(flex)
	m.UnknownTags = readFlexTags(r, flex)
}
