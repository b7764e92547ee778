package wirecheck

import (
	"math"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// coreShapeKmsg brings a kmsg message in line with Kafka's message
// definitions (the source of truth) where kmsg departs from them:
//
//   - kmsg writes a tagged field in every flexible version, Kafka only in its
//     taggedVersions (e.g. Produce NodeEndpoints from v10, not v9), so a
//     tagged field outside its versions is reset to its default before kmsg
//     encodes it;
//   - kmsg's defaults for fields absent in a version differ from Kafka's for
//     Metadata AllowAutoTopicCreation (Kafka: true) and ListOffsets TimeoutMs
//     (Kafka: no default, 0), so decoded values are set to Kafka's;
//   - Metadata v0 cannot send null: its empty topic array means "all topics",
//     which gregor decodes as nil, the v1+ spelling of "all topics".
func coreShapeKmsg(m any, v int16) {
	switch m := m.(type) {
	case *kmsg.MetadataRequest:
		if v < 4 {
			m.AllowAutoTopicCreation = true
		}
		if v == 0 && len(m.Topics) == 0 {
			m.Topics = nil // v0: an empty array means all topics, which gregor decodes as nil (as v1+ says it)
		}
	case *kmsg.ListOffsetsRequest:
		if v < 10 {
			m.TimeoutMillis = 0
		}
	case *kmsg.ProduceResponse:
		if v < 10 {
			m.Brokers = nil
			for i := range m.Topics {
				for j := range m.Topics[i].Partitions {
					m.Topics[i].Partitions[j].CurrentLeader = kmsg.NewProduceResponseTopicPartitionCurrentLeader()
				}
			}
		}
	case *kmsg.FetchRequest:
		if v < 15 {
			m.ReplicaState = kmsg.NewFetchRequestReplicaState()
		}
		for i := range m.Topics {
			for j := range m.Topics[i].Partitions {
				p := &m.Topics[i].Partitions[j]
				if v < 17 {
					p.ReplicaDirectoryID = [16]byte{}
				}
				if v < 18 {
					p.HighWatermark = math.MaxInt64
				}
			}
		}
	case *kmsg.FetchResponse:
		if v < 16 {
			m.Brokers = nil
		}
	}
}
