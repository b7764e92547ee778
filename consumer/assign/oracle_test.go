package assign

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"testing"
)

// The golden tests run the cases of goldenCases through gregor's assignors
// and compare with testdata/golden.json, which Java's assignors computed
// for the same cases (testdata/AssignorOracle.java; TestGoldenMatchesJava
// recomputes it). `go test -run TestGoldenMatchesJava -update` rewrites
// testdata/cases.json and testdata/golden.json.

// oracleCase is one case as AssignorOracle.java reads it.
type oracleCase struct {
	Name       string                  `json:"name"`
	Assignor   string                  `json:"assignor"`
	Topics     map[string][]oraclePart `json:"topics"`
	Members    []oracleMember          `json:"members"`
	Generation int32                   `json:"generation,omitempty"` // of round 1's assignment; 1 if 0
	Next       []oracleChange          `json:"next,omitempty"`
}

type oraclePart struct {
	ID    int32    `json:"id"`
	Racks []string `json:"racks,omitempty"`
}

type oracleMember struct {
	MemberID   string            `json:"member_id"`
	InstanceID string            `json:"instance_id,omitempty"`
	Rack       string            `json:"rack,omitempty"`
	Topics     []string          `json:"topics"`
	Owned      []TopicPartitions `json:"owned,omitempty"`
	Generation *int32            `json:"generation,omitempty"` // nil: -1
	UserData   *string           `json:"user_data,omitempty"`  // hex; nil: none
}

// oracleChange is what happens between two rounds.
type oracleChange struct {
	Leave     []string            `json:"leave,omitempty"`
	Join      []oracleMember      `json:"join,omitempty"`
	Subscribe map[string][]string `json:"subscribe,omitempty"`
}

func (tp TopicPartitions) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Topic      string  `json:"topic"`
		Partitions []int32 `json:"partitions"`
	}{tp.Topic, tp.Partitions})
}

// oracleResult is AssignorOracle.java's output for one case.
type oracleResult struct {
	Name   string        `json:"name"`
	Rounds []oracleRound `json:"rounds"`
}

type oracleRound struct {
	Assignment map[string][]string `json:"assignment,omitempty"`
	UserData   map[string]string   `json:"user_data,omitempty"` // hex, of the members after the round
	Error      string              `json:"error,omitempty"`
	Nanos      int64               `json:"nanos,omitempty"` // the oracle's timing mode: median ns of Java's assign
}

func (m oracleMember) member() Member {
	out := Member{MemberID: m.MemberID, InstanceID: m.InstanceID, Rack: m.Rack, Topics: m.Topics, Owned: m.Owned, Generation: -1}
	if m.Generation != nil {
		out.Generation = *m.Generation
	}
	if m.UserData != nil {
		b, err := hex.DecodeString(*m.UserData)
		if err != nil {
			panic(err)
		}
		out.UserData = append([]byte{}, b...)
	}
	return out
}

// runCase plays c's rounds through gregor's assignor as the oracle plays
// them through Java's: after each round every member owns what it was
// assigned, in the next generation, and sends its assignor's user data.
func runCase(c oracleCase) oracleResult { return playCase(c, nil) }

// playCase is runCase calling onRound (when not nil) with each round's
// input before the round is assigned: the members as they subscribe and
// the topics' partitions. onRound must not keep or change them.
func playCase(c oracleCase, onRound func(members []Member, topics map[string][]Partition)) oracleResult {
	a, ok := ByName(c.Assignor)
	if !ok {
		panic("unknown assignor " + c.Assignor)
	}
	topics := map[string][]Partition{}
	for t, ps := range c.Topics {
		for _, p := range ps {
			topics[t] = append(topics[t], Partition{ID: p.ID, Racks: p.Racks})
		}
	}
	var members []Member
	for _, m := range c.Members {
		members = append(members, m.member())
	}
	res := oracleResult{Name: c.Name}
	base := c.Generation
	if base == 0 {
		base = 1
	}
	for r := 0; r <= len(c.Next); r++ {
		if r > 0 {
			ch := c.Next[r-1]
			kept := members[:0:0]
			for _, m := range members {
				if !containsString(ch.Leave, m.MemberID) {
					kept = append(kept, m)
				}
			}
			members = kept
			for _, m := range ch.Join {
				members = append(members, m.member())
			}
			for i := range members {
				if ts, ok := ch.Subscribe[members[i].MemberID]; ok {
					members[i].Topics = ts
				}
			}
		}
		if onRound != nil {
			onRound(members, topics)
		}
		got, err := a.Assign(members, topics)
		if err != nil {
			res.Rounds = append(res.Rounds, oracleRound{Error: err.Error()})
			continue
		}
		round := oracleRound{Assignment: render(got)}
		gen := base + int32(r)
		for i := range members {
			m := &members[i]
			m.Owned, m.Generation = got[m.MemberID], gen
			switch c.Assignor {
			case "sticky":
				m.UserData = StickyUserData(m.Owned, gen)
			case "cooperative-sticky":
				m.UserData = CooperativeStickyUserData(gen)
			default:
				m.UserData = nil
			}
			if m.UserData != nil {
				if round.UserData == nil {
					round.UserData = map[string]string{}
				}
				round.UserData[m.MemberID] = hex.EncodeToString(m.UserData)
			}
		}
		res.Rounds = append(res.Rounds, round)
	}
	return res
}

func containsString(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// render lists each member's partitions as "topic:partition", sorted.
func render(a map[string][]TopicPartitions) map[string][]string {
	out := map[string][]string{}
	for m, tps := range a {
		l := []string{}
		for _, tp := range tps {
			for _, p := range tp.Partitions {
				l = append(l, tp.Topic+":"+strconv.Itoa(int(p)))
			}
		}
		out[m] = l
	}
	return out
}

func loadJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// compareRounds reports every difference between want (Java) and got.
func compareRounds(t *testing.T, c oracleCase, want, got oracleResult) {
	t.Helper()
	if len(want.Rounds) != len(got.Rounds) {
		t.Errorf("%s: %d rounds, Java %d", c.Name, len(got.Rounds), len(want.Rounds))
		return
	}
	for r := range want.Rounds {
		w, g := want.Rounds[r], got.Rounds[r]
		if w.Error != "" || g.Error != "" {
			if (w.Error == "") != (g.Error == "") {
				t.Errorf("%s round %d: error %q, Java error %q", c.Name, r+1, g.Error, w.Error)
			}
			return
		}
		if d := diffAssignment(w.Assignment, g.Assignment); d != "" {
			t.Errorf("%s (%s) round %d differs from Java:\n%s", c.Name, c.Assignor, r+1, d)
			return
		}
		if fmt.Sprint(w.UserData) != fmt.Sprint(g.UserData) {
			t.Errorf("%s (%s) round %d: members' user data differs from Java's:\n got %v\nJava %v", c.Name, c.Assignor, r+1, g.UserData, w.UserData)
			return
		}
	}
}

func diffAssignment(want, got map[string][]string) string {
	keys := map[string]bool{}
	for k := range want {
		keys[k] = true
	}
	for k := range got {
		keys[k] = true
	}
	var ids []string
	for k := range keys {
		ids = append(ids, k)
	}
	sort.Strings(ids)
	d := ""
	for _, id := range ids {
		w, g := fmt.Sprint(want[id]), fmt.Sprint(got[id])
		if _, ok := got[id]; !ok {
			g = "(missing)"
		}
		if w != g {
			d += fmt.Sprintf("  %s: got %s, Java %s\n", id, g, w)
		}
	}
	return d
}
