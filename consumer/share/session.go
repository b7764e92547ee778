package share

import (
	"cmp"
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

// ackBatches builds the acknowledgement batches of one partition from its
// acks sorted by offset (as groupAcks leaves them): contiguous offsets in
// one batch, with one type when all agree and one type per offset
// otherwise.
func ackBatches(sorted []ack) []wire.ShareAcknowledgementBatch {
	var out []wire.ShareAcknowledgementBatch
	for i := 0; i < len(sorted); {
		j := i + 1
		same := true
		for j < len(sorted) && sorted[j].offset == sorted[j-1].offset+1 {
			same = same && sorted[j].typ == sorted[i].typ
			j++
		}
		run := sorted[i:j]
		var types []int8
		if same {
			types = []int8{run[0].typ}
		} else {
			types = make([]int8, len(run))
			for k, a := range run {
				types[k] = a.typ
			}
		}
		out = append(out, wire.ShareAcknowledgementBatch{FirstOffset: run[0].offset, LastOffset: run[len(run)-1].offset, AcknowledgeTypes: types})
		i = j
	}
	return out
}

// groupAcks sorts acks in place by partition and offset and splits them by
// partition (the map's values are runs of acks, not copies), in partition
// order.
func groupAcks(acks []ack) ([]gregor.TopicPartition, map[gregor.TopicPartition][]ack) {
	slices.SortFunc(acks, func(a, b ack) int {
		return cmp.Or(cmp.Compare(a.tp.Topic, b.tp.Topic), cmp.Compare(a.tp.Partition, b.tp.Partition), cmp.Compare(a.offset, b.offset))
	})
	var order []gregor.TopicPartition
	by := map[gregor.TopicPartition][]ack{}
	for i := 0; i < len(acks); {
		j := i + 1
		for j < len(acks) && acks[j].tp == acks[i].tp {
			j++
		}
		order = append(order, acks[i].tp)
		by[acks[i].tp] = acks[i:j:j]
		i = j
	}
	return order, by
}
