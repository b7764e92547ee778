package adapter

import (
	"sort"

	"github.com/gregor-kafka/gregor/consumer/assign"
)

// rangeStandIn is Java's RangeAssignor ("range", eager) for the adapter's
// group consumers until package assign's assignors are merged: per topic,
// the members subscribed to it, ordered by group instance ID when both
// have one and by member ID otherwise (Java's MemberInfo order), get
// contiguous ranges, the first partitions%members one partition more.
// Rack-aware range (KIP-881) is not done here.
type rangeStandIn struct{}

func (rangeStandIn) Name() string                       { return "range" }
func (rangeStandIn) Protocol() assign.RebalanceProtocol { return assign.Eager }

func (rangeStandIn) Assign(members []assign.Member, topics map[string][]assign.Partition) (map[string][]assign.TopicPartitions, error) {
	out := map[string][]assign.TopicPartitions{}
	byTopic := map[string][]assign.Member{}
	for _, m := range members {
		out[m.MemberID] = nil
		for _, t := range m.Topics {
			byTopic[t] = append(byTopic[t], m)
		}
	}
	names := make([]string, 0, len(byTopic))
	for t := range byTopic {
		names = append(names, t)
	}
	sort.Strings(names)
	for _, t := range names {
		ms := byTopic[t]
		sort.Slice(ms, func(i, j int) bool {
			a, b := ms[i], ms[j]
			if a.InstanceID != "" && b.InstanceID != "" {
				return a.InstanceID < b.InstanceID
			}
			if a.InstanceID != "" || b.InstanceID != "" {
				return a.InstanceID != "" // Java orders members with an instance ID first
			}
			return a.MemberID < b.MemberID
		})
		ps := append([]assign.Partition(nil), topics[t]...)
		sort.Slice(ps, func(i, j int) bool { return ps[i].ID < ps[j].ID })
		per, extra := len(ps)/len(ms), len(ps)%len(ms)
		start := 0
		for i, m := range ms {
			k := per
			if i < extra {
				k++
			}
			if k == 0 {
				continue
			}
			ids := make([]int32, 0, k)
			for _, p := range ps[start : start+k] {
				ids = append(ids, p.ID)
			}
			start += k
			out[m.MemberID] = append(out[m.MemberID], assign.TopicPartitions{Topic: t, Partitions: ids})
		}
	}
	return out, nil
}
