package wire

// DescribeAclsRequest lists the ACLs matching a filter (API key 29, versions 1-3, flexible from v2).
// Source: DescribeAclsRequest.json; KIP-140, KIP-290.
type DescribeAclsRequest struct {
	// ResourceTypeFilter is the resource type.
	ResourceTypeFilter int8
	// ResourceNameFilter is the resource name, or null to match any resource name. Nil is null.
	ResourceNameFilter *string
	// PatternTypeFilter is the resource pattern to match. Kafka's default: 3.
	PatternTypeFilter int8
	// PrincipalFilter is the principal to match, or null to match any principal. Nil is null.
	PrincipalFilter *string
	// HostFilter is the host to match, or null to match any host. Nil is null.
	HostFilter *string
	// Operation is the operation to match.
	Operation int8
	// PermissionType is the permission type to match.
	PermissionType int8
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyDescribeAcls.
func (*DescribeAclsRequest) Key() APIKey { return KeyDescribeAcls }

// ResponseFor returns an empty *DescribeAclsResponse.
func (*DescribeAclsRequest) ResponseFor() Response { return &DescribeAclsResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *DescribeAclsRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 2
	dst = AppendInt8(dst, m.ResourceTypeFilter)
	dst = AppendNullableString(dst, m.ResourceNameFilter, flex)
	dst = AppendInt8(dst, m.PatternTypeFilter)
	dst = AppendNullableString(dst, m.PrincipalFilter, flex)
	dst = AppendNullableString(dst, m.HostFilter, flex)
	dst = AppendInt8(dst, m.Operation)
	dst = AppendInt8(dst, m.PermissionType)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *DescribeAclsRequest) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 2
	m.ResourceTypeFilter = r.Int8()
	m.ResourceNameFilter = r.NullableString(flex)
	m.PatternTypeFilter = r.Int8()
	m.PrincipalFilter = r.NullableString(flex)
	m.HostFilter = r.NullableString(flex)
	m.Operation = r.Int8()
	m.PermissionType = r.Int8()
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// DescribeAclsResponse answers a DescribeAclsRequest.
type DescribeAclsResponse struct {
	// ThrottleTimeMs is the duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
	ThrottleTimeMs int32
	// ErrorCode is the error code, or 0 if there was no error.
	ErrorCode int16
	// ErrorMessage is the error message, or null if there was no error. Nil is null.
	ErrorMessage *string
	// Resources holds each Resource that is referenced in an ACL.
	Resources []DescribeAclsResource
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeAclsResource is each Resource that is referenced in an ACL.
type DescribeAclsResource struct {
	// ResourceType is the resource type.
	ResourceType int8
	// ResourceName is the resource name.
	ResourceName string
	// PatternType is the resource pattern type. Kafka's default: 3.
	PatternType int8
	// Acls holds the ACLs.
	Acls []DescribeAclsAclDescription
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeAclsAclDescription is the ACLs.
type DescribeAclsAclDescription struct {
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

// Key returns KeyDescribeAcls.
func (*DescribeAclsResponse) Key() APIKey { return KeyDescribeAcls }

// AppendTo appends the response body for version v (header excluded).
func (m *DescribeAclsResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 2
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendNullableString(dst, m.ErrorMessage, flex)
	dst = AppendArray(dst, flex, m.Resources, func(dst []byte, x *DescribeAclsResource) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *DescribeAclsResponse) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 2
	m.ThrottleTimeMs = r.Int32()
	m.ErrorCode = r.Int16()
	m.ErrorMessage = r.NullableString(flex)
	m.Resources = ReadArray(r, flex, 5, func(r *Reader, x *DescribeAclsResource) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *DescribeAclsResource) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt8(dst, m.ResourceType)
	dst = AppendString(dst, m.ResourceName, flex)
	dst = AppendInt8(dst, m.PatternType)
	dst = AppendArray(dst, flex, m.Acls, func(dst []byte, x *DescribeAclsAclDescription) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeAclsResource) readFrom(r *Reader, v int16, flex bool) {
	m.ResourceType = r.Int8()
	m.ResourceName = r.String(flex)
	m.PatternType = r.Int8()
	m.Acls = ReadArray(r, flex, 5, func(r *Reader, x *DescribeAclsAclDescription) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *DescribeAclsAclDescription) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.Principal, flex)
	dst = AppendString(dst, m.Host, flex)
	dst = AppendInt8(dst, m.Operation)
	dst = AppendInt8(dst, m.PermissionType)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeAclsAclDescription) readFrom(r *Reader, v int16, flex bool) {
	m.Principal = r.String(flex)
	m.Host = r.String(flex)
	m.Operation = r.Int8()
	m.PermissionType = r.Int8()
	m.UnknownTags = readFlexTags(r, flex)
}
