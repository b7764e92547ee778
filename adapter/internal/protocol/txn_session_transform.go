package protocol

import (
	"fmt"
)

// doExecuteTransactionalTransform is the consume-transform-produce step of
// §4.8: receive one batch from the group consumer, then in one transaction
// stage the outputs, add the batch's checkpoint with the member's group
// metadata (SendOffsets, KIP-447) and commit or abort. A batch spanning
// several partitions transfers every partition's checkpoint; the event
// reports the partition of the batch's first record. No batch within
// timeout_ms is command_failed timeout, before any transaction begins.
func (s *Session) doExecuteTransactionalTransform(p *ExecuteTransactionalTransform) error {
	te, err := s.txnOf(p.ProducerID)
	if err != nil {
		return err
	}
	ge, err := s.liveGroupOf(p.ConsumerID)
	if err != nil {
		return err
	}
	if n := len(p.Operations); n > 31 {
		return fatalf("adapter_state", "execute_transactional_transform with %d operations (0..=31)", n)
	}
	if p.Disposition != DispositionCommit && p.Disposition != DispositionAbort {
		return fatalf("adapter_json", "disposition %q", p.Disposition)
	}
	recs, err := receiveFirst(ge.gc, p.TimeoutMs)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return &failedError{code: KindTimeout, err: fmt.Errorf("consumer %s: no batch within %dms", p.ConsumerID, p.TimeoutMs)}
	}
	offsets := checkpoint(recs)
	sn, gm := ge.gc.Snapshot(), ge.gc.GroupMetadata()
	ctx, cancel := timeout(p.TimeoutMs)
	defer cancel()
	tp := te.producer
	if err := s.beginStaged(ctx, tp, p.Operations); err != nil {
		return err
	}
	if err := tp.SendOffsets(ctx, offsets, gm); err != nil {
		_ = tp.Abort(ctx)
		return &failedError{code: normalizeTxn(err), err: err}
	}
	if err := endTxn(ctx, tp, p.Disposition); err != nil {
		return err
	}
	first := TopicPartition{Topic: recs[0].Topic, Partition: recs[0].Partition}
	return s.emit(TransactionalTransformCompleted{TransactionID: p.TransactionID, Disposition: p.Disposition,
		ConsumerID: p.ConsumerID, Records: recs, GroupID: gm.GroupID, Topic: first.Topic, Partition: first.Partition,
		NextOffset: offsets[first], GroupEpoch: groupEpoch(sn)})
}

// checkpoint is a batch's checkpoint: per partition, the offset after its
// last record.
func checkpoint(recs []ConsumedRecord) map[TopicPartition]int64 {
	offs := map[TopicPartition]int64{}
	for _, r := range recs {
		tp := TopicPartition{Topic: r.Topic, Partition: r.Partition}
		offs[tp] = max(offs[tp], r.Offset+1)
	}
	return offs
}
