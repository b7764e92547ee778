package share

import (
	"math"
	"slices"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// session is the member's share session on one broker.
type session struct {
	// epoch is the next ShareSessionEpoch to send: 0 opens the session.
	epoch int32
	// parts are the partitions the broker's session holds, each with the
	// topic ID it was added under.
	parts map[gregor.TopicPartition]wire.UUID
}

// recreated reports whether a topic of the session's partitions now has
// another ID in md: it was deleted and created again, and the broker's
// session still holds the old topic's partitions under the old ID, which
// the responses (named by the new ID) would never answer.
func (s *session) recreated(md map[string]topicMeta) bool {
	for tp, id := range s.parts {
		if m, ok := md[tp.Topic]; ok && !m.id.IsZero() && !id.IsZero() && m.id != id {
			return true
		}
	}
	return false
}

// nextEpoch is the epoch after e (1 follows MaxInt32; 0 and -1 are the
// open and close markers).
func nextEpoch(e int32) int32 {
	if e == math.MaxInt32 {
		return 1
	}
	return e + 1
}

// reset forgets the session: the next request opens a new one.
func (s *session) reset() {
	s.epoch = 0
	s.parts = map[gregor.TopicPartition]wire.UUID{}
}

// ackBatches builds the acknowledgement batches of one partition: offsets
// sorted, contiguous offsets in one batch, with one type when all agree and
// one type per offset otherwise.
func ackBatches(acks []ack) []wire.ShareAcknowledgementBatch {
	sorted := slices.Clone(acks)
	slices.SortFunc(sorted, func(a, b ack) int {
		switch {
		case a.offset < b.offset:
			return -1
		case a.offset > b.offset:
			return 1
		}
		return 0
	})
	var out []wire.ShareAcknowledgementBatch
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && sorted[j].offset == sorted[j-1].offset+1 {
			j++
		}
		run := sorted[i:j]
		types := make([]int8, len(run))
		same := true
		for k, a := range run {
			types[k] = a.typ
			same = same && a.typ == run[0].typ
		}
		if same {
			types = types[:1]
		}
		out = append(out, wire.ShareAcknowledgementBatch{FirstOffset: run[0].offset, LastOffset: run[len(run)-1].offset, AcknowledgeTypes: types})
		i = j
	}
	return out
}

// groupAcks splits acks by partition, keeping first-seen partition order.
func groupAcks(acks []ack) ([]gregor.TopicPartition, map[gregor.TopicPartition][]ack) {
	var order []gregor.TopicPartition
	by := map[gregor.TopicPartition][]ack{}
	for _, a := range acks {
		if _, ok := by[a.tp]; !ok {
			order = append(order, a.tp)
		}
		by[a.tp] = append(by[a.tp], a)
	}
	return order, by
}
