package faultcheck

import (
	"os"
	"testing"

	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/testlab/invariant"
)

// TestJavaEvents parses output captured from Kafka 4.4.0's
// VerifiableProducer and VerifiableConsumer (testdata/, topic renamed "t",
// an error event and a failed commit added in the tools' format) into the
// history the checker judges.
func TestJavaEvents(t *testing.T) {
	replay := func(name string, on func(javaEvent)) {
		f, err := os.Open("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		readJavaEvents(f, on)
	}
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

	gl := &groupLoad{group: "t-g", topic: "t", open: map[string]map[invariant.TP]int{}, delivered: map[invariant.TP]map[int64]int{},
		hw: map[invariant.TP]int64{}, events: map[consumer.AssignmentEventKind]int{}}
	jm := &javaMember{name: "j0", gl: gl, cont: map[invariant.TP]bool{}}
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
