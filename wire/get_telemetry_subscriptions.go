package wire

// GetTelemetrySubscriptionsRequest asks a broker which client metrics it
// wants this client instance to push (API key 71, version 0, flexible).
// Source: GetTelemetrySubscriptionsRequest.json; KIP-714.
type GetTelemetrySubscriptionsRequest struct {
	// ClientInstanceID is the id the broker assigned, or the zero UUID on
	// the first request (the broker then assigns one).
	ClientInstanceID UUID
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// Key returns KeyGetTelemetrySubscriptions.
func (*GetTelemetrySubscriptionsRequest) Key() APIKey { return KeyGetTelemetrySubscriptions }

// ResponseFor returns an empty *GetTelemetrySubscriptionsResponse.
func (*GetTelemetrySubscriptionsRequest) ResponseFor() Response {
	return &GetTelemetrySubscriptionsResponse{}
}

// AppendTo appends the request body for version v (header excluded).
func (m *GetTelemetrySubscriptionsRequest) AppendTo(dst []byte, _ int16) []byte {
	dst = AppendUUID(dst, m.ClientInstanceID)
	return AppendTags(dst, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *GetTelemetrySubscriptionsRequest) DecodeFrom(r *Reader, _ int16) error {
	m.ClientInstanceID = r.UUID()
	m.UnknownTags = r.ReadTags(nil)
	return r.Err()
}

// GetTelemetrySubscriptionsResponse carries the client instance's metrics
// subscription.
type GetTelemetrySubscriptionsResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// ErrorCode is the Kafka error code, 0 on success.
	ErrorCode int16
	// ClientInstanceID is the assigned id when the request carried the zero
	// UUID, else the zero UUID.
	ClientInstanceID UUID
	// SubscriptionID identifies the current subscription set; pushes carry it.
	SubscriptionID int32
	// AcceptedCompressionTypes are the compression types (the record
	// batch attribute codes, CompressionNone..CompressionZstd) the broker
	// accepts for PushTelemetry, in its order of preference.
	AcceptedCompressionTypes []int8
	// PushIntervalMs is the lowest push interval of the subscription set.
	PushIntervalMs int32
	// TelemetryMaxBytes bounds the Metrics bytes of one PushTelemetry.
	TelemetryMaxBytes int32
	// DeltaTemporality asks for counters as deltas (true) or cumulative
	// values (false).
	DeltaTemporality bool
	// RequestedMetrics are metric name prefixes: empty means no metrics,
	// a single empty string (or "*") all of them.
	RequestedMetrics []string
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// Key returns KeyGetTelemetrySubscriptions.
func (*GetTelemetrySubscriptionsResponse) Key() APIKey { return KeyGetTelemetrySubscriptions }

// AppendTo appends the response body for version v (header excluded).
func (m *GetTelemetrySubscriptionsResponse) AppendTo(dst []byte, _ int16) []byte {
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendUUID(dst, m.ClientInstanceID)
	dst = AppendInt32(dst, m.SubscriptionID)
	dst = AppendArray(dst, true, m.AcceptedCompressionTypes, func(dst []byte, c *int8) []byte { return AppendInt8(dst, *c) })
	dst = AppendInt32(dst, m.PushIntervalMs)
	dst = AppendInt32(dst, m.TelemetryMaxBytes)
	dst = AppendBool(dst, m.DeltaTemporality)
	dst = AppendStringArray(dst, true, m.RequestedMetrics)
	return AppendTags(dst, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v. Array lengths are
// bounded by the remaining bytes before allocating.
func (m *GetTelemetrySubscriptionsResponse) DecodeFrom(r *Reader, _ int16) error {
	m.ThrottleTimeMs = r.Int32()
	m.ErrorCode = r.Int16()
	m.ClientInstanceID = r.UUID()
	m.SubscriptionID = r.Int32()
	m.AcceptedCompressionTypes = ReadArray(r, true, 1, func(r *Reader, c *int8) { *c = r.Int8() })
	m.PushIntervalMs = r.Int32()
	m.TelemetryMaxBytes = r.Int32()
	m.DeltaTemporality = r.Bool()
	m.RequestedMetrics = r.StringArray(true)
	m.UnknownTags = r.ReadTags(nil)
	return r.Err()
}
