package wire

// AddOffsetsToTxnRequest adds a consumer group's offsets to a transaction
// (API key 25, versions 0-4, flexible from v3), before TxnOffsetCommit in
// transactions v1; transactions v2 (KIP-890) skip it (TxnOffsetCommit v5+
// adds the group itself). Send it to the transaction coordinator. Source:
// AddOffsetsToTxnRequest.json; KIP-98.
type AddOffsetsToTxnRequest struct {
	// TransactionalID is the transactional ID.
	TransactionalID string
	// ProducerID is the producer ID.
	ProducerID int64
	// ProducerEpoch is the producer's current epoch.
	ProducerEpoch int16
	// GroupID is the consumer group whose offsets the transaction commits.
	GroupID string
	// UnknownTags keeps tagged fields this version does not define (v3+).
	UnknownTags []TaggedField
}

// Key returns KeyAddOffsetsToTxn.
func (*AddOffsetsToTxnRequest) Key() APIKey { return KeyAddOffsetsToTxn }

// ResponseFor returns an empty *AddOffsetsToTxnResponse.
func (*AddOffsetsToTxnRequest) ResponseFor() Response { return &AddOffsetsToTxnResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *AddOffsetsToTxnRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 3
	dst = AppendString(dst, m.TransactionalID, flex)
	dst = AppendInt64(dst, m.ProducerID)
	dst = AppendInt16(dst, m.ProducerEpoch)
	dst = AppendString(dst, m.GroupID, flex)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v from r.
func (m *AddOffsetsToTxnRequest) DecodeFrom(r *Reader, v int16) error {
	*m = AddOffsetsToTxnRequest{}
	flex := v >= 3
	m.TransactionalID = r.String(flex)
	m.ProducerID = r.Int64()
	m.ProducerEpoch = r.Int16()
	m.GroupID = r.String(flex)
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// AddOffsetsToTxnResponse answers an AddOffsetsToTxnRequest.
type AddOffsetsToTxnResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// ErrorCode is 0, or e.g. CONCURRENT_TRANSACTIONS (51),
	// PRODUCER_FENCED (90, v2+), TRANSACTION_ABORTABLE (120, v4+).
	ErrorCode int16
	// UnknownTags keeps tagged fields this version does not define (v3+).
	UnknownTags []TaggedField
}

// Key returns KeyAddOffsetsToTxn.
func (*AddOffsetsToTxnResponse) Key() APIKey { return KeyAddOffsetsToTxn }

// AppendTo appends the response body for version v (header excluded).
func (m *AddOffsetsToTxnResponse) AppendTo(dst []byte, v int16) []byte {
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendInt16(dst, m.ErrorCode)
	return appendFlexTags(dst, v >= 3, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v from r.
func (m *AddOffsetsToTxnResponse) DecodeFrom(r *Reader, v int16) error {
	*m = AddOffsetsToTxnResponse{}
	m.ThrottleTimeMs = r.Int32()
	m.ErrorCode = r.Int16()
	m.UnknownTags = readFlexTags(r, v >= 3)
	return r.Err()
}
