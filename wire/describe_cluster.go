package wire

// DescribeCluster endpoint types (EndpointType, KIP-919).
const (
	EndpointTypeBrokers     int8 = 1
	EndpointTypeControllers int8 = 2
)

// DescribeClusterRequest asks a broker for the cluster ID, controller and
// brokers (API key 60, versions 0-2, all flexible). Source:
// DescribeClusterRequest.json; KIP-700, KIP-919, KIP-1073.
type DescribeClusterRequest struct {
	// IncludeClusterAuthorizedOperations asks for the authorized-operations bitfield.
	IncludeClusterAuthorizedOperations bool
	// EndpointType is EndpointTypeBrokers (default) or EndpointTypeControllers (v1+).
	EndpointType int8
	// IncludeFencedBrokers lists fenced brokers too (v2+).
	IncludeFencedBrokers bool
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// Key returns KeyDescribeCluster.
func (*DescribeClusterRequest) Key() APIKey { return KeyDescribeCluster }

// ResponseFor returns an empty *DescribeClusterResponse.
func (*DescribeClusterRequest) ResponseFor() Response { return &DescribeClusterResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *DescribeClusterRequest) AppendTo(dst []byte, v int16) []byte {
	dst = AppendBool(dst, m.IncludeClusterAuthorizedOperations)
	if v >= 1 {
		dst = AppendInt8(dst, m.EndpointType)
	}
	if v >= 2 {
		dst = AppendBool(dst, m.IncludeFencedBrokers)
	}
	return AppendTags(dst, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *DescribeClusterRequest) DecodeFrom(r *Reader, v int16) error {
	m.IncludeClusterAuthorizedOperations = r.Bool()
	m.EndpointType = EndpointTypeBrokers
	if v >= 1 {
		m.EndpointType = r.Int8()
	}
	if v >= 2 {
		m.IncludeFencedBrokers = r.Bool()
	}
	m.UnknownTags = r.ReadTags(nil)
	return r.Err()
}

// DescribeClusterResponse describes the cluster.
type DescribeClusterResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// ErrorCode is the top-level Kafka error code, 0 on success.
	ErrorCode int16
	// ErrorMessage is the broker's message for ErrorCode, or nil.
	ErrorMessage *string
	// EndpointType is the endpoint type described (v1+; 1 before).
	EndpointType int8
	// ClusterID is the KRaft cluster ID.
	ClusterID string
	// ControllerID is the active controller as the broker knows it (-1 unknown).
	ControllerID int32
	// Brokers are the cluster's brokers.
	Brokers []DescribeClusterBroker
	// ClusterAuthorizedOperations is a bitfield, math.MinInt32 when not requested.
	ClusterAuthorizedOperations int32
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// DescribeClusterBroker is one broker of a DescribeClusterResponse.
type DescribeClusterBroker struct {
	// BrokerID is the broker (node) ID.
	BrokerID int32
	// Host is the broker's advertised host.
	Host string
	// Port is the broker's port.
	Port int32
	// Rack is the broker's rack, or nil.
	Rack *string
	// IsFenced reports a fenced broker (v2+).
	IsFenced bool
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// Key returns KeyDescribeCluster.
func (*DescribeClusterResponse) Key() APIKey { return KeyDescribeCluster }

// AppendTo appends the response body for version v (header excluded).
func (m *DescribeClusterResponse) AppendTo(dst []byte, v int16) []byte {
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendNullableString(dst, m.ErrorMessage, true)
	if v >= 1 {
		dst = AppendInt8(dst, m.EndpointType)
	}
	dst = AppendString(dst, m.ClusterID, true)
	dst = AppendInt32(dst, m.ControllerID)
	dst = AppendArray(dst, true, m.Brokers, func(dst []byte, b *DescribeClusterBroker) []byte {
		dst = AppendInt32(dst, b.BrokerID)
		dst = AppendString(dst, b.Host, true)
		dst = AppendInt32(dst, b.Port)
		dst = AppendNullableString(dst, b.Rack, true)
		if v >= 2 {
			dst = AppendBool(dst, b.IsFenced)
		}
		return AppendTags(dst, b.UnknownTags)
	})
	dst = AppendInt32(dst, m.ClusterAuthorizedOperations)
	return AppendTags(dst, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *DescribeClusterResponse) DecodeFrom(r *Reader, v int16) error {
	m.ThrottleTimeMs = r.Int32()
	m.ErrorCode = r.Int16()
	m.ErrorMessage = r.NullableString(true)
	m.EndpointType = EndpointTypeBrokers
	if v >= 1 {
		m.EndpointType = r.Int8()
	}
	m.ClusterID = r.String(true)
	m.ControllerID = r.Int32()
	m.Brokers = ReadArray(r, true, 11, func(r *Reader, b *DescribeClusterBroker) {
		b.BrokerID = r.Int32()
		b.Host = r.String(true)
		b.Port = r.Int32()
		b.Rack = r.NullableString(true)
		if v >= 2 {
			b.IsFenced = r.Bool()
		}
		b.UnknownTags = r.ReadTags(nil)
	})
	m.ClusterAuthorizedOperations = r.Int32()
	m.UnknownTags = r.ReadTags(nil)
	return r.Err()
}
