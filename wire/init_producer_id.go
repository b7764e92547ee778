package wire

// InitProducerIdRequest obtains a producer ID and epoch for an idempotent or
// transactional producer (API key 22, versions 0-5, flexible from v2; v6,
// KIP-939 two-phase commit, is unstable in Kafka 4.4 and not implemented).
// Source: InitProducerIdRequest.json; KIP-98, KIP-360 (v3 epoch bump).
type InitProducerIdRequest struct {
	// TransactionalID is the transactional ID, or nil for an idempotent
	// producer.
	TransactionalID *string
	// TransactionTimeoutMs bounds an idle transaction, in milliseconds;
	// used only with a TransactionalID.
	TransactionTimeoutMs int32
	// ProducerID is the current producer ID to bump, or -1, v3+ (KIP-360).
	ProducerID int64
	// ProducerEpoch is the current epoch, or -1, v3+ (KIP-360).
	ProducerEpoch int16
	// UnknownTags keeps tagged fields this version does not define (v2+).
	UnknownTags []TaggedField
}

// Key returns KeyInitProducerId.
func (*InitProducerIdRequest) Key() APIKey { return KeyInitProducerId }

// ResponseFor returns an empty *InitProducerIdResponse.
func (*InitProducerIdRequest) ResponseFor() Response { return &InitProducerIdResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *InitProducerIdRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 2
	dst = AppendNullableString(dst, m.TransactionalID, flex)
	dst = AppendInt32(dst, m.TransactionTimeoutMs)
	if v >= 3 {
		dst = AppendInt64(dst, m.ProducerID)
		dst = AppendInt16(dst, m.ProducerEpoch)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v from r; older versions
// yield ProducerID and ProducerEpoch -1.
func (m *InitProducerIdRequest) DecodeFrom(r *Reader, v int16) error {
	*m = InitProducerIdRequest{ProducerID: -1, ProducerEpoch: -1}
	flex := v >= 2
	m.TransactionalID = r.NullableString(flex)
	m.TransactionTimeoutMs = r.Int32()
	if v >= 3 {
		m.ProducerID = r.Int64()
		m.ProducerEpoch = r.Int16()
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// InitProducerIdResponse carries the assigned producer ID and epoch.
type InitProducerIdResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// ErrorCode is 0, or e.g. PRODUCER_FENCED (90, v4+),
	// TRANSACTION_ABORTABLE (120, v5+).
	ErrorCode int16
	// ProducerID is the assigned producer ID, -1 on error.
	ProducerID int64
	// ProducerEpoch is the assigned epoch.
	ProducerEpoch int16
	// UnknownTags keeps tagged fields this version does not define (v2+).
	UnknownTags []TaggedField
}

// Key returns KeyInitProducerId.
func (*InitProducerIdResponse) Key() APIKey { return KeyInitProducerId }

// AppendTo appends the response body for version v (header excluded).
func (m *InitProducerIdResponse) AppendTo(dst []byte, v int16) []byte {
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendInt64(dst, m.ProducerID)
	dst = AppendInt16(dst, m.ProducerEpoch)
	return appendFlexTags(dst, v >= 2, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v from r.
func (m *InitProducerIdResponse) DecodeFrom(r *Reader, v int16) error {
	*m = InitProducerIdResponse{}
	m.ThrottleTimeMs = r.Int32()
	m.ErrorCode = r.Int16()
	m.ProducerID = r.Int64()
	m.ProducerEpoch = r.Int16()
	m.UnknownTags = readFlexTags(r, v >= 2)
	return r.Err()
}
