package wire

// CreateAclsRequest creates ACL bindings (API key 30, versions 1-3, flexible from v2).
// Source: CreateAclsRequest.json; KIP-140, KIP-290.
type CreateAclsRequest struct {
	// Creations holds the ACLs that we want to create.
	Creations []CreateAclsAclCreation
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// CreateAclsAclCreation is the ACLs that we want to create.
type CreateAclsAclCreation struct {
	// ResourceType is the type of the resource.
	ResourceType int8
	// ResourceName is the resource name for the ACL.
	ResourceName string
	// ResourcePatternType is the pattern type for the ACL. Kafka's default: 3.
	ResourcePatternType int8
	// Principal is the principal for the ACL.
	Principal string
	// Host is the host for the ACL.
	Host string
	// Operation is the operation type for the ACL (read, write, etc.).
	Operation int8
	// PermissionType is the permission type for the ACL (allow, deny, etc.).
	PermissionType int8
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyCreateAcls.
func (*CreateAclsRequest) Key() APIKey { return KeyCreateAcls }

// ResponseFor returns an empty *CreateAclsResponse.
func (*CreateAclsRequest) ResponseFor() Response { return &CreateAclsResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *CreateAclsRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 2
	dst = AppendArray(dst, flex, m.Creations, func(dst []byte, x *CreateAclsAclCreation) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *CreateAclsRequest) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 2
	m.Creations = ReadArray(r, flex, 8, func(r *Reader, x *CreateAclsAclCreation) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *CreateAclsAclCreation) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt8(dst, m.ResourceType)
	dst = AppendString(dst, m.ResourceName, flex)
	dst = AppendInt8(dst, m.ResourcePatternType)
	dst = AppendString(dst, m.Principal, flex)
	dst = AppendString(dst, m.Host, flex)
	dst = AppendInt8(dst, m.Operation)
	dst = AppendInt8(dst, m.PermissionType)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *CreateAclsAclCreation) readFrom(r *Reader, v int16, flex bool) {
	m.ResourceType = r.Int8()
	m.ResourceName = r.String(flex)
	m.ResourcePatternType = r.Int8()
	m.Principal = r.String(flex)
	m.Host = r.String(flex)
	m.Operation = r.Int8()
	m.PermissionType = r.Int8()
	m.UnknownTags = readFlexTags(r, flex)
}

// CreateAclsResponse answers a CreateAclsRequest.
type CreateAclsResponse struct {
	// ThrottleTimeMs is the duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
	ThrottleTimeMs int32
	// Results holds the results for each ACL creation.
	Results []CreateAclsAclCreationResult
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// CreateAclsAclCreationResult is the results for each ACL creation.
type CreateAclsAclCreationResult struct {
	// ErrorCode is the result error, or zero if there was no error.
	ErrorCode int16
	// ErrorMessage is the result message, or null if there was no error. Nil is null.
	ErrorMessage *string
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyCreateAcls.
func (*CreateAclsResponse) Key() APIKey { return KeyCreateAcls }

// AppendTo appends the response body for version v (header excluded).
func (m *CreateAclsResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 2
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendArray(dst, flex, m.Results, func(dst []byte, x *CreateAclsAclCreationResult) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *CreateAclsResponse) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 2
	m.ThrottleTimeMs = r.Int32()
	m.Results = ReadArray(r, flex, 4, func(r *Reader, x *CreateAclsAclCreationResult) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *CreateAclsAclCreationResult) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendNullableString(dst, m.ErrorMessage, flex)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *CreateAclsAclCreationResult) readFrom(r *Reader, v int16, flex bool) {
	m.ErrorCode = r.Int16()
	m.ErrorMessage = r.NullableString(flex)
	m.UnknownTags = readFlexTags(r, flex)
}
