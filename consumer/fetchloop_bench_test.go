package consumer

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"github.com/gregor-kafka/gregor"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// recordedBroker answers the consumer's Fetches from one recorded
// FetchResponse body (v16, one topic, every partition about 1 MiB of
// 100-byte records), re-stamping the batches' base offsets so each answer
// continues where the last ended, and plays the connection's part the way
// client.conn does: it encodes the request, reads the frame into the
// request's own buffer (wire.FrameBufferer) and decodes it into the
// request's response (ResponseFor). It allocates nothing per Fetch, so
// what a benchmark counts is the consumer's.
type recordedBroker struct {
	md     *client.Metadata
	body   []byte
	bases  []int // positions of every batch's baseOffset in body
	parts  []int // index of the partition each entry of bases belongs to
	perRec int64 // records per partition and response (offsets advance by it)
	round  int64 // responses served
	wbuf   []byte
	rd     wire.Reader
	fetchN int
}

const recordedVersion = 16

func newRecordedBroker(b *testing.B, partitions int, codec wire.Compression) (*recordedBroker, int) {
	b.Helper()
	id := wire.UUID{7}
	rng := rand.New(rand.NewPCG(1, 2))
	var raw []byte
	n := 0
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
	topic := wire.FetchResponseTopic{TopicID: id}
	tm := &client.TopicMetadata{Name: "recorded", ID: id}
	for p := range int32(partitions) {
		topic.Partitions = append(topic.Partitions, wire.FetchResponsePartition{
			PartitionIndex: p, HighWatermark: 1 << 40, LastStableOffset: 1 << 40,
			DivergingEpoch: wire.FetchEpochEndOffset{Epoch: -1, EndOffset: -1}, CurrentLeader: wire.LeaderIDAndEpoch{LeaderID: -1, LeaderEpoch: -1},
			SnapshotID: wire.FetchSnapshotID{EndOffset: -1, Epoch: -1}, PreferredReadReplica: -1, Records: raw,
		})
		tm.Partitions = append(tm.Partitions, client.PartitionMetadata{Partition: p, Leader: 1, LeaderEpoch: 0})
	}
	resp := &wire.FetchResponse{SessionID: 77, Responses: []wire.FetchResponseTopic{topic}}
	body := resp.AppendTo(nil, recordedVersion)
	f := &recordedBroker{
		md:     &client.Metadata{Topics: map[string]*client.TopicMetadata{"recorded": tm}, Brokers: []client.Broker{{NodeID: 1}}, Fetched: time.Now()},
		body:   body,
		perRec: int64(n),
	}
	from := 0
	for p := range partitions {
		at := bytes.Index(body[from:], raw) // partition p's copy: the next one

		if at < 0 {
			b.Fatal("records field not found in the recorded body")
		}
		at += from
		for pos := at; pos+12 <= at+len(raw); {
			f.bases = append(f.bases, pos)
			f.parts = append(f.parts, p)
			pos += 12 + int(binary.BigEndian.Uint32(body[pos+8:]))
		}
		from = at + len(raw)
	}
	return f, n * partitions
}

// cluster.
func (f *recordedBroker) Metadata(context.Context, []string) (*client.Metadata, error) {
	return f.md, nil
}
func (f *recordedBroker) InvalidateMetadata() {}

// Request answers a Fetch (wireClient and cluster).
func (f *recordedBroker) Request(ctx context.Context, broker int32, req wire.Request) (wire.Response, error) {
	fc, ok := req.(*fetchCall)
	if !ok {
		return nil, fmt.Errorf("recorded broker: unexpected %T", req)
	}
	f.fetchN++
	f.wbuf = req.AppendTo(f.wbuf[:0], recordedVersion)
	for _, t := range fc.Topics {
		for _, p := range t.Partitions {
			if want := f.round * f.perRec; p.FetchOffset != want {
				return nil, fmt.Errorf("recorded broker: fetch offset %d, want %d", p.FetchOffset, want)
			}
		}
	}
	var buf []byte
	if fb, ok := req.(wire.FrameBufferer); ok {
		buf = fb.FrameBuffer(len(f.body))
	}
	if len(buf) != len(f.body) {
		buf = make([]byte, len(f.body))
	}
	copy(buf, f.body)
	shift := f.round * f.perRec
	for _, pos := range f.bases {
		binary.BigEndian.PutUint64(buf[pos:], binary.BigEndian.Uint64(buf[pos:])+uint64(shift))
	}
	f.round++
	f.rd.Reset(buf)
	resp := req.ResponseFor()
	if err := resp.DecodeFrom(&f.rd, recordedVersion); err != nil {
		return nil, err
	}
	return resp, nil
}

func (f *recordedBroker) Enqueue(context.Context, int32, wire.Request) (client.Pending, error) {
	return nil, nil
}

// BenchmarkFetchLoop measures the whole fetch path of a Consumer offline:
// the fetch loop plans a Fetch (metadata, session, request), the leader's
// worker sends it through the wire transport to a recordedBroker (request
// encoding, the response read into the block's frame and decoded), decodes
// the records into the block, the loop applies the result, and the
// application receives and recycles the records. One op is one Fetch
// response (partitions × ~9,000 100-byte records): allocs/op is
// allocations per Fetch. Every partition is answered in full each time, so
// the consumer never waits.
func BenchmarkFetchLoop(b *testing.B) {
	for _, parts := range []int{1, 4} {
		for _, codec := range []wire.Compression{wire.CompressionNone, wire.CompressionLZ4} {
			b.Run(fmt.Sprintf("parts=%d/codec=%s", parts, codec), func(b *testing.B) {
				f, perFetch := newRecordedBroker(b, parts, codec)
				c, err := newConsumer(f, wireTransport{f}, Config{MaxWait: time.Second})
				if err != nil {
					b.Fatal(err)
				}
				defer c.Close(context.Background())
				var ps []PartitionPosition
				for p := range int32(parts) {
					ps = append(ps, PartitionPosition{gregor.TopicPartition{Topic: "recorded", Partition: p}, AtOffset(0)})
				}
				ctx := context.Background()
				if err := c.Assign(ctx, ps); err != nil {
					b.Fatal(err)
				}
				receive := func(n int) {
					for got := 0; got < n; {
						rs, err := c.Receive(ctx)
						if err != nil {
							b.Fatal(err)
						}
						got += len(rs)
						c.Recycle(rs)
					}
				}
				receive(4 * perFetch) // fill the block pool
				b.ReportAllocs()
				b.SetBytes(int64(perFetch * 100))
				b.ResetTimer()
				receive(b.N * perFetch)
				b.StopTimer()
				b.ReportMetric(float64(perFetch), "records/op")
			})
		}
	}
}
