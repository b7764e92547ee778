package protocol

import (
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// TestSessionGroupWalk drives every group command against a fake settled
// group: the observation reports the drained transition and the snapshot,
// a receive commits its batch and reports the generation, a shutdown with
// three requests issues exactly three, and a later close is answered.
func TestSessionGroupWalk(t *testing.T) {
	b := &fakeBackend{records: []ReceivedRecord{{Topic: "t", Partition: 0, Offset: 4, Value: []byte("v")}}}
	var s script
	s.add("hello", helloPlain)
	s.add("create_client", `"client_id":"c1"`)
	create := s.add("create_group_consumer", `"client_id":"c1","consumer_id":"g1","group_id":"grp","topic":"t","protocol":"classic"`)
	obs := s.add("observe_group_assignments", `"operation_id":"o1","consumer_ids":["g1"],"timeout_ms":5000`)
	recv := s.add("group_receive", `"consumer_id":"g1","receive_id":"r1","timeout_ms":1000`)
	set := s.add("group_receive_set", `"receive_id":"r2","consumer_ids":["g1"],"record_count":1,"timeout_ms":1000`)
	ctl := s.add("control_group_consumer", `"operation_id":"o2","consumer_id":"g1","control":{"kind":"pause","partitions":[{"topic":"t","partition":0}]},"timeout_ms":1000`)
	sd := s.add("shutdown_group_consumer", `"operation_id":"o3","consumer_id":"g1","request_count":3,"timeout_ms":1000`)
	cl := s.add("close_group_consumer", `"consumer_id":"g1"`)
	s.add("shutdown_client", `"client_id":"c1"`)
	fin := s.add("finish", "")
	evs, code, stderr := runScript(t, b, s.input())
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := map[string]string{
		create: `{"protocol_version":34,"command_id":"` + create + `","kind":"group_consumer_created","consumer_id":"g1"}`,
		obs: `{"protocol_version":34,"command_id":"` + obs + `","kind":"group_assignments_observed","operation_id":"o1",` +
			`"transitions":[{"consumer_id":"g1","kind":"assigned","assignment_epoch":1,"partitions":[{"topic":"t","partition":0}]}],` +
			`"assignments":[{"consumer_id":"g1","group_id":"grp","member_id":"m1","group_epoch":{"kind":"classic","generation_id":3},"assignment_epoch":1,"partitions":[{"topic":"t","partition":0}]}]}`,
		ctl: `{"protocol_version":34,"command_id":"` + ctl + `","kind":"group_consumer_control_completed","operation_id":"o2","consumer_id":"g1","control":"pause"}`,
		sd:  `{"protocol_version":34,"command_id":"` + sd + `","kind":"group_consumer_shutdown_completed","operation_id":"o3","consumer_id":"g1","request_count":3}`,
		cl:  `{"protocol_version":34,"command_id":"` + cl + `","kind":"group_consumer_closed","consumer_id":"g1"}`,
	}
	for id, line := range want {
		if got := findLine(evs, id, strings.Split(strings.Split(line, `"kind":"`)[1], `"`)[0]); got != line {
			t.Errorf("%s:\n got %s\nwant %s", id, got, line)
		}
	}
	for _, id := range []string{recv, set} {
		if l := evs[len(evs)-1]; l.kind != "finished" || l.id != fin {
			t.Fatalf("last event %s", l.raw)
		}
		var line string
		for _, e := range evs {
			if e.id == id {
				line = e.raw
			}
		}
		if !strings.Contains(line, `"committed":true`) || !strings.Contains(line, `"group_epoch":{"kind":"classic","generation_id":3}`) || !strings.Contains(line, `"offset":4`) {
			t.Errorf("%s: %s", id, line)
		}
	}
	g := b.groups[0]
	if g.shutdowns != 3 || len(g.commits) != 2 {
		t.Fatalf("shutdown requests %d (want 3), commits %d (want 2)", g.shutdowns, len(g.commits))
	}
}

// TestSessionGroupTransitionOverflow: more transitions than the adapter
// retains is an adapter failure (fatal), never a silent drop.
func TestSessionGroupTransitionOverflow(t *testing.T) {
	b := &fakeBackend{groupOverflow: true}
	var s script
	s.add("hello", helloPlain)
	s.add("create_client", `"client_id":"c1"`)
	s.add("create_group_consumer", `"client_id":"c1","consumer_id":"g1","group_id":"grp","topic":"t","protocol":"classic"`)
	obs := s.add("observe_group_assignments", `"operation_id":"o1","consumer_ids":["g1"],"timeout_ms":5000`)
	evs, code, _ := runScript(t, b, s.input())
	if code != ExitFatal || !strings.Contains(findLine(evs, obs, "fatal"), "adapter_group_transitions") {
		t.Fatalf("exit %d, events %s", code, kindsOf(evs, obs))
	}
}

// TestObserveStoppedGroupAtOnce: a member whose membership stopped (here
// the coordinator lacks the protocol) fails observe_group_assignments at
// once with the error's code, not "did not settle" at the timeout.
func TestObserveStoppedGroupAtOnce(t *testing.T) {
	b := &fakeBackend{groupErr: &gregor.UnsupportedFeatureError{Feature: "KIP-848 consumer groups", Err: wire.ErrUnsupportedVersion}}
	var s script
	s.add("hello", helloPlain)
	s.add("create_client", `"client_id":"c1"`)
	s.add("create_group_consumer", `"client_id":"c1","consumer_id":"g1","group_id":"grp","topic":"t","protocol":"classic"`)
	obs := s.add("observe_group_assignments", `"operation_id":"o1","consumer_ids":["g1"],"timeout_ms":30000`)
	start := time.Now()
	evs, _, _ := runScript(t, b, s.input())
	line := findLine(evs, obs, "command_failed")
	if !strings.Contains(line, `"code":"compatibility"`) || time.Since(start) > 10*time.Second {
		t.Fatalf("after %v: %s", time.Since(start), kindsOf(evs, obs))
	}
}

// TestObserveWithOutsideMembers: with a member outside the session (the
// coordinator lists a Java consumer too) the session's member settles on
// its own stable snapshot although it owns 1 of the topic's 2 partitions;
// with the coordinator listing only the session's member, the same
// snapshot does not cover the topic and does not settle.
func TestObserveWithOutsideMembers(t *testing.T) {
	for _, tc := range []struct {
		members []string
		want    string
	}{{[]string{"m1", "java-1"}, "group_assignments_observed"}, {[]string{"m1"}, "command_failed"}} {
		b := &fakeBackend{groupMembers: tc.members, groupPartitions: 2}
		var s script
		s.add("hello", helloPlain)
		s.add("create_client", `"client_id":"c1"`)
		s.add("create_group_consumer", `"client_id":"c1","consumer_id":"g1","group_id":"grp","topic":"t","protocol":"classic"`)
		obs := s.add("observe_group_assignments", `"operation_id":"o1","consumer_ids":["g1"],"timeout_ms":1000`)
		evs, _, _ := runScript(t, b, s.input())
		if findLine(evs, obs, tc.want) == "" {
			t.Fatalf("members %v: %s, want %s", tc.members, kindsOf(evs, obs), tc.want)
		}
	}
}
