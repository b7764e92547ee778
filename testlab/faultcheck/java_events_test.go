package faultcheck

import (
	"os"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/testlab/invariant"
)

// TestJavaEvents parses output captured from Kafka 4.4.0's
// VerifiableProducer and VerifiableConsumer (testdata/, topic renamed "t",
// an error event and a failed commit added in the tools' format) into the
// history the checker judges.
func TestJavaEvents(t *testing.T) {
	replay := func(name string, on func(javaEvent)) { replayJava(t, name, on) }
	jp := &javaProducerLoad{name: "java-p7", prefix: 7, topic: "t", sends: map[int64]invariant.Send{}, sentTotal: -1, logf: t.Logf}
	replay("verifiable-producer.jsonl", jp.onEvent)
	var h invariant.History
	var f Figures
	jp.Record(&h, &f)
	if len(h.Sends) != 4 || f.Acked != 3 || f.PossiblySent != 1 || f.Unresolved != 16 || f.JavaSendErrors != 1 {
		t.Fatalf("producer: %d sends, %d acked, %d possibly sent, %d unresolved, %d errors; want 4, 3, 1, 16 (tool_data said 20 sent), 1: %+v",
			len(h.Sends), f.Acked, f.PossiblySent, f.Unresolved, f.JavaSendErrors, h.Sends)
	}
	if s := h.Sends[2]; s.ID != "7.2" || !s.Acked || s.Partition != 1 || s.Offset != 2 || s.Completed.UnixMilli() != 1796177528795 {
		t.Errorf("third send %+v, want 7.2 acked at t[1]@2", s)
	}
	h.Logs = []invariant.Log{{TP: invariant.TP{Topic: "t", Partition: 1}, Start: 0, End: 4, Records: []invariant.LogRecord{
		{Offset: 0, ID: "7.0"}, {Offset: 1, ID: "7.1"}, {Offset: 2, ID: "7.2"}, {Offset: 3, ID: "7.4"}}}}
	jp.placeErrors(&h)
	if s := h.Sends[3]; s.ID != "7.4" || s.Acked || s.Partition != 1 {
		t.Errorf("failed send %+v, want 7.4 unacknowledged, placed at partition 1 where the log has it", s)
	}

	gl, jm := newJavaReplay()
	replay("verifiable-consumer.jsonl", jm.onEvent)
	tp1 := invariant.TP{Topic: "t", Partition: 1}
	if len(gl.ivs) != 2 || gl.ivs[1].tp != tp1 || gl.ivs[1].end.UnixMilli() != 1796177532549 || gl.ivs[1].lost {
		t.Errorf("ownership %+v, want t[0] and t[1] from the assignment to the revocation", gl.ivs)
	}
	if len(gl.reads) != 2 || len(gl.reads[0].Records) != 2 || gl.reads[0].Continues || !gl.reads[1].Continues || gl.reads[1].From != 2 {
		t.Errorf("reads %+v, want [0,2) then [2,3) continuing", gl.reads)
	}
	if len(gl.commits) != 1 || gl.commits[0].offset != 2 || gl.commits[0].at.UnixMilli() != 1796177532363 || gl.commitErr != 1 || gl.hw[tp1] != 2 {
		t.Errorf("commits %+v (failed %d, hw %d), want one accepted at 2 begun at the poll, one failed", gl.commits, gl.commitErr, gl.hw[tp1])
	}
	if gl.javaDelivered != 3 || len(gl.early) != 0 {
		t.Errorf("delivered %d, early %v; want 3, none", gl.javaDelivered, gl.early)
	}
	var h2 invariant.History
	h2.Logs = h.Logs
	gl.Record(&h2, &f)
	gl.judge(&h2, &f)
	if vs := invariant.Check(&h2); len(vs) != 0 || f.GroupNotDelivered != 0 || f.CommitsOutsideOwnership != 0 {
		t.Errorf("an honest Java member was judged: %v, not delivered %d, commits outside %d", vs, f.GroupNotDelivered, f.CommitsOutsideOwnership)
	}
}

// TestJavaMemberLost replays a fenced Java member (LostReportingConsumer on
// Kafka 4.4.0, SIGSTOPped 16 s, past the group's 10 s session timeout, then
// continued: partitions_lost, then a new assignment; topic renamed "t")
// beside a gregor member g1 that the coordinator gave t[0] after expiring
// j0, before j0 learned of it. As printed, j0's first interval ends Lost:
// the overlap is a zombie overlap and the history passes. The stock
// VerifiableConsumer prints the same loss as partitions_revoked (its
// onPartitionsLost is the interface default); replayed that way, the same
// overlap is a double ownership the checker must flag.
func TestJavaMemberLost(t *testing.T) {
	lostAt := time.UnixMilli(1796191021013) // partitions_lost in the capture
	tp0 := invariant.TP{Topic: "t", Partition: 0}
	for _, c := range []struct {
		name                string
		asStock             bool
		wantOwned, wantZomb int
	}{
		{"partitions_lost", false, 0, 1},
		{"stock tool: the loss printed as partitions_revoked", true, 1, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			gl, jm := newJavaReplay()
			replayJava(t, "verifiable-consumer-lost.jsonl", func(e javaEvent) {
				if c.asStock && e.Name == "partitions_lost" {
					e.Name = "partitions_revoked"
				}
				jm.onEvent(e)
			})
			// g1 owned t[0] from 1 s before j0 was told until j0 got it back.
			gl.ivs = append(gl.ivs, ownership{member: "g1", tp: tp0, start: lostAt.Add(-time.Second), end: lostAt.Add(50 * time.Millisecond)})
			if len(gl.ivs) != 13 || gl.ivs[0].lost == c.asStock || gl.ivs[6].lost {
				t.Fatalf("intervals %+v, want j0's 6 ended lost=%v, its next 6 by the revocation at shutdown, g1's", gl.ivs, !c.asStock)
			}
			h := &invariant.History{Logs: []invariant.Log{{TP: tp0, Start: 0, End: 2, Records: []invariant.LogRecord{{Offset: 0, ID: "7.0"}, {Offset: 1, ID: "7.1"}}}}}
			var f Figures
			gl.Record(h, &f)
			gl.judge(h, &f)
			owned := 0
			for _, v := range invariant.Check(h) {
				if v.Rule != invariant.RuleOwnership {
					t.Errorf("unexpected violation %v", v)
				}
				owned++
			}
			if owned != c.wantOwned || f.ZombieOverlaps != c.wantZomb || f.LostEvents != 1-c.wantOwned || f.GroupNotDelivered+f.CommitsOutsideOwnership != 0 {
				t.Errorf("double ownerships %d, zombie overlaps %d, Lost events %d, not delivered %d, commits outside %d; want %d, %d, %d, 0, 0",
					owned, f.ZombieOverlaps, f.LostEvents, f.GroupNotDelivered, f.CommitsOutsideOwnership, c.wantOwned, c.wantZomb, 1-c.wantOwned)
			}
		})
	}
}

// newJavaReplay is a group of one Java member j0, fed by replaying events.
func newJavaReplay() (*groupLoad, *javaMember) {
	gl := &groupLoad{group: "t-g", topic: "t", open: map[string]map[invariant.TP]int{}, delivered: map[invariant.TP]map[int64]int{},
		hw: map[invariant.TP]int64{}, events: map[consumer.AssignmentEventKind]int{}}
	return gl, &javaMember{name: "j0", gl: gl, cont: map[invariant.TP]bool{}}
}

// replayJava feeds on the events of testdata/name.
func replayJava(t *testing.T, name string, on func(javaEvent)) {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	readJavaEvents(f, on)
}
