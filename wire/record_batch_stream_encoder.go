package wire

import (
	"encoding/binary"
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
// Only lz4 streams (StreamSupported): its state is a hash table, so a
// producer can keep one per open batch; gzip and zstd
// encoders keep windows of up to a megabyte each, and a snappy batch is one
// raw block, so those compress the whole batch when it is sent.
//
// Use: Begin(dst), Write the records (in whole StreamChunks but the last),
// then Finish; SealBatch re-stamps a finished batch. Once its output buffer
// has room, a StreamEncoder allocates nothing. It is not safe for
// concurrent use; Begin makes a used one ready again.
type StreamEncoder struct {
	codec Compression
	fast  lz4.Compressor    // level 0 (fast)
	hc    *lz4.CompressorHC // levels 1..9
	frame [lz4FrameHeaderLen]byte
	out   []byte
	start int // where the batch begins in out
	fed   int // record bytes written since Begin
}

// lz4FrameHeaderLen is the size of the lz4 frame header Kafka's frames
// carry: magic, FLG, BD and the header checksum (no content size).
const lz4FrameHeaderLen = 7

// lz4BlockUncompressed flags a block stored as is (LZ4 frame format).
const lz4BlockUncompressed = 1 << 31

// StreamSupported reports whether codec can be compressed incrementally by
// a StreamEncoder (only CompressionLZ4).
func StreamSupported(codec Compression) bool { return codec == CompressionLZ4 }

// NewStreamEncoder returns a StreamEncoder for codec at c's level (nil c:
// default levels). It fails for a codec StreamSupported rejects.
//
// The encoder writes the lz4 frame itself around pierrec/lz4's block
// compressor, as the Java client's KafkaLZ4BlockOutputStream does around
// lz4-java's: the frame header is taken from what the library's own frame
// writer produces for Kafka's settings, and each block is compressed
// straight from the caller's bytes into the output, with no buffer pool in
// between (the library's writer takes its block buffers from sync.Pools,
// which garbage collections empty).
func (c *Compressor) NewStreamEncoder(codec Compression) (*StreamEncoder, error) {
	if !StreamSupported(codec) {
		return nil, fmt.Errorf("%w: codec %s does not stream", ErrUnsupportedCompressionType, codec)
	}
	if c == nil {
		c = &Compressor{}
	}
	var out appendWriter
	w, err := c.newLZ4Writer(&out)
	if err == nil {
		_, err = w.Write([]byte{0})
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil || len(out.b) < lz4FrameHeaderLen {
		return nil, fmt.Errorf("wire: lz4 frame header: %v", err)
	}
	s := &StreamEncoder{codec: codec}
	copy(s.frame[:], out.b)
	if c.levels.LZ4 > 0 {
		s.hc = &lz4.CompressorHC{Level: lz4.CompressionLevel(1 << (8 + c.levels.LZ4))}
	}
	return s, nil
}

// Begin starts a batch at the end of dst: BatchHeaderLen bytes are reserved
// for SealBatch and compressed records follow as they are written.
// Anything written since the last Begin is discarded.
func (s *StreamEncoder) Begin(dst []byte) {
	s.start = len(dst)
	s.out = append(dst, make([]byte, batchHeaderLen)...)
	s.out = append(s.out, s.frame[:]...)
	s.fed = 0
}

// Write compresses p, the next encoded records (AppendRecord) of the batch,
// in blocks of StreamChunk bytes. Every call but the last should carry a
// multiple of StreamChunk bytes: a shorter piece ends a block early (still
// a valid frame, but not the blocks of a one-shot compression). It cannot
// fail: a block that does not compress is stored.
func (s *StreamEncoder) Write(p []byte) {
	for len(p) > 0 {
		n := min(len(p), StreamChunk)
		s.block(p[:n])
		p = p[n:]
		s.fed += n
	}
}

// block appends src as one frame block: compressed when that is shorter,
// else stored (as the library's frame writer decides).
func (s *StreamEncoder) block(src []byte) {
	at := len(s.out)
	s.out = growLen(s.out, 4+len(src))
	dst := s.out[at+4:]
	var n int
	if s.hc != nil {
		n, _ = s.hc.CompressBlock(src, dst)
	} else {
		n, _ = s.fast.CompressBlock(src, dst)
	}
	size := uint32(n)
	if n == 0 { // did not fit in len(src) bytes: incompressible
		n = copy(dst, src)
		size = uint32(n) | lz4BlockUncompressed
	}
	binary.LittleEndian.PutUint32(s.out[at:], size)
	s.out = s.out[:at+4+n]
}

// Fed is the number of record bytes written since Begin.
func (s *StreamEncoder) Fed() int { return s.fed }

// Finish ends the compressed stream and returns dst (as given to Begin)
// extended by the batch: BatchHeaderLen bytes of header room, then the
// compressed records. Seal it with SealBatch before sending. The encoder
// lets go of the buffer: Begin starts the next batch.
func (s *StreamEncoder) Finish() []byte {
	out := append(s.out, 0, 0, 0, 0) // end mark
	s.out = nil
	return out
}

// Records returns the start of the compressed records in a buffer Finish
// returned (where the batch's header room ends).
func (s *StreamEncoder) Records(finished []byte) []byte {
	return finished[s.start+batchHeaderLen:]
}
