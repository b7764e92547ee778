package consumer

import (
	"encoding/binary"

	"github.com/gregor-kafka/gregor/wire"
)

// decodeBatches decodes the record batch headers of a partition's records
// field in order (wire.BatchReader.NextHeader), calling fn for each
// complete batch with the reader, from which fn decodes the records it
// keeps (NextRecord), and the decoded bytes the batch adds beyond the
// records field (for a compressed batch: its decompressed size; 0
// otherwise), until fn returns false. A truncated trailing batch is
// ignored: the next Fetch starts at the position after the last complete
// one. Corrupt input fails with an error wrapping wire.ErrCorruptMessage;
// the batches before it were passed to fn.
//
// s (nil: one is made) is a reusable reader and batch. Compressed batches
// decompress into arena's spare capacity while they fit
// (wire.BatchReader.SetArena); decodeBatches returns arena extended over
// what it wrote.
func decodeBatches(raw []byte, dec *wire.Decompressor, s *batchScratch, arena []byte, fn func(b *wire.RecordBatch, br *wire.BatchReader, extra int64) bool) ([]byte, error) {
	if s == nil {
		s = &batchScratch{}
	}
	defer func() {
		clear(s.b.Records) // drop references to this response's bytes
		s.b.Records = s.b.Records[:0]
		s.br.SetArena(nil)
		s.br.Reset(nil, wire.DecodeOptions{Decompressor: dec})
	}()
	br, b := &s.br, &s.b
	br.Reset(raw, wire.DecodeOptions{Decompressor: dec})
	br.SetArena(arena)
	inflated := 0
	for br.NextHeader(b) {
		now := br.DecompressedBytes()
		extra := int64(now - inflated)
		inflated = now
		if !fn(b, br, extra) {
			return br.Arena(), nil
		}
		if br.Err() != nil {
			break
		}
	}
	return br.Arena(), br.Err()
}

// batchScratch is a reusable BatchReader and RecordBatch.
type batchScratch struct {
	br wire.BatchReader
	b  wire.RecordBatch
}

// countRecords sums the record counts in the headers of the complete magic
// v2 batches of raw (legacy message sets count as one per entry, roughly),
// to size the delivery slice once. It reads only fixed header fields.
func countRecords(raw []byte) int {
	const (
		lengthAt  = 8  // after baseOffset
		magicAt   = 16 // after baseOffset, length, partitionLeaderEpoch
		countAt   = 57 // records count field of a v2 batch header
		headerLen = 61
	)
	n := 0
	for len(raw) >= headerLen {
		length := int(binary.BigEndian.Uint32(raw[lengthAt:]))
		if length < headerLen-12 || length > len(raw)-12 {
			break
		}
		if raw[magicAt] == 2 {
			if c := int(int32(binary.BigEndian.Uint32(raw[countAt:]))); c > 0 && c <= length {
				n += c
			}
		} else {
			n++
		}
		raw = raw[12+length:]
	}
	return n
}
