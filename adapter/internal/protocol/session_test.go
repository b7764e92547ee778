package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// script builds command lines with testctl-style ids.
type script struct {
	n     int
	lines []string
}

func (s *script) add(kind, fields string) string {
	s.n++
	id := fmt.Sprintf("command-%08d", s.n)
	line := fmt.Sprintf(`{"protocol_version":34,"command_id":%q,"kind":%q`, id, kind)
	if fields != "" {
		line += "," + fields
	}
	s.lines = append(s.lines, line+"}")
	return id
}

func (s *script) input() string { return strings.Join(s.lines, "\n") + "\n" }

const helloPlain = `"run_id":"run-1","scenario_id":"s1","broker_endpoints":["127.0.0.1:9092"],"security":{"kind":"plaintext"}`

type event struct {
	raw  string
	kind string
	id   string
	m    map[string]any
}

func runScript(t *testing.T, b Backend, input string) ([]event, int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	s := NewSession(b, &out, &errb)
	s.LookupEnv = func(name string) (string, bool) {
		v, ok := map[string]string{"U": "admin", "P": "secret"}[name]
		return v, ok
	}
	code := s.Run(strings.NewReader(input))
	var evs []event
	for _, l := range strings.SplitAfter(out.String(), "\n") {
		if l == "" {
			continue
		}
		if !strings.HasSuffix(l, "\n") {
			t.Fatalf("partial stdout line %q", l)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("stdout line is not JSON: %q", l)
		}
		if m["protocol_version"] != float64(34) {
			t.Fatalf("bad protocol_version in %q", l)
		}
		evs = append(evs, event{raw: strings.TrimSuffix(l, "\n"), kind: m["kind"].(string), id: m["command_id"].(string), m: m})
	}
	if errb.Len() > 16<<10+1024 {
		t.Errorf("stderr too large: %d bytes", errb.Len())
	}
	return evs, code, errb.String()
}

func kindsOf(evs []event, id string) string {
	var ks []string
	for _, e := range evs {
		if e.id == id {
			ks = append(ks, e.kind)
		}
	}
	return strings.Join(ks, ",")
}

func findLine(evs []event, id, kind string) string {
	for _, e := range evs {
		if e.id == id && e.kind == kind {
			return e.raw
		}
	}
	return ""
}

func rec(topic string, seq int, value string) string {
	return fmt.Sprintf(`{"topic":%q,"partition":0,"sequence":%d,"key":null,"value":{"encoding":"utf8","data":%q},"headers":[]}`, topic, seq, value)
}

func TestSessionFullWalk(t *testing.T) {
	b := &fakeBackend{records: []ReceivedRecord{{Topic: "t", Partition: 0, Offset: 0, Key: []byte("k"), Value: []byte{1, 2}}}}
	var s script
	hello := s.add("hello", helloPlain)
	cc := s.add("create_configured_client", `"client_id":"c1","configuration":{"delivery_timeout_ms":5000,"compression":"lz4","max_retries":0,"retry_backoff_ms":0,"limits":{"retained_bytes":1048576,"in_flight_records":64,"waiting_records":32,"waiting_bytes":65536,"batch_records":16,"batch_bytes":16384,"request_bytes":65536,"max_in_flight_requests_per_broker":5,"linger_ms":5}}`)
	ready := s.add("await_client_ready", `"client_id":"c1"`)
	ct := s.add("create_topic", `"client_id":"c1","operation_id":"t1","topic":"t","partitions":2,"replication_factor":1,"validate_only":false,"timeout_ms":5000`)
	dup := s.add("create_topic", `"client_id":"c1","operation_id":"t2","topic":"t","partitions":2,"replication_factor":1,"validate_only":false,"timeout_ms":5000`)
	val := s.add("create_topic", `"client_id":"c1","operation_id":"t3","topic":"v","partitions":2,"replication_factor":1,"validate_only":true,"timeout_ms":5000`)
	cp := s.add("create_producer", `"client_id":"c1","producer_id":"p1"`)
	send := s.add("send", `"producer_id":"p1","operation_id":"op-1","record":`+rec("t", 1, "v1"))
	denied := s.add("send", `"producer_id":"p1","operation_id":"op-2","record":`+rec("denied", 2, "v2"))
	batch := s.add("send_batch", `"producer_id":"p1","operations":[{"operation_id":"b1","record":`+rec("t", 3, "a")+`},{"operation_id":"b2","record":`+rec("t", 4, "b")+`}]`)
	cancel := s.add("cancel_producer_send", `"producer_id":"p1","operation_id":"x1","record":`+rec("t", 5, "c")+`,"timeout_ms":1000`)
	flush := s.add("flush", `"producer_id":"p1"`)
	metrics := s.add("observe_client_metrics", `"client_id":"c1","operation_id":"m1"`)
	cons := s.add("create_assigned_consumer", `"client_id":"c1","consumer_id":"k1"`)
	assign := s.add("assign_beginning", `"consumer_id":"k1","topic":"t","partition":0`)
	seek := s.add("control_assigned_consumer", `"operation_id":"s1","consumer_id":"k1","control":{"kind":"seek","partition":{"topic":"t","partition":0},"position":{"kind":"offset","offset":0}},"timeout_ms":1000`)
	recv := s.add("receive", `"consumer_id":"k1","receive_id":"r1","timeout_ms":1000`)
	desc := s.add("describe_topic", `"client_id":"c1","operation_id":"d1","topic":"t","timeout_ms":5000`)
	list := s.add("list_topics", `"client_id":"c1","operation_id":"l1","include_internal":false,"timeout_ms":5000`)
	cluster := s.add("describe_cluster", `"client_id":"c1","operation_id":"dc","timeout_ms":5000`)
	delOffs := s.add("delete_consumer_group_offsets", `"client_id":"c1","operation_id":"do","group_id":"g","partitions":[{"topic":"t","partition":0},{"topic":"t","partition":1}],"timeout_ms":5000`)
	delGroup := s.add("delete_consumer_group", `"client_id":"c1","operation_id":"dg","group_id":"g","timeout_ms":5000`)
	s.add("close_assigned_consumer", `"consumer_id":"k1"`)
	s.add("close_producer", `"producer_id":"p1"`)
	s.add("shutdown_client", `"client_id":"c1"`)
	fin := s.add("finish", "")

	evs, code, stderr := runScript(t, b, s.input())
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	checks := []struct{ id, kinds string }{
		{hello, "ready"}, {cc, "client_created"}, {ready, "client_ready"}, {ct, "topic_created"},
		{dup, "command_failed"}, {val, "topic_creation_validated"}, {cp, "producer_created"},
		{send, "operation_accepted,operation_terminal"}, {denied, "operation_accepted,operation_terminal"},
		{batch, "operation_accepted,operation_accepted,operation_terminal,operation_terminal,batch_completed"},
		{flush, "flush_completed"}, {metrics, "client_metrics_observed"}, {cons, "assigned_consumer_created"},
		{assign, "assignment_completed"}, {seek, "assigned_consumer_control_completed"}, {recv, "receive_completed"},
		{desc, "topic_described"}, {list, "topics_listed"}, {cluster, "cluster_described"},
		{delOffs, "consumer_group_offsets_deleted"}, {delGroup, "command_failed"}, {fin, "finished"},
	}
	for _, c := range checks {
		if got := kindsOf(evs, c.id); got != c.kinds {
			t.Errorf("%s: events %q, want %q", c.id, got, c.kinds)
		}
	}
	want := map[[2]string]string{
		{dup, "command_failed"}:                       `"code":"broker:broker_36"`,
		{send, "operation_terminal"}:                  `"operation_id":"op-1","status":"acknowledged","code":null,"offset":0}`,
		{denied, "operation_terminal"}:                `"operation_id":"op-2","status":"possibly_sent","code":"access:broker_29","offset":null}`,
		{cancel, "operation_terminal"}:                `"operation_id":"x1","status":"acknowledged"`,
		{recv, "receive_completed"}:                   `"receive_id":"r1","records":[{"topic":"t","partition":0,"offset":0,"timestamp_millis":null,"key":{"encoding":"hex","data":"6b"},"value":{"encoding":"hex","data":"0102"},"headers":[]}]}`,
		{desc, "topic_described"}:                     `"partitions":[0,1]}`,
		{list, "topics_listed"}:                       `"topics":["a","b"]}`,
		{cluster, "cluster_described"}:                `"cluster_id":"cluster-x","broker_ids":[1,2,3]}`,
		{delOffs, "consumer_group_offsets_deleted"}:   `"outcomes":[{"topic":"t","partition":0,"error_code":null},{"topic":"t","partition":1,"error_code":"broker:broker_3"}]}`,
		{delGroup, "command_failed"}:                  `"code":"broker:broker_69"`,
		{seek, "assigned_consumer_control_completed"}: `"operation_id":"s1","consumer_id":"k1","control":"seek"}`,
		{metrics, "client_metrics_observed"}:          `"produce_records":5,`,
	}
	for k, frag := range want {
		if l := findLine(evs, k[0], k[1]); !strings.Contains(l, frag) {
			t.Errorf("%s %s: line %q lacks %q", k[0], k[1], l, frag)
		}
	}
	// cancelling an already acknowledged record reports already_terminal twice
	if l := findLine(evs, cancel, "producer_cancellation_completed"); !strings.Contains(l, `"outcomes":["already_terminal","already_terminal"]`) {
		t.Errorf("cancel outcomes: %s", l)
	}
	if cfg := b.configs[0]; cfg.Producer == nil || cfg.Producer.Compression != "lz4" || cfg.ClientID != "c1" {
		t.Errorf("producer configuration not passed to the client: %+v", cfg)
	}
	if !b.clients[0].closed {
		t.Error("client not closed")
	}
}

func TestSessionCancelNotSent(t *testing.T) {
	b := &fakeBackend{hold: true}
	var s script
	s.add("hello", helloPlain)
	s.add("create_client", `"client_id":"c1"`)
	s.add("create_producer", `"client_id":"c1","producer_id":"p1"`)
	cancel := s.add("cancel_producer_send", `"producer_id":"p1","operation_id":"x1","record":`+rec("t", 5, "c")+`,"timeout_ms":1000`)
	evs, code, _ := runScript(t, b, s.input()+`{"protocol_version":34,"command_id":"command-00000099","kind":"abort"}`+"\n")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	if got := kindsOf(evs, cancel); got != "operation_accepted,operation_terminal,producer_cancellation_completed" {
		t.Fatalf("events %s", got)
	}
	if l := findLine(evs, cancel, "operation_terminal"); !strings.Contains(l, `"status":"definitely_not_sent","code":"cancelled","offset":null`) {
		t.Errorf("terminal %s", l)
	}
	if l := findLine(evs, cancel, "producer_cancellation_completed"); !strings.Contains(l, `"outcomes":["cancelled_not_sent","already_terminal"]`) {
		t.Errorf("outcomes %s", l)
	}
	if kindsOf(evs, "command-00000099") != "aborted" {
		t.Error("no aborted")
	}
}

func TestSessionBatchRejectedSuffix(t *testing.T) {
	b := &fakeBackend{admitLimit: 2}
	var s script
	s.add("hello", helloPlain)
	s.add("create_client", `"client_id":"c1"`)
	s.add("create_producer", `"client_id":"c1","producer_id":"p1"`)
	var ops []string
	for i := range 4 {
		ops = append(ops, fmt.Sprintf(`{"operation_id":"b%d","record":%s}`, i, rec("t", i, "v")))
	}
	batch := s.add("send_batch", `"producer_id":"p1","operations":[`+strings.Join(ops, ",")+`]`)
	rejected := s.add("send", `"producer_id":"p1","operation_id":"late","record":`+rec("t", 9, "v"))
	evs, code, _ := runScript(t, b, s.input())
	if code == ExitOK {
		t.Fatal("EOF before finish exited 0")
	}
	var got []string
	for _, e := range evs {
		if e.id == batch {
			got = append(got, e.kind+":"+fmt.Sprint(e.m["operation_id"])+fmt.Sprint(e.m["code"]))
		}
	}
	want := "operation_accepted:b0<nil> operation_accepted:b1<nil> operation_rejected:b2backpressure operation_rejected:b3backpressure " +
		"operation_terminal:b0<nil> operation_terminal:b1<nil>"
	if g := strings.Join(got, " "); !strings.HasPrefix(g, want) || !strings.HasSuffix(kindsOf(evs, batch), "batch_completed") {
		t.Errorf("batch events:\n%s\nwant prefix\n%s", g, want)
	}
	if l := findLine(evs, rejected, "operation_rejected"); !strings.Contains(l, `"code":"backpressure"`) {
		t.Errorf("send rejection %q", l)
	}
}

func TestSessionConcurrentActors(t *testing.T) {
	b := &fakeBackend{records: []ReceivedRecord{{Topic: "t", Partition: 0, Offset: 4, Value: []byte("z")}}}
	var s script
	s.add("hello", helloPlain)
	s.add("create_client", `"client_id":"c1"`)
	s.add("create_producer", `"client_id":"c1","producer_id":"p1"`)
	s.add("create_assigned_consumer", `"client_id":"c1","consumer_id":"k1"`)
	start := s.add("start_concurrent_actors", `"concurrency_id":"g1","actors":[`+
		`{"kind":"assigned_receive","actor_id":"a-recv","consumer_id":"k1","receive_id":"r1","timeout_ms":1000},`+
		`{"kind":"producer_send","actor_id":"a-send","producer_id":"p1","operation_id":"op-1","record":`+rec("t", 1, "v")+`}]`)
	busy := s.add("receive", `"consumer_id":"k1","receive_id":"r2","timeout_ms":100`)
	evs, code, _ := runScript(t, b, s.input())
	if code != ExitFatal || kindsOf(evs, start) != "concurrent_actors_started" || kindsOf(evs, busy) != "fatal" {
		t.Fatalf("exit %d, events %v", code, evs)
	}
	if l := findLine(evs, start, "concurrent_actors_started"); !strings.Contains(l, `"actor_ids":["a-recv","a-send"]`) {
		t.Errorf("start %s", l)
	}

	s.lines = s.lines[:len(s.lines)-1]
	s.n--
	join := s.add("join_concurrent_actors", `"concurrency_id":"g1","timeout_ms":5000`)
	s.add("close_assigned_consumer", `"consumer_id":"k1"`)
	s.add("close_producer", `"producer_id":"p1"`)
	s.add("shutdown_client", `"client_id":"c1"`)
	s.add("finish", "")
	evs, code, stderr := runScript(t, b, s.input())
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := "receive_completed,concurrent_actor_completed,operation_accepted,operation_terminal,concurrent_actor_completed,concurrent_actors_completed"
	if got := kindsOf(evs, join); got != want {
		t.Fatalf("join events %s", got)
	}
	var pairs []string
	for _, e := range evs {
		if e.id == join && e.kind == "concurrent_actor_completed" {
			pairs = append(pairs, e.m["actor_id"].(string)+"="+e.m["operation_id"].(string))
		}
	}
	if strings.Join(pairs, " ") != "a-recv=r1 a-send=op-1" {
		t.Errorf("actor completions %v", pairs)
	}
}

// TestSessionMisuse checks the §9 failure table: the exit status and the
// events of each kind of protocol misuse.
func TestSessionMisuse(t *testing.T) {
	hello := `{"protocol_version":34,"command_id":"command-00000001","kind":"hello",` + helloPlain + "}\n"
	line := func(id int, kind, fields string) string {
		l := fmt.Sprintf(`{"protocol_version":34,"command_id":"command-%08d","kind":%q`, id, kind)
		if fields != "" {
			l += "," + fields
		}
		return l + "}\n"
	}
	cases := []struct {
		name   string
		input  string
		exit   int
		last   string // kind of the last event, "" for none
		code   string // its code
		events int
	}{
		{"command before hello", line(1, "create_client", `"client_id":"c"`), ExitFatal, "fatal", "adapter_state", 1},
		{"finish before hello", line(1, "finish", ""), ExitFatal, "fatal", "adapter_state", 1},
		{"second hello", hello + strings.Replace(hello, "00000001", "00000002", 1), ExitFatal, "fatal", "adapter_state", 2},
		{"wrong protocol version", `{"protocol_version":33,"command_id":"command-00000001","kind":"hello"}` + "\n", ExitFatal, "fatal", "protocol_version", 1},
		{"malformed json", "{\"protocol_version\":34,\n", ExitInput, "", "", 0},
		{"unknown kind", line(1, "teleport", ""), ExitInput, "", "", 0},
		{"extra key", hello + line(2, "create_client", `"client_id":"c","x":1`), ExitInput, "ready", "", 1},
		{"oversize line", hello + `{"pad":"` + strings.Repeat("x", MaxLine) + "\"}\n", ExitInput, "ready", "", 1},
		{"incomplete last line", hello + strings.TrimSuffix(line(2, "finish", ""), "\n"), ExitInput, "ready", "", 1},
		{"eof before finish", hello, ExitInput, "ready", "", 1},
		{"empty input", "", ExitInput, "", "", 0},
		{"finish with open client", hello + line(2, "create_client", `"client_id":"c"`) + line(3, "finish", ""), ExitFatal, "fatal", "adapter_state", 3},
		{"finish with open producer", hello + line(2, "create_client", `"client_id":"c"`) + line(3, "create_producer", `"client_id":"c","producer_id":"p"`) + line(4, "shutdown_client", `"client_id":"c"`), ExitFatal, "fatal", "adapter_state", 4},
		{"duplicate client", hello + line(2, "create_client", `"client_id":"c"`) + line(3, "create_client", `"client_id":"c"`), ExitFatal, "fatal", "adapter_state", 3},
		{"unknown producer", hello + line(2, "flush", `"producer_id":"nope"`), ExitFatal, "fatal", "adapter_state", 2},
		{"unknown consumer", hello + line(2, "receive", `"consumer_id":"nope","receive_id":"r","timeout_ms":100`), ExitFatal, "fatal", "adapter_state", 2},
		{"empty batch", hello + line(2, "create_client", `"client_id":"c"`) + line(3, "create_producer", `"client_id":"c","producer_id":"p"`) + line(4, "send_batch", `"producer_id":"p","operations":[]`), ExitFatal, "fatal", "adapter_state", 4},
		{"bad hex", hello + line(2, "create_client", `"client_id":"c"`) + line(3, "create_producer", `"client_id":"c","producer_id":"p"`) +
			line(4, "send", `"producer_id":"p","operation_id":"o","record":{"topic":"t","partition":0,"sequence":1,"key":{"encoding":"hex","data":"0g"},"value":null}`), ExitFatal, "fatal", "adapter_record_bytes", 4},
		{"missing env", line(1, "hello", `"run_id":"r","scenario_id":"s","broker_endpoints":[],"security":{"kind":"sasl_plaintext","mechanism":"plain","username_environment":"U","password_environment":"NOPE"}`), ExitFatal, "fatal", "adapter_state", 1},
		{"eof after command_failed", hello + line(2, "create_client", `"client_id":"c"`) +
			line(3, "create_topic", `"client_id":"c","operation_id":"o","topic":"t","partitions":1,"replication_factor":1,"validate_only":false,"timeout_ms":1000`) +
			line(4, "create_topic", `"client_id":"c","operation_id":"o2","topic":"t","partitions":1,"replication_factor":1,"validate_only":false,"timeout_ms":1000`), ExitOK, "command_failed", "broker:broker_36", 4},
		{"abort with open handles", hello + line(2, "create_client", `"client_id":"c"`) + line(3, "abort", ""), ExitOK, "aborted", "", 3},
		{"duplicate command id", hello + line(1, "create_client", `"client_id":"c"`), ExitFatal, "fatal", "adapter_state", 2},
		{"join unknown group", hello + line(2, "join_concurrent_actors", `"concurrency_id":"g","timeout_ms":100`), ExitFatal, "fatal", "adapter_state", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			evs, code, stderr := runScript(t, &fakeBackend{}, tc.input)
			if code != tc.exit {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.exit, stderr)
			}
			if len(evs) != tc.events {
				t.Errorf("%d events, want %d: %v", len(evs), tc.events, evs)
			}
			if tc.last == "" {
				return
			}
			if len(evs) == 0 {
				t.Fatalf("no events")
			}
			last := evs[len(evs)-1]
			if last.kind != tc.last || (tc.code != "" && last.m["code"] != tc.code) {
				t.Errorf("last event %s", last.raw)
			}
			if last.kind == "fatal" && tc.name != "duplicate command id" && last.id != fmt.Sprintf("command-%08d", tc.events) {
				t.Errorf("fatal not correlated with the offending command: %s", last.raw)
			}
		})
	}
}
