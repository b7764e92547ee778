package wire

import "testing"

// BenchmarkFetchResponseDecode decodes a v16 Fetch response carrying 1 MiB
// of raw records over 8 partitions into a reused response and Reader (the
// records stay undecoded bytes aliasing the input).
func BenchmarkFetchResponseDecode(b *testing.B) {
	m := &FetchResponse{SessionID: 1}
	topic := FetchResponseTopic{TopicID: UUID{1}}
	for p := range int32(8) {
		fp := defaultFetchResponsePartition(p)
		fp.HighWatermark, fp.LastStableOffset, fp.LogStartOffset = 1000, 1000, 0
		fp.Records = make([]byte, 128<<10)
		topic.Partitions = append(topic.Partitions, fp)
	}
	m.Responses = []FetchResponseTopic{topic}
	in := m.AppendTo(nil, 16)
	var r Reader
	var got FetchResponse
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		r.Reset(in)
		if err := got.DecodeFrom(&r, 16); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProduceRequestEncode encodes a v13 Produce request of 8
// partitions into a reused buffer.
func BenchmarkProduceRequestEncode(b *testing.B) {
	m := &ProduceRequest{Acks: -1, TimeoutMs: 30000}
	t := ProduceRequestTopic{TopicID: UUID{1}}
	for p := range int32(8) {
		t.PartitionData = append(t.PartitionData, ProduceRequestPartition{Index: p, Records: make([]byte, 16<<10)})
	}
	m.TopicData = []ProduceRequestTopic{t}
	buf := m.AppendTo(nil, 13)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf = m.AppendTo(buf[:0], 13)
	}
}
