package wire

import (
	"fmt"

	"github.com/pierrec/lz4/v4"
)

// StreamChunk is how many record bytes a StreamEncoder compresses at a
// time: one 64 KiB lz4 block (the block size of Kafka's lz4 frames). A
// producer that hands over whole chunks while they are still in its cache
// keeps only the chunk being filled uncompressed.
const StreamChunk = 64 << 10

// StreamEncoder compresses one record batch's records while a producer is
// still appending them, as the Java client's MemoryRecordsBuilder does, so
// that each record is compressed from the cache right after it was encoded
// instead of from a megabyte-sized buffer long since evicted. Its output is
// byte for byte what BatchEncoder.FinishBatch writes for the same records
// (the records are cut into the same blocks).
//
// Only lz4 streams (StreamSupported): its state is a 64 KiB block and a
// hash table, so a producer can keep one per open batch; gzip and zstd
// encoders keep windows of up to a megabyte each, and a snappy batch is one
// raw block, so those compress the whole batch when it is sent.
//
// Use: Begin(dst), Write the records (in whole StreamChunks but the last),
// then Finish; SealBatch re-stamps a finished batch. A StreamEncoder is not
// safe for concurrent use; Begin makes a used one ready again.
type StreamEncoder struct {
	codec Compression
	out   appendWriter
	w     *lz4.Writer
	start int // where the batch begins in out.b
	fed   int // record bytes written since Begin
}

// StreamSupported reports whether codec can be compressed incrementally by
// a StreamEncoder (only CompressionLZ4).
func StreamSupported(codec Compression) bool { return codec == CompressionLZ4 }

// NewStreamEncoder returns a StreamEncoder for codec at c's level (nil c:
// default levels). It fails for a codec StreamSupported rejects.
func (c *Compressor) NewStreamEncoder(codec Compression) (*StreamEncoder, error) {
	if !StreamSupported(codec) {
		return nil, fmt.Errorf("%w: codec %s does not stream", ErrUnsupportedCompressionType, codec)
	}
	if c == nil {
		c = &Compressor{}
	}
	w, err := c.newLZ4Writer(nil)
	if err != nil {
		return nil, err
	}
	return &StreamEncoder{codec: codec, w: w}, nil
}

// Begin starts a batch at the end of dst: BatchHeaderLen bytes are reserved
// for SealBatch and compressed records follow as they are written.
// Anything written since the last Begin is discarded.
func (s *StreamEncoder) Begin(dst []byte) {
	s.start = len(dst)
	s.out.b = append(dst, make([]byte, batchHeaderLen)...)
	s.w.Reset(&s.out)
	s.fed = 0
}

// Write compresses p, the next encoded records (AppendRecord) of the batch.
// Every call but the last should carry a multiple of StreamChunk bytes:
// then nothing is copied or held back, and the blocks are those of a
// one-shot compression.
func (s *StreamEncoder) Write(p []byte) error {
	if _, err := s.w.Write(p); err != nil {
		return fmt.Errorf("wire: %s: %w", s.codec, err)
	}
	s.fed += len(p)
	return nil
}

// Fed is the number of record bytes written since Begin.
func (s *StreamEncoder) Fed() int { return s.fed }

// Finish ends the compressed stream and returns dst (as given to Begin)
// extended by the batch: BatchHeaderLen bytes of header room, then the
// compressed records. Seal it with SealBatch before sending. The encoder
// lets go of the buffer: Begin starts the next batch.
func (s *StreamEncoder) Finish() ([]byte, error) {
	err := s.w.Close()
	out := s.out.b
	s.out.b = nil
	if err != nil {
		return out, fmt.Errorf("wire: %s: %w", s.codec, err)
	}
	return out, nil
}

// Records returns the start of the compressed records in a buffer Finish
// returned (where the batch's header room ends).
func (s *StreamEncoder) Records(finished []byte) []byte {
	return finished[s.start+batchHeaderLen:]
}
