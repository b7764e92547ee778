package txn

import (
	"context"
	"errors"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/wire"
)

// Offset is one consumed position to commit with the transaction.
type Offset struct {
	// Topic and Partition name the consumed partition.
	Topic     string
	Partition int32
	// Offset is the next offset to consume: the last processed record's
	// offset + 1.
	Offset int64
	// LeaderEpoch is the leader epoch of the last processed record; 0 or
	// negative is sent as unknown (-1), which is always safe.
	LeaderEpoch int32
	// Metadata is free-form text stored with the offset.
	Metadata string
}

// SendOffsets adds the consumer group's offsets to the open transaction
// (KIP-98; KIP-447 group metadata fences zombie consumers): they are
// committed with the transaction's records, or not at all. With
// transactions v1 it first sends AddOffsetsToTxn to the transaction
// coordinator; with v2 TxnOffsetCommit (v5) adds the group itself. The
// TxnOffsetCommit goes to the group coordinator with gm's generation (or
// member epoch), member ID and instance ID; a group without members takes
// generation -1 and an empty member ID. It first waits for the previous
// transaction's end if that still runs. Retriable answers are retried until
// ctx ends. Errors: ErrAbortable (e.g. ILLEGAL_GENERATION,
// UNKNOWN_MEMBER_ID, FENCED_INSTANCE_ID: the consumer lost its partitions;
// the transaction must abort), ErrFenced/ErrFatal, ErrState, or a
// retriable error (the offsets may or may not be in the transaction: retry
// SendOffsets, or Abort).
func (t *Producer) SendOffsets(ctx context.Context, offsets []Offset, gm consumer.GroupMetadata) error {
	t.op.Lock()
	defer t.op.Unlock()
	if err := t.awaitEnd(ctx); err != nil {
		return err
	}
	t.mu.Lock()
	if err := t.usableLocked(); err != nil {
		t.mu.Unlock()
		return err
	}
	if t.st != stInTxn {
		t.mu.Unlock()
		return stateErr("SendOffsets outside a transaction")
	}
	if t.abortErr != nil {
		t.mu.Unlock()
		return t.abortErr
	}
	if gm.GroupID == "" {
		t.mu.Unlock()
		return stateErr("SendOffsets without a group ID")
	}
	v2, pid, epoch := t.v2, t.pid, t.epoch
	if v2 {
		t.started = true // TxnOffsetCommit v5 may add the group from here
	}
	t.mu.Unlock()
	id := t.cfg.TransactionalID
	if !v2 {
		req := &wire.AddOffsetsToTxnRequest{TransactionalID: id, ProducerID: pid, ProducerEpoch: epoch, GroupID: gm.GroupID}
		if _, err := t.coordCall(ctx, client.CoordinatorTransaction, id, req, addOffsetsErr, true); err != nil {
			return t.offsetsFailed(ctx, err)
		}
		t.mu.Lock()
		t.started = true
		t.mu.Unlock()
	}
	req := &wire.TxnOffsetCommitRequest{TransactionalID: id, GroupID: gm.GroupID, ProducerID: pid, ProducerEpoch: epoch,
		GenerationIDOrMemberEpoch: gm.GenerationID, MemberID: gm.MemberID, Topics: offsetTopics(offsets), VersionCap: 5}
	if gm.InstanceID != "" {
		req.GroupInstanceID = &gm.InstanceID
	}
	if !v2 {
		req.VersionCap = 4
	}
	if _, err := t.coordCall(ctx, client.CoordinatorGroup, gm.GroupID, req, txnOffsetCommitErr, true); err != nil {
		return t.offsetsFailed(ctx, err)
	}
	return nil
}

// offsetsFailed classifies a SendOffsets failure: broker rejections make
// the transaction abortable (or the producer fatal); other failures
// (ctx ended while retrying) are returned as they are.
func (t *Producer) offsetsFailed(ctx context.Context, err error) error {
	var ke *wire.KafkaError
	if ctx.Err() != nil || (!errors.As(err, &ke) && !errors.Is(err, ErrUnsupported)) {
		return err
	}
	err = classifyAny(err)
	t.mu.Lock()
	t.failLocked(err)
	t.mu.Unlock()
	return err
}

// offsetTopics groups offsets by topic, in first-seen order.
func offsetTopics(offsets []Offset) []wire.TxnOffsetCommitTopic {
	var out []wire.TxnOffsetCommitTopic
	idx := map[string]int{}
	for _, o := range offsets {
		i, ok := idx[o.Topic]
		if !ok {
			i = len(out)
			idx[o.Topic] = i
			out = append(out, wire.TxnOffsetCommitTopic{Name: o.Topic})
		}
		epoch := o.LeaderEpoch
		if epoch <= 0 {
			epoch = -1
		}
		var md *string
		if o.Metadata != "" {
			m := o.Metadata
			md = &m
		}
		out[i].Partitions = append(out[i].Partitions, wire.TxnOffsetCommitPartition{PartitionIndex: o.Partition,
			CommittedOffset: o.Offset, CommittedLeaderEpoch: epoch, CommittedMetadata: md})
	}
	return out
}
