package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/bits"
)

// castagnoli is the CRC-32C table of record batch checksums (magic v2).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Byte layout of a magic v2 record batch header (the protocol guide's
// "Record Batch" section); batchLength counts the bytes after its own field.
const (
	batchLengthOffset     = 8
	batchMagicOffset      = 16
	batchCRCOffset        = 17
	batchAttributesOffset = 21 // CRC covers attributes..end
	batchHeaderLen        = 61 // through recordsCount
	logOverhead           = 12 // baseOffset + batchLength
)

// ErrEmptyBatch reports an attempt to encode a batch with no records.
var ErrEmptyBatch = errors.New("wire: a record batch needs at least one record")

// BatchEncoder encodes magic v2 record batches, as a producer sends them in
// ProduceRequest. It keeps a scratch buffer for the uncompressed records and
// holds on to the codecs it takes from its Compressor's pools (one per codec
// used, until Release), so encoding into a reused dst allocates nothing once
// warm. A BatchEncoder is not safe for concurrent use (use one per goroutine);
// the Compressor it uses may be shared.
type BatchEncoder struct {
	comp    *Compressor
	codecs  codecCache
	scratch []byte
}

// NewBatchEncoder returns a BatchEncoder compressing with c. A nil c selects
// a new Compressor with default levels.
func NewBatchEncoder(c *Compressor) *BatchEncoder {
	if c == nil {
		c = &Compressor{}
	}
	return &BatchEncoder{comp: c}
}

// Release returns the codecs e holds to its Compressor's pools and drops its
// scratch buffer. e stays usable; it takes codecs again when it needs them.
func (e *BatchEncoder) Release() {
	e.codecs.release(e.comp)
	e.scratch = nil
}

// AppendBatch appends one magic v2 record batch holding records to dst and
// returns the extended slice. Offsets are written as deltas from base offset 0
// (each record's offset delta is its index; Record.Offset is ignored) and
// timestamps as deltas from h.BaseTimestamp (Record.Timestamp is absolute Unix
// ms). PartitionLeaderEpoch is -1 (the broker sets it); maxTimestamp is the
// largest record timestamp; the CRC-32C covers attributes through the last
// record. It fails with ErrEmptyBatch for no records, or with the codec's
// error (dst is then returned unchanged).
func (e *BatchEncoder) AppendBatch(dst []byte, h *BatchHeader, records []Record) ([]byte, error) {
	return e.appendBatch(dst, h, records, 0)
}

// appendBatch is AppendBatch with extra attribute bits (AttrControl in tests).
func (e *BatchEncoder) appendBatch(dst []byte, h *BatchHeader, records []Record, extraAttrs int16) ([]byte, error) {
	if len(records) == 0 {
		return dst, ErrEmptyBatch
	}
	if h.Compression < CompressionNone || h.Compression > CompressionZstd {
		return dst, fmt.Errorf("%w: codec %d", ErrUnsupportedCompressionType, int8(h.Compression))
	}
	start := len(dst)
	attrs := int16(h.Compression)&AttrCompressionMask | extraAttrs
	if h.Transactional {
		attrs |= AttrTransactional
	}
	maxTS := records[0].Timestamp
	for i := range records {
		maxTS = max(maxTS, records[i].Timestamp)
	}
	dst = AppendInt64(dst, 0)  // baseOffset
	dst = AppendInt32(dst, 0)  // batchLength, patched below
	dst = AppendInt32(dst, -1) // partitionLeaderEpoch
	dst = AppendInt8(dst, 2)   // magic
	dst = AppendUint32(dst, 0) // crc, patched below
	dst = AppendInt16(dst, attrs)
	dst = AppendInt32(dst, int32(len(records)-1)) // lastOffsetDelta
	dst = AppendInt64(dst, h.BaseTimestamp)
	dst = AppendInt64(dst, maxTS)
	dst = AppendInt64(dst, h.ProducerID)
	dst = AppendInt16(dst, h.ProducerEpoch)
	dst = AppendInt32(dst, h.BaseSequence)
	dst = AppendInt32(dst, int32(len(records)))
	if h.Compression == CompressionNone {
		dst = appendRecords(dst, h.BaseTimestamp, records)
	} else {
		e.scratch = appendRecords(e.scratch[:0], h.BaseTimestamp, records)
		var err error
		if dst, err = e.comp.compress(&e.codecs, dst, h.Compression, e.scratch); err != nil {
			return dst[:start], err
		}
	}
	batch := dst[start:]
	binary.BigEndian.PutUint32(batch[batchLengthOffset:], uint32(len(batch)-logOverhead))
	binary.BigEndian.PutUint32(batch[batchCRCOffset:], crc32.Checksum(batch[batchAttributesOffset:], castagnoli))
	return dst, nil
}

// appendRecords appends the records of a batch in the v2 record format.
func appendRecords(dst []byte, baseTimestamp int64, records []Record) []byte {
	for i := range records {
		rec := &records[i]
		tsDelta := rec.Timestamp - baseTimestamp
		size := 1 + varlongLen(tsDelta) + varlongLen(int64(i)) +
			nullableVarBytesLen(rec.Key) + nullableVarBytesLen(rec.Value) + varlongLen(int64(len(rec.Headers)))
		for j := range rec.Headers {
			hd := &rec.Headers[j]
			size += varlongLen(int64(len(hd.Key))) + len(hd.Key) + nullableVarBytesLen(hd.Value)
		}
		dst = AppendVarint(dst, int32(size))
		dst = append(dst, 0) // record attributes (unused)
		dst = AppendVarlong(dst, tsDelta)
		dst = AppendVarint(dst, int32(i))
		dst = appendNullableVarBytes(dst, rec.Key)
		dst = appendNullableVarBytes(dst, rec.Value)
		dst = AppendVarint(dst, int32(len(rec.Headers)))
		for j := range rec.Headers {
			hd := &rec.Headers[j]
			dst = AppendVarint(dst, int32(len(hd.Key)))
			dst = append(dst, hd.Key...)
			dst = appendNullableVarBytes(dst, hd.Value)
		}
	}
	return dst
}

// appendNullableVarBytes appends a varint length (-1 for nil) and the bytes.
func appendNullableVarBytes(dst, b []byte) []byte {
	if b == nil {
		return AppendVarint(dst, -1)
	}
	dst = AppendVarint(dst, int32(len(b)))
	return append(dst, b...)
}

func nullableVarBytesLen(b []byte) int {
	if b == nil {
		return 1
	}
	return varlongLen(int64(len(b))) + len(b)
}

// varlongLen is the size of v as a zigzag varint.
func varlongLen(v int64) int {
	u := uint64(v<<1) ^ uint64(v>>63)
	return (bits.Len64(u|1) + 6) / 7
}
