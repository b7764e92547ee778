package judge

import (
	"fmt"
	"strings"
	"testing"
)

func line(id, rest string) []byte {
	return []byte(fmt.Sprintf(`{"protocol_version":34,"command_id":%q,%s}`, id, rest))
}

func TestEventLimit(t *testing.T) {
	s := NewSession()
	id := CommandID(1)
	s.Begin(id, "send", map[string]any{"producer_id": "p", "operation_id": "op"})
	s.counted = MaxEventsPerCommand - 1
	if _, done, err := s.Feed(line(id, `"kind":"operation_accepted","operation_id":"op"`)); err != nil || done {
		t.Fatalf("64th event: done=%v err=%v", done, err)
	}
	_, _, err := s.Feed(line(id, `"kind":"operation_terminal","operation_id":"op","status":"acknowledged","code":null,"offset":1`))
	if err == nil || !strings.Contains(err.Error(), "event_limit_exceeded") {
		t.Fatalf("65th event: %v", err)
	}
}

func TestSendBatchOrder(t *testing.T) {
	ops := []any{
		map[string]any{"operation_id": "a", "record": map[string]any{}},
		map[string]any{"operation_id": "b", "record": map[string]any{}},
		map[string]any{"operation_id": "c", "record": map[string]any{}},
	}
	good := []string{
		`"kind":"operation_accepted","operation_id":"a"`,
		`"kind":"operation_accepted","operation_id":"b"`,
		`"kind":"operation_rejected","operation_id":"c","code":"backpressure"`,
		`"kind":"operation_terminal","operation_id":"a","status":"acknowledged","code":null,"offset":0`,
		`"kind":"operation_terminal","operation_id":"b","status":"possibly_sent","code":"timeout","offset":null`,
		`"kind":"batch_completed","producer_id":"p"`,
	}
	run := func(evs []string) error {
		s := NewSession()
		id := CommandID(1)
		s.Begin(id, "send_batch", map[string]any{"producer_id": "p", "operations": ops})
		for i, e := range evs {
			_, done, err := s.Feed(line(id, e))
			if err != nil {
				return err
			}
			if done != (i == len(evs)-1) {
				return fmt.Errorf("event %d: done=%v", i, done)
			}
		}
		return nil
	}
	if err := run(good); err != nil {
		t.Fatalf("valid batch: %v", err)
	}
	bad := map[string][]string{
		"terminal before all admissions": {good[0], good[3]},
		"admissions out of order":        {good[1]},
		"accepted after rejected":        {good[0], `"kind":"operation_rejected","operation_id":"b","code":"x"`, `"kind":"operation_accepted","operation_id":"c"`},
		"terminals out of order":         {good[0], good[1], good[2], good[4]},
		"completion too early":           {good[0], good[1], good[2], good[3], good[5]},
		"terminal for rejected":          {good[0], good[1], good[2], `"kind":"operation_terminal","operation_id":"c","status":"acknowledged","code":null,"offset":0`},
		"bad status":                     {good[0], good[1], good[2], `"kind":"operation_terminal","operation_id":"a","status":"delivered","code":null,"offset":0`},
	}
	for name, evs := range bad {
		if err := run(evs); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestJoinConcurrentActors(t *testing.T) {
	s := NewSession()
	start := CommandID(1)
	s.Begin(start, "start_concurrent_actors", map[string]any{"concurrency_id": "g", "actors": []any{
		map[string]any{"kind": "producer_send", "actor_id": "a1", "producer_id": "p", "operation_id": "op1", "record": map[string]any{}},
		map[string]any{"kind": "assigned_receive", "actor_id": "a2", "consumer_id": "k", "receive_id": "r1", "timeout_ms": 100.0},
	}})
	if _, done, err := s.Feed(line(start, `"kind":"concurrent_actors_started","concurrency_id":"g","actor_ids":["a1","a2"]`)); err != nil || !done {
		t.Fatalf("start: %v %v", done, err)
	}
	join := CommandID(2)
	s.Begin(join, "join_concurrent_actors", map[string]any{"concurrency_id": "g", "timeout_ms": 1000.0})
	for i, e := range []string{
		`"kind":"operation_accepted","operation_id":"op1"`,
		`"kind":"operation_terminal","operation_id":"op1","status":"acknowledged","code":null,"offset":3`,
		`"kind":"concurrent_actor_completed","concurrency_id":"g","actor_id":"a1","operation_id":"op1"`,
		`"kind":"receive_completed","receive_id":"r1","records":[]`,
		`"kind":"concurrent_actor_completed","concurrency_id":"g","actor_id":"a2","operation_id":"r1"`,
		`"kind":"concurrent_actors_completed","concurrency_id":"g","actor_ids":["a1","a2"]`,
	} {
		_, done, err := s.Feed(line(join, e))
		if err != nil || done != (i == 5) {
			t.Fatalf("event %d: done=%v err=%v", i, done, err)
		}
	}
}

func TestShapeChecks(t *testing.T) {
	for name, l := range map[string]string{
		"wrong version":      `{"protocol_version":33,"command_id":"command-00000001","kind":"client_created","client_id":"c"}`,
		"version as string":  `{"protocol_version":"34","command_id":"command-00000001","kind":"client_created","client_id":"c"}`,
		"unknown kind":       `{"protocol_version":34,"command_id":"command-00000001","kind":"client_made","client_id":"c"}`,
		"bad id":             `{"protocol_version":34,"command_id":"-bad","kind":"client_created","client_id":"c"}`,
		"two values":         `{"protocol_version":34,"command_id":"command-00000001","kind":"client_created","client_id":"c"} {}`,
		"record missing key": `{"protocol_version":34,"command_id":"command-00000001","kind":"receive_completed","receive_id":"r","records":[{"topic":"t","partition":0,"offset":0,"timestamp_millis":null,"value":null,"headers":[]}]}`,
		"bad hex":            `{"protocol_version":34,"command_id":"command-00000001","kind":"receive_completed","receive_id":"r","records":[{"topic":"t","partition":0,"offset":0,"timestamp_millis":null,"key":{"encoding":"hex","data":"zz"},"value":null,"headers":[]}]}`,
	} {
		s := NewSession()
		s.Begin(CommandID(1), "create_client", map[string]any{"client_id": "c"})
		if _, _, err := s.Feed([]byte(l)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
