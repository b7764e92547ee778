package wire

// AddPartitionsToTxnRequest registers partitions with a transaction before
// the producer writes to them (API key 24, versions 0-5, flexible from v3).
// Clients send v0-3 (one transaction: TransactionalID, ProducerID,
// ProducerEpoch, Topics) to the transaction coordinator; v4+ is the
// brokers' batched form (Transactions, with VerifyOnly for KIP-890
// verification). Transactions v2 (KIP-890 part 2) need no AddPartitionsToTxn
// from clients: Produce v12+ adds the partition. Source:
// AddPartitionsToTxnRequest.json; KIP-98, KIP-890.
type AddPartitionsToTxnRequest struct {
	// TransactionalID is the transactional ID (v0-3).
	TransactionalID string
	// ProducerID is the producer ID (v0-3).
	ProducerID int64
	// ProducerEpoch is the producer's current epoch (v0-3).
	ProducerEpoch int16
	// Topics are the partitions to add (v0-3).
	Topics []AddPartitionsToTxnTopic
	// Transactions are the transactions of a batched request (v4+).
	Transactions []AddPartitionsToTxnTransaction
	// UnknownTags keeps tagged fields this version does not define (v3+).
	UnknownTags []TaggedField
	// VersionCap is the highest version to send, or 0 for none (see
	// VersionCapper): clients send v3 or
	// lower.
	VersionCap int16
}

// AddPartitionsToTxnTransaction is one transaction of a batched (v4+)
// AddPartitionsToTxnRequest.
type AddPartitionsToTxnTransaction struct {
	// TransactionalID is the transactional ID.
	TransactionalID string
	// ProducerID is the producer ID.
	ProducerID int64
	// ProducerEpoch is the producer's current epoch.
	ProducerEpoch int16
	// VerifyOnly asks whether the partitions are in the transaction instead
	// of adding them.
	VerifyOnly bool
	// Topics are the partitions to add or verify.
	Topics []AddPartitionsToTxnTopic
	// UnknownTags keeps tagged fields this version does not define.
	UnknownTags []TaggedField
}

// AddPartitionsToTxnTopic names partitions of one topic.
type AddPartitionsToTxnTopic struct {
	// Name is the topic name.
	Name string
	// Partitions are the partition indexes.
	Partitions []int32
	// UnknownTags keeps tagged fields this version does not define (v3+).
	UnknownTags []TaggedField
}

// CapVersion returns VersionCap, or -1 when it is 0 (no cap).
func (m *AddPartitionsToTxnRequest) CapVersion() int16 {
	if m.VersionCap <= 0 {
		return -1
	}
	return m.VersionCap
}

// Key returns KeyAddPartitionsToTxn.
func (*AddPartitionsToTxnRequest) Key() APIKey { return KeyAddPartitionsToTxn }

// ResponseFor returns an empty *AddPartitionsToTxnResponse.
func (*AddPartitionsToTxnRequest) ResponseFor() Response { return &AddPartitionsToTxnResponse{} }

func appendAddPartitionsTopics(dst []byte, flex bool, topics []AddPartitionsToTxnTopic) []byte {
	return AppendArray(dst, flex, topics, func(dst []byte, t *AddPartitionsToTxnTopic) []byte {
		dst = AppendString(dst, t.Name, flex)
		dst = AppendInt32Array(dst, flex, t.Partitions)
		return appendFlexTags(dst, flex, t.UnknownTags)
	})
}

func readAddPartitionsTopics(r *Reader, flex bool) []AddPartitionsToTxnTopic {
	return ReadArray(r, flex, 2, func(r *Reader, t *AddPartitionsToTxnTopic) {
		t.Name = r.String(flex)
		t.Partitions = r.Int32Array(flex)
		t.UnknownTags = readFlexTags(r, flex)
	})
}

// AppendTo appends the request body for version v (header excluded).
func (m *AddPartitionsToTxnRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 3
	if v >= 4 {
		dst = AppendArray(dst, flex, m.Transactions, func(dst []byte, x *AddPartitionsToTxnTransaction) []byte {
			dst = AppendString(dst, x.TransactionalID, flex)
			dst = AppendInt64(dst, x.ProducerID)
			dst = AppendInt16(dst, x.ProducerEpoch)
			dst = AppendBool(dst, x.VerifyOnly)
			dst = appendAddPartitionsTopics(dst, flex, x.Topics)
			return appendFlexTags(dst, flex, x.UnknownTags)
		})
		return appendFlexTags(dst, flex, m.UnknownTags)
	}
	dst = AppendString(dst, m.TransactionalID, flex)
	dst = AppendInt64(dst, m.ProducerID)
	dst = AppendInt16(dst, m.ProducerEpoch)
	dst = appendAddPartitionsTopics(dst, flex, m.Topics)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v from r.
func (m *AddPartitionsToTxnRequest) DecodeFrom(r *Reader, v int16) error {
	*m = AddPartitionsToTxnRequest{}
	flex := v >= 3
	if v >= 4 {
		m.Transactions = ReadArray(r, flex, 13, func(r *Reader, x *AddPartitionsToTxnTransaction) {
			x.TransactionalID = r.String(flex)
			x.ProducerID = r.Int64()
			x.ProducerEpoch = r.Int16()
			x.VerifyOnly = r.Bool()
			x.Topics = readAddPartitionsTopics(r, flex)
			x.UnknownTags = readFlexTags(r, flex)
		})
	} else {
		m.TransactionalID = r.String(flex)
		m.ProducerID = r.Int64()
		m.ProducerEpoch = r.Int16()
		m.Topics = readAddPartitionsTopics(r, flex)
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// AddPartitionsToTxnResponse answers an AddPartitionsToTxnRequest: per
// partition errors in ResultsByTopic (v0-3) or per transaction in
// ResultsByTransaction (v4+).
type AddPartitionsToTxnResponse struct {
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// ErrorCode is the top-level error code (v4+).
	ErrorCode int16
	// ResultsByTransaction are the results per transaction (v4+).
	ResultsByTransaction []AddPartitionsToTxnResult
	// ResultsByTopic are the results per topic (v0-3).
	ResultsByTopic []AddPartitionsToTxnTopicResult
	// UnknownTags keeps tagged fields this version does not define (v3+).
	UnknownTags []TaggedField
}

// AddPartitionsToTxnResult is one transaction's results (v4+).
type AddPartitionsToTxnResult struct {
	// TransactionalID is the transactional ID.
	TransactionalID string
	// TopicResults are the results per topic.
	TopicResults []AddPartitionsToTxnTopicResult
	// UnknownTags keeps tagged fields this version does not define.
	UnknownTags []TaggedField
}

// AddPartitionsToTxnTopicResult is one topic's partition results.
type AddPartitionsToTxnTopicResult struct {
	// Name is the topic name.
	Name string
	// ResultsByPartition are the results per partition.
	ResultsByPartition []AddPartitionsToTxnPartitionResult
	// UnknownTags keeps tagged fields this version does not define (v3+).
	UnknownTags []TaggedField
}

// AddPartitionsToTxnPartitionResult is one partition's outcome.
type AddPartitionsToTxnPartitionResult struct {
	// PartitionIndex is the partition.
	PartitionIndex int32
	// PartitionErrorCode is 0, or e.g. CONCURRENT_TRANSACTIONS (51),
	// OPERATION_NOT_ATTEMPTED (55, another partition failed),
	// PRODUCER_FENCED (90), TRANSACTION_ABORTABLE (120, v5+).
	PartitionErrorCode int16
	// UnknownTags keeps tagged fields this version does not define (v3+).
	UnknownTags []TaggedField
}

// Key returns KeyAddPartitionsToTxn.
func (*AddPartitionsToTxnResponse) Key() APIKey { return KeyAddPartitionsToTxn }

func appendAddPartitionsTopicResults(dst []byte, flex bool, topics []AddPartitionsToTxnTopicResult) []byte {
	return AppendArray(dst, flex, topics, func(dst []byte, t *AddPartitionsToTxnTopicResult) []byte {
		dst = AppendString(dst, t.Name, flex)
		dst = AppendArray(dst, flex, t.ResultsByPartition, func(dst []byte, p *AddPartitionsToTxnPartitionResult) []byte {
			dst = AppendInt32(dst, p.PartitionIndex)
			dst = AppendInt16(dst, p.PartitionErrorCode)
			return appendFlexTags(dst, flex, p.UnknownTags)
		})
		return appendFlexTags(dst, flex, t.UnknownTags)
	})
}

func readAddPartitionsTopicResults(r *Reader, flex bool) []AddPartitionsToTxnTopicResult {
	return ReadArray(r, flex, 2, func(r *Reader, t *AddPartitionsToTxnTopicResult) {
		t.Name = r.String(flex)
		t.ResultsByPartition = ReadArray(r, flex, 6, func(r *Reader, p *AddPartitionsToTxnPartitionResult) {
			p.PartitionIndex = r.Int32()
			p.PartitionErrorCode = r.Int16()
			p.UnknownTags = readFlexTags(r, flex)
		})
		t.UnknownTags = readFlexTags(r, flex)
	})
}

// AppendTo appends the response body for version v (header excluded).
func (m *AddPartitionsToTxnResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 3
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	if v >= 4 {
		dst = AppendInt16(dst, m.ErrorCode)
		dst = AppendArray(dst, flex, m.ResultsByTransaction, func(dst []byte, x *AddPartitionsToTxnResult) []byte {
			dst = AppendString(dst, x.TransactionalID, flex)
			dst = appendAddPartitionsTopicResults(dst, flex, x.TopicResults)
			return appendFlexTags(dst, flex, x.UnknownTags)
		})
	} else {
		dst = appendAddPartitionsTopicResults(dst, flex, m.ResultsByTopic)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v from r.
func (m *AddPartitionsToTxnResponse) DecodeFrom(r *Reader, v int16) error {
	*m = AddPartitionsToTxnResponse{}
	flex := v >= 3
	m.ThrottleTimeMs = r.Int32()
	if v >= 4 {
		m.ErrorCode = r.Int16()
		m.ResultsByTransaction = ReadArray(r, flex, 3, func(r *Reader, x *AddPartitionsToTxnResult) {
			x.TransactionalID = r.String(flex)
			x.TopicResults = readAddPartitionsTopicResults(r, flex)
			x.UnknownTags = readFlexTags(r, flex)
		})
	} else {
		m.ResultsByTopic = readAddPartitionsTopicResults(r, flex)
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}
