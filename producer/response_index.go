package producer

import "github.com/gregor-kafka/gregor/wire"

// answerIndex finds a batch's answer in a ProduceResponse whose partitions
// are not in request order: Kafka 4's broker builds the response from a
// hash map, so past a few partitions most answers are elsewhere than
// answerFor's first guesses, and scanning the response for each batch made
// parsing O(partitions²) (17% of the producer's CPU at 1,024 partitions on
// a real broker). Built once per response on the first miss: O(answers);
// each lookup O(topics in the response). Reused with its inflightReq.
type answerIndex struct {
	built bool
	// pos[ti][partition] is 1 + the partition's index in
	// pr.Responses[ti].PartitionResponses, 0 when absent.
	pos [][]int32
}

// maxIndexedPartition bounds a response topic's table (a broker answering
// absurd partition numbers gets the linear scan instead).
const maxIndexedPartition = 1 << 20

// find returns b's answer in pr and its topic and partition positions.
func (ix *answerIndex) find(pr *wire.ProduceResponse, b *batch) (*wire.ProduceResponsePartition, int, int) {
	if !ix.built {
		ix.build(pr)
	}
	for ti := range pr.Responses {
		t := &pr.Responses[ti]
		if t.Name != b.topic.name && (t.Name != "" || t.TopicID != b.topicID) {
			continue
		}
		if ti >= len(ix.pos) || ix.pos[ti] == nil {
			for pi := range t.PartitionResponses { // not indexed
				if t.PartitionResponses[pi].Index == b.part.partition {
					return &t.PartitionResponses[pi], ti, pi
				}
			}
			continue
		}
		if p := int(b.part.partition); p >= 0 && p < len(ix.pos[ti]) {
			if k := ix.pos[ti][p]; k > 0 {
				return &t.PartitionResponses[k-1], ti, int(k - 1)
			}
		}
	}
	return nil, 0, 0
}

// build indexes every topic of pr by partition number.
func (ix *answerIndex) build(pr *wire.ProduceResponse) {
	ix.built = true
	for len(ix.pos) < len(pr.Responses) {
		ix.pos = append(ix.pos, nil)
	}
	for ti := range pr.Responses {
		ps := pr.Responses[ti].PartitionResponses
		top := -1
		for i := range ps {
			top = max(top, int(ps[i].Index))
		}
		if top >= maxIndexedPartition {
			ix.pos[ti] = ix.pos[ti][:0:0] // nil-like: find scans this topic
			continue
		}
		row := ix.pos[ti][:0]
		if cap(row) < top+1 {
			row = make([]int32, 0, top+1)
		}
		row = row[:top+1]
		clear(row)
		for i := range ps {
			if ps[i].Index >= 0 {
				row[ps[i].Index] = int32(i + 1)
			}
		}
		if row == nil {
			row = []int32{}
		}
		ix.pos[ti] = row
	}
}
