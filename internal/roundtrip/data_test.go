package roundtrip

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// TestProduceFetchEveryVersion writes one batch with every Produce version
// (cycling through the five compression selections; zstd only from v7),
// then checks every ListOffsets version sees the end offset, every Fetch
// version reads back exactly the records written, and every
// OffsetForLeaderEpoch version reports the epoch's end offset.
func TestProduceFetchEveryVersion(t *testing.T) {
	e := newEnv(t)
	tp := e.createTopic("rt-data", 1)
	enc := wire.NewBatchEncoder(nil)
	comps := []wire.Compression{wire.CompressionNone, wire.CompressionGzip, wire.CompressionSnappy, wire.CompressionLZ4, wire.CompressionZstd}
	var want []wire.Record
	now := time.Now().UnixMilli()

	for _, v := range e.versions(wire.KeyProduce) {
		c := comps[int(v)%len(comps)]
		if c == wire.CompressionZstd && v < 7 {
			c = wire.CompressionLZ4 // KIP-110: zstd needs Produce v7
		}
		recs := []wire.Record{
			{Timestamp: now, Key: []byte(fmt.Sprintf("key-v%d", v)), Value: bytes.Repeat([]byte{'a' + byte(v)}, 100),
				Headers: []wire.Header{{Key: "version", Value: []byte{byte(v)}}, {Key: "null", Value: nil}, {Key: "empty", Value: []byte{}}}},
			{Timestamp: now + 1, Key: nil, Value: []byte{}},
		}
		batch, err := enc.AppendBatch(nil, &wire.BatchHeader{Compression: c, ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1, BaseTimestamp: now}, recs)
		if err != nil {
			t.Fatal(err)
		}
		td := wire.ProduceRequestTopic{Name: tp.name, PartitionData: []wire.ProduceRequestPartition{{Index: 0, Records: batch}}}
		if v >= 13 {
			td = wire.ProduceRequestTopic{TopicID: tp.id, PartitionData: td.PartitionData}
		}
		r := request[*wire.ProduceResponse](e, tp.leader, &wire.ProduceRequest{Acks: -1, TimeoutMs: 30000, TopicData: []wire.ProduceRequestTopic{td}}, v)
		if len(r.Responses) != 1 || len(r.Responses[0].PartitionResponses) != 1 {
			t.Fatalf("Produce v%d: %+v", v, r)
		}
		if got := r.Responses[0]; (v >= 13 && got.TopicID != tp.id) || (v < 13 && got.Name != tp.name) {
			t.Errorf("Produce v%d: topic %q %v", v, got.Name, got.TopicID)
		}
		p := r.Responses[0].PartitionResponses[0]
		if p.ErrorCode != 0 || p.BaseOffset != int64(len(want)) {
			t.Fatalf("Produce v%d (%d): error %d, base offset %d, want %d (%v)", v, c, p.ErrorCode, p.BaseOffset, len(want), p.ErrorMessage)
		}
		if v >= 5 && p.LogStartOffset != 0 {
			t.Errorf("Produce v%d: log start offset %d", v, p.LogStartOffset)
		}
		want = append(want, recs...)
	}
	end := int64(len(want))

	for _, v := range e.versions(wire.KeyListOffsets) {
		for _, ts := range []int64{wire.ListOffsetsLatest, wire.ListOffsetsEarliest} {
			r := request[*wire.ListOffsetsResponse](e, tp.leader, &wire.ListOffsetsRequest{ReplicaID: -1, TimeoutMs: 30000,
				Topics: []wire.ListOffsetsTopic{{Name: tp.name, Partitions: []wire.ListOffsetsPartition{{CurrentLeaderEpoch: -1, Timestamp: ts}}}}}, v)
			p := r.Topics[0].Partitions[0]
			wantOff := end
			if ts == wire.ListOffsetsEarliest {
				wantOff = 0
			}
			if p.ErrorCode != 0 || p.Offset != wantOff {
				t.Errorf("ListOffsets v%d ts %d: error %d offset %d, want %d", v, ts, p.ErrorCode, p.Offset, wantOff)
			}
			if v >= 4 && p.LeaderEpoch != tp.epoch {
				t.Errorf("ListOffsets v%d: leader epoch %d, want %d", v, p.LeaderEpoch, tp.epoch)
			}
		}
	}

	for _, v := range e.versions(wire.KeyFetch) {
		got := fetchAll(t, e, tp, v, end)
		if len(got) != len(want) {
			t.Fatalf("Fetch v%d: %d records, want %d", v, len(got), len(want))
		}
		for i := range want {
			g, w := got[i], want[i]
			if g.Offset != int64(i) || g.Timestamp != w.Timestamp || !sameBytes(g.Key, w.Key) || !sameBytes(g.Value, w.Value) || len(g.Headers) != len(w.Headers) {
				t.Fatalf("Fetch v%d record %d: got %+v, want %+v", v, i, g, w)
			}
			for j := range w.Headers {
				if g.Headers[j].Key != w.Headers[j].Key || !sameBytes(g.Headers[j].Value, w.Headers[j].Value) {
					t.Fatalf("Fetch v%d record %d header %d: got %+v, want %+v", v, i, j, g.Headers[j], w.Headers[j])
				}
			}
		}
	}

	for _, v := range e.versions(wire.KeyOffsetForLeaderEpoch) {
		r := request[*wire.OffsetForLeaderEpochResponse](e, tp.leader, &wire.OffsetForLeaderEpochRequest{ReplicaID: -1,
			Topics: []wire.OffsetForLeaderTopic{{Topic: tp.name, Partitions: []wire.OffsetForLeaderPartition{{Partition: 0, CurrentLeaderEpoch: tp.epoch, LeaderEpoch: tp.epoch}}}}}, v)
		p := r.Topics[0].Partitions[0]
		if p.ErrorCode != 0 || p.LeaderEpoch != tp.epoch || p.EndOffset != end {
			t.Errorf("OffsetForLeaderEpoch v%d: %+v, want epoch %d end %d", v, p, tp.epoch, end)
		}
	}
}

// fetchAll reads partition 0 from offset 0 to end with Fetch version v (a
// full fetch, no session) and returns the decoded records.
func fetchAll(t *testing.T, e *env, tp topic, v int16, end int64) []wire.Record {
	t.Helper()
	var out []wire.Record
	next := int64(0)
	for next < end {
		ft := wire.FetchTopic{Topic: tp.name}
		if v >= 13 {
			ft = wire.FetchTopic{TopicID: tp.id}
		}
		var fp wire.FetchPartition
		fp.Default()
		fp.CurrentLeaderEpoch, fp.FetchOffset, fp.PartitionMaxBytes = tp.epoch, next, 1<<20
		ft.Partitions = []wire.FetchPartition{fp}
		var req wire.FetchRequest
		req.Default()
		req.MaxWaitMs, req.MinBytes, req.MaxBytes, req.Topics = 500, 1, 4<<20, []wire.FetchTopic{ft}
		r := request[*wire.FetchResponse](e, tp.leader, &req, v)
		if r.ErrorCode != 0 || len(r.Responses) != 1 || len(r.Responses[0].Partitions) != 1 {
			t.Fatalf("Fetch v%d: %+v", v, r)
		}
		if rt := r.Responses[0]; (v >= 13 && rt.TopicID != tp.id) || (v < 13 && rt.Topic != tp.name) {
			t.Fatalf("Fetch v%d: topic %q %v", v, rt.Topic, rt.TopicID)
		}
		p := r.Responses[0].Partitions[0]
		if p.ErrorCode != 0 || p.HighWatermark != end || p.LastStableOffset != end {
			t.Fatalf("Fetch v%d: partition error %d hw %d lso %d, want %d", v, p.ErrorCode, p.HighWatermark, p.LastStableOffset, end)
		}
		br := wire.NewBatchReader(p.Records, wire.DecodeOptions{})
		var b wire.RecordBatch
		progressed := false
		for br.Next(&b) {
			for _, rec := range b.Records {
				if rec.Offset >= next {
					out = append(out, cloneRecord(rec))
				}
			}
			next = b.NextOffset()
			progressed = true
		}
		if err := br.Err(); err != nil {
			t.Fatalf("Fetch v%d: records: %v", v, err)
		}
		if !progressed {
			t.Fatalf("Fetch v%d: no batch at offset %d of %d", v, next, end)
		}
	}
	return out
}

func cloneRecord(r wire.Record) wire.Record {
	r.Key = cloneBytes(r.Key)
	r.Value = cloneBytes(r.Value)
	hs := make([]wire.Header, len(r.Headers))
	for i, h := range r.Headers {
		hs[i] = wire.Header{Key: h.Key, Value: cloneBytes(h.Value)}
	}
	r.Headers = hs
	return r
}

func cloneBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}

// sameBytes compares contents and null-ness.
func sameBytes(a, b []byte) bool { return (a == nil) == (b == nil) && bytes.Equal(a, b) }
