package producer

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gregor-kafka/gregor/wire"
)

// matchCase returns a request of n batches over topics "a" and "b" (n/2
// partitions each, "b" named by topic ID only in the response, as Produce
// v13+ answers) and its response, each answer's BaseOffset its batch's
// index; order reverses the response's partitions.
func matchCase(n int, reverse bool) (*inflightReq, *wire.ProduceResponse) {
	r := &inflightReq{}
	pr := &wire.ProduceResponse{}
	idB := wire.UUID{1}
	for ti, name := range []string{"a", "b"} {
		t := &topicState{name: name}
		rt := wire.ProduceResponseTopic{Name: name}
		if name == "b" {
			rt = wire.ProduceResponseTopic{TopicID: idB}
		}
		for k := range n / 2 {
			part := &partState{topic: t, partition: int32(k)}
			b := &batch{topic: t, part: part}
			if name == "b" {
				b.topicID = idB
			}
			r.batches = append(r.batches, b)
			r.results = append(r.results, batchResult{leader: -1})
			rt.PartitionResponses = append(rt.PartitionResponses, wire.ProduceResponsePartition{Index: int32(k), BaseOffset: int64(ti*(n/2) + k)})
		}
		if reverse {
			ps := rt.PartitionResponses
			for i, j := 0, len(ps)-1; i < j; i, j = i+1, j-1 {
				ps[i], ps[j] = ps[j], ps[i]
			}
		}
		pr.Responses = append(pr.Responses, rt)
	}
	return r, pr
}

// TestParseResponseMatchesEveryPartition: each batch gets its own
// partition's answer whether the response is in request order or not
// (topic by name or by ID), and a partition the response lacks fails
// with errMissingPartition.
func TestParseResponseMatchesEveryPartition(t *testing.T) {
	p := &Producer{}
	for _, reverse := range []bool{false, true} {
		r, pr := matchCase(8, reverse)
		pr.Responses[1].PartitionResponses = pr.Responses[1].PartitionResponses[1:] // one answer missing
		p.parseResponse(r, pr)
		missing := 0
		for i, res := range r.results {
			if errors.Is(res.err, errMissingPartition) {
				missing++
				continue
			}
			if res.err != nil || res.baseOffset != int64(i) {
				t.Fatalf("reverse %v: batch %d got %+v, want BaseOffset %d", reverse, i, res, i)
			}
		}
		if missing != 1 {
			t.Fatalf("reverse %v: %d batches missing, want 1", reverse, missing)
		}
	}
}

// BenchmarkParseResponse matches a response of n partitions to its
// request's batches, in request order and reversed (Kafka 4 answers in
// its hash map's order). One op is one response.
func BenchmarkParseResponse(b *testing.B) {
	for _, n := range []int{16, 1024, 4096} {
		for _, reverse := range []bool{false, true} {
			b.Run(fmt.Sprintf("parts=%d/reversed=%v", n, reverse), func(b *testing.B) { benchParseResponse(b, n, reverse) })
		}
	}
}

func benchParseResponse(b *testing.B, n int, reverse bool) {
	p := &Producer{}
	r, pr := matchCase(n, reverse)
	b.ReportAllocs()
	for b.Loop() {
		p.parseResponse(r, pr)
	}
}
