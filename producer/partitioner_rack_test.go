package producer

import (
	"slices"
	"testing"

	"github.com/gregor-kafka/gregor/client"
)

// rackMetadata: brokers 1-3 in rack-a/b/c, broker 4 without a rack;
// partitions 0-5 of "t" led by 1, 2, 2, 3, none, 4.
func rackMetadata() *client.Metadata {
	rack := func(s string) *string { return &s }
	return &client.Metadata{
		Brokers: []client.Broker{{NodeID: 1, Rack: rack("rack-a")}, {NodeID: 2, Rack: rack("rack-b")}, {NodeID: 3, Rack: rack("rack-c")}, {NodeID: 4}},
		Topics: map[string]*client.TopicMetadata{"t": {Name: "t", Partitions: []client.PartitionMetadata{
			{Partition: 0, Leader: 1}, {Partition: 1, Leader: 2}, {Partition: 2, Leader: 2}, {Partition: 3, Leader: 3},
			{Partition: 4, Leader: -1}, {Partition: 5, Leader: 4}}}},
	}
}

// TestInRack: the rack-aware candidates are the partitions with a leader
// whose broker.rack equals the client's rack (Java: leader.hasRack() &&
// leader.rack().equals(rack)); a leader without a rack never matches, not
// even the empty rack.
func TestInRack(t *testing.T) {
	md := rackMetadata()
	tm := md.Topics["t"]
	for rack, want := range map[string][]int32{"rack-b": {1, 2}, "rack-a": {0}, "rack-z": nil, "": nil} {
		if got := inRack(nil, tm, md, rack); !slices.Equal(got, want) {
			t.Errorf("inRack(%q) = %v, want %v", rack, got, want)
		}
	}
}

// TestRackAwarePartitioning (KIP-1123): with RackAwarePartitioning a
// keyless record goes only to the partitions led in the producer's rack,
// switching between them as the sticky partitioner does; with no such
// partition, to any with a leader; keyed records keep murmur2; without the
// option the whole topic is used.
func TestRackAwarePartitioning(t *testing.T) {
	choose := func(cfg Config, md *client.Metadata, key []byte) map[int32]int {
		cfg.BatchMaxBytes = 1000
		p := &Producer{cfg: settings{Config: cfg}}
		ts := &topicState{name: "t", sticky: stickyState{partition: -1}}
		p.applyTopicLocked(ts, md)
		seen := map[int32]int{}
		for range 500 {
			seen[p.chooseLocked(ts, key, 300)]++
		}
		return seen
	}
	keys := func(m map[int32]int) []int32 {
		var out []int32
		for k := range m {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	md := rackMetadata()
	if got := keys(choose(Config{Rack: "rack-b", RackAwarePartitioning: true}, md, nil)); !slices.Equal(got, []int32{1, 2}) {
		t.Errorf("rack-b, rack-aware: partitions %v, want [1 2]", got)
	}
	if got := keys(choose(Config{Rack: "rack-z", RackAwarePartitioning: true}, md, nil)); !slices.Equal(got, []int32{0, 1, 2, 3, 5}) {
		t.Errorf("a rack no leader is in: partitions %v, want every one with a leader", got)
	}
	if got := keys(choose(Config{Rack: "rack-b"}, md, nil)); !slices.Equal(got, []int32{0, 1, 2, 3, 5}) {
		t.Errorf("rack-b, not rack-aware: partitions %v, want every one with a leader", got)
	}
	key := []byte("k")
	if got := keys(choose(Config{Rack: "rack-b", RackAwarePartitioning: true}, md, key)); !slices.Equal(got, []int32{KeyPartition(key, 6)}) {
		t.Errorf("keyed record: partitions %v, want murmur2's %d", got, KeyPartition(key, 6))
	}
	// Leadership moves out of the rack: the next metadata drops the partition.
	md2 := rackMetadata()
	md2.Topics["t"].Partitions[2].Leader = 3
	p := &Producer{cfg: settings{Config: Config{Rack: "rack-b", RackAwarePartitioning: true, BatchMaxBytes: 1000}}}
	ts := &topicState{name: "t", sticky: stickyState{partition: -1}}
	p.applyTopicLocked(ts, md)
	p.applyTopicLocked(ts, md2)
	if !slices.Equal(ts.availRack, []int32{1}) {
		t.Errorf("after partition 2's leader left rack-b: candidates %v, want [1]", ts.availRack)
	}
}
