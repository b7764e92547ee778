package faultcheck

import (
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/testlab/invariant"
)

// TestGroupJudge feeds groupLoad.judge a history with each kind of lie the
// group could tell and requires each to be counted, and an honest handover
// and a fenced member's zombie deliveries not to be.
func TestGroupJudge(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	tp := invariant.TP{Topic: "in", Partition: 0}
	tp1 := invariant.TP{Topic: "in", Partition: 1}
	gl := &groupLoad{topic: "in",
		ivs: []ownership{
			{member: "g1", tp: tp, start: at(0), end: at(10)},              // handover to g2
			{member: "g2", tp: tp, start: at(11), end: at(20), lost: true}, // fenced at 20
			{member: "g3", tp: tp, start: at(15)},                          // got it while g2 was a zombie
			{member: "j0", tp: tp1, start: at(0), end: at(5), lost: true},  // a Java member fenced twice
			{member: "j0", tp: tp1, start: at(6), end: at(9), lost: true},
		},
		commits: []groupCommit{
			{member: "g1", tp: tp, offset: 2, at: at(5)},
			{member: "g3", tp: tp, offset: 4, at: at(16)},
			{member: "g1", tp: tp, offset: 5, at: at(30)}, // after g1's handover: a lie
		},
		delivered: map[invariant.TP]map[int64]int{tp: {0: 1, 1: 2, 3: 1, 4: 1}}, // offset 2 never delivered
		hw:        map[invariant.TP]int64{tp: 5},
		early: []earlyDelivery{
			{member: "g2", tp: tp, offset: 3, at: at(17), accepted: 4}, // zombie: g2 is fenced later
			{member: "g3", tp: tp, offset: 1, at: at(18), accepted: 2}, // not fenced: counted
			{member: "j0", tp: tp1, offset: 0, at: at(8), accepted: 1}, // zombie: in j0's second fenced ownership
		},
	}
	h := &invariant.History{Logs: []invariant.Log{{TP: tp, Start: 0, End: 5, Records: []invariant.LogRecord{
		{Offset: 0, ID: "a"}, {Offset: 1, ID: "b"}, {Offset: 2, ID: "c"}, {Offset: 3, ID: "d"}, {Offset: 4, ID: "e"}}}}}
	var f Figures
	gl.judge(h, &f)
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"GroupNotDelivered", f.GroupNotDelivered, 1},
		{"GroupRedelivered", f.GroupRedelivered, 1},
		{"GroupDelivered", f.GroupDelivered, 4},
		{"ZombieDeliveries", f.ZombieDeliveries, 2},
		{"DeliveredBelowCommit", f.DeliveredBelowCommit, 1},
		{"CommitsOutsideOwnership", f.CommitsOutsideOwnership, 1},
		{"ZombieOverlaps", f.ZombieOverlaps, 1},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
	// Record leaves the fenced interval out of the invariant checker's
	// ownership rule: g1 → g3 does not overlap.
	var h2 invariant.History
	gl.events = map[consumer.AssignmentEventKind]int{}
	gl.Record(&h2, &f)
	if len(h2.Assignments) != 2 {
		t.Fatalf("assignments for the checker: %+v, want g1's and g3's", h2.Assignments)
	}
	if vs := invariant.Check(&h2); len(vs) != 0 {
		t.Errorf("an honest handover was judged: %v", vs)
	}
	// A true double ownership (g1 still owning it when g3 got it) is caught.
	h2.Assignments[0].End = at(20)
	if vs := invariant.Check(&h2); len(vs) != 1 || vs[0].Rule != invariant.RuleOwnership {
		t.Errorf("overlap not caught: %v", vs)
	}
}
