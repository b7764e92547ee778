package wire

// ListTransactionsRequest lists the transactions a transaction coordinator knows (API key 66, versions 0-2, all flexible).
// Source: ListTransactionsRequest.json; KIP-664, KIP-994, KIP-1152.
type ListTransactionsRequest struct {
	// StateFilters holds the transaction states to filter by: if empty, all transactions are returned; if non-empty, then only transactions matching one of the filtered states will be returned.
	StateFilters []string
	// ProducerIDFilters holds the producerIds to filter by: if empty, all transactions will be returned; if non-empty, only transactions which match one of the filtered producerIds will be returned.
	ProducerIDFilters []int64
	// DurationFilter is the duration (in millis) to filter by: if < 0, all transactions will be returned; otherwise, only transactions running longer than this duration will be returned. (v1+) Kafka's default: -1 (what decoding sets where the version lacks the field).
	DurationFilter int64
	// TransactionalIDPattern is the transactional ID regular expression pattern to filter by: if it is empty or null, all transactions are returned; Otherwise then only the transactions matching the given regular expression will be returned. (v2+) Nil is null.
	TransactionalIDPattern *string
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyListTransactions.
func (*ListTransactionsRequest) Key() APIKey { return KeyListTransactions }

// ResponseFor returns an empty *ListTransactionsResponse.
func (*ListTransactionsRequest) ResponseFor() Response { return &ListTransactionsResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *ListTransactionsRequest) AppendTo(dst []byte, v int16) []byte {
	const flex = true
	dst = AppendArray(dst, flex, m.StateFilters, func(dst []byte, x *string) []byte { return AppendString(dst, *x, flex) })
	dst = AppendArray(dst, flex, m.ProducerIDFilters, func(dst []byte, x *int64) []byte { return AppendInt64(dst, *x) })
	if v >= 1 {
		dst = AppendInt64(dst, m.DurationFilter)
	}
	if v >= 2 {
		dst = AppendNullableString(dst, m.TransactionalIDPattern, flex)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *ListTransactionsRequest) DecodeFrom(r *Reader, v int16) error {
	const flex = true
	m.DurationFilter = -1
	m.StateFilters = ReadArray(r, flex, minLen(flex, 2), func(r *Reader, x *string) { *x = r.String(flex) })
	m.ProducerIDFilters = ReadArray(r, flex, 8, func(r *Reader, x *int64) { *x = r.Int64() })
	if v >= 1 {
		m.DurationFilter = r.Int64()
	}
	if v >= 2 {
		m.TransactionalIDPattern = r.NullableString(flex)
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// ListTransactionsResponse answers a ListTransactionsRequest.
type ListTransactionsResponse struct {
	// ThrottleTimeMs is the duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
	ThrottleTimeMs int32
	// ErrorCode is the error code, or 0 if there was no error.
	ErrorCode int16
	// UnknownStateFilters holds used set of state filters provided in the request which were unknown to the transaction coordinator.
	UnknownStateFilters []string
	// TransactionStates holds the current state of the transaction for the transactional id.
	TransactionStates []ListTransactionsTransactionState
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// ListTransactionsTransactionState is the current state of the transaction for the transactional id.
type ListTransactionsTransactionState struct {
	// TransactionalID is the transactional id.
	TransactionalID string
	// ProducerID is the producer id.
	ProducerID int64
	// TransactionState is the current transaction state of the producer.
	TransactionState string
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyListTransactions.
func (*ListTransactionsResponse) Key() APIKey { return KeyListTransactions }

// AppendTo appends the response body for version v (header excluded).
func (m *ListTransactionsResponse) AppendTo(dst []byte, v int16) []byte {
	const flex = true
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendArray(dst, flex, m.UnknownStateFilters, func(dst []byte, x *string) []byte { return AppendString(dst, *x, flex) })
	dst = AppendArray(dst, flex, m.TransactionStates, func(dst []byte, x *ListTransactionsTransactionState) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *ListTransactionsResponse) DecodeFrom(r *Reader, v int16) error {
	const flex = true
	m.ThrottleTimeMs = r.Int32()
	m.ErrorCode = r.Int16()
	m.UnknownStateFilters = ReadArray(r, flex, minLen(flex, 2), func(r *Reader, x *string) { *x = r.String(flex) })
	m.TransactionStates = ReadArray(r, flex, 11, func(r *Reader, x *ListTransactionsTransactionState) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *ListTransactionsTransactionState) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.TransactionalID, flex)
	dst = AppendInt64(dst, m.ProducerID)
	dst = AppendString(dst, m.TransactionState, flex)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *ListTransactionsTransactionState) readFrom(r *Reader, v int16, flex bool) {
	m.TransactionalID = r.String(flex)
	m.ProducerID = r.Int64()
	m.TransactionState = r.String(flex)
	m.UnknownTags = readFlexTags(r, flex)
}
