package assign

import (
	"encoding/json"
	"flag"
	"fmt"
	"testing"
	"time"
)

var (
	scaleFull = flag.Bool("assign-scale-full", false,
		"TestAssignAtScaleMatchesJava: add the differing-subscriptions case (minutes in Java) and time Java's assign (median of 5 per round)")
	scaleTime = flag.Bool("assign-scale-time", false,
		"TestAssignAtScaleMatchesJava: time Java's assign (median of 5 per round) of the equal-subscription cases only")
)

// The assignors at scale (issue 37): 100 members over 10,000 partitions
// (100 topics of 100), in three rounds — the group forms, 10 members
// leave, 10 new ones join — compared assignment by assignment with Java's
// assignors, which the oracle also times (median of scaleJavaReps runs per
// round, with -assign-scale-full). gregor's time per round is
// BenchmarkAssignScale's.

const (
	scaleMembers    = 100
	scaleTopics     = 100
	scalePartitions = 100 // per topic
	scaleJavaReps   = 5
)

// scaleCases are the scale groups: every assignor with equal
// subscriptions, and with differing (the full set) cooperative-sticky
// with half the members subscribing to every other topic (its general,
// not its constrained, algorithm, which takes Java minutes).
func scaleCases(differing bool) []oracleCase {
	var topicNames []string
	topics := map[string][]oraclePart{}
	for i := range scaleTopics {
		n := fmt.Sprintf("topic-%03d", i)
		topicNames = append(topicNames, n)
		for p := range scalePartitions {
			topics[n] = append(topics[n], oraclePart{ID: int32(p)})
		}
	}
	members := func(equal bool, from, n int) []oracleMember {
		var ms []oracleMember
		for i := from; i < from+n; i++ {
			m := oracleMember{MemberID: fmt.Sprintf("consumer-%03d-4f1c2a", i)}
			for k, t := range topicNames {
				if equal || i%2 == 0 || k%2 == 0 {
					m.Topics = append(m.Topics, t)
				}
			}
			ms = append(ms, m)
		}
		return ms
	}
	var leave []string
	for i := range 10 {
		leave = append(leave, fmt.Sprintf("consumer-%03d-4f1c2a", i*10))
	}
	group := func(name, assignor string, equal bool) oracleCase {
		return oracleCase{Name: name, Assignor: assignor, Topics: topics, Members: members(equal, 0, scaleMembers),
			Next: []oracleChange{{Leave: leave}, {Join: members(equal, scaleMembers, 10)}}}
	}
	cs := []oracleCase{
		group("scale-range", "range", true),
		group("scale-roundrobin", "roundrobin", true),
		group("scale-cooperative-sticky", "cooperative-sticky", true),
	}
	if differing {
		cs = append(cs, group("scale-cooperative-sticky-differing", "cooperative-sticky", false))
	}
	return cs
}

// TestAssignAtScaleMatchesJava: at 10,000 partitions × 100 members every
// round of every scale case assigns exactly what Java's assignor assigns.
// With -assign-scale-full (or -assign-scale-time, without the differing
// case) Java's median time per round is logged (the comparison of times is
// BenchmarkAssignScale's, not this test's).
func TestAssignAtScaleMatchesJava(t *testing.T) {
	cases := scaleCases(*scaleFull)
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	var args []string
	if *scaleFull || *scaleTime {
		args = append(args, fmt.Sprint(scaleJavaReps))
	}
	out := runOracle(t, in, args...)
	var fromJava []oracleResult
	if err := json.Unmarshal(out, &fromJava); err != nil {
		t.Fatalf("oracle output: %v", err)
	}
	if len(fromJava) != len(cases) {
		t.Fatalf("oracle answered %d cases, want %d", len(fromJava), len(cases))
	}
	for i, c := range cases {
		compareRounds(t, c, fromJava[i], runCase(c))
		for r, round := range fromJava[i].Rounds {
			if round.Nanos == 0 {
				continue
			}
			t.Logf("%s round %d: Java's assign %v (median of %d)", c.Name, r+1, time.Duration(round.Nanos), scaleJavaReps)
		}
	}
}

// BenchmarkAssignScale times gregor's assignment of each round of the
// scale cases, the inputs as the rounds before them leave them.
func BenchmarkAssignScale(b *testing.B) {
	for _, c := range scaleCases(true) {
		b.Run(c.Name, func(b *testing.B) {
			a, _ := ByName(c.Assignor)
			var rounds [][]Member
			var topics map[string][]Partition
			playCase(c, func(ms []Member, ts map[string][]Partition) {
				rounds, topics = append(rounds, append([]Member(nil), ms...)), ts
			})
			for r, members := range rounds {
				b.Run(fmt.Sprintf("round-%d", r+1), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if _, err := a.Assign(members, topics); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}
