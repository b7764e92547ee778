package producer

import (
	"log/slog"
	"math"

	"github.com/gregor-kafka/gregor/wire"
)

// markGapLocked records that sequenced batch b will not complete: batches after it
// cannot be written under the current sequence (KIP-360). Unsequenced
// batches leave no gap.
func (p *Producer) markGapLocked(part *partState, b *batch) {
	if part == nil || !b.sequenced() {
		return
	}
	if !part.gap || b.baseSeq < part.gapSeq {
		part.gapSeq = b.baseSeq
	}
	part.gap = true
	part.gapUnknown = part.gapUnknown || b.maybeWritten
}

// resetPartitionLocked restarts a partition's sequence under a new epoch once
// nothing before its gap is outstanding (KIP-360). A remaining sequenced
// batch that may have been written after an unresolved gap cannot be resent
// without risking a duplicate, so it fails PossiblySent; the others, which
// the broker definitely rejected, are sequenced again.
func (p *Producer) resetPartitionLocked(part *partState) {
	for i := 0; i < len(part.batches); i++ {
		b := part.batches[i]
		if !b.sequenced() {
			continue
		}
		if (part.gapUnknown && b.maybeWritten) || p.txn != nil {
			// In a transaction no batch is sequenced again (the epoch
			// stays until the transaction ends; it must abort).
			p.failBatchLocked(b, ErrSequenceReset, certaintyOf(b))
			p.removeBatchLocked(part, i)
			p.recycleLocked(b)
			i--
			continue
		}
		b.unsequence()
	}
	part.gap, part.gapUnknown, part.retry = false, false, false
	p.logger().Info("gregor: partition sequence reset", "topic", part.topic.name, "partition", part.partition)
	if part.hasID && p.ident.current(part.pid, part.epoch) && p.txn == nil {
		p.bumpEpochLocked()
	}
	part.hasID = false
}

// bumpEpochLocked moves the producer to the next epoch locally, as KIP-360 lets an
// idempotent producer do; at epoch exhaustion it asks for a new producer ID.
func (p *Producer) bumpEpochLocked() {
	if !p.ident.bump() {
		p.logger().Info("gregor: producer epoch exhausted, requesting a new producer ID", "producer_id", p.ident.pid, "epoch", p.ident.epoch)
		return
	}
	p.logger().Info("gregor: producer epoch bumped", "producer_id", p.ident.pid, "epoch", p.ident.epoch)
}

// assignSequenceLocked gives b its sequence range on first send. An idle
// partition adopts the producer's current ID and epoch at sequence 0.
func (p *Producer) assignSequenceLocked(part *partState, b *batch) {
	if b.sequenced() {
		return
	}
	p.restartSequenceLocked(part)
	if part.seqID.IsZero() {
		part.seqID = part.topic.id
	}
	if !part.hasID || !p.ident.adopted(part.pid, part.epoch) {
		idle := true
		for _, x := range part.batches {
			if x.sequenced() {
				idle = false
				break
			}
		}
		if !part.hasID || idle {
			part.hasID, part.pid, part.epoch, part.nextSeq = true, p.ident.pid, p.ident.epoch, 0
			part.seqID = part.topic.id
			part.confirmed = false
		}
	}
	b.pid, b.epoch, b.baseSeq = part.pid, part.epoch, part.nextSeq
	b.ackedEnd = part.ackedEnd
	b.compact(&p.pools)
	b.reserve(&p.pools)
	b.numSeq = int32(b.live)
	b.sequence()
	if need := encodedRoom(part, len(b.stream)+b.borrowed); p.cfg.Compression != wire.CompressionNone && b.zs == nil && !b.streamed && cap(b.encoded) < need {
		p.pools.bytes.put(b.encoded)
		b.encoded = p.pools.bytes.get(need)
	}
	next := int64(part.nextSeq) + int64(b.numSeq)
	if next > math.MaxInt32 {
		next -= math.MaxInt32 + 1 // sequences wrap to 0 (Kafka DefaultRecordBatch.incrementSequence)
	}
	part.nextSeq = int32(next)
}

// encodedRoom is the capacity to reserve for compressing a stream of n
// bytes: the partition's last compression ratio plus a quarter and 4 KiB,
// at most n plus a frame's overhead. A full-size reservation per batch (a
// second megabyte for a batch that compresses to a few kilobytes) exhausted
// the buffer pool's budget, so buffers kept being allocated afresh; when the
// estimate is short, compressing grows the buffer (an allocation, not an
// error).
func encodedRoom(part *partState, n int) int {
	room := n + 64
	if part.lastEncoded > 0 && part.lastStream > 0 {
		est := int(int64(n) * int64(part.lastEncoded) / int64(part.lastStream))
		room = min(room, est+est/4+4096)
	}
	return room
}

// logger returns the client's logger, or a discarding one for a producer
// built on a test client.
func (p *Producer) logger() *slog.Logger {
	if p.log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return p.log
}

// topicRecreated reports whether part's sequence identity belongs to a
// topic ID other than its topic's current one: the topic was deleted and
// created again under the same name.
func topicRecreated(part *partState) bool {
	id := part.topic.id
	return part.hasID && !part.seqID.IsZero() && !id.IsZero() && id != part.seqID
}

// restartSequenceLocked starts part's sequences anew when its topic was
// recreated (DESIGN.md: sequences belong to a topic ID), once none of its
// batches is in flight: the new topic's partition holds no state for this
// producer, so its batches lose the old topic's sequences and the
// partition adopts the producer's identity at sequence 0 again. The old
// topic's gap, if any, goes with it (no epoch bump).
//
// Not so where Produce names topics (before v13: Kafka 4.0 and earlier;
// part.byName): the broker cannot tell the incarnations apart, so every
// batch sent since the recreation, before the producer's metadata showed
// the new ID, went to the new topic's log, which took its sequence as the
// first of a producer it held no state for (ProducerAppendInfo accepts
// any). The sequences continue under the name, as the Java producer's do:
// sequence 0 under the same epoch would be refused OUT_OF_ORDER_SEQUENCE_NUMBER
// by a log that already took them (an epoch bump of every partition for
// an idempotent producer, a failed batch and an aborted transaction for a
// transactional one). Only one batch is in flight until the new log
// acknowledges one (confirmed), as for a partition it has not seen.
func (p *Producer) restartSequenceLocked(part *partState) {
	if !topicRecreated(part) || part.inflight > 0 {
		return
	}
	if part.byName {
		p.logger().Info("gregor: topic recreated, Produce names topics: partition sequence continues", "topic", part.topic.name,
			"partition", part.partition, "topic_id", part.topic.id.String(), "was", part.seqID.String(), "next_sequence", part.nextSeq)
		part.confirmed, part.continued, part.seqID = false, true, part.topic.id
		return
	}
	unsequenceAll(part)
	p.logger().Info("gregor: topic recreated, partition sequence restarts", "topic", part.topic.name, "partition", part.partition,
		"topic_id", part.topic.id.String(), "was", part.seqID.String(), "next_sequence", part.nextSeq)
	part.hasID, part.confirmed, part.seqID = false, false, part.topic.id
	part.gap, part.gapUnknown, part.retry = false, false, false
}

// unsequenceAll takes their sequences from part's batches. A batch sent
// before may have been written: its certainty stays (certainty never
// improves).
func unsequenceAll(part *partState) {
	for _, b := range part.batches {
		if b.sequenced() {
			written := b.maybeWritten
			b.unsequence()
			b.maybeWritten = written
		}
	}
}

// restartContinuedLocked handles OUT_OF_ORDER_SEQUENCE_NUMBER for b, the
// first batch whose sequence continued into a recreated topic's log
// (part.continued, Produce by name): that log held state for the producer
// after all. A transaction's marker written by name after the recreation
// (the coordinator writes them after EndTxn returned) leaves the producer's
// epoch there with no sequence, and that log takes sequence 0 only. The
// partition then restarts at 0 under the same epoch, once; it reports
// whether it did (b was not written: the broker refused it).
func (p *Producer) restartContinuedLocked(part *partState, b *batch) bool {
	if !part.continued || b.maybeWritten {
		return false
	}
	part.continued = false
	unsequenceAll(part)
	part.hasID, part.confirmed = false, false
	p.logger().Info("gregor: recreated topic refused the continued sequence, partition sequence restarts", "topic", part.topic.name,
		"partition", part.partition, "topic_id", part.topic.id.String())
	return true
}
