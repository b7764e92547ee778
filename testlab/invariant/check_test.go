package invariant

import (
	"slices"
	"strings"
	"testing"
	"time"
)

var (
	tp0 = TP{"t", 0}
	tp1 = TP{"t", 1}
	t0  = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
)

func at(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }

func acked(producer string, tp TP, id string, off int64) Send {
	return Send{Producer: producer, Idempotent: true, TP: tp, ID: id, Acked: true, Offset: off}
}

func recs(ids ...string) []LogRecord {
	out := make([]LogRecord, len(ids))
	for i, id := range ids {
		out[i] = LogRecord{Offset: int64(i), ID: id}
	}
	return out
}

// cases pairs, for every rule, a history that keeps it with one that breaks
// it; want lists the rules Check must report, one entry per violation.
var cases = []struct {
	name string
	h    History
	want []Rule
}{
	{"acked kept", History{
		Sends: []Send{acked("p", tp0, "a", 0), acked("p", tp0, "b", 1)},
		Logs:  []Log{{TP: tp0, End: 2, Records: recs("a", "b")}},
	}, nil},
	{"acked below log start is retention, not loss", History{
		Sends: []Send{acked("p", tp0, "a", 0), acked("p", tp0, "b", 1)},
		Logs:  []Log{{TP: tp0, Start: 1, End: 2, Records: []LogRecord{{1, "b"}}}},
	}, nil},
	{"acked lost", History{
		Sends: []Send{acked("p", tp0, "a", 0), acked("p", tp0, "b", 1)},
		Logs:  []Log{{TP: tp0, End: 1, Records: recs("a")}},
	}, []Rule{RuleAckedLost}},
	{"acked offset holds another record", History{
		Sends: []Send{acked("p", tp0, "a", 0)},
		Logs:  []Log{{TP: tp0, End: 1, Records: recs("x")}},
	}, []Rule{RuleAckedLost, RuleInconsistentOffsets}},
	{"idempotent sent twice, written twice", History{
		Sends: []Send{acked("p", tp0, "a", 0), acked("p", tp0, "a", 1)},
		Logs:  []Log{{TP: tp0, End: 2, Records: recs("a", "a")}},
	}, nil},
	{"idempotent duplicate", History{
		Sends: []Send{acked("p", tp0, "a", 0)},
		Logs:  []Log{{TP: tp0, End: 2, Records: recs("a", "a")}},
	}, []Rule{RuleDuplicate}},
	{"non-idempotent duplicate is not judged", History{
		Sends: []Send{{Producer: "p", TP: tp0, ID: "a", Acked: true, Offset: 0}},
		Logs:  []Log{{TP: tp0, End: 2, Records: recs("a", "a")}},
	}, nil},
	{"order kept per partition", History{
		Sends: []Send{acked("p", tp0, "a", 5), acked("p", tp1, "b", 0), acked("p", tp0, "c", 6), acked("q", tp0, "d", 1)},
	}, nil},
	{"order broken", History{
		Sends: []Send{acked("p", tp0, "a", 5), acked("p", tp0, "b", 4)},
	}, []Rule{RuleOrder}},
	{"committed transaction fully visible, aborted invisible", History{
		Sends: []Send{
			{Producer: "p", TP: tp0, ID: "x1", Acked: true, Offset: 0, Txn: "T1"},
			{Producer: "p", TP: tp1, ID: "x2", Acked: true, Offset: 0, Txn: "T1"},
			{Producer: "p", TP: tp0, ID: "y1", Acked: true, Offset: 2, Txn: "T2"},
		},
		Transactions: []Transaction{{ID: "T1", Outcome: Committed}, {ID: "T2", Outcome: Aborted}},
		Reads: []Read{
			{Reader: "c", Committed: true, TP: tp0, From: 0, To: 4, Records: []LogRecord{{0, "x1"}}},
			{Reader: "c", Committed: true, TP: tp1, From: 0, To: 2, Records: []LogRecord{{0, "x2"}}},
			{Reader: "u", TP: tp0, From: 0, To: 4, Records: []LogRecord{{0, "x1"}, {2, "y1"}}},
		},
	}, nil},
	{"aborted record and open transaction seen, committed record missed", History{
		Sends: []Send{
			{Producer: "p", TP: tp0, ID: "x1", Acked: true, Offset: 0, Txn: "T1"},
			{Producer: "p", TP: tp1, ID: "x2", Acked: true, Offset: 0, Txn: "T1"},
			{Producer: "p", TP: tp0, ID: "y1", Acked: true, Offset: 2, Txn: "T2"},
			{Producer: "p", TP: tp0, ID: "z1", Acked: true, Offset: 4, Txn: "T3"},
		},
		Transactions: []Transaction{{ID: "T1", Outcome: Committed}, {ID: "T2", Outcome: Aborted}, {ID: "T3", Outcome: Open}},
		Reads: []Read{
			{Reader: "c", Committed: true, TP: tp0, From: 0, To: 5, Records: []LogRecord{{0, "x1"}, {2, "y1"}, {4, "z1"}}},
			{Reader: "c", Committed: true, TP: tp1, From: 0, To: 2},
		},
	}, []Rule{RuleTxnAtomic, RuleTxnAtomic, RuleTxnAtomic, RuleLostWrite, RuleAbortedRead}},
	{"hand-over without overlap", History{
		Assignments: []Assignment{
			{Group: "g", Member: "m1", TP: tp0, Start: at(0), End: at(5)},
			{Group: "g", Member: "m2", TP: tp0, Start: at(5)},
			{Group: "h", Member: "m3", TP: tp0, Start: at(1)},
		},
	}, nil},
	{"partition owned twice", History{
		Assignments: []Assignment{
			{Group: "g", Member: "m1", TP: tp0, Start: at(0), End: at(6)},
			{Group: "g", Member: "m2", TP: tp0, Start: at(5)},
		},
	}, []Rule{RuleOwnership}},
	{"stable group fully assigned", History{
		Assignments: []Assignment{
			{Group: "g", Member: "m1", TP: tp0, Start: at(0)},
			{Group: "g", Member: "m2", TP: tp1, Start: at(0), End: at(9)},
		},
		Stable: []Stable{{Group: "g", At: at(1), Partitions: []TP{tp0, tp1}}},
	}, nil},
	{"stable group with an unowned partition", History{
		Assignments: []Assignment{
			{Group: "g", Member: "m1", TP: tp0, Start: at(0)},
			{Group: "g", Member: "m2", TP: tp1, Start: at(0), End: at(1)},
		},
		Stable: []Stable{{Group: "g", At: at(1), Partitions: []TP{tp0, tp1}}},
	}, []Rule{RuleStableCoverage}},
	{"commits rise, a reset may go back", History{
		Commits: []Commit{
			{Group: "g", TP: tp0, Offset: 1, At: at(0)},
			{Group: "g", TP: tp0, Offset: 3, At: at(1)},
			{Group: "g", TP: tp0, Offset: 0, At: at(2), Reset: true},
			{Group: "g", TP: tp0, Offset: 0, At: at(3)},
			{Group: "g", TP: tp1, Offset: 0, At: at(3)},
		},
	}, nil},
	{"commit decreased", History{
		Commits: []Commit{
			{Group: "g", TP: tp0, Offset: 3, At: at(1)},
			{Group: "g", TP: tp0, Offset: 2, At: at(2)},
		},
	}, []Rule{RuleCommitRegress}},
	{"epochs rise", History{
		Epochs: []EpochEvent{
			{Client: "c", TP: tp0, Epoch: 1, At: at(0)},
			{Client: "c", TP: tp0, Epoch: 1, Data: true, At: at(1)},
			{Client: "c", TP: tp0, Epoch: 2, At: at(2)},
			{Client: "c", TP: tp0, Epoch: 2, Data: true, At: at(3)},
			{Client: "d", TP: tp0, Epoch: 1, At: at(4)},
		},
	}, nil},
	{"epoch decreased", History{
		Epochs: []EpochEvent{
			{Client: "c", TP: tp0, Epoch: 3, At: at(0)},
			{Client: "c", TP: tp0, Epoch: 2, At: at(1)},
		},
	}, []Rule{RuleEpochRegress}},
	{"data from a fenced leader", History{
		Epochs: []EpochEvent{
			{Client: "c", TP: tp0, Epoch: 3, At: at(0)},
			{Client: "c", TP: tp0, Epoch: 2, Data: true, At: at(1)},
		},
	}, []Rule{RuleFencedLeader}},
}

// TestCheck runs every hand-made history and requires exactly the listed
// violations.
func TestCheck(t *testing.T) {
	for _, c := range append(cases, jepsenCases...) {
		t.Run(c.name, func(t *testing.T) {
			vs := Check(&c.h)
			var got []Rule
			for _, v := range vs {
				got = append(got, v.Rule)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("rules %v, want %v; violations: %v", got, c.want, vs)
			}
		})
	}
}

// TestOwnershipNamesMembers: a double ownership names both members.
func TestOwnershipNamesMembers(t *testing.T) {
	h := History{Assignments: []Assignment{
		{Group: "g", Member: "m1", TP: tp0, Start: at(0), End: at(6)},
		{Group: "g", Member: "m2", TP: tp0, Start: at(5)},
	}}
	vs := Check(&h)
	if len(vs) != 1 || !slices.Equal(vs[0].Members, []string{"m1", "m2"}) {
		t.Fatalf("violations %+v, want one naming m1 and m2", vs)
	}
}

// TestEveryRuleHasBothHistories checks the table has, for every rule, a
// history that breaks it and one that exercises its data without breaking it.
func TestEveryRuleHasBothHistories(t *testing.T) {
	broken := map[Rule]bool{}
	for _, c := range append(cases, jepsenCases...) {
		for _, r := range c.want {
			broken[r] = true
		}
	}
	for _, r := range Rules {
		if !broken[r] {
			t.Errorf("no history breaks %s", r)
		}
	}
}

// TestCommitRegressNamesMembers: the violation names who committed each
// offset, so a regression seen in a soak can be traced to its members.
func TestCommitRegressNamesMembers(t *testing.T) {
	h := &History{Commits: []Commit{
		{Group: "g", TP: tp0, Offset: 3, At: at(1), Member: "g7"},
		{Group: "g", TP: tp0, Offset: 2, At: at(2), Member: "j0"},
	}}
	vs := commitRegress(h)
	if len(vs) != 1 || !strings.Contains(vs[0].String(), "by g7") || !strings.Contains(vs[0].String(), "then j0") {
		t.Fatalf("violations %v: want one naming g7 and j0", vs)
	}
}
