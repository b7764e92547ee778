package assign

import "sort"

// roundRobinAssignor is Java's RoundRobinAssignor: every partition of
// every subscribed topic (topics in name order) goes to the next member,
// circling over all members (static members first by instance id, then by
// member id) and skipping those not subscribed to the partition's topic.
type roundRobinAssignor struct{}

// RoundRobin returns the "roundrobin" assignor (eager), Java's
// RoundRobinAssignor.
func RoundRobin() Assignor { return roundRobinAssignor{} }

func (roundRobinAssignor) Name() string                { return "roundrobin" }
func (roundRobinAssignor) Protocol() RebalanceProtocol { return Eager }

func (roundRobinAssignor) Assign(members []Member, topics map[string][]Partition) (map[string][]TopicPartitions, error) {
	g, err := newGroup(members, topics)
	if err != nil {
		return nil, err
	}
	assigned := make(map[string][]topicPartition, len(g.members))
	ring := append([]*member(nil), g.members...)
	sort.SliceStable(ring, func(i, j int) bool { return memberInfoLess(ring[i], ring[j]) })
	next := 0
	for _, t := range g.sortedTopics() {
		for _, p := range g.topics[t] {
			// some member subscribes to t, so this ends within one circle
			for !ring[next].subscribes(t) {
				next = (next + 1) % len(ring)
			}
			assigned[ring[next].MemberID] = append(assigned[ring[next].MemberID], topicPartition{t, p.ID})
			next = (next + 1) % len(ring)
		}
	}
	return g.result(assigned), nil
}
