package wire

import (
	"encoding/binary"
	"hash/crc32"
)

// rawBatch builds a magic v2 batch byte by byte, independently of
// BatchEncoder, so tests can state exact record bytes and odd headers.
type rawBatch struct {
	baseOffset      int64
	leaderEpoch     int32
	attrs           int16
	lastOffsetDelta int32
	baseTimestamp   int64
	maxTimestamp    int64
	producerID      int64
	producerEpoch   int16
	baseSequence    int32
	numRecords      int32
	payload         []byte // records bytes as they go on the wire (compressed or not)
	badCRC          bool
}

func (rb rawBatch) bytes() []byte {
	b := binary.BigEndian.AppendUint64(nil, uint64(rb.baseOffset))
	b = binary.BigEndian.AppendUint32(b, uint32(49+len(rb.payload)))
	b = binary.BigEndian.AppendUint32(b, uint32(rb.leaderEpoch))
	b = append(b, 2)
	b = binary.BigEndian.AppendUint32(b, 0)
	b = binary.BigEndian.AppendUint16(b, uint16(rb.attrs))
	b = binary.BigEndian.AppendUint32(b, uint32(rb.lastOffsetDelta))
	b = binary.BigEndian.AppendUint64(b, uint64(rb.baseTimestamp))
	b = binary.BigEndian.AppendUint64(b, uint64(rb.maxTimestamp))
	b = binary.BigEndian.AppendUint64(b, uint64(rb.producerID))
	b = binary.BigEndian.AppendUint16(b, uint16(rb.producerEpoch))
	b = binary.BigEndian.AppendUint32(b, uint32(rb.baseSequence))
	b = binary.BigEndian.AppendUint32(b, uint32(rb.numRecords))
	b = append(b, rb.payload...)
	crc := crc32.Checksum(b[21:], crc32.MakeTable(crc32.Castagnoli))
	if rb.badCRC {
		crc ^= 1
	}
	binary.BigEndian.PutUint32(b[17:], crc)
	return b
}

// legacyMsg builds one legacy v0/v1 message set entry.
func legacyMsg(offset int64, magic, attrs int8, ts int64, key, value []byte) []byte {
	body := []byte{byte(magic), byte(attrs)}
	if magic == 1 {
		body = binary.BigEndian.AppendUint64(body, uint64(ts))
	}
	for _, f := range [][]byte{key, value} {
		if f == nil {
			body = binary.BigEndian.AppendUint32(body, 0xffffffff)
		} else {
			body = binary.BigEndian.AppendUint32(body, uint32(len(f)))
			body = append(body, f...)
		}
	}
	b := binary.BigEndian.AppendUint64(nil, uint64(offset))
	b = binary.BigEndian.AppendUint32(b, uint32(4+len(body)))
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(body))
	return append(b, body...)
}

// cat concatenates byte slices.
func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// readAll decodes every batch of records, copying each batch's Records.
func readAll(records []byte, opts DecodeOptions) ([]RecordBatch, *BatchReader) {
	br := NewBatchReader(records, opts)
	var out []RecordBatch
	var b RecordBatch
	for br.Next(&b) {
		c := b
		c.Records = append([]Record(nil), b.Records...)
		out = append(out, c)
	}
	return out, br
}
