package consumer

import (
	"slices"
	"testing"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// TestGoldenFetchResponse encodes a FetchResponse holding the golden
// partitions (transactions of one producer with an aborted list, a
// truncated trailing batch, empty compacted batches) with the wire codec,
// decodes it back at versions naming topics by name (12) and by ID (16),
// and checks what the consumer would deliver.
func TestGoldenFetchResponse(t *testing.T) {
	id := wire.UUID{1, 2, 3}
	txn, aborted := txnLog(t)
	trunc := encodeAll(t, dataBatch(0, 3), dataBatch(3, 4))
	trunc = trunc[:len(trunc)-5]
	compacted := encodeAll(t, tBatch{base: 10, lastDelta: 4, pid: -1}, tBatch{base: 15, lastDelta: 2, pid: -1,
		recs: []tRec{{delta: 2, value: []byte("z")}}})
	a, b, c := gregor.TopicPartition{Topic: "t", Partition: 0}, gregor.TopicPartition{Topic: "t", Partition: 1}, gregor.TopicPartition{Topic: "t", Partition: 2}
	req := &fetchReq{
		plan: fetchPlan{SessionID: 5, SessionEpoch: 2, Parts: []gregor.TopicPartition{a, b, c}, Forgotten: []gregor.TopicPartition{{Topic: "t", Partition: 9}}, ForgottenIDs: []wire.UUID{id}},
		want: map[gregor.TopicPartition]sessionPart{
			a: {TopicID: id, FetchOffset: 0, CurrentLeaderEpoch: 3, LastFetchedEpoch: -1, MaxBytes: 1 << 20},
			b: {TopicID: id, FetchOffset: 1, CurrentLeaderEpoch: 3, LastFetchedEpoch: 2, MaxBytes: 1 << 20},
			c: {TopicID: id, FetchOffset: 11, CurrentLeaderEpoch: 3, LastFetchedEpoch: 2, MaxBytes: 1 << 20},
		},
		maxBytes: 1000, askBytes: 1000, isolation: ReadCommitted, maxWait: 250e6, minBytes: 1,
	}
	var wAborted []wire.FetchAbortedTransaction
	for _, x := range aborted {
		wAborted = append(wAborted, wire.FetchAbortedTransaction{ProducerID: x.ProducerID, FirstOffset: x.FirstOffset})
	}
	part := func(i int32, recs []byte, ab []wire.FetchAbortedTransaction) wire.FetchResponsePartition {
		return wire.FetchResponsePartition{PartitionIndex: i, HighWatermark: 20, LastStableOffset: 20, LogStartOffset: 0,
			DivergingEpoch: wire.FetchEpochEndOffset{Epoch: -1, EndOffset: -1}, CurrentLeader: wire.LeaderIDAndEpoch{LeaderID: -1, LeaderEpoch: -1},
			SnapshotID: wire.FetchSnapshotID{EndOffset: -1, Epoch: -1}, AbortedTransactions: ab, PreferredReadReplica: -1, Records: recs}
	}
	for _, v := range []int16{12, 16} {
		// The request encodes (and decodes back) with the session fields.
		wreq := fetchRequest(req)
		var back wire.FetchRequest
		if err := back.DecodeFrom(wire.NewReader(wreq.AppendTo(nil, v)), v); err != nil {
			t.Fatalf("v%d request: %v", v, err)
		}
		if back.SessionID != 5 || back.SessionEpoch != 2 || back.IsolationLevel != 1 || back.MaxWaitMs != 250 ||
			len(back.Topics) != 1 || len(back.Topics[0].Partitions) != 3 || len(back.ForgottenTopicsData) != 1 {
			t.Fatalf("v%d request decoded as %+v", v, back)
		}
		if back.MinBytes != 1 || back.MaxBytes != 1000 || back.ReplicaID != -1 && v <= 14 {
			t.Fatalf("v%d min/max bytes %d/%d replica %d", v, back.MinBytes, back.MaxBytes, back.ReplicaID)
		}
		if p := back.Topics[0].Partitions[1]; p.FetchOffset != 1 || p.LastFetchedEpoch != 2 || p.CurrentLeaderEpoch != 3 || p.PartitionMaxBytes != 1<<20 || p.LogStartOffset != -1 {
			t.Fatalf("v%d partition %+v", v, p)
		}

		resp := &wire.FetchResponse{SessionID: 5, Responses: []wire.FetchResponseTopic{{Topic: "t", TopicID: id,
			Partitions: []wire.FetchResponsePartition{part(0, txn, wAborted), part(1, trunc, nil), part(2, compacted, nil)}}}}
		var got wire.FetchResponse
		if err := got.DecodeFrom(wire.NewReader(resp.AppendTo(nil, v)), v); err != nil {
			t.Fatalf("v%d response: %v", v, err)
		}
		m, err := mapFetchResponse(req, &got)
		if err != nil || m.Err != nil || m.SessionID != 5 || len(m.Parts) != 3 {
			t.Fatalf("v%d mapped %+v, %v", v, m, err)
		}
		want := map[gregor.TopicPartition]struct {
			offsets []int64
			next    int64
		}{
			a: {[]int64{0, 1, 6, 7, 9, 12, 13, 15}, 17},
			b: {[]int64{1, 2}, 3},
			c: {[]int64{17}, 18},
		}
		for _, p := range m.Parts {
			w, ok := want[p.TopicPartition]
			if !ok {
				t.Fatalf("v%d: unexpected partition %v", v, p.TopicPartition)
			}
			recs, f := decodeFiltered(t, p.Records, req.want[p.TopicPartition].FetchOffset, true, p.Aborted)
			if got := offsetsOf(recs); !slices.Equal(got, w.offsets) || f.next != w.next {
				t.Fatalf("v%d %v: offsets %v next %d, want %v next %d", v, p.TopicPartition, got, f.next, w.offsets, w.next)
			}
		}
	}
}
