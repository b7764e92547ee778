package wire

// PushTelemetryRequest pushes a client instance's metrics to a broker (API
// key 72, version 0, flexible). Source: PushTelemetryRequest.json; KIP-714.
type PushTelemetryRequest struct {
	// ClientInstanceID is the id GetTelemetrySubscriptions assigned.
	ClientInstanceID UUID
	// SubscriptionID is the subscription the metrics answer.
	SubscriptionID int32
	// Terminating marks the client's last push (it is closing).
	Terminating bool
	// CompressionType is the record batch compression code Metrics is
	// compressed with (CompressionNone for none).
	CompressionType int8
	// Metrics is an OpenTelemetry MetricsData v1 protobuf message,
	// compressed with CompressionType. Decoding aliases the input.
	Metrics []byte
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// Key returns KeyPushTelemetry.
func (*PushTelemetryRequest) Key() APIKey { return KeyPushTelemetry }

// ResponseFor returns an empty *PushTelemetryResponse.
func (*PushTelemetryRequest) ResponseFor() Response { return &PushTelemetryResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *PushTelemetryRequest) AppendTo(dst []byte, _ int16) []byte {
	dst = AppendUUID(dst, m.ClientInstanceID)
	dst = AppendInt32(dst, m.SubscriptionID)
	dst = AppendBool(dst, m.Terminating)
	dst = AppendInt8(dst, m.CompressionType)
	dst = AppendBytes(dst, m.Metrics, true)
	return AppendTags(dst, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v; the Metrics length is
// bounded by the remaining bytes.
func (m *PushTelemetryRequest) DecodeFrom(r *Reader, _ int16) error {
	m.ClientInstanceID = r.UUID()
	m.SubscriptionID = r.Int32()
	m.Terminating = r.Bool()
	m.CompressionType = r.Int8()
	m.Metrics = r.Bytes(true)
	m.UnknownTags = r.ReadTags(nil)
	return r.Err()
}

// PushTelemetryResponse answers a PushTelemetryRequest.
type PushTelemetryResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// ErrorCode is the Kafka error code, 0 on success.
	ErrorCode int16
	// UnknownTags keeps unknown tagged fields.
	UnknownTags []TaggedField
}

// Key returns KeyPushTelemetry.
func (*PushTelemetryResponse) Key() APIKey { return KeyPushTelemetry }

// AppendTo appends the response body for version v (header excluded).
func (m *PushTelemetryResponse) AppendTo(dst []byte, _ int16) []byte {
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendInt16(dst, m.ErrorCode)
	return AppendTags(dst, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *PushTelemetryResponse) DecodeFrom(r *Reader, _ int16) error {
	m.ThrottleTimeMs = r.Int32()
	m.ErrorCode = r.Int16()
	m.UnknownTags = r.ReadTags(nil)
	return r.Err()
}
