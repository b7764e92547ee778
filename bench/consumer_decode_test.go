package bench

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// fetchBody builds the body of a v16 FetchResponse with one partition
// holding about 1 MiB of record batches (100 records of 100-byte text-like
// values each) compressed with codec, and returns it with the record count.
func fetchBody(b *testing.B, codec wire.Compression) ([]byte, int) {
	b.Helper()
	comp, err := wire.NewCompressor(wire.CompressionLevels{})
	if err != nil {
		b.Fatal(err)
	}
	enc := wire.NewBatchEncoder(comp)
	rng := rand.New(rand.NewPCG(1, 2))
	var raw []byte
	n := 0
	for len(raw) < 1<<20 {
		recs := make([]wire.Record, 100)
		for i := range recs {
			v := make([]byte, 100)
			for j := range v {
				v[j] = byte('a' + rng.IntN(32))
			}
			recs[i] = wire.Record{Timestamp: 1_700_000_000_000, Key: fmt.Appendf(nil, "k%05d", i), Value: v}
		}
		start := len(raw)
		if raw, err = enc.AppendBatch(raw, &wire.BatchHeader{Compression: codec, ProducerID: -1, BaseSequence: -1, BaseTimestamp: 1_700_000_000_000}, recs); err != nil {
			b.Fatal(err)
		}
		// The base offset is outside the CRC: set it as a broker would.
		binary.BigEndian.PutUint64(raw[start:], uint64(n))
		n += len(recs)
	}
	resp := &wire.FetchResponse{Responses: []wire.FetchResponseTopic{{TopicID: wire.UUID{1}, Partitions: []wire.FetchResponsePartition{{
		HighWatermark: int64(n), LastStableOffset: int64(n),
		DivergingEpoch: wire.FetchEpochEndOffset{Epoch: -1, EndOffset: -1}, CurrentLeader: wire.LeaderIDAndEpoch{LeaderID: -1, LeaderEpoch: -1},
		SnapshotID: wire.FetchSnapshotID{EndOffset: -1, Epoch: -1}, PreferredReadReplica: -1, Records: raw,
	}}}}}
	return resp.AppendTo(nil, 16), n
}

// BenchmarkConsumerDecode sets gregor's consumer decode path beside
// franz-go's on the same 1 MiB v16 FetchResponse bytes: decode the
// response, then decode, filter and materialize every record for delivery
// (gregor: consumer.DecodeFetchPartition; franz-go: kgo.ProcessFetchPartition,
// which is what its consumer runs per partition). MB/s is of response bytes.
func BenchmarkConsumerDecode(b *testing.B) {
	for _, codec := range []wire.Compression{wire.CompressionNone, wire.CompressionLZ4} {
		body, n := fetchBody(b, codec)
		b.Run(fmt.Sprintf("gregor/%v", codec), func(b *testing.B) {
			dec := wire.NewDecompressor(0)
			tp := gregor.TopicPartition{Topic: "bench", Partition: 0}
			measure(b, len(body), n, func() int {
				var m wire.FetchResponse
				if err := m.DecodeFrom(wire.NewReader(body), 16); err != nil {
					b.Fatal(err)
				}
				recs, _, err := consumer.DecodeFetchPartition(tp, consumer.ReadUncommitted, 0, &m.Responses[0].Partitions[0], dec)
				if err != nil {
					b.Fatal(err)
				}
				return len(recs)
			})
		})
		b.Run(fmt.Sprintf("franz-go/%v", codec), func(b *testing.B) {
			dec := kgo.DefaultDecompressor()
			measure(b, len(body), n, func() int {
				m := kmsg.NewPtrFetchResponse()
				m.Version = 16
				if err := m.ReadFrom(body); err != nil {
					b.Fatal(err)
				}
				fp, _ := kgo.ProcessFetchPartition(kgo.ProcessFetchPartitionOpts{Topic: "bench", Partition: 0},
					&m.Topics[0].Partitions[0], dec, nil)
				if fp.Err != nil {
					b.Fatal(fp.Err)
				}
				return len(fp.Records)
			})
		})
	}
}

// measure runs one decode per iteration and reports MB/s and allocs/record.
func measure(b *testing.B, size, n int, decode func() int) {
	b.SetBytes(int64(size))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	delivered := 0
	for b.Loop() {
		delivered += decode()
	}
	runtime.ReadMemStats(&after)
	if delivered != n*b.N {
		b.Fatalf("delivered %d records, want %d", delivered, n*b.N)
	}
	b.ReportMetric(float64(n), "records/op")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(delivered), "allocs/record")
}
