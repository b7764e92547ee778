package producer

import (
	"fmt"

	"github.com/gregor-kafka/gregor/wire"
)

// Streaming compression (lz4): a partition's open batch compresses its
// records a 64 KiB chunk at a time as they are admitted, as the Java
// client's MemoryRecordsBuilder does, so its stream holds only the chunk
// being filled. Compressing a megabyte-sized stream at send time wrote and
// then re-read every record through memory long since evicted from the
// cache: at 1 KiB records that cold write was ~15% of the producer's CPU.
// A cancelled record that was already compressed brings the stream back
// (unstream: decompress, compact); that is the rare path.

// streamPool recycles the wire.StreamEncoders of streaming batches; it is
// guarded by the producer's lock.
type streamPool struct {
	comp  *wire.Compressor
	codec wire.Compression
	on    bool // the codec streams (wire.StreamSupported)
	free  []*wire.StreamEncoder
}

// maxFreeStreams bounds the encoders kept for reuse (each holds an lz4
// hash table).
const maxFreeStreams = 64

// get returns an encoder, or nil when the codec does not stream.
func (sp *streamPool) get() *wire.StreamEncoder {
	if !sp.on {
		return nil
	}
	if n := len(sp.free); n > 0 {
		s := sp.free[n-1]
		sp.free[n-1] = nil
		sp.free = sp.free[:n-1]
		return s
	}
	s, err := sp.comp.NewStreamEncoder(sp.codec)
	if err != nil {
		sp.on = false // cannot happen for a codec StreamSupported accepts
		return nil
	}
	return s
}

func (sp *streamPool) put(s *wire.StreamEncoder) {
	if len(sp.free) < maxFreeStreams {
		sp.free = append(sp.free, s)
	}
}

// streamMinRecordBytes is the average record size from which a batch
// compresses as it fills. Copying a large record into a cold megabyte
// stream stalls on memory (its cache lines come in faster than the store
// buffer drains); a small one's copy hides among the record's other work,
// while compressing in the admitting goroutine, a chunk now and then, runs
// with a colder hash table than the sender compressing a whole batch at
// once. Measured (bench/results/stream-ab, interleaved A/B runs against
// the code before streaming): 1 KiB records −15% CPU with streaming, 100 B
// records +9% (so small records do not stream); 512 B lies between.
const streamMinRecordBytes = 512

// streamWorthIt reports whether a new batch of part, opened for a record
// of size bytes, should stream: its records average streamMinRecordBytes
// or more, judged by the partition's last acknowledged batch (or by this
// record when there is none).
func streamWorthIt(part *partState, size int) bool {
	avg := size
	if part.lastRecs > 0 {
		avg = part.lastStream / part.lastRecs
	}
	return avg >= streamMinRecordBytes
}

// startStream makes the new batch b compress as it fills, with room for
// its compressed output estimated from the partition's last batch.
func (b *batch) startStream(pl *batchPools, part *partState, want int) bool {
	zs := pl.streams.get()
	if zs == nil {
		return false
	}
	b.zs = zs
	// A pooled buffer up to four times the estimate does: the estimate
	// moves with each batch's fill and compression ratio, and buffers of
	// a class next to it would otherwise go unused while new ones are made.
	room := encodedRoom(part, want)
	if part.lastEncoded == 0 {
		// No ratio yet: start at two chunks and let the output grow, rather
		// than reserve a full batch that compresses to a fraction of it.
		room = min(room, 2*wire.StreamChunk)
	}
	zs.Begin(pl.bytes.getUpTo(room, 4*room))
	return true
}

// streamLen is the length of the batch's record stream, header room
// included, whether or not part of it was compressed already.
func (b *batch) streamLen() int { return b.fed + len(b.stream) }

// feed compresses the stream's whole chunks, keeping the rest (less than a
// chunk) in front of the stream.
func (b *batch) feed() {
	n := len(b.stream) - wire.BatchHeaderLen
	if b.zs == nil || n < wire.StreamChunk {
		return
	}
	k := n / wire.StreamChunk * wire.StreamChunk
	b.zs.Write(b.stream[wire.BatchHeaderLen : wire.BatchHeaderLen+k])
	rest := copy(b.stream[wire.BatchHeaderLen:], b.stream[wire.BatchHeaderLen+k:])
	b.stream = b.stream[:wire.BatchHeaderLen+rest]
	b.fed += k
}

// finishStream compresses the rest of the stream and ends the frame: encoded
// then holds the batch (header room first), ready for wire.SealBatch. Called
// by the sender, which owns the sealed batch; releaseStream gives the
// encoder back under the lock.
func (b *batch) finishStream() {
	b.zs.Write(b.stream[wire.BatchHeaderLen:])
	b.fed += len(b.stream) - wire.BatchHeaderLen
	b.stream = b.stream[:wire.BatchHeaderLen]
	b.encoded, b.streamed = b.zs.Finish(), true
}

// releaseStream returns a finished batch's encoder and spent stream
// buffer to the pools (under the producer's lock).
func (b *batch) releaseStream(pl *batchPools) {
	if !b.streamed || b.zs == nil {
		return
	}
	pl.streams.put(b.zs)
	b.zs = nil
	b.fed += len(b.stream) // streamLen stays the batch's stream length
	pl.bytes.put(b.stream)
	b.stream = nil
}

// dropStream abandons a streaming batch's encoder (reset): its output
// buffer goes back to the pool.
func (b *batch) dropStream(pl *batchPools) {
	if b.zs == nil {
		return
	}
	if !b.streamed {
		pl.bytes.put(b.zs.Finish())
	}
	pl.streams.put(b.zs)
	b.zs = nil
}

// unstream turns a streaming batch back into a plain one, its compressed
// chunks decompressed in front of the rest of the stream (so compact can
// drop a cancelled record); the batch is then compressed whole when sent.
// Called under the producer's lock before the batch's first send.
func (b *batch) unstream(pl *batchPools, codec wire.Compression) error {
	if b.zs == nil || b.streamed {
		return nil
	}
	zs := b.zs
	b.zs = nil
	defer pl.streams.put(zs)
	out := zs.Finish()
	records := zs.Records(out)
	ns := pl.bytes.get(b.streamLen())[:wire.BatchHeaderLen]
	if b.fed > 0 {
		var err error
		if ns, err = wire.NewDecompressor(b.fed).Decompress(ns, codec, records, b.fed); err != nil {
			pl.bytes.put(out)
			return fmt.Errorf("producer: reading back streamed %s records: %w", codec, err)
		}
		if len(ns) != wire.BatchHeaderLen+b.fed {
			pl.bytes.put(out)
			return fmt.Errorf("producer: reading back streamed %s records: %d bytes, want %d", codec, len(ns)-wire.BatchHeaderLen, b.fed)
		}
	}
	ns = append(ns, b.stream[wire.BatchHeaderLen:]...)
	pl.bytes.put(b.stream)
	b.stream, b.fed, b.encoded = ns, 0, out[:0]
	return nil
}
