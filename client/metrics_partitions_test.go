package client

import (
	"reflect"
	"testing"
)

// TestMergePartitions: entries of one partition from a producer and two
// consumers merge (counts add, the newest end offsets, the furthest-behind
// consumer's position and lag, the follower a consumer reads from); others
// stay, sorted.
func TestMergePartitions(t *testing.T) {
	none := PartitionMetrics{HighWatermark: -1, LastStableOffset: -1, Position: -1, Lag: -1}
	prod := none
	prod.Topic, prod.Partition, prod.ProducedRecords, prod.ProducedBytes = "a", 1, 10, 100
	c1 := PartitionMetrics{Topic: "a", Partition: 1, FetchedRecords: 4, FetchedBytes: 40, BufferedRecords: 1, BufferedBytes: 10, HighWatermark: 10, LastStableOffset: 10, Position: 8, Lag: 2}
	c2 := PartitionMetrics{Topic: "a", Partition: 1, FetchedRecords: 6, FetchedBytes: 60, HighWatermark: 9, LastStableOffset: 9, Position: 3, Lag: 6, FromFollower: true, ReadReplica: 2}
	other := none
	other.Topic, other.Partition, other.ProducedRecords = "a", 0, 1
	got := mergePartitions([]PartitionMetrics{c1, prod, other, c2})
	want := []PartitionMetrics{other, {Topic: "a", Partition: 1, ProducedRecords: 10, ProducedBytes: 100, FetchedRecords: 10, FetchedBytes: 100,
		BufferedRecords: 1, BufferedBytes: 10, HighWatermark: 10, LastStableOffset: 10, Position: 3, Lag: 6, FromFollower: true, ReadReplica: 2}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("merged\n%+v\nwant\n%+v", got, want)
	}
}
