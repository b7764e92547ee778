package assign

import (
	"encoding/hex"
	"fmt"
	"math/rand/v2"
)

// goldenCases are the cases the golden file holds Java's answers for.
func goldenCases() []oracleCase {
	var cs []oracleCase
	add := func(c oracleCase) { cs = append(cs, c) }

	// range
	add(oracleCase{Name: "range-basic", Assignor: "range", Topics: tops("t1", 3),
		Members: mems("t1", "c1", "c2")})
	add(oracleCase{Name: "range-uneven", Assignor: "range", Topics: tops("t1", 7, "t2", 2, "t3", 5),
		Members: mems("t1,t2,t3", "consumer-a", "consumer-b", "consumer-c")})
	add(oracleCase{Name: "range-different-subscriptions", Assignor: "range", Topics: tops("t1", 4, "t2", 5, "t3", 1),
		Members: []oracleMember{mem("m1", "t1,t2"), mem("m2", "t2,t3"), mem("m3", "t1,t2,t3"), mem("m4", "t3")}})
	add(oracleCase{Name: "range-static", Assignor: "range", Topics: tops("t1", 5, "t2", 3),
		Members: []oracleMember{static(mem("a", "t1,t2"), "z-instance"), static(mem("b", "t1,t2"), "y-instance"), static(mem("c", "t1,t2"), "x-instance")}})
	add(oracleCase{Name: "range-static-and-dynamic", Assignor: "range", Topics: tops("t1", 7),
		Members: []oracleMember{mem("a", "t1"), static(mem("z", "t1"), "i2"), mem("b", "t1"), static(mem("y", "t1"), "i1")}})
	add(oracleCase{Name: "range-more-members-than-partitions", Assignor: "range", Topics: tops("t1", 2, "t2", 1),
		Members: mems("t1,t2", "m1", "m2", "m3", "m4")})
	add(oracleCase{Name: "range-missing-topic", Assignor: "range", Topics: tops("t1", 3),
		Members: []oracleMember{mem("m1", "t1,nope"), mem("m2", "nope")}})
	add(oracleCase{Name: "range-rack", Assignor: "range", Topics: rackTops(map[string]int{"t1": 6}, []string{"r0", "r1", "r2"}, 1),
		Members: []oracleMember{rack(mem("m1", "t1"), "r0"), rack(mem("m2", "t1"), "r1"), rack(mem("m3", "t1"), "r2")}})
	add(oracleCase{Name: "range-rack-copartitioned", Assignor: "range", Topics: rackTops(map[string]int{"t1": 5, "t2": 5, "t3": 3}, []string{"r0", "r1"}, 1),
		Members: []oracleMember{rack(mem("m1", "t1,t2,t3"), "r1"), rack(mem("m2", "t1,t2,t3"), "r0"), mem("m3", "t1,t2,t3")}})
	add(oracleCase{Name: "range-rack-everywhere", Assignor: "range", Topics: rackTops(map[string]int{"t1": 4}, []string{"r0", "r1"}, 2),
		Members: []oracleMember{rack(mem("m1", "t1"), "r1"), rack(mem("m2", "t1"), "r0")}})

	// roundrobin
	add(oracleCase{Name: "roundrobin-basic", Assignor: "roundrobin", Topics: tops("t1", 3, "t2", 4),
		Members: mems("t1,t2", "c1", "c2", "c3")})
	add(oracleCase{Name: "roundrobin-different-subscriptions", Assignor: "roundrobin", Topics: tops("t1", 1, "t2", 2, "t3", 3),
		Members: []oracleMember{mem("c0", "t1"), mem("c1", "t1,t2"), mem("c2", "t1,t2,t3")}})
	add(oracleCase{Name: "roundrobin-static", Assignor: "roundrobin", Topics: tops("t1", 5, "t2", 2),
		Members: []oracleMember{static(mem("a", "t1,t2"), "i3"), mem("b", "t1,t2"), static(mem("c", "t1,t2"), "i1")}})
	add(oracleCase{Name: "roundrobin-many", Assignor: "roundrobin", Topics: tops("orders", 17, "payments", 9, "audit", 3),
		Members: randomMembers(rand.New(rand.NewPCG(1, 2)), 20, []string{"orders", "payments", "audit"}, false)})

	// sticky (eager)
	add(oracleCase{Name: "sticky-fresh", Assignor: "sticky", Topics: tops("t1", 10),
		Members: mems("t1", "c1", "c2", "c3")})
	add(oracleCase{Name: "sticky-join-leave", Assignor: "sticky", Topics: tops("t1", 5, "t2", 4),
		Members: mems("t1,t2", "c1", "c2"),
		Next:    []oracleChange{{Join: mems("t1,t2", "c3")}, {Leave: []string{"c1"}}, {Join: mems("t1,t2", "c4", "c5")}}})
	add(oracleCase{Name: "sticky-different-subscriptions", Assignor: "sticky", Topics: tops("t1", 3, "t2", 6, "t3", 2),
		Members: []oracleMember{mem("c1", "t1,t2"), mem("c2", "t2"), mem("c3", "t2,t3")},
		Next:    []oracleChange{{Join: []oracleMember{mem("c4", "t1,t2,t3")}}, {Leave: []string{"c2"}}, {Subscribe: map[string][]string{"c1": {"t3"}}}}})
	add(oracleCase{Name: "sticky-userdata-v0", Assignor: "sticky", Topics: tops("t1", 6),
		Members: []oracleMember{ud(mem("c1", "t1"), stickyV0("t1", 0, 1, 2, 3, 4)), ud(mem("c2", "t1"), stickyV0("t1", 5)), mem("c3", "t1")}})
	add(oracleCase{Name: "sticky-userdata-garbage", Assignor: "sticky", Topics: tops("t1", 4),
		Members: []oracleMember{ud(mem("c1", "t1"), "ffffffff"), ud(mem("c2", "t1"), "00"), ud(mem("c3", "t1"), hex.EncodeToString(StickyUserData(tps("t1", 0, 1, 2, 3), 5)))}})
	add(oracleCase{Name: "sticky-conflicting-claims", Assignor: "sticky", Topics: tops("t1", 6, "t2", 1),
		Members: []oracleMember{
			gen(ud(mem("c1", "t1"), hex.EncodeToString(StickyUserData(tps("t1", 0, 1, 2), 3))), 3),
			gen(ud(mem("c2", "t1"), hex.EncodeToString(StickyUserData(tps("t1", 2, 3, 4), 3))), 3),
			gen(ud(mem("c3", "t1,t2"), hex.EncodeToString(StickyUserData(tps("t1", 4, 5), 2))), 2)}})
	add(oracleCase{Name: "sticky-rack", Assignor: "sticky", Topics: rackTops(map[string]int{"t1": 6, "t2": 3}, []string{"r0", "r1", "r2"}, 1),
		Members: []oracleMember{rack(mem("m1", "t1,t2"), "r0"), rack(mem("m2", "t1,t2"), "r1"), rack(mem("m3", "t1,t2"), "r2")},
		Next:    []oracleChange{{Leave: []string{"m2"}}}})
	add(oracleCase{Name: "sticky-rack-general", Assignor: "sticky", Topics: rackTops(map[string]int{"t1": 6, "t2": 3}, []string{"r0", "r1"}, 1),
		Members: []oracleMember{rack(mem("m1", "t1,t2"), "r0"), rack(mem("m2", "t1"), "r1"), rack(mem("m3", "t2"), "r1")},
		Next:    []oracleChange{{Join: []oracleMember{rack(mem("m4", "t1,t2"), "r0")}}}})
	r := rand.New(rand.NewPCG(3, 4))
	stickyMany := randomMembers(r, 12, []string{"a", "b", "c", "d", "e"}, false)
	add(oracleCase{Name: "sticky-many", Assignor: "sticky", Topics: tops("a", 7, "b", 13, "c", 2, "d", 5, "e", 11),
		Members: stickyMany,
		Next:    randomChanges(r, 3, []string{"a", "b", "c", "d", "e"}, "s", stickyMany)})
	stickyLarge := randomMembers(r, 30, []string{"big", "small"}, true)
	add(oracleCase{Name: "sticky-large-equal", Assignor: "sticky", Topics: tops("big", 100, "small", 7),
		Members: stickyLarge,
		Next:    randomChanges(r, 2, []string{"big", "small"}, "S", stickyLarge)})

	// cooperative-sticky
	add(oracleCase{Name: "coop-fresh", Assignor: "cooperative-sticky", Topics: tops("t1", 10, "t2", 1),
		Members: mems("t1,t2", "c1", "c2", "c3")})
	add(oracleCase{Name: "coop-join-two-rounds", Assignor: "cooperative-sticky", Topics: tops("t1", 4),
		Members: mems("t1", "c1"),
		Next:    []oracleChange{{Join: mems("t1", "c2")}, {}, {Join: mems("t1", "c3")}, {}}})
	add(oracleCase{Name: "coop-leave", Assignor: "cooperative-sticky", Topics: tops("t1", 2),
		Members: mems("t1", "c1", "c2"),
		Next:    []oracleChange{{Leave: []string{"c2"}}}})
	add(oracleCase{Name: "coop-generations", Assignor: "cooperative-sticky", Topics: tops("t1", 6),
		Members: []oracleMember{
			gen(own(mem("c1", "t1"), "t1", 0, 1, 2), 5),
			gen(own(mem("c2", "t1"), "t1", 2, 3, 4, 5), 4),
			mem("c3", "t1")}})
	add(oracleCase{Name: "coop-same-generation-claims", Assignor: "cooperative-sticky", Topics: tops("t1", 6),
		Members: []oracleMember{
			gen(own(mem("c1", "t1"), "t1", 0, 1, 2), 4),
			gen(own(mem("c2", "t1"), "t1", 2, 3, 4, 5), 4),
			mem("c3", "t1")},
		Next: []oracleChange{{}}})
	add(oracleCase{Name: "coop-general", Assignor: "cooperative-sticky", Topics: tops("t1", 3, "t2", 6, "t3", 2),
		Members: []oracleMember{mem("c1", "t1,t2"), mem("c2", "t2"), mem("c3", "t2,t3")},
		Next:    []oracleChange{{Join: []oracleMember{mem("c4", "t1,t2,t3")}}, {}, {Subscribe: map[string][]string{"c3": {"t1"}}}, {}}})
	add(oracleCase{Name: "coop-userdata-generation", Assignor: "cooperative-sticky", Topics: tops("t1", 4),
		Members: []oracleMember{
			ud(own(mem("c1", "t1"), "t1", 0, 1, 2), hex.EncodeToString(CooperativeStickyUserData(7))),
			ud(own(mem("c2", "t1"), "t1", 2, 3), hex.EncodeToString(CooperativeStickyUserData(6))),
			ud(own(mem("c3", "t1"), "t1", 3), "01")}})
	add(oracleCase{Name: "coop-rack", Assignor: "cooperative-sticky", Topics: rackTops(map[string]int{"t1": 8}, []string{"r0", "r1"}, 1),
		Members: []oracleMember{rack(mem("m1", "t1"), "r0"), rack(mem("m2", "t1"), "r1"), mem("m3", "t1")},
		Next:    []oracleChange{{Join: []oracleMember{rack(mem("m4", "t1"), "r1")}}, {}}})
	add(oracleCase{Name: "coop-rack-general", Assignor: "cooperative-sticky", Topics: rackTops(map[string]int{"t1": 5, "t2": 4}, []string{"r0", "r1", "r2"}, 2),
		Members: []oracleMember{rack(mem("m1", "t1,t2"), "r0"), rack(mem("m2", "t1"), "r1"), rack(mem("m3", "t2"), "r2")},
		Next:    []oracleChange{{Leave: []string{"m1"}}, {}}})
	add(oracleCase{Name: "coop-static", Assignor: "cooperative-sticky", Topics: tops("t1", 5),
		Members: []oracleMember{static(mem("a", "t1"), "i2"), static(mem("b", "t1"), "i1")},
		Next:    []oracleChange{{Leave: []string{"a"}, Join: []oracleMember{static(mem("a2", "t1"), "i2")}}, {}}})
	add(oracleCase{Name: "coop-more-members-than-partitions", Assignor: "cooperative-sticky", Topics: tops("t1", 2),
		Members: mems("t1", "c1", "c2", "c3", "c4"),
		Next:    []oracleChange{{Leave: []string{"c1"}}, {}}})
	add(oracleCase{Name: "coop-empty-subscription", Assignor: "cooperative-sticky", Topics: tops("t1", 3),
		Members: []oracleMember{mem("c0", ""), mem("c1", "t1"), mem("c2", "t1")},
		Next:    []oracleChange{{Subscribe: map[string][]string{"c0": {"t1"}}}, {}}})
	r = rand.New(rand.NewPCG(5, 6))
	coopMany := randomMembers(r, 15, []string{"a", "b", "c", "d"}, false)
	add(oracleCase{Name: "coop-many", Assignor: "cooperative-sticky", Topics: tops("a", 9, "b", 4, "c", 21, "d", 1),
		Members: coopMany,
		Next:    randomChanges(r, 4, []string{"a", "b", "c", "d"}, "k", coopMany)})
	coopLarge := randomMembers(r, 25, []string{"big", "other"}, true)
	add(oracleCase{Name: "coop-large-equal", Assignor: "cooperative-sticky", Topics: tops("big", 64, "other", 31),
		Members: coopLarge,
		Next:    randomChanges(r, 3, []string{"big", "other"}, "K", coopLarge)})
	add(oracleCase{Name: "range-many", Assignor: "range", Topics: tops("a", 9, "b", 4, "c", 21),
		Members: randomMembers(rand.New(rand.NewPCG(7, 8)), 11, []string{"a", "b", "c"}, false)})
	r = rand.New(rand.NewPCG(11, 12))
	for i := range 12 {
		add(randomCase(r, i))
	}
	// random cases where the order of Java's HashSet of moved partitions
	// decides which partition moves back
	add(randomCaseAt(4, 228))
	add(randomCaseAt(5, 337))
	add(randomCaseAt(6, 27))
	add(randomCaseAt(6, 78))
	return cs
}

// randomCaseAt is the i-th random case of the sequence seeded with seed.
func randomCaseAt(seed uint64, i int) oracleCase {
	r := rand.New(rand.NewPCG(seed, 9))
	for k := range i {
		randomCase(r, k)
	}
	c := randomCase(r, i)
	c.Name = fmt.Sprintf("random-%d-%d-%s", seed, i, c.Assignor)
	return c
}

// tops builds topics without racks: name, count, name, count...
func tops(spec ...any) map[string][]oraclePart {
	out := map[string][]oraclePart{}
	for i := 0; i < len(spec); i += 2 {
		var ps []oraclePart
		for p := range spec[i+1].(int) {
			ps = append(ps, oraclePart{ID: int32(p)})
		}
		out[spec[i].(string)] = ps
	}
	return out
}

// rackTops builds topics whose partition p has replicas on rf racks from
// rack p mod len(racks) on.
func rackTops(counts map[string]int, racks []string, rf int) map[string][]oraclePart {
	out := map[string][]oraclePart{}
	for t, n := range counts {
		for p := range n {
			var rs []string
			for k := range rf {
				rs = append(rs, racks[(p+k)%len(racks)])
			}
			out[t] = append(out[t], oraclePart{ID: int32(p), Racks: rs})
		}
	}
	return out
}

func mem(id, topics string) oracleMember {
	m := oracleMember{MemberID: id, Topics: []string{}}
	if topics != "" {
		m.Topics = splitComma(topics)
	}
	return m
}

func mems(topics string, ids ...string) []oracleMember {
	var out []oracleMember
	for _, id := range ids {
		out = append(out, mem(id, topics))
	}
	return out
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}

func static(m oracleMember, instance string) oracleMember { m.InstanceID = instance; return m }
func rack(m oracleMember, r string) oracleMember          { m.Rack = r; return m }
func ud(m oracleMember, h string) oracleMember            { m.UserData = &h; return m }
func gen(m oracleMember, g int32) oracleMember            { m.Generation = &g; return m }
func own(m oracleMember, topic string, ps ...int32) oracleMember {
	m.Owned = append(m.Owned, TopicPartitions{Topic: topic, Partitions: ps})
	return m
}

func tps(topic string, ps ...int32) []TopicPartitions {
	return []TopicPartitions{{Topic: topic, Partitions: ps}}
}

// stickyV0 is version 0 sticky user data (no generation) for one topic.
func stickyV0(topic string, ps ...int32) string {
	b := StickyUserData(tps(topic, ps...), 0)
	return hex.EncodeToString(b[:len(b)-4])
}

// randomMembers makes n members with Java-like member ids subscribing to a
// random non-empty subset of topics (all of them if equal).
func randomMembers(r *rand.Rand, n int, topics []string, equal bool) []oracleMember {
	var out []oracleMember
	for range n {
		out = append(out, randomMember(r, topics, equal, ""))
	}
	return out
}

func randomMember(r *rand.Rand, topics []string, equal bool, prefix string) oracleMember {
	id := fmt.Sprintf("consumer-%s%d-%08x-%04x", prefix, r.IntN(100), r.Uint32(), r.Uint32()&0xffff)
	var sub []string
	for _, t := range topics {
		if equal || r.IntN(2) == 0 {
			sub = append(sub, t)
		}
	}
	if len(sub) == 0 {
		sub = []string{topics[r.IntN(len(topics))]}
	}
	m := oracleMember{MemberID: id, Topics: sub}
	if r.IntN(5) == 0 {
		m.InstanceID = "instance-" + id[len(id)-4:]
	}
	return m
}

// randomChanges makes rounds in which a random member of those present
// may leave and up to two members join.
func randomChanges(r *rand.Rand, rounds int, topics []string, prefix string, initial []oracleMember) []oracleChange {
	var out []oracleChange
	var joined []string
	for _, m := range initial {
		joined = append(joined, m.MemberID)
	}
	for i := range rounds {
		var ch oracleChange
		if len(joined) > 1 && r.IntN(2) == 0 {
			k := r.IntN(len(joined))
			ch.Leave = append(ch.Leave, joined[k])
			joined = append(joined[:k], joined[k+1:]...)
		}
		for range r.IntN(3) {
			m := randomMember(r, topics, prefix == "S" || prefix == "K", fmt.Sprintf("%s%d", prefix, i))
			ch.Join = append(ch.Join, m)
			joined = append(joined, m.MemberID)
		}
		out = append(out, ch)
	}
	return out
}

// randomCase is a random group: any assignor, up to five topics (some
// large), up to 39 members (equal or random subscriptions, racks, owned
// partitions with generations and user data), and up to three rounds of
// members leaving, joining and changing subscriptions.
func randomCase(r *rand.Rand, i int) oracleCase {
	names := []string{"range", "roundrobin", "sticky", "cooperative-sticky"}
	c := oracleCase{Name: fmt.Sprint("rnd-", i), Assignor: names[r.IntN(4)]}
	nt := 1 + r.IntN(5)
	var topics []string
	racks := []string{"r0", "r1", "r2"}[:1+r.IntN(3)]
	useRacks := r.IntN(3) == 0
	c.Topics = map[string][]oraclePart{}
	for t := range nt {
		name := fmt.Sprintf("topic-%c", 'a'+t)
		topics = append(topics, name)
		n := 1 + r.IntN(12)
		if r.IntN(5) == 0 {
			n = 20 + r.IntN(60)
		}
		for p := range n {
			op := oraclePart{ID: int32(p)}
			if useRacks {
				for k := range 1 + r.IntN(2) {
					op.Racks = append(op.Racks, racks[(p+k+r.IntN(2))%len(racks)])
				}
			}
			c.Topics[name] = append(c.Topics[name], op)
		}
	}
	equal := r.IntN(2) == 0
	nm := 1 + r.IntN(9)
	if r.IntN(4) == 0 {
		nm = 10 + r.IntN(30)
	}
	withOwned := r.IntN(2) == 0
	for range nm {
		m := randomMember(r, topics, equal, "")
		if withOwned {
			for _, tn := range topics {
				var ps []int32
				for _, p := range c.Topics[tn] {
					if r.IntN(nm) == 0 {
						ps = append(ps, p.ID)
					}
				}
				if len(ps) > 0 {
					m = own(m, tn, ps...)
				}
			}
			g := int32(r.IntN(4)) - 1
			if g >= 0 {
				m = gen(m, g)
			}
			if c.Assignor == "sticky" && r.IntN(4) != 0 {
				m = ud(m, hex.EncodeToString(StickyUserData(m.Owned, int32(r.IntN(4)))))
			}
		}
		if useRacks && r.IntN(4) != 0 {
			m.Rack = racks[r.IntN(len(racks))]
		}
		c.Members = append(c.Members, m)
	}
	c.Next = randomChanges(r, r.IntN(4), topics, map[bool]string{true: "S", false: "x"}[equal], c.Members)
	for k := range c.Next {
		if !equal && r.IntN(3) == 0 && len(c.Members) > 0 {
			c.Next[k].Subscribe = map[string][]string{c.Members[r.IntN(len(c.Members))].MemberID: {topics[r.IntN(len(topics))]}}
		}
	}
	return c
}
