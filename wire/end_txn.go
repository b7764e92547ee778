package wire

// EndTxnRequest commits or aborts a transaction (API key 26, versions 0-5,
// flexible from v3). Send it to the transaction coordinator. v5 is
// transactions v2 (KIP-890 part 2): the coordinator bumps the producer's
// epoch on every EndTxn and returns the new ID and epoch. Source:
// EndTxnRequest.json; KIP-98, KIP-890.
type EndTxnRequest struct {
	// TransactionalID is the transactional ID.
	TransactionalID string
	// ProducerID is the producer ID.
	ProducerID int64
	// ProducerEpoch is the producer's current epoch.
	ProducerEpoch int16
	// Committed is true to commit, false to abort.
	Committed bool
	// UnknownTags keeps tagged fields this version does not define (v3+).
	UnknownTags []TaggedField
	// VersionCap is the highest version to send, or 0 for none (see
	// VersionCapper): a transactions v1 producer
	// sends v4 or lower (v5 is transactions v2).
	VersionCap int16
}

// CapVersion returns VersionCap, or -1 when it is 0 (no cap).
func (m *EndTxnRequest) CapVersion() int16 {
	if m.VersionCap <= 0 {
		return -1
	}
	return m.VersionCap
}

// Key returns KeyEndTxn.
func (*EndTxnRequest) Key() APIKey { return KeyEndTxn }

// ResponseFor returns an empty *EndTxnResponse.
func (*EndTxnRequest) ResponseFor() Response { return &EndTxnResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *EndTxnRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 3
	dst = AppendString(dst, m.TransactionalID, flex)
	dst = AppendInt64(dst, m.ProducerID)
	dst = AppendInt16(dst, m.ProducerEpoch)
	dst = AppendBool(dst, m.Committed)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v from r.
func (m *EndTxnRequest) DecodeFrom(r *Reader, v int16) error {
	*m = EndTxnRequest{}
	flex := v >= 3
	m.TransactionalID = r.String(flex)
	m.ProducerID = r.Int64()
	m.ProducerEpoch = r.Int16()
	m.Committed = r.Bool()
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// EndTxnResponse answers an EndTxnRequest.
type EndTxnResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// ErrorCode is 0, or e.g. CONCURRENT_TRANSACTIONS (51, retriable),
	// INVALID_TXN_STATE (48), PRODUCER_FENCED (90, v2+),
	// TRANSACTION_ABORTABLE (120, v4+).
	ErrorCode int16
	// ProducerID is the producer ID to use next (v5+; -1 before v5 or on
	// error).
	ProducerID int64
	// ProducerEpoch is the epoch to use next, bumped by the coordinator
	// (v5+; -1 before v5 or on error).
	ProducerEpoch int16
	// UnknownTags keeps tagged fields this version does not define (v3+).
	UnknownTags []TaggedField
}

// Key returns KeyEndTxn.
func (*EndTxnResponse) Key() APIKey { return KeyEndTxn }

// AppendTo appends the response body for version v (header excluded).
func (m *EndTxnResponse) AppendTo(dst []byte, v int16) []byte {
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendInt16(dst, m.ErrorCode)
	if v >= 5 {
		dst = AppendInt64(dst, m.ProducerID)
		dst = AppendInt16(dst, m.ProducerEpoch)
	}
	return appendFlexTags(dst, v >= 3, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v from r; versions
// before 5 yield ProducerID and ProducerEpoch -1.
func (m *EndTxnResponse) DecodeFrom(r *Reader, v int16) error {
	*m = EndTxnResponse{ProducerID: -1, ProducerEpoch: -1}
	m.ThrottleTimeMs = r.Int32()
	m.ErrorCode = r.Int16()
	if v >= 5 {
		m.ProducerID = r.Int64()
		m.ProducerEpoch = r.Int16()
	}
	m.UnknownTags = readFlexTags(r, v >= 3)
	return r.Err()
}
