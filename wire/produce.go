package wire

// ProduceRequest writes record batches to partition leaders (API key 0,
// versions 3-13, flexible from v9). v13 names topics by ID (KIP-516); zstd
// batches need v7+ (KIP-110). With Acks 0 the broker sends no response.
// Source: ProduceRequest.json.
type ProduceRequest struct {
	// TransactionalID is the transactional ID, or nil.
	TransactionalID *string
	// Acks is 0 (none), 1 (leader) or -1 (all in-sync replicas).
	Acks int16
	// TimeoutMs is how long the broker may wait for the acks, in ms.
	TimeoutMs int32
	// TopicData holds the batches per topic.
	TopicData []ProduceRequestTopic
	// UnknownTags keeps tagged fields this version does not define (v9+).
	UnknownTags []TaggedField
	// VersionCap is the highest version the request may be sent at, or 0
	// for no cap (see VersionCapper): a transactions v1 producer must not
	// send v12+, which makes the broker add the partition to the
	// transaction itself (KIP-890 part 2).
	VersionCap int16

	// into is the response ResponseFor returns (SetResponseInto), nil for
	// a new one per call.
	into *ProduceResponse
}

// ProduceRequestTopic holds one topic's batches.
type ProduceRequestTopic struct {
	// Name is the topic name, v3-12.
	Name string
	// TopicID is the topic ID, v13+.
	TopicID UUID
	// PartitionData holds the per-partition batches.
	PartitionData []ProduceRequestPartition
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// ProduceRequestPartition holds one partition's encoded record batches.
type ProduceRequestPartition struct {
	// Index is the partition index.
	Index int32
	// Records are encoded record batches (see record_batch*.go), or nil.
	Records []byte
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// Key returns KeyProduce.
func (*ProduceRequest) Key() APIKey { return KeyProduce }

// ResponseFor returns the response set with SetResponseInto, else an empty
// *ProduceResponse.
func (m *ProduceRequest) ResponseFor() Response {
	if m.into != nil {
		return m.into
	}
	return &ProduceResponse{}
}

// ResponseKeepsNoFrame marks ProduceRequest as a FrameFreeResponder: a
// decoded ProduceResponse holds copies only (topic names, messages, node
// endpoints, unknown tagged fields).
func (*ProduceRequest) ResponseKeepsNoFrame() {}

// CapVersion returns VersionCap, or -1 when it is 0 (no cap).
func (m *ProduceRequest) CapVersion() int16 {
	if m.VersionCap <= 0 {
		return -1
	}
	return m.VersionCap
}

// SetResponseInto makes ResponseFor return resp, so a caller that reuses
// its requests has every response decoded into the same struct, reusing its
// arrays (see ProduceResponse.DecodeFrom). resp's contents are valid until
// the next response is decoded into it; a caller may reuse the request and
// resp only once no response to the request can still arrive (not after it
// abandoned a request that was written).
func (m *ProduceRequest) SetResponseInto(resp *ProduceResponse) { m.into = resp }

// AppendTo appends the request body for version v (header excluded).
func (m *ProduceRequest) AppendTo(dst []byte, v int16) []byte {
	return m.appendTo(dst, v, nil)
}

// AppendSplicedTo appends the body like AppendTo but leaves record batches
// of at least SpliceMinBytes out, recording them in splices (see
// SplicedAppender), so a writer can send them without copying.
func (m *ProduceRequest) AppendSplicedTo(dst []byte, v int16, splices []Splice) ([]byte, []Splice) {
	dst = m.appendTo(dst, v, &splices)
	return dst, splices
}

// appendTo is AppendTo, splicing Records out when splices is non-nil.
func (m *ProduceRequest) appendTo(dst []byte, v int16, splices *[]Splice) []byte {
	flex := v >= 9
	dst = AppendNullableString(dst, m.TransactionalID, flex)
	dst = AppendInt16(dst, m.Acks)
	dst = AppendInt32(dst, m.TimeoutMs)
	dst = AppendArrayLen(dst, len(m.TopicData), flex)
	for i := range m.TopicData {
		t := &m.TopicData[i]
		if v <= 12 {
			dst = AppendString(dst, t.Name, flex)
		} else {
			dst = AppendUUID(dst, t.TopicID)
		}
		dst = AppendArrayLen(dst, len(t.PartitionData), flex)
		for j := range t.PartitionData {
			p := &t.PartitionData[j]
			dst = AppendInt32(dst, p.Index)
			dst = appendSplicedBytes(dst, p.Records, flex, splices)
			dst = appendFlexTags(dst, flex, p.UnknownTags)
		}
		dst = appendFlexTags(dst, flex, t.UnknownTags)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v from r; Records alias
// r's buffer.
func (m *ProduceRequest) DecodeFrom(r *Reader, v int16) error {
	*m = ProduceRequest{}
	flex := v >= 9
	m.TransactionalID = r.NullableString(flex)
	m.Acks = r.Int16()
	m.TimeoutMs = r.Int32()
	minTopic := minLen(flex, 2) + minLen(flex, 4) + tagsLen(flex)
	if v >= 13 {
		minTopic = 16 + 1 + 1
	}
	m.TopicData = ReadArray(r, flex, minTopic, func(r *Reader, t *ProduceRequestTopic) {
		if v <= 12 {
			t.Name = r.String(flex)
		} else {
			t.TopicID = r.UUID()
		}
		t.PartitionData = ReadArray(r, flex, 4+minLen(flex, 4)+tagsLen(flex), func(r *Reader, p *ProduceRequestPartition) {
			p.Index = r.Int32()
			p.Records = r.NullableBytes(flex)
			p.UnknownTags = readFlexTags(r, flex)
		})
		t.UnknownTags = readFlexTags(r, flex)
	})
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// ProduceResponse reports the outcome per partition (versions 3-13).
type ProduceResponse struct {
	// Responses holds the results per topic.
	Responses []ProduceResponseTopic
	// ThrottleTimeMs is the quota throttle in milliseconds.
	ThrottleTimeMs int32
	// NodeEndpoints locates the new leaders named in CurrentLeader (tag 0,
	// v10+, KIP-951).
	NodeEndpoints []NodeEndpoint
	// UnknownTags keeps tagged fields this version does not define (v9+).
	UnknownTags []TaggedField
}

// ProduceResponseTopic holds one topic's partition results.
type ProduceResponseTopic struct {
	// Name is the topic name, v3-12.
	Name string
	// TopicID is the topic ID, v13+.
	TopicID UUID
	// PartitionResponses holds the per-partition results.
	PartitionResponses []ProduceResponsePartition
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// ProduceResponsePartition is one partition's produce result.
type ProduceResponsePartition struct {
	// Index is the partition index.
	Index int32
	// ErrorCode is the Kafka error code, 0 for none (see ErrorForCode).
	ErrorCode int16
	// BaseOffset is the offset of the first record written, -1 on error.
	BaseOffset int64
	// LogAppendTimeMs is the broker's append time when the topic uses
	// LogAppendTime, otherwise -1.
	LogAppendTimeMs int64
	// LogStartOffset is the partition's log start offset, v5+; -1 when absent.
	LogStartOffset int64
	// RecordErrors names the records that made the batch fail, v8+ (KIP-467).
	RecordErrors []ProduceResponseRecordError
	// ErrorMessage summarizes the error, or nil, v8+.
	ErrorMessage *string
	// CurrentLeader names the new leader after NOT_LEADER_OR_FOLLOWER (tag
	// 0, v10+, KIP-951); {-1, -1} when absent.
	CurrentLeader LeaderIDAndEpoch
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// ProduceResponseRecordError is one record that caused its batch to fail.
type ProduceResponseRecordError struct {
	// BatchIndex is the record's index within its batch.
	BatchIndex int32
	// BatchIndexErrorMessage explains it, or nil.
	BatchIndexErrorMessage *string
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// Key returns KeyProduce.
func (*ProduceResponse) Key() APIKey { return KeyProduce }

// AppendTo appends the response body for version v (header excluded).
func (m *ProduceResponse) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 9
	dst = AppendArray(dst, flex, m.Responses, func(dst []byte, t *ProduceResponseTopic) []byte {
		if v <= 12 {
			dst = AppendString(dst, t.Name, flex)
		} else {
			dst = AppendUUID(dst, t.TopicID)
		}
		dst = AppendArray(dst, flex, t.PartitionResponses, func(dst []byte, p *ProduceResponsePartition) []byte {
			dst = AppendInt32(dst, p.Index)
			dst = AppendInt16(dst, p.ErrorCode)
			dst = AppendInt64(dst, p.BaseOffset)
			dst = AppendInt64(dst, p.LogAppendTimeMs)
			if v >= 5 {
				dst = AppendInt64(dst, p.LogStartOffset)
			}
			if v >= 8 {
				dst = AppendArray(dst, flex, p.RecordErrors, func(dst []byte, e *ProduceResponseRecordError) []byte {
					dst = AppendInt32(dst, e.BatchIndex)
					dst = AppendNullableString(dst, e.BatchIndexErrorMessage, flex)
					return appendFlexTags(dst, flex, e.UnknownTags)
				})
				dst = AppendNullableString(dst, p.ErrorMessage, flex)
			}
			if !flex {
				return dst
			}
			var known []TaggedField
			if v >= 10 && !p.CurrentLeader.isDefault() {
				known = append(known, TaggedField{Tag: 0, Data: p.CurrentLeader.appendTo(nil)})
			}
			return appendTagSection(dst, known, p.UnknownTags)
		})
		return appendFlexTags(dst, flex, t.UnknownTags)
	})
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	if !flex {
		return dst
	}
	var known []TaggedField
	if v >= 10 && len(m.NodeEndpoints) > 0 {
		known = append(known, TaggedField{Tag: 0, Data: appendNodeEndpoints(m.NodeEndpoints)})
	}
	return appendTagSection(dst, known, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v from r. Absent fields
// take Kafka's defaults (-1 offsets, CurrentLeader {-1, -1}). The topic and
// partition arrays of a previous decode into m are reused (see
// ProduceRequest.SetResponseInto), so once m has held a response as large, decoding
// one allocates only the topic names' strings (v3-12; v13 names topics by
// ID).
func (m *ProduceResponse) DecodeFrom(r *Reader, v int16) error {
	topics := m.Responses[:0]
	*m = ProduceResponse{}
	flex := v >= 9
	minTopic := minLen(flex, 2) + minLen(flex, 4) + tagsLen(flex)
	if v >= 13 {
		minTopic = 16 + 1 + 1
	}
	m.Responses = ReadArrayInto(r, flex, minTopic, topics, func(r *Reader, t *ProduceResponseTopic) {
		parts := t.PartitionResponses[:0]
		*t = ProduceResponseTopic{}
		if v <= 12 {
			t.Name = r.String(flex)
		} else {
			t.TopicID = r.UUID()
		}
		t.PartitionResponses = ReadArrayInto(r, flex, 4+2+8+8+tagsLen(flex), parts, func(r *Reader, p *ProduceResponsePartition) {
			*p = ProduceResponsePartition{}
			p.Index = r.Int32()
			p.ErrorCode = r.Int16()
			p.BaseOffset = r.Int64()
			p.LogAppendTimeMs = r.Int64()
			p.LogStartOffset = -1
			if v >= 5 {
				p.LogStartOffset = r.Int64()
			}
			if v >= 8 {
				p.RecordErrors = ReadArray(r, flex, 4+minLen(flex, 2)+tagsLen(flex), func(r *Reader, e *ProduceResponseRecordError) {
					e.BatchIndex = r.Int32()
					e.BatchIndexErrorMessage = r.NullableString(flex)
					e.UnknownTags = readFlexTags(r, flex)
				})
				p.ErrorMessage = r.NullableString(flex)
			}
			p.CurrentLeader = defaultLeaderIDAndEpoch()
			if !flex {
				return
			}
			p.UnknownTags = r.ReadTags(func(tag uint32, fr *Reader) bool {
				if tag == 0 && v >= 10 {
					p.CurrentLeader.readFrom(fr)
					return true
				}
				return false
			})
		})
		t.UnknownTags = readFlexTags(r, flex)
	})
	m.ThrottleTimeMs = r.Int32()
	if flex {
		m.UnknownTags = r.ReadTags(func(tag uint32, fr *Reader) bool {
			if tag == 0 && v >= 10 {
				m.NodeEndpoints = readNodeEndpoints(fr)
				return true
			}
			return false
		})
	}
	return r.Err()
}
