package client

import (
	"fmt"
	"testing"

	"github.com/gregor-kafka/gregor/wire"
)

// scaleMetadataResponse is a Metadata response for topics topics of
// partitions partitions each over three brokers (replication factor 3).
func scaleMetadataResponse(topics, partitions int) *wire.MetadataResponse {
	resp := &wire.MetadataResponse{ControllerID: 1}
	for id := int32(1); id <= 3; id++ {
		resp.Brokers = append(resp.Brokers, wire.MetadataResponseBroker{NodeID: id, Host: "broker.example", Port: 9092})
	}
	for t := range topics {
		name := fmt.Sprintf("topic-%05d", t)
		mt := wire.MetadataResponseTopic{Name: &name, TopicID: wire.UUID{byte(t >> 8), byte(t), 1}}
		for p := range partitions {
			leader := int32(p%3 + 1)
			rs := []int32{leader, leader%3 + 1, (leader+1)%3 + 1}
			mt.Partitions = append(mt.Partitions, wire.MetadataResponsePartition{PartitionIndex: int32(p), LeaderID: leader, LeaderEpoch: 7, ReplicaNodes: rs, IsrNodes: rs})
		}
		resp.Topics = append(resp.Topics, mt)
	}
	return resp
}

// BenchmarkMetadataScale (issue 37) is one full metadata refresh at
// 10,000 partitions and more: decoding the response (v12) and building
// the client's snapshot from it. It reports the cost per partition, so
// that a refresh is shown to be linear in the partitions it carries.
func BenchmarkMetadataScale(b *testing.B) {
	for _, shape := range []struct{ topics, partitions int }{{1000, 10}, {10, 1000}, {4000, 10}} {
		resp := scaleMetadataResponse(shape.topics, shape.partitions)
		body := resp.AppendTo(nil, 12)
		n := shape.topics * shape.partitions
		b.Run(fmt.Sprintf("topics=%d/partitions=%d", shape.topics, n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			var r wire.Reader
			for b.Loop() {
				var got wire.MetadataResponse
				r.Reset(body)
				if err := got.DecodeFrom(&r, 12); err != nil {
					b.Fatal(err)
				}
				if md := buildMetadata(&got, true); len(md.Topics) != shape.topics {
					b.Fatalf("%d topics, want %d", len(md.Topics), shape.topics)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/partition")
		})
	}
}
