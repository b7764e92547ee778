package assign

import (
	"fmt"
	"testing"
)

// fuzzGroup builds a small group from fuzz bytes: odd subscriptions, owned
// partitions that may not exist or be claimed twice, any generation, racks
// and user data taken raw from the input.
func fuzzGroup(data []byte) ([]Member, map[string][]Partition) {
	next := func() byte {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return b
	}
	names := []string{"a", "b", "c"}
	racks := []string{"", "r0", "r1"}
	topics := map[string][]Partition{}
	for _, n := range names[:1+next()%3] {
		for p := range int(next() % 9) {
			topics[n] = append(topics[n], Partition{ID: int32(p), Racks: []string{racks[next()%3], racks[next()%3]}})
		}
	}
	var members []Member
	for i := range int(next()%7) + 1 {
		m := Member{MemberID: fmt.Sprintf("m%d", next()%16), Generation: int32(int8(next())), Rack: racks[next()%3]}
		if next()%3 == 0 {
			m.InstanceID = fmt.Sprintf("i%d", i)
		}
		for _, n := range names {
			if next()%2 == 0 {
				m.Topics = append(m.Topics, n)
			}
		}
		for range int(next() % 4) {
			m.Owned = append(m.Owned, TopicPartitions{Topic: names[next()%3], Partitions: []int32{int32(int8(next()))}})
		}
		if k := int(next() % 12); k > 0 && k <= len(data) {
			m.UserData = append([]byte(nil), data[:k]...)
			data = data[k:]
		}
		members = append(members, m)
	}
	return members, topics
}

// FuzzAssign checks that no input makes an assignor panic, and that every
// partition goes to at most one member subscribed to its topic.
func FuzzAssign(f *testing.F) {
	f.Add([]byte{2, 5, 1, 1, 0, 3, 3, 1, 0, 1, 2, 0, 0, 2, 1, 1, 3})
	f.Add([]byte{0, 8, 2, 2, 1, 1, 6, 4, 7, 2, 1, 1, 1, 1, 3, 0, 1, 2, 9, 0, 0, 0, 1, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		members, topics := fuzzGroup(data)
		for _, name := range []string{"range", "roundrobin", "sticky", "cooperative-sticky"} {
			a, _ := ByName(name)
			got, err := a.Assign(members, topics)
			if err != nil {
				continue // repeated member ids, or what Java refuses too
			}
			seen := map[topicPartition]string{}
			for _, m := range members {
				for _, tp := range got[m.MemberID] {
					for _, p := range tp.Partitions {
						k := topicPartition{tp.Topic, p}
						if o, dup := seen[k]; dup {
							t.Fatalf("%s: %s:%d to %s and %s", name, tp.Topic, p, o, m.MemberID)
						}
						seen[k] = m.MemberID
					}
				}
			}
		}
	})
}
