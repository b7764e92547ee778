package wire

// Config resource types (ResourceType of DescribeConfigs and
// IncrementalAlterConfigs; Kafka's ConfigResource.Type).
const (
	ConfigResourceTopic         int8 = 2
	ConfigResourceBroker        int8 = 4
	ConfigResourceBrokerLogger  int8 = 8
	ConfigResourceClientMetrics int8 = 16
	ConfigResourceGroup         int8 = 32
)

// Config sources (ConfigSource of DescribeConfigs; Kafka's ConfigSource).
const (
	ConfigSourceUnknown              int8 = 0
	ConfigSourceDynamicTopic         int8 = 1
	ConfigSourceDynamicBroker        int8 = 2
	ConfigSourceDynamicDefaultBroker int8 = 3
	ConfigSourceStaticBroker         int8 = 4
	ConfigSourceDefault              int8 = 5
	ConfigSourceDynamicBrokerLogger  int8 = 6
	ConfigSourceClientMetrics        int8 = 7
	ConfigSourceGroup                int8 = 8
)

// DescribeConfigsRequest reads configs of topics, brokers and groups (API key
// 32, versions 1-4, flexible from v4). Broker resources go to that broker;
// others to any broker. Source: DescribeConfigsRequest.json; KIP-226, KIP-525.
type DescribeConfigsRequest struct {
	// Resources are the resources to describe.
	Resources []DescribeConfigsResource
	// IncludeSynonyms asks for each config's synonyms.
	IncludeSynonyms bool
	// IncludeDocumentation asks for each config's documentation (v3+).
	IncludeDocumentation bool
	// UnknownTags keeps unknown tagged fields (v4+).
	UnknownTags []TaggedField
}

// DescribeConfigsResource names one resource to describe.
type DescribeConfigsResource struct {
	// ResourceType is one of the ConfigResource constants.
	ResourceType int8
	// ResourceName is the topic name, broker ID or group ID.
	ResourceName string
	// ConfigurationKeys lists the keys to return; nil (null) returns all.
	ConfigurationKeys []string
	// UnknownTags keeps unknown tagged fields (v4+).
	UnknownTags []TaggedField
}

// Key returns KeyDescribeConfigs.
func (*DescribeConfigsRequest) Key() APIKey { return KeyDescribeConfigs }

// ResponseFor returns an empty *DescribeConfigsResponse.
func (*DescribeConfigsRequest) ResponseFor() Response { return &DescribeConfigsResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *DescribeConfigsRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 4
	dst = AppendArray(dst, flex, m.Resources, func(dst []byte, res *DescribeConfigsResource) []byte {
		dst = AppendInt8(dst, res.ResourceType)
		dst = AppendString(dst, res.ResourceName, flex)
		if res.ConfigurationKeys == nil {
			dst = AppendArrayLen(dst, -1, flex)
		} else {
			dst = AppendStringArray(dst, flex, res.ConfigurationKeys)
		}
		return appendFlexTags(dst, flex, res.UnknownTags)
	})
	dst = AppendBool(dst, m.IncludeSynonyms)
	if v >= 3 {
		dst = AppendBool(dst, m.IncludeDocumentation)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *DescribeConfigsRequest) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 4
	m.Resources = ReadArray(r, flex, 3, func(r *Reader, res *DescribeConfigsResource) {
		res.ResourceType = r.Int8()
		res.ResourceName = r.String(flex)
		res.ConfigurationKeys = ReadNullableArray(r, flex, 1, func(r *Reader, s *string) { *s = r.String(flex) })
		res.UnknownTags = readFlexTags(r, flex)
	})
	m.IncludeSynonyms = r.Bool()
	if v >= 3 {
		m.IncludeDocumentation = r.Bool()
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// DescribeConfigsResponse answers a DescribeConfigsRequest, one result per resource.
type DescribeConfigsResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// Results holds one result per resource, in the broker's order.
	Results []DescribeConfigsResult
	// UnknownTags keeps unknown tagged fields (v4+).
	UnknownTags []TaggedField
}

// DescribeConfigsResult is the outcome for one resource.
type DescribeConfigsResult struct {
	// ErrorCode is the Kafka error code, 0 on success.
	ErrorCode int16
	// ErrorMessage is the broker's message for ErrorCode, or nil.
	ErrorMessage *string
	// ResourceType is one of the ConfigResource constants.
	ResourceType int8
	// ResourceName is the topic name, broker ID or group ID.
	ResourceName string
	// Configs are the config entries.
	Configs []DescribeConfigsConfig
	// UnknownTags keeps unknown tagged fields (v4+).
	UnknownTags []TaggedField
}

// DescribeConfigsConfig is one config entry (DescribeConfigsResourceResult).
type DescribeConfigsConfig struct {
	// Name is the config key.
	Name string
	// Value is the value; nil for sensitive configs and unset values.
	Value *string
	// ReadOnly reports a config that cannot be changed dynamically.
	ReadOnly bool
	// ConfigSource is one of the ConfigSource constants (-1 unknown).
	ConfigSource int8
	// IsSensitive marks a secret: its Value is never returned.
	IsSensitive bool
	// Synonyms are the config's synonyms, in order of precedence (IncludeSynonyms).
	Synonyms []DescribeConfigsSynonym
	// ConfigType is the data type (v3+): 1 BOOLEAN, 2 STRING, 3 INT, 4 SHORT,
	// 5 LONG, 6 DOUBLE, 7 LIST, 8 CLASS, 9 PASSWORD; 0 unknown.
	ConfigType int8
	// Documentation is the config's documentation (v3+), or nil.
	Documentation *string
	// UnknownTags keeps unknown tagged fields (v4+).
	UnknownTags []TaggedField
}

// DescribeConfigsSynonym is one synonym of a config.
type DescribeConfigsSynonym struct {
	// Name is the synonym config key.
	Name string
	// Value is the synonym's value, or nil.
	Value *string
	// Source is where the value comes from (a ConfigSource constant).
	Source int8
	// UnknownTags keeps unknown tagged fields (v4+).
	UnknownTags []TaggedField
}

// Key returns KeyDescribeConfigs.
func (*DescribeConfigsResponse) Key() APIKey { return KeyDescribeConfigs }

// AppendTo appends the response body for version v (header excluded).
func (m *DescribeConfigsResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 4
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendArray(dst, flex, m.Results, func(dst []byte, res *DescribeConfigsResult) []byte {
		dst = AppendInt16(dst, res.ErrorCode)
		dst = AppendNullableString(dst, res.ErrorMessage, flex)
		dst = AppendInt8(dst, res.ResourceType)
		dst = AppendString(dst, res.ResourceName, flex)
		dst = AppendArray(dst, flex, res.Configs, func(dst []byte, c *DescribeConfigsConfig) []byte {
			dst = AppendString(dst, c.Name, flex)
			dst = AppendNullableString(dst, c.Value, flex)
			dst = AppendBool(dst, c.ReadOnly)
			dst = AppendInt8(dst, c.ConfigSource)
			dst = AppendBool(dst, c.IsSensitive)
			dst = AppendArray(dst, flex, c.Synonyms, func(dst []byte, s *DescribeConfigsSynonym) []byte {
				dst = AppendString(dst, s.Name, flex)
				dst = AppendNullableString(dst, s.Value, flex)
				dst = AppendInt8(dst, s.Source)
				return appendFlexTags(dst, flex, s.UnknownTags)
			})
			if v >= 3 {
				dst = AppendInt8(dst, c.ConfigType)
				dst = AppendNullableString(dst, c.Documentation, flex)
			}
			return appendFlexTags(dst, flex, c.UnknownTags)
		})
		return appendFlexTags(dst, flex, res.UnknownTags)
	})
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *DescribeConfigsResponse) DecodeFrom(r *Reader, v int16) error {
	flex := v >= 4
	m.ThrottleTimeMs = r.Int32()
	m.Results = ReadArray(r, flex, 6, func(r *Reader, res *DescribeConfigsResult) {
		res.ErrorCode = r.Int16()
		res.ErrorMessage = r.NullableString(flex)
		res.ResourceType = r.Int8()
		res.ResourceName = r.String(flex)
		res.Configs = ReadArray(r, flex, 6, func(r *Reader, c *DescribeConfigsConfig) {
			c.Name = r.String(flex)
			c.Value = r.NullableString(flex)
			c.ReadOnly = r.Bool()
			c.ConfigSource = r.Int8()
			c.IsSensitive = r.Bool()
			c.Synonyms = ReadArray(r, flex, 3, func(r *Reader, s *DescribeConfigsSynonym) {
				s.Name = r.String(flex)
				s.Value = r.NullableString(flex)
				s.Source = r.Int8()
				s.UnknownTags = readFlexTags(r, flex)
			})
			if v >= 3 {
				c.ConfigType = r.Int8()
				c.Documentation = r.NullableString(flex)
			}
			c.UnknownTags = readFlexTags(r, flex)
		})
		res.UnknownTags = readFlexTags(r, flex)
	})
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}
