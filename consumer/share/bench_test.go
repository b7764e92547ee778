package share

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// benchRecords is how many records one scripted ShareFetch answer acquires
// (the default MaxRecords, max.poll.records).
const benchRecords = DefaultMaxRecords

// benchT is a transport whose every ShareFetch answers the same acquired
// records (offsets 0..benchRecords-1 of partition 0), every acknowledgement
// succeeding: a share consumer keeps no position, so the same response is
// the steady state of a member that accepts what it receives.
type benchT struct {
	resp *wire.ShareFetchResponse
	md   map[string]topicMeta
}

// newBenchT returns a benchT answering benchRecords records compressed
// with codec.
func newBenchT(t testing.TB, codec wire.Compression) *benchT {
	return &benchT{
		md: map[string]topicMeta{fakeTopic: {id: fakeTopicID, leaders: map[int32]int32{0: 1}}},
		resp: &wire.ShareFetchResponse{AcquisitionLockTimeoutMs: 30_000, Responses: []wire.ShareFetchTopicResponse{{TopicID: fakeTopicID, Partitions: []wire.ShareFetchPartitionResponse{{
			PartitionIndex: 0, Records: benchShareRecords(t, codec), AcquiredRecords: []wire.ShareAcquiredRecords{acquired(0, benchRecords-1, 1)},
		}}}}},
	}
}

func (f *benchT) coordinator(context.Context, string) (int32, error) { return 1, nil }
func (f *benchT) invalidateCoordinator(string)                       {}
func (f *benchT) invalidateMetadata()                                {}

func (f *benchT) metadata(context.Context, []string) (map[string]topicMeta, error) {
	return f.md, nil
}

func (f *benchT) request(ctx context.Context, _ int32, req wire.Request) (wire.Response, error) {
	switch r := req.(type) {
	case *wire.ShareGroupHeartbeatRequest:
		resp := &wire.ShareGroupHeartbeatResponse{MemberID: &r.MemberID, MemberEpoch: 1, HeartbeatIntervalMs: 60_000}
		if r.MemberEpoch == 0 {
			resp.Assignment = &wire.ShareGroupHeartbeatAssignment{TopicPartitions: []wire.ShareGroupTopicPartitions{{TopicID: fakeTopicID, Partitions: []int32{0}}}}
		}
		return resp, nil
	case *wire.ShareFetchRequest:
		return f.resp, nil
	case *wire.ShareAcknowledgeRequest:
		return &wire.ShareAcknowledgeResponse{}, nil
	}
	return nil, fmt.Errorf("unexpected request %T", req)
}

// benchShareRecords encodes benchRecords records of 100-byte text-like
// values in batches of 100 compressed with codec, at offsets from 0.
func benchShareRecords(b testing.TB, codec wire.Compression) []byte {
	b.Helper()
	enc := wire.NewBatchEncoder(nil)
	defer enc.Release()
	rng := rand.New(rand.NewPCG(1, 2))
	var raw []byte
	for base := 0; base < benchRecords; base += 100 {
		recs := make([]wire.Record, 100)
		for i := range recs {
			v := make([]byte, 100)
			for j := range v {
				v[j] = byte('a' + rng.IntN(32))
			}
			recs[i] = wire.Record{Timestamp: 1_700_000_000_000, Key: fmt.Appendf(nil, "k%05d", base+i), Value: v}
		}
		start := len(raw)
		var err error
		if raw, err = enc.AppendBatch(raw, &wire.BatchHeader{Compression: codec, ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1, BaseTimestamp: 1_700_000_000_000}, recs); err != nil {
			b.Fatal(err)
		}
		binary.BigEndian.PutUint64(raw[start:], uint64(base)) // base offset: outside the CRC
	}
	return raw
}

// BenchmarkShareReceiveAck measures the share consumer's steady state as an
// implicitly accepting member runs it: Receive accepts the records it
// delivered before, sends those acknowledgements on the ShareFetch, applies
// the scripted answer (acknowledgements succeeded, benchRecords records
// acquired again), decodes them and delivers them; the member takes the
// acknowledgement results with AppendAckResults and hands the records back
// with Recycle. It excludes the wire (encoding the request, parsing the
// response frame). One op is one record, as the assigned consumer's
// BenchmarkDeliverRecycle; make test's allocation guard requires 0
// allocs/op for every codec, and allocs/record reports the exact figure.
func BenchmarkShareReceiveAck(b *testing.B) {
	for _, codec := range []wire.Compression{wire.CompressionNone, wire.CompressionGzip, wire.CompressionSnappy, wire.CompressionLZ4, wire.CompressionZstd} {
		b.Run(codec.String(), func(b *testing.B) {
			c, err := newConsumer(newBenchT(b, codec), Config{GroupID: "g", Topics: []string{fakeTopic}, MaxWait: time.Second})
			if err != nil {
				b.Fatal(err)
			}
			defer func() { _ = c.Close(context.Background()) }()
			ctx := context.Background()
			if err := c.AwaitJoined(ctx); err != nil {
				b.Fatal(err)
			}
			var results []AckResult
			round := func() int {
				recs, err := c.Receive(ctx)
				if err != nil {
					b.Fatal(err)
				}
				results = c.AppendAckResults(results[:0])
				for _, r := range results {
					if r.Err != nil {
						b.Fatalf("acknowledgement of offset %d: %v", r.Offset, r.Err)
					}
				}
				c.Recycle(recs)
				return len(recs)
			}
			for c.Assignment() == nil || round() == 0 { // until assigned, then fill the pools
			}
			round()
			round()
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			b.ResetTimer()
			delivered := 0
			for delivered < b.N {
				got := round()
				if got != benchRecords {
					b.Fatalf("delivered %d, want %d", got, benchRecords)
				}
				delivered += got
			}
			b.StopTimer()
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(delivered), "allocs/record")
		})
	}
}
