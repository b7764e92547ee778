package producer

import (
	"testing"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// TestRecreatedTopicKeepsPossiblySent: when a recreated topic restarts a
// partition's sequences, a batch whose earlier attempt to the old topic
// ended with an unknown outcome stays possibly sent (certainty never
// improves), while one the old topic never saw is still not sent.
func TestRecreatedTopicKeepsPossiblySent(t *testing.T) {
	oldID, newID := wire.UUID{1}, wire.UUID{2}
	unknown := &batch{phase: batchSequenced, maybeWritten: true}
	refused := &batch{phase: batchSequenced}
	part := &partState{
		topic:   &topicState{name: "t", id: newID},
		batches: []*batch{unknown, refused},
		hasID:   true,
		seqID:   oldID,
	}
	p := &Producer{}
	p.restartSequenceLocked(part)
	if part.seqID != newID || part.hasID {
		t.Fatalf("sequences not restarted: seqID %v, hasID %v", part.seqID, part.hasID)
	}
	if unknown.sequenced() || refused.sequenced() {
		t.Fatal("a batch kept its old topic's sequence range")
	}
	if got := certaintyOf(unknown); got != client.PossiblySent {
		t.Errorf("batch with an unknown outcome on the old topic: %v, want PossiblySent", got)
	}
	if got := certaintyOf(refused); got != client.NotSent {
		t.Errorf("batch the old topic refused: %v, want NotSent", got)
	}
}

// TestRecreatedTopicByNameContinues: where Produce names topics, a
// recreated topic's partition keeps its sequences (the new log took them
// as the first of a producer it held no state for); only the pipelining
// guard starts again.
func TestRecreatedTopicByNameContinues(t *testing.T) {
	oldID, newID := wire.UUID{1}, wire.UUID{2}
	b := &batch{phase: batchSequenced, baseSeq: 5}
	part := &partState{
		topic:     &topicState{name: "t", id: newID},
		batches:   []*batch{b},
		hasID:     true,
		confirmed: true,
		byName:    true,
		nextSeq:   8,
		seqID:     oldID,
	}
	(&Producer{}).restartSequenceLocked(part)
	if !b.sequenced() || b.baseSeq != 5 || !part.hasID || part.nextSeq != 8 {
		t.Fatalf("sequences restarted: batch sequenced %v at %d, hasID %v, next %d", b.sequenced(), b.baseSeq, part.hasID, part.nextSeq)
	}
	if part.seqID != newID || part.confirmed || !part.continued {
		t.Fatalf("seqID %v, confirmed %v, continued %v: want the new ID, unconfirmed, continued", part.seqID, part.confirmed, part.continued)
	}
}

// TestRecreatedTopicContinuedRefused: when the recreated topic's log
// refuses the continued sequence (OUT_OF_ORDER_SEQUENCE_NUMBER: a
// transaction marker written there by name gave it the producer's epoch
// with no sequence; seen on Kafka 3.7.2 as "2 (incoming seq. number), -1
// (current end sequence number)"), the partition restarts at 0 under the
// same epoch once, even in a transaction, instead of failing the batch.
func TestRecreatedTopicContinuedRefused(t *testing.T) {
	p := &Producer{}
	b := &batch{phase: batchSequenced, baseSeq: 2, pid: 7, epoch: 3}
	part := &partState{topic: &topicState{name: "t", id: wire.UUID{2}}, batches: []*batch{b}, hasID: true, pid: 7, epoch: 3,
		nextSeq: 3, byName: true, continued: true, seqID: wire.UUID{2}}
	if !p.restartContinuedLocked(part, b) {
		t.Fatal("the refused continued sequence did not restart")
	}
	if b.sequenced() || part.hasID || part.continued {
		t.Fatalf("batch sequenced %v, hasID %v, continued %v: want a restart at 0", b.sequenced(), part.hasID, part.continued)
	}
	if p.restartContinuedLocked(part, b) {
		t.Fatal("restarted twice")
	}
	written := &batch{phase: batchSequenced, maybeWritten: true}
	part.continued = true
	if p.restartContinuedLocked(part, written) {
		t.Fatal("restarted for a batch that may have been written")
	}
}
