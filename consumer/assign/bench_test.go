package assign

import (
	"fmt"
	"testing"
)

// benchGroup is members members, half subscribing to every one of topics
// topics of partitions partitions each and half to every other topic, each
// owning a share of what it subscribes to from the previous generation.
func benchGroup(members, topics, partitions int, equal bool) ([]Member, map[string][]Partition) {
	tm := map[string][]Partition{}
	var names []string
	for t := range topics {
		n := fmt.Sprintf("topic-%d", t)
		names = append(names, n)
		for p := range partitions {
			tm[n] = append(tm[n], Partition{ID: int32(p)})
		}
	}
	var ms []Member
	for i := range members {
		m := Member{MemberID: fmt.Sprintf("consumer-%d-4f1c2a", i), Generation: 3}
		for k, n := range names {
			if equal || i%2 == 0 || k%2 == 0 {
				m.Topics = append(m.Topics, n)
			}
		}
		ms = append(ms, m)
	}
	// previous owners: round robin over the members subscribed
	for _, n := range names {
		var subs []int
		for i, m := range ms {
			if containsString(m.Topics, n) {
				subs = append(subs, i)
			}
		}
		for p := range partitions {
			if p%5 == 0 {
				continue // some partitions are new
			}
			o := &ms[subs[p%len(subs)]]
			o.Owned = append(o.Owned, TopicPartitions{Topic: n, Partitions: []int32{int32(p)}})
		}
	}
	return ms, tm
}

// BenchmarkAssign measures a leader's assignment of 100 members and 1000
// partitions (10 topics of 100) for each assignor, with equal and with
// differing subscriptions.
func BenchmarkAssign(b *testing.B) {
	for _, equal := range []bool{true, false} {
		members, topics := benchGroup(100, 10, 100, equal)
		for _, name := range []string{"range", "roundrobin", "cooperative-sticky"} {
			a, _ := ByName(name)
			b.Run(fmt.Sprintf("%s/equal=%v", name, equal), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := a.Assign(members, topics); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
