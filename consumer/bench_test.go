package consumer

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// benchFetchResponse builds the bytes of a FetchResponse (v16) with one
// partition holding about 1 MiB of 100-byte-value records in batches of
// 100 records compressed with codec. It returns the body, the number of
// records and the uncompressed size of the record values.
func benchFetchResponse(b *testing.B, codec wire.Compression) ([]byte, int) {
	b.Helper()
	var raw []byte
	n := 0
	// Values are text-like: random letters from a 32-symbol alphabet, so
	// lz4 compresses them about as much as it does real payloads (~1.3x),
	// not 50x as it would a repeated pattern.
	rng := rand.New(rand.NewPCG(1, 2))
	for base := int64(0); len(raw) < 1<<20; base += 100 {
		bt := tBatch{base: base, lastDelta: 99, pid: -1, ts: 1_700_000_000_000, codec: codec}
		for i := range 100 {
			value := make([]byte, 100)
			for j := range value {
				value[j] = byte('a' + rng.IntN(32))
			}
			bt.recs = append(bt.recs, tRec{delta: int32(i), key: fmt.Appendf(nil, "k%05d", i), value: value})
		}
		raw = bt.encode(b, raw)
		n += 100
	}
	resp := &wire.FetchResponse{Responses: []wire.FetchResponseTopic{{TopicID: wire.UUID{1}, Partitions: []wire.FetchResponsePartition{{
		PartitionIndex: 0, HighWatermark: int64(n), LastStableOffset: int64(n),
		DivergingEpoch: wire.FetchEpochEndOffset{Epoch: -1, EndOffset: -1}, CurrentLeader: wire.LeaderIDAndEpoch{LeaderID: -1, LeaderEpoch: -1},
		SnapshotID: wire.FetchSnapshotID{EndOffset: -1, Epoch: -1}, PreferredReadReplica: -1, Records: raw,
	}}}}}
	return resp.AppendTo(nil, 16), n
}

// BenchmarkFetchDecodeDeliver measures the consumer's hot path for one
// 1 MiB Fetch response of 100-byte records: decode the response, map it,
// decode and filter the batches into deliverable records. MB/s is of the
// response bytes; allocs/record is what each delivered record costs.
func BenchmarkFetchDecodeDeliver(b *testing.B) {
	for _, codec := range []wire.Compression{wire.CompressionNone, wire.CompressionLZ4} {
		b.Run(codec.String(), func(b *testing.B) {
			body, n := benchFetchResponse(b, codec)
			tp := gregor.TopicPartition{Topic: "bench", Partition: 0}
			req := &fetchReq{want: map[gregor.TopicPartition]sessionPart{tp: {TopicID: wire.UUID{1}}}}
			c := &Consumer{dec: wire.NewDecompressor(0)}
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			b.ResetTimer()
			delivered := 0
			for b.Loop() {
				var m wire.FetchResponse
				if err := m.DecodeFrom(wire.NewReader(body), 16); err != nil {
					b.Fatal(err)
				}
				resp, err := mapFetchResponse(req, &m)
				if err != nil || len(resp.Parts) != 1 {
					b.Fatal(err)
				}
				ch, err := c.decodePartition(&resp.Parts[0], 0, math.MaxInt64, 0, true, nil, nil)
				if err != nil {
					b.Fatal(err)
				}
				delivered += len(ch.records)
			}
			if delivered != n*b.N {
				b.Fatalf("delivered %d, want %d", delivered, n*b.N)
			}
			b.StopTimer()
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(n), "records/op")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(delivered), "allocs/record")
		})
	}
}

// BenchmarkDeliverRecycle measures the consumer's steady state for one
// 1 MiB partition of 100-byte records, as the fetch goroutine and Receive
// run it when the application recycles: take a block from the pool, decode
// and filter the batches into it (decompressing into its arena), deliver
// the chunk through Receive's path and hand the slice back with Recycle.
// It excludes parsing the FetchResponse frame around the records. One op
// is one record (as the producer's BenchmarkAdmitEncode), so allocs/op
// rounds what a 1 MiB round costs per record; make test's allocation guard
// requires 0 allocs/op for every codec (gzip and zstd: their decoders
// allocate a few tables per round).
func BenchmarkDeliverRecycle(b *testing.B) {
	for _, codec := range []wire.Compression{wire.CompressionNone, wire.CompressionGzip, wire.CompressionSnappy, wire.CompressionLZ4, wire.CompressionZstd} {
		b.Run(codec.String(), func(b *testing.B) {
			body, n := benchFetchResponse(b, codec)
			var m wire.FetchResponse
			if err := m.DecodeFrom(wire.NewReader(body), 16); err != nil {
				b.Fatal(err)
			}
			tp := gregor.TopicPartition{Topic: "bench", Partition: 0}
			part := &fetchRespPart{TopicPartition: tp, Records: m.Responses[0].Partitions[0].Records}
			c := &Consumer{dec: wire.NewDecompressor(0), parts: map[gregor.TopicPartition]*partState{}}
			c.blocks.limit = DefaultMaxBufferedBytes
			st := &partState{tp: tp}
			c.parts[tp], c.order = st, []gregor.TopicPartition{tp}
			var scratch batchScratch
			round := func() int {
				blk := c.blocks.get(countRecords(part.Records), firstBatchCompressed(part.Records), len(part.Records), math.MaxInt64)
				ch, err := c.decodePartition(part, 0, math.MaxInt64, 0, true, blk, &scratch)
				if err != nil {
					b.Fatal(err)
				}
				if codec != wire.CompressionNone {
					c.blocks.noteArena(len(blk.arena), len(part.Records))
				}
				st.buffer(ch)
				st.offset = 0
				recs, err := c.takeLocked()
				if err != nil {
					b.Fatal(err)
				}
				c.Recycle(recs)
				return len(recs)
			}
			round() // fill the pool
			b.SetBytes(int64(len(part.Records) / n))
			b.ReportAllocs()
			b.ResetTimer()
			for delivered := 0; delivered < b.N; {
				if got := round(); got != n {
					b.Fatalf("delivered %d, want %d", got, n)
				} else {
					delivered += got
				}
			}
		})
	}
}
