package assign

import (
	"fmt"
	"slices"
	"sort"
)

// topicPartition is one partition, the Java TopicPartition.
type topicPartition struct {
	topic     string
	partition int32
}

// tpLess orders by topic (Java String order), then partition.
func tpLess(a, b topicPartition) bool { return tpCompare(a, b) < 0 }

// group is the leader's view shared by all assignors: the members in the
// order Java's leader iterates its subscriptions map, and the partitions of
// every topic with metadata.
type group struct {
	members []*member          // in Java HashMap iteration order
	byID    map[string]*member // member id → member
	// topics holds the topics some member subscribed to that have at least
	// one partition, each with its partitions sorted by id, as
	// AbstractPartitionAssignor hands them to the assignors.
	topics map[string][]Partition
}

// member is one subscription, with its topics deduplicated in order.
type member struct {
	Member
	topicSet map[string]bool
	owned    []topicPartition // Owned, flattened in order
}

func (m *member) subscribes(topic string) bool { return m.topicSet[topic] }

// hasInstance reports whether the member is static (Java's
// Optional<String> groupInstanceId is present).
func (m *member) hasInstance() bool { return m.InstanceID != "" }

// rack is the member's rack, "" if unset or empty (Java treats both alike).
func (m *member) rack() string { return m.Rack }

// newGroup validates and indexes the input of Assign. Members must have
// distinct, non-empty ids. Members are iterated as Java's leader does: its
// subscriptions are a HashMap filled in JoinGroup response order, which
// the order of members stands for.
func newGroup(members []Member, topics map[string][]Partition) (*group, error) {
	g := &group{byID: make(map[string]*member, len(members)), topics: make(map[string][]Partition, len(topics))}
	ids := make([]string, 0, len(members))
	for i := range members {
		m := &member{Member: members[i], topicSet: make(map[string]bool, len(members[i].Topics))}
		if m.MemberID == "" {
			return nil, fmt.Errorf("assign: member %d has an empty member id", i)
		}
		if _, dup := g.byID[m.MemberID]; dup {
			return nil, fmt.Errorf("assign: member id %q given twice", m.MemberID)
		}
		m.Topics = make([]string, 0, len(members[i].Topics))
		for _, t := range members[i].Topics {
			if !m.topicSet[t] {
				m.topicSet[t] = true
				m.Topics = append(m.Topics, t)
			}
		}
		owned := 0
		for _, o := range members[i].Owned {
			owned += len(o.Partitions)
		}
		m.owned = make([]topicPartition, 0, owned)
		for _, o := range members[i].Owned {
			for _, p := range o.Partitions {
				m.owned = append(m.owned, topicPartition{o.Topic, p})
			}
		}
		g.byID[m.MemberID] = m
		ids = append(ids, m.MemberID)
		for _, t := range m.Topics {
			if _, done := g.topics[t]; done {
				continue
			}
			if ps := topics[t]; len(ps) > 0 {
				sorted := append([]Partition(nil), ps...)
				sort.SliceStable(sorted, func(a, b int) bool { return sorted[a].ID < sorted[b].ID })
				g.topics[t] = sorted
			}
		}
	}
	for _, id := range javaHashOrder(ids) {
		g.members = append(g.members, g.byID[id])
	}
	return g, nil
}

// sortedTopics returns the topics with partitions in Java String order.
func (g *group) sortedTopics() []string {
	ts := make([]string, 0, len(g.topics))
	for t := range g.topics {
		ts = append(ts, t)
	}
	sort.Slice(ts, func(i, j int) bool { return javaLess(ts[i], ts[j]) })
	return ts
}

// exists reports whether tp is a partition of a topic with metadata.
func (g *group) exists(tp topicPartition) bool {
	ps := g.topics[tp.topic]
	if i := int(tp.partition); i >= 0 && i < len(ps) && ps[i].ID == tp.partition {
		return true // partitions listed in ID order (the usual case)
	}
	for _, p := range ps {
		if p.ID == tp.partition {
			return true
		}
	}
	return false
}

// result turns per-member partition lists into Assign's result: every
// member present, topics in Java String order, partitions ascending.
func (g *group) result(assigned map[string][]topicPartition) map[string][]TopicPartitions {
	out := make(map[string][]TopicPartitions, len(g.members))
	for _, m := range g.members {
		tps := append([]topicPartition(nil), assigned[m.MemberID]...)
		slices.SortFunc(tps, tpCompare)
		out[m.MemberID] = groupByTopic(tps)
	}
	return out
}

// tpCompare compares by topic (Java String order), then partition.
func tpCompare(a, b topicPartition) int {
	if a.topic != b.topic {
		return javaCompare(a.topic, b.topic)
	}
	return cmpInt(int(a.partition), int(b.partition))
}

// groupByTopic turns sorted partitions into one TopicPartitions per topic,
// all partition lists sharing one backing array (each capped, so that an
// append to one never writes into the next).
func groupByTopic(tps []topicPartition) []TopicPartitions {
	if len(tps) == 0 {
		return nil
	}
	ids := make([]int32, len(tps))
	runs := 1
	for i, tp := range tps {
		ids[i] = tp.partition
		if i > 0 && tp.topic != tps[i-1].topic {
			runs++
		}
	}
	list := make([]TopicPartitions, 0, runs)
	start := 0
	for i := 1; i <= len(tps); i++ {
		if i == len(tps) || tps[i].topic != tps[start].topic {
			list = append(list, TopicPartitions{Topic: tps[start].topic, Partitions: ids[start:i:i]})
			start = i
		}
	}
	return list
}

// memberInfoLess is AbstractPartitionAssignor.MemberInfo's order: static
// members first, by instance id, then dynamic members by member id.
func memberInfoLess(a, b *member) bool {
	switch {
	case a.hasInstance() && b.hasInstance():
		return javaLess(a.InstanceID, b.InstanceID)
	case a.hasInstance():
		return true
	case b.hasInstance():
		return false
	}
	return javaLess(a.MemberID, b.MemberID)
}

// partitionRacks returns the distinct racks of p's replicas ("" is no rack).
func partitionRacks(p Partition) map[string]bool {
	rs := make(map[string]bool, len(p.Racks))
	for _, r := range p.Racks {
		if r != "" {
			rs[r] = true
		}
	}
	return rs
}
