package wire

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

// This file lets a producer encode records as they arrive, into a buffer
// that reserves room for the batch header, and finish the batch later
// without re-encoding (and, uncompressed, without copying) the records.

// BatchHeaderLen is the size of a magic v2 record batch header, through
// recordsCount: the room a producer reserves in front of the records it
// encodes with AppendRecord before FinishBatch.
const BatchHeaderLen = batchHeaderLen

// AppendRecord appends one record in the magic v2 record format (the
// protocol guide's "Record"): its offset delta, its timestamp delta from the
// batch's BaseTimestamp, key and value (nil is null, distinct from empty) and
// headers (a nil header value is null).
func AppendRecord(dst []byte, offsetDelta int32, timestampDelta int64, key, value []byte, headers []Header) []byte {
	size := recordBodyLen(offsetDelta, timestampDelta, key, value, headers)
	dst = AppendVarint(dst, int32(size))
	dst = append(dst, 0) // record attributes (unused)
	dst = AppendVarlong(dst, timestampDelta)
	dst = AppendVarint(dst, offsetDelta)
	dst = appendNullableVarBytes(dst, key)
	dst = appendNullableVarBytes(dst, value)
	dst = AppendVarint(dst, int32(len(headers)))
	for j := range headers {
		hd := &headers[j]
		dst = AppendVarint(dst, int32(len(hd.Key)))
		dst = append(dst, hd.Key...)
		dst = appendNullableVarBytes(dst, hd.Value)
	}
	return dst
}

// RecordLen is the number of bytes AppendRecord appends for the same
// arguments: the record's length prefix and body. A producer that keeps
// references to records and encodes them later sizes the batch with it.
func RecordLen(offsetDelta int32, timestampDelta int64, key, value []byte, headers []Header) int {
	size := recordBodyLen(offsetDelta, timestampDelta, key, value, headers)
	return varlongLen(int64(size)) + size
}

// recordBodyLen is the size of a v2 record after its length prefix.
func recordBodyLen(offsetDelta int32, timestampDelta int64, key, value []byte, headers []Header) int {
	size := 1 + varlongLen(timestampDelta) + varlongLen(int64(offsetDelta)) +
		nullableVarBytesLen(key) + nullableVarBytesLen(value) + varlongLen(int64(len(headers)))
	for j := range headers {
		hd := &headers[j]
		size += varlongLen(int64(len(hd.Key))) + len(hd.Key) + nullableVarBytesLen(hd.Value)
	}
	return size
}

// FinishBatch completes a magic v2 record batch from buf, which holds
// BatchHeaderLen reserved bytes followed by numRecords records encoded with
// AppendRecord (offset deltas 0..numRecords-1, timestamp deltas from
// h.BaseTimestamp); maxTimestamp is the largest record timestamp.
//
// Uncompressed (h.Compression none), the header is written into buf's
// reserved bytes and buf itself is returned: no record byte is copied, and
// calling FinishBatch again (say with a new sequence) rewrites the header.
// Compressed, the header and the compressed records are appended to dst and
// the extended dst is returned; buf is left as it was. The CRC-32C covers
// attributes through the last record, as in AppendBatch, which produces the
// same bytes for the same records.
func (e *BatchEncoder) FinishBatch(dst, buf []byte, h *BatchHeader, numRecords int32, maxTimestamp int64) ([]byte, error) {
	return e.finishBatch(dst, buf, h, numRecords, maxTimestamp, 0, false)
}

// FinishBatchCRC is FinishBatch for an uncompressed batch (h.Compression
// none) whose records' CRC-32C, recordsCRC = UpdateCRC32C(0,
// buf[BatchHeaderLen:]), the caller kept while appending them: the
// checksum is combined from it and the header (CombineCRC32C) without
// reading the records again. A wrong recordsCRC makes a batch the broker
// rejects as CORRUPT_MESSAGE. Compressed batches are checksummed over their
// compressed bytes, so for them recordsCRC is ignored.
func (e *BatchEncoder) FinishBatchCRC(dst, buf []byte, h *BatchHeader, numRecords int32, maxTimestamp int64, recordsCRC uint32) ([]byte, error) {
	return e.finishBatch(dst, buf, h, numRecords, maxTimestamp, recordsCRC, true)
}

func (e *BatchEncoder) finishBatch(dst, buf []byte, h *BatchHeader, numRecords int32, maxTimestamp int64, recordsCRC uint32, haveCRC bool) ([]byte, error) {
	if numRecords <= 0 {
		return dst, ErrEmptyBatch
	}
	if len(buf) < batchHeaderLen {
		return dst, fmt.Errorf("wire: FinishBatch buffer of %d bytes lacks the %d-byte header room", len(buf), batchHeaderLen)
	}
	if h.Compression < CompressionNone || h.Compression > CompressionZstd {
		return dst, fmt.Errorf("%w: codec %d", ErrUnsupportedCompressionType, int8(h.Compression))
	}
	var batch []byte
	if h.Compression == CompressionNone {
		batch = buf
	} else {
		start := len(dst)
		dst = append(dst, make([]byte, batchHeaderLen)...)
		var err error
		if dst, err = e.comp.compress(&e.codecs, dst, h.Compression, buf[batchHeaderLen:]); err != nil {
			return dst[:start], err
		}
		batch = dst[start:]
	}
	sealBatch(batch, h, numRecords, maxTimestamp, recordsCRC, haveCRC && h.Compression == CompressionNone)
	if h.Compression == CompressionNone {
		return buf, nil
	}
	return dst, nil
}

// SealBatch writes the header, length and CRC-32C of a magic v2 record
// batch whose records (compressed as h.Compression says, or not) follow
// BatchHeaderLen reserved bytes in batch: for a batch compressed while its
// records were appended (StreamEncoder), and to give a finished batch a new
// producer ID, epoch or base sequence without compressing it again. The
// records are not checked; numRecords must be positive.
func SealBatch(batch []byte, h *BatchHeader, numRecords int32, maxTimestamp int64) error {
	if numRecords <= 0 {
		return ErrEmptyBatch
	}
	if len(batch) < batchHeaderLen {
		return fmt.Errorf("wire: SealBatch buffer of %d bytes lacks the %d-byte header", len(batch), batchHeaderLen)
	}
	if h.Compression < CompressionNone || h.Compression > CompressionZstd {
		return fmt.Errorf("%w: codec %d", ErrUnsupportedCompressionType, int8(h.Compression))
	}
	sealBatch(batch, h, numRecords, maxTimestamp, 0, false)
	return nil
}

// sealBatch writes batch's header, length and checksum; with haveCRC the
// checksum is combined from recordsCRC (the CRC-32C of the records after
// the header) instead of reading the records.
func sealBatch(batch []byte, h *BatchHeader, numRecords int32, maxTimestamp int64, recordsCRC uint32, haveCRC bool) {
	attrs := int16(h.Compression) & AttrCompressionMask
	if h.Transactional {
		attrs |= AttrTransactional
	}
	putBatchHeader(batch, attrs, h, numRecords, maxTimestamp)
	binary.BigEndian.PutUint32(batch[batchLengthOffset:], uint32(len(batch)-logOverhead))
	var crc uint32
	if haveCRC {
		crc = CombineCRC32C(crc32.Checksum(batch[batchAttributesOffset:batchHeaderLen], castagnoli), recordsCRC, len(batch)-batchHeaderLen)
	} else {
		crc = crc32.Checksum(batch[batchAttributesOffset:], castagnoli)
	}
	binary.BigEndian.PutUint32(batch[batchCRCOffset:], crc)
}

// putBatchHeader writes the header fields of a v2 batch into b[:61] (length
// and CRC are patched by the caller).
func putBatchHeader(b []byte, attrs int16, h *BatchHeader, n int32, maxTS int64) {
	be := binary.BigEndian
	be.PutUint64(b[0:], 0)                 // baseOffset
	be.PutUint32(b[batchLengthOffset:], 0) // batchLength
	be.PutUint32(b[12:], 0xffffffff)       // partitionLeaderEpoch -1
	b[batchMagicOffset] = 2                // magic
	be.PutUint32(b[batchCRCOffset:], 0)    // crc
	be.PutUint16(b[batchAttributesOffset:], uint16(attrs))
	be.PutUint32(b[23:], uint32(n-1)) // lastOffsetDelta
	be.PutUint64(b[27:], uint64(h.BaseTimestamp))
	be.PutUint64(b[35:], uint64(maxTS))
	be.PutUint64(b[43:], uint64(h.ProducerID))
	be.PutUint16(b[51:], uint16(h.ProducerEpoch))
	be.PutUint32(b[53:], uint32(h.BaseSequence))
	be.PutUint32(b[57:], uint32(n)) // recordsCount
}
