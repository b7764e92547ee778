package invariant

import (
	"slices"
	"testing"
)

func meta(s int, source string, leader, epoch int32) PartitionSample {
	return PartitionSample{At: at(s), Source: source, TP: tp0, Leader: leader, LeaderEpoch: epoch, HighWatermark: -1, LogStart: -1}
}

func hwm(s int, hw int64) PartitionSample {
	return PartitionSample{At: at(s), TP: tp0, Leader: -1, LeaderEpoch: -1, HighWatermark: hw, LogStart: 0}
}

func ackedAt(off int64, s int) Send {
	snd := acked("p", tp0, "r", off)
	snd.Completed = at(s)
	return snd
}

// quorumCases pair, for every quorum rule, samples that keep it with
// samples that break it.
var quorumCases = []struct {
	name  string
	s     Samples
	sends []Send
	want  []Rule
}{
	{"one leader per epoch, epochs rise", Samples{Quorum: []QuorumSample{
		{At: at(0), Leader: 1, Epoch: 3}, {At: at(1), Leader: -1, Epoch: 4}, {At: at(2), Leader: 2, Epoch: 4}, {At: at(3), Leader: 2, Epoch: 4}}}, nil, nil},
	{"two quorum leaders in epoch 4", Samples{Quorum: []QuorumSample{
		{At: at(0), Leader: 1, Epoch: 4}, {At: at(1), Leader: 2, Epoch: 4}}}, nil, []Rule{RuleQuorumTwoLeaders}},
	{"quorum epoch went back", Samples{Quorum: []QuorumSample{
		{At: at(0), Leader: 1, Epoch: 4}, {At: at(1), Leader: 1, Epoch: 3}}}, nil, []Rule{RuleQuorumEpochRegress}},
	{"partition epochs per broker rise; a lagging broker is not a regress", Samples{Partitions: []PartitionSample{
		meta(0, "b1", 1, 5), meta(1, "b2", 1, 5), meta(2, "b1", 2, 6), meta(3, "b2", 1, 5), meta(4, "b2", 2, 6)}}, nil, nil},
	{"two partition leaders in epoch 6", Samples{Partitions: []PartitionSample{
		meta(0, "b1", 2, 6), meta(1, "b2", 3, 6)}}, nil, []Rule{RulePartitionTwoLeaders}},
	{"a broker's partition epoch went back", Samples{Partitions: []PartitionSample{
		meta(0, "b1", 2, 6), meta(1, "b1", 1, 5)}}, nil, []Rule{RulePartitionEpochRegress}},
	{"high watermark rises or stays", Samples{Partitions: []PartitionSample{hwm(0, 3), hwm(1, 3), hwm(2, 9)}}, nil, nil},
	{"high watermark went back", Samples{Partitions: []PartitionSample{hwm(0, 9), hwm(1, 3)}}, nil, []Rule{RuleHighWatermarkRegress}},
	{"records acknowledged before the change are below the new high watermark", Samples{Partitions: []PartitionSample{
		meta(0, "b1", 1, 5), hwm(1, 4), meta(3, "b1", 1, 5), meta(5, "b1", 2, 6), hwm(6, 8)}},
		// offset 7 completed after the last epoch-5 sample: not judged.
		[]Send{ackedAt(2, 1), ackedAt(3, 2), ackedAt(7, 4)}, nil},
	{"offset 3 acknowledged before the change, high watermark 3 after it", Samples{Partitions: []PartitionSample{
		meta(0, "b1", 1, 5), hwm(1, 1), meta(3, "b1", 1, 5), meta(5, "b1", 2, 6), hwm(6, 3)}},
		[]Send{ackedAt(0, 1), ackedAt(3, 2)}, []Rule{RuleAckedAfterLeaderMoved}},
}

// TestCheckQuorum runs every sample set and requires exactly the listed
// violations; every quorum rule must be broken by one.
func TestCheckQuorum(t *testing.T) {
	broken := map[Rule]bool{}
	for _, c := range quorumCases {
		vs := CheckQuorum(&c.s, c.sends)
		var got []Rule
		for _, v := range vs {
			got = append(got, v.Rule)
			broken[v.Rule] = true
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: rules %v, want %v; violations: %v", c.name, got, c.want, vs)
		}
	}
	for _, r := range QuorumRules {
		if !broken[r] {
			t.Errorf("no sample set breaks %s", r)
		}
	}
}
