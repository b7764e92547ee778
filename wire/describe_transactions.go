package wire

// DescribeTransactionsRequest describes transactions; it goes to each transactional ID's coordinator (API key 65, version 0, all flexible).
// Source: DescribeTransactionsRequest.json; KIP-664.
type DescribeTransactionsRequest struct {
	// TransactionalIDs holds the array of transactionalIds to include in describe results. If empty, then no results will be returned.
	TransactionalIDs []string
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyDescribeTransactions.
func (*DescribeTransactionsRequest) Key() APIKey { return KeyDescribeTransactions }

// ResponseFor returns an empty *DescribeTransactionsResponse.
func (*DescribeTransactionsRequest) ResponseFor() Response { return &DescribeTransactionsResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *DescribeTransactionsRequest) AppendTo(dst []byte, v int16) []byte {
	const flex = true
	dst = AppendArray(dst, flex, m.TransactionalIDs, func(dst []byte, x *string) []byte { return AppendString(dst, *x, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *DescribeTransactionsRequest) DecodeFrom(r *Reader, v int16) error {
	const flex = true
	m.TransactionalIDs = ReadArray(r, flex, minLen(flex, 2), func(r *Reader, x *string) { *x = r.String(flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// DescribeTransactionsResponse answers a DescribeTransactionsRequest.
type DescribeTransactionsResponse struct {
	// ThrottleTimeMs is the duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
	ThrottleTimeMs int32
	// TransactionStates holds the current state of the transaction.
	TransactionStates []DescribeTransactionsTransactionState
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeTransactionsTransactionState is the current state of the transaction.
type DescribeTransactionsTransactionState struct {
	// ErrorCode is the error code.
	ErrorCode int16
	// TransactionalID is the transactional id.
	TransactionalID string
	// TransactionState is the current transaction state of the producer.
	TransactionState string
	// TransactionTimeoutMs is the timeout in milliseconds for the transaction.
	TransactionTimeoutMs int32
	// TransactionStartTimeMs is the start time of the transaction in milliseconds.
	TransactionStartTimeMs int64
	// ProducerID is the current producer id associated with the transaction.
	ProducerID int64
	// ProducerEpoch is the current epoch associated with the producer id.
	ProducerEpoch int16
	// Topics holds the set of partitions included in the current transaction (if active). When a transaction is preparing to commit or abort, this will include only partitions which do not have markers.
	Topics []DescribeTransactionsTopicData
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// DescribeTransactionsTopicData is the set of partitions included in the current transaction (if active). When a transaction is preparing to commit or abort, this will include only partitions which do not have markers.
type DescribeTransactionsTopicData struct {
	// Topic is the topic name.
	Topic string
	// Partitions holds the partition ids included in the current transaction.
	Partitions []int32
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyDescribeTransactions.
func (*DescribeTransactionsResponse) Key() APIKey { return KeyDescribeTransactions }

// AppendTo appends the response body for version v (header excluded).
func (m *DescribeTransactionsResponse) AppendTo(dst []byte, v int16) []byte {
	const flex = true
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendArray(dst, flex, m.TransactionStates, func(dst []byte, x *DescribeTransactionsTransactionState) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *DescribeTransactionsResponse) DecodeFrom(r *Reader, v int16) error {
	const flex = true
	m.ThrottleTimeMs = r.Int32()
	m.TransactionStates = ReadArray(r, flex, 28, func(r *Reader, x *DescribeTransactionsTransactionState) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *DescribeTransactionsTransactionState) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendString(dst, m.TransactionalID, flex)
	dst = AppendString(dst, m.TransactionState, flex)
	dst = AppendInt32(dst, m.TransactionTimeoutMs)
	dst = AppendInt64(dst, m.TransactionStartTimeMs)
	dst = AppendInt64(dst, m.ProducerID)
	dst = AppendInt16(dst, m.ProducerEpoch)
	dst = AppendArray(dst, flex, m.Topics, func(dst []byte, x *DescribeTransactionsTopicData) []byte { return x.appendTo(dst, v, flex) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeTransactionsTransactionState) readFrom(r *Reader, v int16, flex bool) {
	m.ErrorCode = r.Int16()
	m.TransactionalID = r.String(flex)
	m.TransactionState = r.String(flex)
	m.TransactionTimeoutMs = r.Int32()
	m.TransactionStartTimeMs = r.Int64()
	m.ProducerID = r.Int64()
	m.ProducerEpoch = r.Int16()
	m.Topics = ReadArray(r, flex, 3, func(r *Reader, x *DescribeTransactionsTopicData) { x.readFrom(r, v, flex) })
	m.UnknownTags = readFlexTags(r, flex)
}

func (m *DescribeTransactionsTopicData) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.Topic, flex)
	dst = AppendArray(dst, flex, m.Partitions, func(dst []byte, x *int32) []byte { return AppendInt32(dst, *x) })
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *DescribeTransactionsTopicData) readFrom(r *Reader, v int16, flex bool) {
	m.Topic = r.String(flex)
	m.Partitions = ReadArray(r, flex, 4, func(r *Reader, x *int32) { *x = r.Int32() })
	m.UnknownTags = readFlexTags(r, flex)
}
