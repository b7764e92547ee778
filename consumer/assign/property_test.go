package assign

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// randomGroup makes members (distinct ids, non-empty subscriptions) and
// topics; equal makes every member subscribe to every topic.
func randomGroup(r *rand.Rand, equal bool) ([]Member, map[string][]Partition) {
	topics := map[string][]Partition{}
	var names []string
	for t := range 1 + r.IntN(5) {
		name := fmt.Sprintf("t%d", t)
		names = append(names, name)
		for p := range 1 + r.IntN(20) {
			topics[name] = append(topics[name], Partition{ID: int32(p)})
		}
	}
	var members []Member
	for i := range 1 + r.IntN(12) {
		m := Member{MemberID: fmt.Sprintf("member-%d-%x", i, r.Uint32()), Generation: -1}
		for _, n := range names {
			if equal || r.IntN(2) == 0 {
				m.Topics = append(m.Topics, n)
			}
		}
		if len(m.Topics) == 0 {
			m.Topics = []string{names[r.IntN(len(names))]}
		}
		members = append(members, m)
	}
	return members, topics
}

// owners maps each assigned partition to its members, failing on a
// partition assigned to a member not subscribed to its topic.
func owners(t *testing.T, name string, members []Member, got map[string][]TopicPartitions) map[topicPartition][]string {
	t.Helper()
	out := map[topicPartition][]string{}
	for _, m := range members {
		tps, ok := got[m.MemberID]
		if !ok {
			t.Fatalf("%s: member %s missing from the result", name, m.MemberID)
		}
		for _, tp := range tps {
			if !containsString(m.Topics, tp.Topic) {
				t.Fatalf("%s: %s got %s, not subscribed", name, m.MemberID, tp.Topic)
			}
			for _, p := range tp.Partitions {
				out[topicPartition{tp.Topic, p}] = append(out[topicPartition{tp.Topic, p}], m.MemberID)
			}
		}
	}
	return out
}

func subscribed(members []Member, topic string) bool {
	for _, m := range members {
		if containsString(m.Topics, topic) {
			return true
		}
	}
	return false
}

// checkExactlyOnce fails unless every partition of a subscribed topic has
// exactly one owner.
func checkExactlyOnce(t *testing.T, name string, members []Member, topics map[string][]Partition, got map[string][]TopicPartitions) {
	t.Helper()
	own := owners(t, name, members, got)
	for topic, ps := range topics {
		if !subscribed(members, topic) {
			continue
		}
		for _, p := range ps {
			if o := own[topicPartition{topic, p.ID}]; len(o) != 1 {
				t.Fatalf("%s: %s:%d owned by %v", name, topic, p.ID, o)
			}
		}
	}
}

func countOf(tps []TopicPartitions) int {
	n := 0
	for _, tp := range tps {
		n += len(tp.Partitions)
	}
	return n
}

func checkBalanced(t *testing.T, name string, got map[string][]TopicPartitions) {
	t.Helper()
	lo, hi := -1, -1
	for _, tps := range got {
		n := countOf(tps)
		if lo < 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
	}
	if hi-lo > 1 {
		t.Fatalf("%s: sizes from %d to %d with equal subscriptions: %v", name, lo, hi, got)
	}
}

// settle gives every member what it got and runs the assignor again; the
// cooperative assignor needs a second round for revoked partitions.
func settle(t *testing.T, a Assignor, members []Member, topics map[string][]Partition, got map[string][]TopicPartitions, gen int32) ([]Member, map[string][]TopicPartitions) {
	t.Helper()
	next := append([]Member(nil), members...)
	for i := range next {
		next[i].Owned, next[i].Generation = got[next[i].MemberID], gen
		if a.Name() == "sticky" {
			next[i].UserData = StickyUserData(next[i].Owned, gen)
		}
	}
	again, err := a.Assign(next, topics)
	if err != nil {
		t.Fatal(err)
	}
	return next, again
}

func TestAssignProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 26))
	for iter := range 300 {
		equal := iter%2 == 0
		members, topics := randomGroup(r, equal)
		for _, name := range []string{"range", "roundrobin", "sticky", "cooperative-sticky"} {
			a, _ := ByName(name)
			label := fmt.Sprintf("iteration %d %s", iter, name)
			got, err := a.Assign(members, topics)
			if err != nil {
				t.Fatalf("%s: %v", label, err)
			}
			// a first assignment of a group owning nothing revokes nothing
			checkExactlyOnce(t, label, members, topics, got)
			if equal && (name == "roundrobin" || name == "sticky" || name == "cooperative-sticky") {
				checkBalanced(t, label, got)
			}
			if name != "sticky" && name != "cooperative-sticky" {
				continue
			}
			// stickiness: nothing changed, nothing moves
			owned, again := settle(t, a, members, topics, got, 1)
			if fmt.Sprint(render(again)) != fmt.Sprint(render(got)) {
				t.Fatalf("%s: an unchanged group moved partitions:\n%v\n%v", label, render(got), render(again))
			}
			if !equal {
				continue
			}
			// a member joins: the others only give partitions up, and once
			// revocations are done everything is assigned once and balanced
			joiner := Member{MemberID: "joiner", Topics: owned[0].Topics, Generation: -1}
			grown := append(append([]Member(nil), owned...), joiner)
			after, err := a.Assign(grown, topics)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range owned {
				before := render(map[string][]TopicPartitions{"m": m.Owned})["m"]
				for _, s := range render(map[string][]TopicPartitions{"m": after[m.MemberID]})["m"] {
					if !containsString(before, s) {
						t.Fatalf("%s: %s gained %s while a member joined", label, m.MemberID, s)
					}
				}
			}
			if name == "cooperative-sticky" {
				_, after = settle(t, a, grown, topics, after, 2)
			}
			checkExactlyOnce(t, label+" after a join", grown, topics, after)
			checkBalanced(t, label+" after a join", after)
		}
	}
}

// TestByName checks the names and protocols of the four assignors.
func TestByName(t *testing.T) {
	for name, p := range map[string]RebalanceProtocol{"range": Eager, "roundrobin": Eager, "sticky": Eager, "cooperative-sticky": Cooperative} {
		a, ok := ByName(name)
		if !ok || a.Name() != name || a.Protocol() != p {
			t.Errorf("ByName(%q) = %v, %v", name, a, ok)
		}
	}
	if a, ok := ByName("uniform"); ok || a != nil {
		t.Errorf("ByName(uniform) = %v, %v", a, ok)
	}
}

// TestAssignRejectsBadMembers checks the errors for empty and repeated ids.
func TestAssignRejectsBadMembers(t *testing.T) {
	topics := map[string][]Partition{"t": {{ID: 0}}}
	for _, name := range []string{"range", "roundrobin", "sticky", "cooperative-sticky"} {
		a, _ := ByName(name)
		if _, err := a.Assign([]Member{{MemberID: "a"}, {MemberID: "a"}}, topics); err == nil {
			t.Errorf("%s: repeated member id accepted", name)
		}
		if _, err := a.Assign([]Member{{MemberID: ""}}, topics); err == nil {
			t.Errorf("%s: empty member id accepted", name)
		}
		got, err := a.Assign(nil, topics)
		if err != nil || len(got) != 0 {
			t.Errorf("%s: no members: %v, %v", name, got, err)
		}
	}
}
