package wire

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"slices"
)

// DecodeOptions configures a BatchReader.
type DecodeOptions struct {
	// MaxDecompressedBytes bounds the decompressed size of one batch (or
	// legacy wrapper message). Default 0 = DefaultMaxDecompressedBytes
	// (64 MiB). Exceeding it fails with ErrDecompressedTooLarge.
	MaxDecompressedBytes int
	// Decompressor supplies pooled codecs. Default nil = a new Decompressor
	// per BatchReader, which is correct but makes each reader build its own
	// codecs; a consumer should share one. Its own limit also applies.
	Decompressor *Decompressor
}

// Minimum encoded sizes used to bound counts before allocating.
const (
	minRecordV2Len    = 7  // length, attributes, tsDelta, offsetDelta, key, value, header count
	minHeaderV2Len    = 2  // key length, value length
	minLegacyEntryLen = 26 // offset, size, crc, magic, attributes, key, value (v0)
	legacyV0Overhead  = 14 // crc, magic, attributes, key length, value length
	legacyV1Overhead  = 22 // v0 + timestamp
	headerUpToMagic   = 17 // baseOffset, length, partitionLeaderEpoch/crc, magic
	minBatchV2Length  = batchHeaderLen - logOverhead
	maxRecordsPresize = 4096 // records slots reserved before decoding proves them
)

// BatchReader iterates the record batches of one partition's records bytes
// (a FetchResponse partition's Records field), magic v2 batches and legacy
// v0/v1 message sets alike. A truncated trailing batch, which brokers send
// when a batch does not fit the fetch's byte limit, ends the iteration
// without error and sets Truncated. Corrupt input ends it with an error
// (Err) wrapping ErrCorruptMessage, ErrDecompressedTooLarge or
// ErrUnsupportedCompressionType; the batches returned before stay valid.
//
// Legacy v0/v1 entries come back in the same RecordBatch shape with Magic 0
// or 1: one batch per plain message (one record) or per compressed wrapper
// (its inner records, with absolute offsets); producer fields are -1 and v0
// records have Timestamp -1.
//
// Usage:
//
//	br := wire.NewBatchReader(records, opts)
//	var b wire.RecordBatch
//	for br.Next(&b) {
//		for _, r := range b.Records { ... skip r.Offset < fetchOffset ... }
//		next = b.NextOffset()
//	}
//	if err := br.Err(); err != nil { ... }
//
// A BatchReader is not safe for concurrent use.
type BatchReader struct {
	buf       []byte
	off       int
	max       int
	dec       *Decompressor
	err       error
	truncated bool
	r         Reader
	inner     Reader
	hdrGuess  int
	inflated  int
	keys      map[string]string // interned header keys, at most maxInternedKeys
	arena     []byte            // SetArena: decompressed batches go to its spare capacity

	// The batch NextHeader returned whose records NextRecord decodes.
	lazy     bool         // a v2 batch's records are read from r by NextRecord
	left     int32        // records NextRecord has still to decode
	recIdx   int32        // index of the next record
	slab     []Header     // headers of the batch's records
	nHeaders int          // headers decoded in the batch
	hdr      *RecordBatch // the batch NextRecord reads (nil: none)
}

// Header keys repeat across records (trace ids, content types); interning
// short ones saves one allocation per header.
const (
	maxInternedKeys   = 256
	maxInternedKeyLen = 64
)

// headerKey returns b as a string, reusing an earlier identical string.
func (br *BatchReader) headerKey(b []byte) string {
	if len(b) > maxInternedKeyLen {
		return string(b)
	}
	if s, ok := br.keys[string(b)]; ok {
		return s
	}
	s := string(b)
	if br.keys == nil {
		br.keys = make(map[string]string)
	}
	if len(br.keys) < maxInternedKeys {
		br.keys[s] = s
	}
	return s
}

// NewBatchReader returns a BatchReader over records. It does not copy
// records: decoded keys, values and header values of uncompressed batches
// alias it.
func NewBatchReader(records []byte, opts DecodeOptions) *BatchReader {
	br := &BatchReader{}
	br.init(records, opts)
	return br
}

func (br *BatchReader) init(records []byte, opts DecodeOptions) {
	dec := opts.Decompressor
	max := opts.MaxDecompressedBytes
	if max <= 0 {
		max = DefaultMaxDecompressedBytes
	}
	if dec == nil {
		if br.dec != nil && br.dec.max == max {
			dec = br.dec
		} else {
			dec = NewDecompressor(max)
		}
	}
	*br = BatchReader{buf: records, max: max, dec: dec, hdrGuess: br.hdrGuess, keys: br.keys, arena: br.arena}
}

// SetArena makes br decompress the batches it decodes into the spare
// capacity of buf (buf[len(buf):cap(buf)]), one after the other, while
// they fit; a batch that does not fit gets a buffer of its own, as without
// an arena. Decoded keys, values and header values of compressed batches
// then alias buf's backing array, so the caller must not reuse it while
// they are in use. Arena returns buf extended over what was written. The
// arena survives Reset; SetArena(nil) drops it.
func (br *BatchReader) SetArena(buf []byte) { br.arena = buf }

// Arena returns the arena set by SetArena, its length extended over the
// decompressed bytes written into it since.
func (br *BatchReader) Arena() []byte { return br.arena }

// decompress decompresses one batch payload, into the arena when it fits.
func (br *BatchReader) decompress(c Compression, payload []byte) ([]byte, error) {
	spare := br.arena[len(br.arena):cap(br.arena)]
	out, err := br.dec.Decompress(spare[:0], c, payload, br.max)
	if err == nil && len(out) > 0 && len(spare) > 0 && &out[0] == &spare[0] {
		br.arena = br.arena[:len(br.arena)+len(out)]
		out = out[:len(out):len(out)] // an append by the caller must not reach the next batch
	}
	return out, err
}

// Reset points br at new records bytes with new options, keeping its
// Decompressor when opts names none and the limit is unchanged.
func (br *BatchReader) Reset(records []byte, opts DecodeOptions) { br.init(records, opts) }

// Err returns the error that ended the iteration, or nil.
func (br *BatchReader) Err() error { return br.err }

// Truncated reports whether the iteration ended at an incomplete trailing
// batch (not an error: the caller fetches again from the last NextOffset).
func (br *BatchReader) Truncated() bool { return br.truncated }

// DecompressedBytes returns how many bytes decompression has produced so far
// (0 for uncompressed input), for callers that account buffered memory.
func (br *BatchReader) DecompressedBytes() int { return br.inflated }

// Remaining returns how many bytes have not been consumed as whole batches.
func (br *BatchReader) Remaining() int { return len(br.buf) - br.off }

// Next decodes the next batch into b and reports whether there was one. It
// overwrites every field of b and reuses the capacity of b.Records (so the
// previous batch's Records slice is clobbered). Keys, values and header
// values alias the input bytes, or for compressed batches a buffer allocated
// for that batch, so they stay valid after later Next calls. A batch with no
// records (compaction can leave them) is returned with its header so the
// caller advances to b.NextOffset(). Decoded records have absolute Offset and
// Timestamp (for LogAppendTime batches, every record's Timestamp is
// MaxTimestamp). Control batches (b.IsControl) are returned too; see
// ParseControlRecordKey.
func (br *BatchReader) Next(b *RecordBatch) bool {
	return br.next(b, false)
}

// NextHeader is Next without decoding the records: it decodes the next
// batch's header into b, checks its CRC and decompresses it, and leaves
// its records to NextRecord, which decodes them one at a time straight
// into the caller's memory (no RecordBatch.Records slice in between).
// b.Records is left empty for a magic v2 batch. A legacy v0/v1 batch is
// decoded whole (b.Records holds its records, which NextRecord also
// returns). Records of a batch NextRecord did not reach are not checked.
func (br *BatchReader) NextHeader(b *RecordBatch) bool {
	return br.next(b, true)
}

// NextRecord decodes the next record of the batch the last NextHeader
// returned. It reports false after the batch's last record, or on corrupt
// input (Err is then set and iteration ends; the batch's records returned
// before are not to be delivered). Keys, values and header values alias the
// input or decompressed bytes, as with Next.
func (br *BatchReader) NextRecord() (Record, bool) {
	var rec Record
	ok := br.NextRecordInto(&rec.Offset, &rec.Timestamp, &rec.Key, &rec.Value, &rec.Headers)
	return rec, ok
}

// NextRecordInto is NextRecord writing the record's fields straight into
// the caller's memory (a consumer's own record type), without a Record in
// between. The fields are written even when it reports false.
func (br *BatchReader) NextRecordInto(offset, timestamp *int64, key, value *[]byte, headers *[]Header) bool {
	if br.err != nil || br.hdr == nil {
		return false
	}
	b := br.hdr
	if !br.lazy {
		if int(br.recIdx) >= len(b.Records) {
			return false
		}
		r := &b.Records[br.recIdx]
		br.recIdx++
		*offset, *timestamp, *key, *value, *headers = r.Offset, r.Timestamp, r.Key, r.Value, r.Headers
		return true
	}
	if br.left == 0 {
		br.lazy, br.hdr = false, nil
		if br.r.Remaining() != 0 {
			br.failAt(b, fmt.Errorf("%d bytes after the last of %d records: %w", br.r.Remaining(), b.NumRecords, ErrInvalidLength))
			return false
		}
		br.hdrGuess = min(br.nHeaders, 4096)
		return false
	}
	if err := br.decodeRecordV2(b, br.recIdx, offset, timestamp, key, value, headers); err != nil {
		br.lazy, br.hdr = false, nil
		br.failAt(b, err)
		return false
	}
	br.left--
	br.recIdx++
	return true
}

// failAt ends the iteration with an error in batch b (already consumed).
func (br *BatchReader) failAt(b *RecordBatch, err error) {
	br.err = fmt.Errorf("%w: batch at offset %d (byte %d of %d): %w", ErrCorruptMessage, b.BaseOffset, br.off-logOverhead-int(b.BatchLength), len(br.buf), err)
}

func (br *BatchReader) next(b *RecordBatch, lazy bool) bool {
	br.lazy, br.hdr = false, nil
	if br.err != nil || br.truncated {
		return false
	}
	rem := br.buf[br.off:]
	if len(rem) == 0 {
		return false
	}
	if len(rem) < headerUpToMagic {
		br.truncated = true
		return false
	}
	baseOffset := int64(binary.BigEndian.Uint64(rem))
	length := int32(binary.BigEndian.Uint32(rem[batchLengthOffset:]))
	magic := int8(rem[batchMagicOffset])
	var minLen int32
	switch magic {
	case 0:
		minLen = legacyV0Overhead
	case 1:
		minLen = legacyV1Overhead
	case 2:
		minLen = minBatchV2Length
	default:
		br.fail(baseOffset, fmt.Errorf("unknown magic %d", magic))
		return false
	}
	if length < minLen {
		br.fail(baseOffset, fmt.Errorf("batch length %d below the magic v%d minimum %d: %w", length, magic, minLen, ErrInvalidLength))
		return false
	}
	if int64(length) > int64(len(rem)-logOverhead) {
		br.truncated = true
		return false
	}
	data := rem[:logOverhead+int(length)]
	var err error
	switch {
	case magic == 2 && lazy:
		err = br.decodeV2Header(b, data)
	case magic == 2:
		err = br.decodeV2(b, data)
	default:
		err = br.decodeLegacy(b, data, magic)
	}
	if err != nil {
		br.fail(baseOffset, err)
		return false
	}
	br.off += len(data)
	if lazy {
		br.hdr, br.recIdx = b, 0
		br.lazy = magic == 2
	}
	return true
}

func (br *BatchReader) fail(baseOffset int64, err error) {
	br.err = fmt.Errorf("%w: batch at offset %d (byte %d of %d): %w", ErrCorruptMessage, baseOffset, br.off, len(br.buf), err)
}

// decodeV2 decodes one complete magic v2 batch (data holds exactly it).
func (br *BatchReader) decodeV2(b *RecordBatch, data []byte) error {
	if err := br.decodeV2Header(b, data); err != nil {
		return err
	}
	// Pre-size modestly: a hostile count that the bytes could still hold
	// would otherwise allocate ~12x the payload before a record fails.
	b.Records = slices.Grow(b.Records, min(int(b.NumRecords), maxRecordsPresize))
	for i := int32(0); i < b.NumRecords; i++ {
		b.Records = append(b.Records, Record{})
		rec := &b.Records[len(b.Records)-1]
		if err := br.decodeRecordV2(b, i, &rec.Offset, &rec.Timestamp, &rec.Key, &rec.Value, &rec.Headers); err != nil {
			b.Records = b.Records[:len(b.Records)-1]
			return err
		}
	}
	if r := &br.r; r.Remaining() != 0 {
		return fmt.Errorf("%d bytes after the last of %d records: %w", r.Remaining(), b.NumRecords, ErrInvalidLength)
	}
	br.hdrGuess = min(br.nHeaders, 4096)
	return nil
}

// decodeV2Header decodes and checks a magic v2 batch's header, decompresses
// its records and points br.r at them (b.NumRecords of them, read by
// decodeRecordV2).
func (br *BatchReader) decodeV2Header(b *RecordBatch, data []byte) error {
	r := &br.r
	r.Reset(data)
	b.BaseOffset = r.Int64()
	b.BatchLength = r.Int32()
	b.PartitionLeaderEpoch = r.Int32()
	b.Magic = r.Int8()
	b.CRC = r.Uint32()
	b.Attributes = r.Int16()
	b.LastOffsetDelta = r.Int32()
	b.BaseTimestamp = r.Int64()
	b.MaxTimestamp = r.Int64()
	b.ProducerID = r.Int64()
	b.ProducerEpoch = r.Int16()
	b.BaseSequence = r.Int32()
	b.NumRecords = r.Int32()
	b.Records = b.Records[:0]
	if err := r.Err(); err != nil {
		return err
	}
	if got := crc32.Checksum(data[batchAttributesOffset:], castagnoli); got != b.CRC {
		return fmt.Errorf("crc32c mismatch: header %#08x, computed %#08x", b.CRC, got)
	}
	if b.NumRecords < 0 {
		return fmt.Errorf("negative record count %d: %w", b.NumRecords, ErrInvalidLength)
	}
	if b.LastOffsetDelta < 0 {
		return fmt.Errorf("negative lastOffsetDelta %d: %w", b.LastOffsetDelta, ErrInvalidLength)
	}
	payload := data[batchHeaderLen:]
	if c := b.Compression(); c != CompressionNone && b.NumRecords > 0 {
		out, err := br.decompress(c, payload)
		if err != nil {
			return err
		}
		br.inflated += len(out)
		payload = out
	}
	if int(b.NumRecords) > len(payload)/minRecordV2Len {
		return fmt.Errorf("record count %d exceeds what %d bytes can hold: %w", b.NumRecords, len(payload), ErrInvalidLength)
	}
	r.Reset(payload)
	br.slab = nil
	if br.hdrGuess > 0 {
		br.slab = make([]Header, 0, br.hdrGuess)
	}
	br.nHeaders = 0
	br.left = b.NumRecords
	return nil
}

// decodeRecordV2 decodes record i of the batch b from br.r into the given
// fields.
func (br *BatchReader) decodeRecordV2(b *RecordBatch, i int32, offset, timestamp *int64, key, value *[]byte, headers *[]Header) error {
	if br.recordV2Short(b, offset, timestamp, key, value, headers) {
		return nil
	}
	return br.recordV2General(b, i, offset, timestamp, key, value, headers)
}

// recordV2General is decodeRecordV2 for any record, checking each field.
func (br *BatchReader) recordV2General(b *RecordBatch, i int32, offset, timestamp *int64, key, value *[]byte, headers *[]Header) error {
	r := &br.r
	size := r.Varint()
	if r.Err() == nil && (size < minRecordV2Len-1 || int(size) > r.Remaining()) {
		return fmt.Errorf("record %d: length %d with %d bytes left: %w", i, size, r.Remaining(), ErrInvalidLength)
	}
	end := r.Offset() + int(size)
	r.Int8() // record attributes, unused
	tsDelta := r.Varlong()
	offDelta := r.Varint()
	*offset = b.BaseOffset + int64(offDelta)
	if b.Attributes&AttrLogAppendTime != 0 {
		*timestamp = b.MaxTimestamp
	} else {
		*timestamp = b.BaseTimestamp + tsDelta
	}
	*key = readVarBytes(r)
	*value = readVarBytes(r)
	hc := r.Varint()
	if r.Err() == nil && (hc < 0 || int(hc) > r.Remaining()/minHeaderV2Len) {
		return fmt.Errorf("record %d: header count %d with %d bytes left: %w", i, hc, r.Remaining(), ErrInvalidLength)
	}
	*headers = nil
	if hc > 0 {
		slab := br.slab
		first := len(slab)
		for j := int32(0); j < hc && r.Err() == nil; j++ {
			kl := r.Varint()
			if kl < 0 && r.Err() == nil {
				return fmt.Errorf("record %d: header %d: null or negative key length %d: %w", i, j, kl, ErrInvalidLength)
			}
			k := r.Raw(int(kl))
			slab = append(slab, Header{Key: br.headerKey(k), Value: readVarBytes(r)})
		}
		*headers = slab[first:len(slab):len(slab)]
		br.slab = slab
		br.nHeaders += int(hc)
	}
	if err := r.Err(); err != nil {
		return fmt.Errorf("record %d: %w", i, err)
	}
	if r.Offset() != end {
		return fmt.Errorf("record %d: length %d but fields take %d bytes: %w", i, size, int(size)+r.Offset()-end, ErrInvalidLength)
	}
	return nil
}

// recordV2Short decodes the next record when it has the common shape: its
// length, deltas, key and value lengths and header count each a varint of
// one or two bytes (values under 8 KiB), and no headers. It reads them from
// the record's own bytes with one bounds check each and no call (the
// Reader's methods are not inlined; a third of record decoding was in them,
// issue 33). Any other record, or one that does not hold together, leaves
// the reader untouched and reports false: decodeRecordV2's general path
// decodes it, or says what is wrong with it.
func (br *BatchReader) recordV2Short(b *RecordBatch, offset, timestamp *int64, key, value *[]byte, headers *[]Header) bool {
	r := &br.r
	if r.err != nil {
		return false
	}
	buf := r.buf[r.off:]
	size, p := zigzag2(buf, 0)
	if p == 0 || size < minRecordV2Len-1 || size > int64(len(buf)-p) {
		return false
	}
	end := p + int(size)
	rec := buf[:end]
	p++ // attributes, unused
	tsDelta, n := zigzag2(rec, p)
	p += n
	offDelta, m := zigzag2(rec, p)
	p += m
	kl, k := zigzag2(rec, p)
	p += k
	if n == 0 || m == 0 || k == 0 || kl < -1 || kl > int64(end-p) {
		return false
	}
	keyAt := p
	if kl > 0 {
		p += int(kl)
	}
	vl, v := zigzag2(rec, p)
	p += v
	if v == 0 || vl < -1 || vl > int64(end-p) {
		return false
	}
	valueAt := p
	if vl > 0 {
		p += int(vl)
	}
	if p >= end || rec[p] != 0 || p+1 != end { // header count 0, then the record's end
		return false
	}
	*offset = b.BaseOffset + offDelta
	if b.Attributes&AttrLogAppendTime != 0 {
		*timestamp = b.MaxTimestamp
	} else {
		*timestamp = b.BaseTimestamp + tsDelta
	}
	*key, *value, *headers = varBytesAt(rec, keyAt, kl), varBytesAt(rec, valueAt, vl), nil
	r.off += end
	return true
}

// zigzag2 reads the zigzag varint at buf[p] when it takes one or two
// bytes, returning it and its length; 0 when it is longer or cut short.
func zigzag2(buf []byte, p int) (int64, int) {
	if p < len(buf) && buf[p] < 0x80 {
		u := uint64(buf[p])
		return int64(u>>1) ^ -int64(u&1), 1
	}
	if p+1 < len(buf) && buf[p+1] < 0x80 {
		u := uint64(buf[p]&0x7f) | uint64(buf[p+1])<<7
		return int64(u>>1) ^ -int64(u&1), 2
	}
	return 0, 0
}

// varBytesAt is the byte field of length n (-1: null) at rec[at], as
// readVarBytes returns it: nil when null, capped at its length.
func varBytesAt(rec []byte, at int, n int64) []byte {
	if n < 0 {
		return nil
	}
	return rec[at : at+int(n) : at+int(n)]
}

// readVarBytes reads a varint-length byte field of the v2 record format: -1
// is null (nil), 0 is empty (non-nil), other negative lengths fail.
func readVarBytes(r *Reader) []byte {
	n := r.Varint()
	if n == -1 {
		return nil
	}
	if n < -1 {
		r.Fail(fmt.Errorf("%w: varint length %d", ErrInvalidLength, n))
		return nil
	}
	return r.Raw(int(n))
}
