package roundtrip

import (
	"fmt"
	"testing"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// TestTransactionAPIsEveryVersion runs one transaction per step i: it adds
// a partition (AddPartitionsToTxn v_i: the client form up to v3, the
// brokers' batched form from v4, which the PLAINTEXT super user may send),
// the group (AddOffsetsToTxn), commits an offset i+1 (TxnOffsetCommit v_i,
// by topic ID at v6) and commits (EndTxn v_i; v5 answers the bumped epoch),
// each API at min(i, its max version). Every answer must be error-free and
// the group's committed offset must then be i+1 (OffsetFetch,
// RequireStable), which only a commit of that TxnOffsetCommit produces.
func TestTransactionAPIsEveryVersion(t *testing.T) {
	e := newEnv(t)
	// The highest version of each API both sides speak (every one gregor
	// implements on Kafka 4.4, see versions).
	top := map[wire.APIKey]int16{}
	for _, k := range []wire.APIKey{wire.KeyAddPartitionsToTxn, wire.KeyAddOffsetsToTxn, wire.KeyEndTxn, wire.KeyTxnOffsetCommit, wire.KeyInitProducerId} {
		vs := e.versions(k)
		top[k] = vs[len(vs)-1]
	}
	tp := e.createTopic("rt-txn", 1)
	max := func(k wire.APIKey) int16 { return top[k] }
	for i := int16(0); i <= max(wire.KeyTxnOffsetCommit); i++ {
		t.Run(fmt.Sprintf("step%d", i), func(t *testing.T) {
			tid, group := unique("rt-tid"), unique("rt-group")
			txc, err := e.cl.Coordinator(e.ctx, client.CoordinatorTransaction, tid)
			if err != nil {
				t.Fatal(err)
			}
			grc, err := e.cl.Coordinator(e.ctx, client.CoordinatorGroup, group)
			if err != nil {
				t.Fatal(err)
			}
			ip := request[*wire.InitProducerIdResponse](e, txc, &wire.InitProducerIdRequest{TransactionalID: &tid, TransactionTimeoutMs: 30000, ProducerID: -1, ProducerEpoch: -1}, min(5, max(wire.KeyInitProducerId)))
			if ip.ErrorCode != 0 {
				t.Fatalf("InitProducerId: %v", wire.ErrorForCode(ip.ErrorCode))
			}
			pid, epoch := ip.ProducerID, ip.ProducerEpoch

			av := min(i, max(wire.KeyAddPartitionsToTxn))
			topics := []wire.AddPartitionsToTxnTopic{{Name: tp.name, Partitions: []int32{0}}}
			apReq := &wire.AddPartitionsToTxnRequest{TransactionalID: tid, ProducerID: pid, ProducerEpoch: epoch, Topics: topics}
			if av >= 4 {
				apReq = &wire.AddPartitionsToTxnRequest{Transactions: []wire.AddPartitionsToTxnTransaction{
					{TransactionalID: tid, ProducerID: pid, ProducerEpoch: epoch, Topics: topics}}}
			}
			ap := request[*wire.AddPartitionsToTxnResponse](e, txc, apReq, av)
			results := ap.ResultsByTopic
			if av >= 4 {
				if ap.ErrorCode != 0 || len(ap.ResultsByTransaction) != 1 || ap.ResultsByTransaction[0].TransactionalID != tid {
					t.Fatalf("AddPartitionsToTxn v%d: %+v", av, ap)
				}
				results = ap.ResultsByTransaction[0].TopicResults
			}
			if len(results) != 1 || results[0].Name != tp.name || len(results[0].ResultsByPartition) != 1 || results[0].ResultsByPartition[0].PartitionErrorCode != 0 {
				t.Fatalf("AddPartitionsToTxn v%d: %+v", av, results)
			}

			ov := min(i, max(wire.KeyAddOffsetsToTxn))
			ao := request[*wire.AddOffsetsToTxnResponse](e, txc, &wire.AddOffsetsToTxnRequest{TransactionalID: tid, ProducerID: pid, ProducerEpoch: epoch, GroupID: group}, ov)
			if ao.ErrorCode != 0 {
				t.Fatalf("AddOffsetsToTxn v%d: %v", ov, wire.ErrorForCode(ao.ErrorCode))
			}

			cv := min(i, max(wire.KeyTxnOffsetCommit))
			toc := request[*wire.TxnOffsetCommitResponse](e, grc, &wire.TxnOffsetCommitRequest{TransactionalID: tid, GroupID: group,
				ProducerID: pid, ProducerEpoch: epoch, GenerationIDOrMemberEpoch: -1,
				Topics: []wire.TxnOffsetCommitTopic{{Name: tp.name, TopicID: tp.id, Partitions: []wire.TxnOffsetCommitPartition{
					{PartitionIndex: 0, CommittedOffset: int64(i) + 1, CommittedLeaderEpoch: -1}}}}}, cv)
			if len(toc.Topics) != 1 || len(toc.Topics[0].Partitions) != 1 || toc.Topics[0].Partitions[0].ErrorCode != 0 {
				t.Fatalf("TxnOffsetCommit v%d: %+v", cv, toc.Topics)
			}
			if cv >= 6 && toc.Topics[0].TopicID != tp.id || cv < 6 && toc.Topics[0].Name != tp.name {
				t.Fatalf("TxnOffsetCommit v%d answered for %+v", cv, toc.Topics[0])
			}

			ev := min(i, max(wire.KeyEndTxn))
			end := request[*wire.EndTxnResponse](e, txc, &wire.EndTxnRequest{TransactionalID: tid, ProducerID: pid, ProducerEpoch: epoch, Committed: true}, ev)
			if end.ErrorCode != 0 {
				t.Fatalf("EndTxn v%d: %v", ev, wire.ErrorForCode(end.ErrorCode))
			}
			if ev >= 5 && (end.ProducerID != pid || end.ProducerEpoch != epoch+1) {
				t.Fatalf("EndTxn v5: ID/epoch %d/%d, want %d/%d (KIP-890 bump)", end.ProducerID, end.ProducerEpoch, pid, epoch+1)
			}
			if ev < 5 && (end.ProducerID != -1 || end.ProducerEpoch != -1) {
				t.Fatalf("EndTxn v%d decoded ID/epoch %d/%d, want -1/-1", ev, end.ProducerID, end.ProducerEpoch)
			}

			e.waitFor("committed offset of "+group, func() (bool, string) {
				of := request[*wire.OffsetFetchResponse](e, grc, &wire.OffsetFetchRequest{GroupID: group, RequireStable: true,
					Topics: []wire.OffsetFetchRequestTopic{{Name: tp.name, PartitionIndexes: []int32{0}}}}, 7)
				if of.ErrorCode != 0 || len(of.Topics) != 1 || of.Topics[0].Partitions[0].ErrorCode != 0 {
					return false, fmt.Sprintf("%+v", of) // UNSTABLE_OFFSET_COMMIT until the markers are written
				}
				if got := of.Topics[0].Partitions[0].CommittedOffset; got != int64(i)+1 {
					t.Fatalf("committed offset %d, want %d", got, i+1)
				}
				return true, ""
			})
		})
	}
}
