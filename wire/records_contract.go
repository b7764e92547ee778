package wire

// This file fixes the record-batch contract shared by the producer (encoding)
// and the consumer (decoding); the implementation lives in record_batch*.go
// and compression*.go.

// Compression is a record batch compression codec (attributes bits 0-2).
type Compression int8

// The five public compression selections.
const (
	CompressionNone   Compression = 0
	CompressionGzip   Compression = 1
	CompressionSnappy Compression = 2
	CompressionLZ4    Compression = 3
	CompressionZstd   Compression = 4
)

// Record batch attribute bits (magic v2).
const (
	AttrCompressionMask int16 = 0x07
	AttrLogAppendTime   int16 = 0x08 // timestamp type: 1 = LogAppendTime
	AttrTransactional   int16 = 0x10
	AttrControl         int16 = 0x20
	AttrDeleteHorizon   int16 = 0x40
)

// Header is a record header. A nil Value is null, distinct from empty.
type Header struct {
	Key   string
	Value []byte
}

// Record is one record. When decoded, Offset and Timestamp are absolute
// (base + delta) and Key/Value/Header values alias the decoded buffer; nil
// means null and a non-nil empty slice means empty.
type Record struct {
	Offset    int64
	Timestamp int64 // Unix milliseconds
	Key       []byte
	Value     []byte
	Headers   []Header
}

// RecordBatch is a decoded magic v2 record batch (or a legacy v0/v1 message
// set converted to the same shape, with Magic set to 0 or 1).
type RecordBatch struct {
	BaseOffset           int64
	BatchLength          int32
	PartitionLeaderEpoch int32
	Magic                int8
	CRC                  uint32
	Attributes           int16
	LastOffsetDelta      int32
	BaseTimestamp        int64
	MaxTimestamp         int64
	ProducerID           int64
	ProducerEpoch        int16
	BaseSequence         int32
	NumRecords           int32
	Records              []Record
}

// Compression returns the batch's codec.
func (b *RecordBatch) Compression() Compression {
	return Compression(b.Attributes & AttrCompressionMask)
}

// IsTransactional reports the transactional attribute.
func (b *RecordBatch) IsTransactional() bool { return b.Attributes&AttrTransactional != 0 }

// IsControl reports the control attribute (commit/abort markers).
func (b *RecordBatch) IsControl() bool { return b.Attributes&AttrControl != 0 }

// NextOffset is the offset after the batch's last offset: BaseOffset +
// LastOffsetDelta + 1. A consumer advances to it even when the batch holds no
// records (compaction can leave empty batches).
func (b *RecordBatch) NextOffset() int64 { return b.BaseOffset + int64(b.LastOffsetDelta) + 1 }

// BatchHeader holds what a producer sets on a batch it encodes. Offsets and
// timestamps of the records are written as deltas from BaseOffset (0 for a
// producer) and BaseTimestamp.
type BatchHeader struct {
	Compression   Compression
	Transactional bool
	ProducerID    int64
	ProducerEpoch int16
	BaseSequence  int32
	BaseTimestamp int64 // Unix ms; records' Timestamp fields are absolute
}

// ControlRecordType is the type of a control record (key: version int16, type int16).
type ControlRecordType int16

// Control record types.
const (
	ControlAbort  ControlRecordType = 0
	ControlCommit ControlRecordType = 1
)
