package consumer

import (
	"slices"
	"testing"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// TestQuirkNoTopicIDsGroup: Azure Event Hubs has no topic IDs (Metadata
// up to v9, before KIP-516's IDs in v10, OffsetFetch up to v8;
// Azure/azure-event-hubs-for-kafka#209, whose ApiVersions dump has no topic-ID version), so metadata
// names every topic with the zero ID. A group over two topics takes its
// positions from OffsetFetch by name and commits by name: each answer is
// matched to its topic by name, never by the shared zero ID (which would
// give one topic's offsets to the other).
func TestQuirkNoTopicIDsGroup(t *testing.T) {
	u0, u1 := gregor.TopicPartition{Topic: "u", Partition: 0}, gregor.TopicPartition{Topic: "u", Partition: 1}
	m, fc, _ := startFakeGroup(t, func(c *GroupConfig) { c.Topics = []string{"t", "u"} }, func(fc *fakeCoord) {
		fc.f.noTopicIDs = true
		fc.f.append(u0, dataBatch(0, 5))
		fc.f.append(u1, dataBatch(0, 5))
		fc.committed[u1] = 4 // the positions t[1] and u[1] resume from
		fc.committed[gregor.TopicPartition{Topic: "t", Partition: 1}] = 2
	})
	waitFor(t, "four partitions assigned", func() bool { return len(m.ownedSet()) == 4 })
	first := map[gregor.TopicPartition]int64{}
	for len(first) < 4 {
		for _, r := range receiveGroupN(t, m, 1) {
			tp := gregor.TopicPartition{Topic: r.Topic, Partition: r.Partition}
			if _, ok := first[tp]; !ok {
				first[tp] = r.Offset
			}
		}
	}
	if first[u1] != 4 || first[gregor.TopicPartition{Topic: "t", Partition: 1}] != 2 || first[u0] != 0 || first[tp0] != 0 {
		t.Fatalf("first offsets %v: want u[1] from its committed 4, t[1] from 2, the others from 0", first)
	}
	if err := m.Commit(bg(), map[gregor.TopicPartition]int64{tp0: 3, u0: 2}); err != nil {
		t.Fatalf("commit by name: %v", err)
	}
	if a, b := fc.committedOf(tp0), fc.committedOf(u0); a != 3 || b != 2 {
		t.Fatalf("committed t[0]=%d u[0]=%d, want 3 and 2", a, b)
	}
	fc.mu.Lock()
	defer fc.mu.Unlock()
	last := fc.commits[len(fc.commits)-1]
	for _, tc := range last.Topics {
		if tc.TopicID != (wire.UUID{}) || (tc.Name != "t" && tc.Name != "u") {
			t.Fatalf("OffsetCommit topic %q ID %v: want by name, zero ID", tc.Name, tc.TopicID)
		}
	}
}

// TestQuirkAbortedTransactionsUnordered: Redpanda's Fetch responses list
// aborted transactions in no particular order (Kafka's protocol promises
// none either; Java's consumer keeps them in a PriorityQueue by first
// offset, apache/kafka#2840), and before 24.1 Redpanda sent the list to
// read_uncommitted fetches too (redpanda-data/redpanda#18852,
// twmb/franz-go#758). read_committed still drops exactly the aborted
// records; read_uncommitted ignores the list.
func TestQuirkAbortedTransactionsUnordered(t *testing.T) {
	raw, aborted := txnLog(t)
	slices.SortFunc(aborted, func(a, b abortedTxn) int { return int(b.FirstOffset - a.FirstOffset) }) // newest first
	recs, _ := decodeFiltered(t, raw, 0, true, aborted)
	if got, want := offsetsOf(recs), []int64{0, 1, 6, 7, 9, 12, 13, 15}; !slices.Equal(got, want) {
		t.Fatalf("read_committed with the aborted list newest first: %v, want %v", got, want)
	}
	recs, _ = decodeFiltered(t, raw, 0, false, aborted)
	if got, want := offsetsOf(recs), []int64{0, 1, 3, 4, 6, 7, 9, 10, 12, 13, 14, 15}; !slices.Equal(got, want) {
		t.Fatalf("read_uncommitted given an aborted list: %v, want %v", got, want)
	}
}
