package wire

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestStreamEncoderMatchesFinishBatch: records compressed chunk by chunk
// while they are appended (StreamEncoder, then SealBatch) give the same
// bytes as FinishBatch over the whole stream, for streams shorter than a
// chunk, exactly one, several plus a tail; a re-stamped batch (new ID,
// epoch, sequence) equals FinishBatch with that header and decodes.
func TestStreamEncoderMatchesFinishBatch(t *testing.T) {
	for _, level := range []int{0, 3} {
		for _, random := range []bool{false, true} {
			comp, err := NewCompressor(CompressionLevels{LZ4: level})
			if err != nil {
				t.Fatal(err)
			}
			enc, err := comp.NewStreamEncoder(CompressionLZ4)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, uint64(level)))
			for _, size := range []int{1, 700, StreamChunk - 10, StreamChunk, StreamChunk + 1, 3*StreamChunk + 999, 16 * StreamChunk} {
				t.Run(fmt.Sprintf("level=%d/random=%v/%d", level, random, size), func(t *testing.T) {
					testStreamEncoder(t, comp, enc, size, func(n int32) []byte {
						v := bytes.Repeat([]byte{byte('a' + n%26)}, int(n%300)+1)
						if random { // incompressible: blocks are stored
							for i := range v {
								v[i] = byte(rng.Uint32())
							}
						}
						return v
					})
				})
			}
		}
	}
}

func testStreamEncoder(t *testing.T, comp *Compressor, enc *StreamEncoder, size int, value func(int32) []byte) {
	h := BatchHeader{Compression: CompressionLZ4, ProducerID: 9, ProducerEpoch: 1, BaseSequence: 5, BaseTimestamp: 1000}
	stream := make([]byte, BatchHeaderLen)
	n := int32(0)
	var values [][]byte
	for len(stream)-BatchHeaderLen < size {
		values = append(values, value(n))
		stream = AppendRecord(stream, n, int64(n), []byte(fmt.Sprint("k", n)), values[n], nil)
		n++
	}
	want, err := NewBatchEncoder(comp).FinishBatch(nil, stream, &h, n, 1000+int64(n-1))
	if err != nil {
		t.Fatal(err)
	}

	enc.Begin([]byte("prefix"))
	recs := stream[BatchHeaderLen:]
	for len(recs) >= StreamChunk {
		k := len(recs) / StreamChunk * StreamChunk
		if k > StreamChunk && n%2 == 0 {
			k = StreamChunk // one chunk at a time, or several at once
		}
		enc.Write(recs[:k])
		recs = recs[k:]
	}
	enc.Write(recs)
	if enc.Fed() != len(stream)-BatchHeaderLen {
		t.Fatalf("Fed %d, want %d", enc.Fed(), len(stream)-BatchHeaderLen)
	}
	got := enc.Finish()
	if string(got[:6]) != "prefix" {
		t.Fatal("dst prefix lost")
	}
	batch := got[6:]
	if !bytes.Equal(enc.Records(got), batch[BatchHeaderLen:]) {
		t.Fatal("Records does not start after the header room")
	}
	if err := SealBatch(batch, &h, n, 1000+int64(n-1)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(batch, want) {
		t.Fatalf("streamed batch (%d bytes) differs from FinishBatch (%d bytes)", len(batch), len(want))
	}

	h2 := h
	h2.ProducerID, h2.ProducerEpoch, h2.BaseSequence = 10, 0, 0
	want2, _ := NewBatchEncoder(comp).FinishBatch(nil, stream, &h2, n, 1000+int64(n-1))
	if err := SealBatch(batch, &h2, n, 1000+int64(n-1)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(batch, want2) {
		t.Fatal("re-stamped batch differs from FinishBatch with the new header")
	}
	bs, br := readAll(batch, DecodeOptions{})
	if br.Err() != nil || len(bs) != 1 || len(bs[0].Records) != int(n) || bs[0].ProducerID != 10 {
		t.Fatalf("decode: %v, %d batches", br.Err(), len(bs))
	}
	for i, r := range bs[0].Records {
		if !bytes.Equal(r.Value, values[i]) || string(r.Key) != fmt.Sprint("k", i) {
			t.Fatalf("record %d decodes to other bytes", i)
		}
	}
}

// TestStreamEncoderAllocatesNothing: once its output buffer has room, a
// batch streamed through a StreamEncoder allocates nothing (the frame is
// written around the block compressor, with no pooled buffers).
func TestStreamEncoderAllocatesNothing(t *testing.T) {
	enc, err := (&Compressor{}).NewStreamEncoder(CompressionLZ4)
	if err != nil {
		t.Fatal(err)
	}
	recs := bytes.Repeat([]byte("0123456789abcdef"), 4*StreamChunk/16+100)
	buf := make([]byte, 0, 1<<20)
	allocs := testing.AllocsPerRun(50, func() {
		enc.Begin(buf[:0])
		enc.Write(recs[:4*StreamChunk])
		enc.Write(recs[4*StreamChunk:])
		out := enc.Finish()
		buf = out[:0]
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per batch, want 0", allocs)
	}
}

// TestStreamEncoderBeginDiscards: Begin after a half-written batch starts
// afresh (a batch abandoned mid-stream leaves nothing behind).
func TestStreamEncoderBeginDiscards(t *testing.T) {
	enc, err := (&Compressor{}).NewStreamEncoder(CompressionLZ4)
	if err != nil {
		t.Fatal(err)
	}
	enc.Begin(nil)
	enc.Write(bytes.Repeat([]byte("junk"), StreamChunk/4))
	stream := AppendRecord(make([]byte, BatchHeaderLen), 0, 0, nil, []byte("v"), nil)
	h := BatchHeader{Compression: CompressionLZ4, ProducerID: 1}
	want, _ := NewBatchEncoder(nil).FinishBatch(nil, stream, &h, 1, 0)
	enc.Begin(nil)
	enc.Write(stream[BatchHeaderLen:])
	got := enc.Finish()
	if err := SealBatch(got, &h, 1, 0); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("after Begin: err %v, equal %v", err, bytes.Equal(got, want))
	}
}

func TestStreamSupported(t *testing.T) {
	for _, c := range []Compression{CompressionNone, CompressionGzip, CompressionSnappy, CompressionZstd} {
		if StreamSupported(c) {
			t.Errorf("%v streams", c)
		}
		if _, err := (&Compressor{}).NewStreamEncoder(c); !errors.Is(err, ErrUnsupportedCompressionType) {
			t.Errorf("%v: %v", c, err)
		}
	}
	if err := SealBatch(make([]byte, 10), &BatchHeader{}, 1, 0); err == nil {
		t.Error("SealBatch accepted a short buffer")
	}
	if err := SealBatch(make([]byte, BatchHeaderLen), &BatchHeader{}, 0, 0); !errors.Is(err, ErrEmptyBatch) {
		t.Errorf("SealBatch with no records: %v", err)
	}
}
