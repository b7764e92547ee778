package wire

// DeleteAclsRequest deletes the ACLs matching filters (API key 31, versions 1-3, flexible from v2).
// Source: DeleteAclsRequest.json; KIP-140, KIP-290.
type DeleteAclsRequest struct {
	// Filters holds the filters to use when deleting ACLs.
	Filters []DeleteAclsFilter
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DeleteAclsFilter is the filters to use when deleting ACLs.
type DeleteAclsFilter struct {
	// ResourceTypeFilter is the resource type.
	ResourceTypeFilter int8
	// ResourceNameFilter is the resource name, or null to match any resource name. Nil is null.
	ResourceNameFilter *string
	// PatternTypeFilter is the pattern type. Kafka's default: 3.
	PatternTypeFilter int8
	// PrincipalFilter is the principal filter, or null to accept all principals. Nil is null.
	PrincipalFilter *string
	// HostFilter is the host filter, or null to accept all hosts. Nil is null.
	HostFilter *string
	// Operation is the ACL operation.
	Operation int8
	// PermissionType is the permission type.
	PermissionType int8
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyDeleteAcls.
func (*DeleteAclsRequest) Key() APIKey { return KeyDeleteAcls }

// ResponseFor returns an empty *DeleteAclsResponse.
func (*DeleteAclsRequest) ResponseFor() Response { return &DeleteAclsResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *DeleteAclsRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 2
	dst = AppendArray(dst, flex, m.Filters, func(dst []byte, x *DeleteAclsFilter) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *DeleteAclsRequest) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 2
	m.Filters = ReadArray(r, flex, 8, func(r *Reader, x *DeleteAclsFilter) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *DeleteAclsFilter) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt8(dst, m.ResourceTypeFilter)
	dst = AppendNullableString(dst, m.ResourceNameFilter, flex)
	dst = AppendInt8(dst, m.PatternTypeFilter)
	dst = AppendNullableString(dst, m.PrincipalFilter, flex)
	dst = AppendNullableString(dst, m.HostFilter, flex)
	dst = AppendInt8(dst, m.Operation)
	dst = AppendInt8(dst, m.PermissionType)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DeleteAclsFilter) readFrom(r *Reader, v int16, flex bool) {
	m.ResourceTypeFilter = r.Int8()
	m.ResourceNameFilter = r.NullableString(flex)
	m.PatternTypeFilter = r.Int8()
	m.PrincipalFilter = r.NullableString(flex)
	m.HostFilter = r.NullableString(flex)
	m.Operation = r.Int8()
	m.PermissionType = r.Int8()
	m.UnknownTags = readFlexTags(r, flex)
}

// DeleteAclsResponse answers a DeleteAclsRequest.
type DeleteAclsResponse struct {
	// ThrottleTimeMs is the duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
	ThrottleTimeMs int32
	// FilterResults holds the results for each filter.
	FilterResults []DeleteAclsFilterResult
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DeleteAclsFilterResult is the results for each filter.
type DeleteAclsFilterResult struct {
	// ErrorCode is the error code, or 0 if the filter succeeded.
	ErrorCode int16
	// ErrorMessage is the error message, or null if the filter succeeded. Nil is null.
	ErrorMessage *string
	// MatchingAcls holds the ACLs which matched this filter.
	MatchingAcls []DeleteAclsMatchingAcl
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DeleteAclsMatchingAcl is the ACLs which matched this filter.
type DeleteAclsMatchingAcl struct {
	// ErrorCode is the deletion error code, or 0 if the deletion succeeded.
	ErrorCode int16
	// ErrorMessage is the deletion error message, or null if the deletion succeeded. Nil is null.
	ErrorMessage *string
	// ResourceType is the ACL resource type.
	ResourceType int8
	// ResourceName is the ACL resource name.
	ResourceName string
	// PatternType is the ACL resource pattern type. Kafka's default: 3.
	PatternType int8
	// Principal is the ACL principal.
	Principal string
	// Host is the ACL host.
	Host string
	// Operation is the ACL operation.
	Operation int8
	// PermissionType is the ACL permission type.
	PermissionType int8
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyDeleteAcls.
func (*DeleteAclsResponse) Key() APIKey { return KeyDeleteAcls }

// AppendTo appends the response body for version v (header excluded).
func (m *DeleteAclsResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 2
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendArray(dst, flex, m.FilterResults, func(dst []byte, x *DeleteAclsFilterResult) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *DeleteAclsResponse) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 2
	m.ThrottleTimeMs = r.Int32()
	m.FilterResults = ReadArray(r, flex, 5, func(r *Reader, x *DeleteAclsFilterResult) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *DeleteAclsFilterResult) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendNullableString(dst, m.ErrorMessage, flex)
	dst = AppendArray(dst, flex, m.MatchingAcls, func(dst []byte, x *DeleteAclsMatchingAcl) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DeleteAclsFilterResult) readFrom(r *Reader, v int16, flex bool) {
	m.ErrorCode = r.Int16()
	m.ErrorMessage = r.NullableString(flex)
	m.MatchingAcls = ReadArray(r, flex, 11, func(r *Reader, x *DeleteAclsMatchingAcl) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *DeleteAclsMatchingAcl) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendNullableString(dst, m.ErrorMessage, flex)
	dst = AppendInt8(dst, m.ResourceType)
	dst = AppendString(dst, m.ResourceName, flex)
	dst = AppendInt8(dst, m.PatternType)
	dst = AppendString(dst, m.Principal, flex)
	dst = AppendString(dst, m.Host, flex)
	dst = AppendInt8(dst, m.Operation)
	dst = AppendInt8(dst, m.PermissionType)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DeleteAclsMatchingAcl) readFrom(r *Reader, v int16, flex bool) {
	m.ErrorCode = r.Int16()
	m.ErrorMessage = r.NullableString(flex)
	m.ResourceType = r.Int8()
	m.ResourceName = r.String(flex)
	m.PatternType = r.Int8()
	m.Principal = r.String(flex)
	m.Host = r.String(flex)
	m.Operation = r.Int8()
	m.PermissionType = r.Int8()
	m.UnknownTags = readFlexTags(r, flex)
}
