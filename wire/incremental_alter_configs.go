package wire

// Incremental config operations (ConfigOperation of IncrementalAlterConfigs,
// KIP-339).
const (
	ConfigOpSet      int8 = 0
	ConfigOpDelete   int8 = 1
	ConfigOpAppend   int8 = 2
	ConfigOpSubtract int8 = 3
)

// IncrementalAlterConfigsRequest changes individual config keys (API key 44,
// versions 0-1, flexible from v1). Broker resources go to that broker; others
// to any broker. Source: IncrementalAlterConfigsRequest.json; KIP-339.
type IncrementalAlterConfigsRequest struct {
	// Resources are the resources to change.
	Resources []IncrementalAlterConfigsResource
	// ValidateOnly checks the changes without applying them.
	ValidateOnly bool
	// UnknownTags keeps unknown tagged fields (v1+).
	UnknownTags []TaggedField
}

// IncrementalAlterConfigsResource is one resource to change (AlterConfigsResource).
type IncrementalAlterConfigsResource struct {
	// ResourceType is one of the ConfigResource constants.
	ResourceType int8
	// ResourceName is the topic name, broker ID or group ID.
	ResourceName string
	// Configs are the config entries.
	Configs []IncrementalAlterConfigsConfig
	// UnknownTags keeps unknown tagged fields (v1+).
	UnknownTags []TaggedField
}

// IncrementalAlterConfigsConfig is one change (AlterableConfig).
type IncrementalAlterConfigsConfig struct {
	// Name is the config key.
	Name string
	// ConfigOperation is one of the ConfigOp constants.
	ConfigOperation int8
	// Value is the value to set, append or subtract; nil (null) for delete.
	Value *string
	// UnknownTags keeps unknown tagged fields (v1+).
	UnknownTags []TaggedField
}

// Key returns KeyIncrementalAlterConfigs.
func (*IncrementalAlterConfigsRequest) Key() APIKey { return KeyIncrementalAlterConfigs }

// ResponseFor returns an empty *IncrementalAlterConfigsResponse.
func (*IncrementalAlterConfigsRequest) ResponseFor() Response {
	return &IncrementalAlterConfigsResponse{}
}

// AppendTo appends the request body for version v (header excluded).
func (m *IncrementalAlterConfigsRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 1
	dst = AppendArray(dst, flex, m.Resources, func(dst []byte, res *IncrementalAlterConfigsResource) []byte {
		dst = AppendInt8(dst, res.ResourceType)
		dst = AppendString(dst, res.ResourceName, flex)
		dst = AppendArray(dst, flex, res.Configs, func(dst []byte, c *IncrementalAlterConfigsConfig) []byte {
			dst = AppendString(dst, c.Name, flex)
			dst = AppendInt8(dst, c.ConfigOperation)
			dst = AppendNullableString(dst, c.Value, flex)
			return appendFlexTags(dst, flex, c.UnknownTags)
		})
		return appendFlexTags(dst, flex, res.UnknownTags)
	})
	dst = AppendBool(dst, m.ValidateOnly)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *IncrementalAlterConfigsRequest) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 1
	m.Resources = ReadArray(r, flex, 3, func(r *Reader, res *IncrementalAlterConfigsResource) {
		res.ResourceType = r.Int8()
		res.ResourceName = r.String(flex)
		res.Configs = ReadArray(r, flex, 3, func(r *Reader, c *IncrementalAlterConfigsConfig) {
			c.Name = r.String(flex)
			c.ConfigOperation = r.Int8()
			c.Value = r.NullableString(flex)
			c.UnknownTags = readFlexTags(r, flex)
		})
		res.UnknownTags = readFlexTags(r, flex)
	})
	m.ValidateOnly = r.Bool()
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// IncrementalAlterConfigsResponse answers an IncrementalAlterConfigsRequest.
type IncrementalAlterConfigsResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// Responses holds one result per resource.
	Responses []IncrementalAlterConfigsResult
	// UnknownTags keeps unknown tagged fields (v1+).
	UnknownTags []TaggedField
}

// IncrementalAlterConfigsResult is the outcome for one resource.
type IncrementalAlterConfigsResult struct {
	// ErrorCode is the Kafka error code, 0 on success.
	ErrorCode int16
	// ErrorMessage is the broker's message for ErrorCode, or nil.
	ErrorMessage *string
	// ResourceType is one of the ConfigResource constants.
	ResourceType int8
	// ResourceName is the topic name, broker ID or group ID.
	ResourceName string
	// UnknownTags keeps unknown tagged fields (v1+).
	UnknownTags []TaggedField
}

// Key returns KeyIncrementalAlterConfigs.
func (*IncrementalAlterConfigsResponse) Key() APIKey { return KeyIncrementalAlterConfigs }

// AppendTo appends the response body for version v (header excluded).
func (m *IncrementalAlterConfigsResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 1
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendArray(dst, flex, m.Responses, func(dst []byte, res *IncrementalAlterConfigsResult) []byte {
		dst = AppendInt16(dst, res.ErrorCode)
		dst = AppendNullableString(dst, res.ErrorMessage, flex)
		dst = AppendInt8(dst, res.ResourceType)
		dst = AppendString(dst, res.ResourceName, flex)
		return appendFlexTags(dst, flex, res.UnknownTags)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *IncrementalAlterConfigsResponse) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 1
	m.ThrottleTimeMs = r.Int32()
	m.Responses = ReadArray(r, flex, 5, func(r *Reader, res *IncrementalAlterConfigsResult) {
		res.ErrorCode = r.Int16()
		res.ErrorMessage = r.NullableString(flex)
		res.ResourceType = r.Int8()
		res.ResourceName = r.String(flex)
		res.UnknownTags = readFlexTags(r, flex)
	})
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}
