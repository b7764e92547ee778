package wire

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"slices"

	"github.com/pierrec/lz4/v4"
)

// Legacy message sets (magic v0 and v1, the protocol guide's "Message Sets"
// section, KIP-31/KIP-32) are read-only here: brokers return them for data
// written in the old format. Each entry is
//
//	offset int64, message_size int32,
//	crc int32 (IEEE, over magic..end), magic int8, attributes int8,
//	timestamp int64 (v1 only), key bytes (int32 length, -1 null), value bytes
//
// A compressed entry (attributes bits 0-2 non-zero) is a wrapper whose value
// is a compressed inner message set.

// decodeLegacy decodes one complete legacy entry (data holds exactly it) into
// b as a batch with Magic 0 or 1: one record for a plain message, all inner
// records for a compressed wrapper. ProducerID, ProducerEpoch, BaseSequence
// and PartitionLeaderEpoch are -1; Attributes holds the message attributes
// (compression and, for v1, timestamp type in the same bits as v2). v0
// messages carry no timestamp: their records have Timestamp -1.
func (br *BatchReader) decodeLegacy(b *RecordBatch, data []byte, magic int8) error {
	m, err := parseLegacyMessage(&br.r, data, magic)
	if err != nil {
		return err
	}
	*b = RecordBatch{
		BaseOffset:           m.offset,
		BatchLength:          int32(len(data) - logOverhead),
		PartitionLeaderEpoch: -1,
		Magic:                magic,
		CRC:                  m.crc,
		Attributes:           int16(m.attrs),
		BaseTimestamp:        m.timestamp,
		MaxTimestamp:         m.timestamp,
		ProducerID:           -1,
		ProducerEpoch:        -1,
		BaseSequence:         -1,
		Records:              b.Records[:0],
	}
	codec := Compression(m.attrs & int8(AttrCompressionMask))
	if codec == CompressionNone {
		b.NumRecords = 1
		b.Records = append(b.Records, Record{Offset: m.offset, Timestamp: m.timestamp, Key: m.key, Value: m.value})
		return nil
	}
	if magic == 0 && codec == CompressionLZ4 {
		m.value = fixLegacyLZ4Checksum(m.value)
	}
	inner, err := br.dec.Decompress(nil, codec, m.value, br.max)
	if err != nil {
		return err
	}
	br.inflated += len(inner)
	b.Records = slices.Grow(b.Records, min(len(inner)/minLegacyEntryLen, maxRecordsPresize))
	ir := &br.inner
	for rest := inner; len(rest) > 0; {
		if len(rest) < headerUpToMagic {
			return fmt.Errorf("inner message truncated (%d bytes left): %w", len(rest), ErrTruncated)
		}
		size := int32(binary.BigEndian.Uint32(rest[batchLengthOffset:]))
		im := int8(rest[batchMagicOffset])
		if im != magic {
			return fmt.Errorf("inner message magic %d in a v%d wrapper", im, magic)
		}
		if size < legacyV0Overhead || int64(size) > int64(len(rest)-logOverhead) {
			return fmt.Errorf("inner message size %d with %d bytes left: %w", size, len(rest)-logOverhead, ErrInvalidLength)
		}
		in, err := parseLegacyMessage(ir, rest[:logOverhead+int(size)], magic)
		if err != nil {
			return fmt.Errorf("inner message: %w", err)
		}
		if in.attrs&int8(AttrCompressionMask) != 0 {
			return fmt.Errorf("nested compression in an inner message")
		}
		ts := in.timestamp
		if m.attrs&int8(AttrLogAppendTime) != 0 {
			ts = m.timestamp
		}
		b.Records = append(b.Records, Record{Offset: in.offset, Timestamp: ts, Key: in.key, Value: in.value})
		rest = rest[logOverhead+int(size):]
	}
	b.NumRecords = int32(len(b.Records))
	if len(b.Records) == 0 {
		return nil
	}
	// v1 inner offsets are relative; the wrapper carries the absolute offset
	// of the last inner message (KIP-31). v0 inner offsets are absolute.
	if magic == 1 {
		base := m.offset - b.Records[len(b.Records)-1].Offset
		for i := range b.Records {
			b.Records[i].Offset += base
		}
	}
	b.BaseOffset = b.Records[0].Offset
	b.LastOffsetDelta = int32(b.Records[len(b.Records)-1].Offset - b.BaseOffset)
	b.BaseTimestamp = b.Records[0].Timestamp
	return nil
}

type legacyMessage struct {
	offset     int64
	crc        uint32
	attrs      int8
	timestamp  int64
	key, value []byte
}

// parseLegacyMessage parses one legacy entry occupying all of data, checking
// its CRC. r is scratch.
func parseLegacyMessage(r *Reader, data []byte, magic int8) (legacyMessage, error) {
	var m legacyMessage
	r.Reset(data)
	m.offset = r.Int64()
	r.Int32() // message_size, checked by the caller
	m.crc = r.Uint32()
	if got := crc32.ChecksumIEEE(data[batchMagicOffset:]); got != m.crc {
		return m, fmt.Errorf("crc32 mismatch: message %#08x, computed %#08x", m.crc, got)
	}
	r.Int8() // magic, checked by the caller
	m.attrs = r.Int8()
	m.timestamp = -1
	if magic == 1 {
		m.timestamp = r.Int64()
	}
	m.key = r.NullableBytes(false)
	m.value = r.NullableBytes(false)
	if err := r.Complete(); err != nil {
		return m, err
	}
	return m, nil
}

// fixLegacyLZ4Checksum returns an LZ4 frame from a magic v0 message with its
// frame descriptor checksum corrected. Kafka before 0.10 computed that
// checksum over the magic number too (KAFKA-3160), and the Java client still
// accepts the wrong value for magic v0; pierrec/lz4 does not. The checksum is
// one byte, so the right value is found by trying each on a copy (only for
// a header that fails as it is). Frames that are valid, or that no checksum
// value repairs, are returned unchanged.
func fixLegacyLZ4Checksum(frame []byte) []byte {
	const flgPos = 4
	if len(frame) <= flgPos+2 {
		return frame
	}
	if ok, _ := lz4.ValidFrameHeader(frame); ok {
		return frame
	}
	hc := flgPos + 2 // FLG, BD
	if flg := frame[flgPos]; flg&0x08 != 0 {
		hc += 8 // content size
	}
	if flg := frame[flgPos]; flg&0x01 != 0 {
		hc += 4 // dictionary id
	}
	if hc >= len(frame) {
		return frame
	}
	fixed := append([]byte(nil), frame...)
	for v := 0; v < 256; v++ {
		fixed[hc] = byte(v)
		if ok, _ := lz4.ValidFrameHeader(fixed[:hc+1]); ok {
			return fixed
		}
	}
	return frame
}
