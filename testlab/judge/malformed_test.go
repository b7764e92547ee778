package judge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
)

// rec is a valid ConsumedRecord with every nested shape filled in.
const rec = `{"topic":"t","partition":0,"offset":3,"timestamp_millis":1700000000000,"key":{"encoding":"hex","data":"6b"},"value":{"encoding":"utf8","data":"v"},"headers":[{"name":"h","value":{"encoding":"hex","data":""}}]}`

// validPayloads holds one valid payload (envelope removed) per event kind,
// with arrays non-empty and optionals mostly non-null, so that every nested
// object and value can be broken.
func validPayloads() map[string]string {
	idOnly := func(key string) string { return fmt.Sprintf(`{%q:"x1"}`, key) }
	opTopic := `{"operation_id":"op-1","topic":"t"}`
	opTopicConfig := `{"operation_id":"op-1","topic":"t","config_name":"retention.ms"}`
	groupTP := `{"operation_id":"op-1","group_id":"g","topic":"t","partition":0}`
	groupOutcomes := `{"operation_id":"op-1","group_id":"g","outcomes":[{"topic":"t","partition":0,"error_code":"broker:broker_3"}]}`
	return map[string]string{
		"ready":                           `{"descriptor":{"id":"fake","implementation":"x","version":"0","protocol_version":34,"capabilities":["producer"]}}`,
		"client_created":                  idOnly("client_id"),
		"client_ready":                    idOnly("client_id"),
		"client_metrics_observed":         `{"client_id":"c1","operation_id":"op-1","snapshot":` + snapshotJSON() + `}`,
		"producer_created":                idOnly("producer_id"),
		"operation_accepted":              idOnly("operation_id"),
		"operation_rejected":              `{"operation_id":"op-1","code":"backpressure"}`,
		"operation_terminal":              `{"operation_id":"op-1","status":"acknowledged","code":null,"offset":5}`,
		"producer_cancellation_completed": `{"operation_id":"op-1","outcomes":["too_late","already_terminal"]}`,
		"batch_completed":                 idOnly("producer_id"),
		"flush_completed":                 idOnly("producer_id"),
		"producer_closed":                 idOnly("producer_id"),
		"client_shutdown":                 idOnly("client_id"),

		"concurrent_actors_started":   `{"concurrency_id":"g1","actor_ids":["a1","a2"]}`,
		"concurrent_actor_completed":  `{"concurrency_id":"g1","actor_id":"a1","operation_id":"op-1"}`,
		"concurrent_actors_completed": `{"concurrency_id":"g1","actor_ids":["a1","a2"]}`,

		"assigned_consumer_created":           idOnly("consumer_id"),
		"assignment_completed":                idOnly("consumer_id"),
		"assigned_consumer_control_completed": `{"operation_id":"op-1","consumer_id":"k1","control":"seek"}`,
		"receive_completed":                   `{"receive_id":"r1","records":[` + rec + `]}`,
		"assigned_consumer_closed":            idOnly("consumer_id"),

		"group_consumer_created":            idOnly("consumer_id"),
		"group_receive_completed":           `{"receive_id":"r1","records":[` + rec + `],"committed":true,"group_epoch":{"kind":"classic","generation_id":3}}`,
		"group_assignments_observed":        `{"operation_id":"op-1","transitions":[{"consumer_id":"k1","kind":"assigned","assignment_epoch":1,"partitions":[{"topic":"t","partition":0}]}],"assignments":[{"consumer_id":"k1","group_id":"g","member_id":"m","group_epoch":{"kind":"consumer","member_epoch":2},"assignment_epoch":1,"partitions":[{"topic":"t","partition":0}]}]}`,
		"group_receive_set_completed":       `{"receive_id":"r1","members":[{"consumer_id":"k1","records":[` + rec + `],"committed":false,"group_epoch":{"kind":"consumer","member_epoch":2}}]}`,
		"group_consumer_control_completed":  `{"operation_id":"op-1","consumer_id":"k1","control":"pause"}`,
		"group_consumer_shutdown_completed": `{"operation_id":"op-1","consumer_id":"k1","request_count":2}`,
		"group_consumer_closed":             idOnly("consumer_id"),

		"share_consumer_created":          idOnly("consumer_id"),
		"share_receive_completed":         `{"consumer_id":"k1","receive_id":"r1","records":[{"record":` + rec + `,"delivery_count":1}],"acquisition_count":1,"member_epoch":1,"assignment_epoch":1}`,
		"share_acknowledgement_completed": `{"acknowledgement_id":"ack1","receive_id":"r1","dispositions":["accept"],"success":false,"delivery":"possibly_sent","code":"timeout"}`,
		"share_batch_dropped":             idOnly("receive_id"),
		"share_consumer_closed":           `{"consumer_id":"k1","success":false,"delivery":"definitely_not_sent","code":"state"}`,

		"topic_created":                      opTopic,
		"topic_creation_validated":           opTopic,
		"topics_creation_completed":          `{"operation_id":"op-1","outcomes":[{"topic":"t","error_code":"broker:broker_36"}]}`,
		"topic_partitions_created":           opTopic,
		"topic_partition_increase_validated": opTopic,
		"topic_deleted":                      opTopic,
		"topic_described":                    `{"operation_id":"op-1","topic":"t","partitions":[0,1]}`,
		"topics_listed":                      `{"operation_id":"op-1","topics":["a","b"]}`,
		"offset_listed":                      `{"operation_id":"op-1","topic":"t","partition":0,"offset":5}`,
		"records_deleted":                    `{"operation_id":"op-1","topic":"t","partition":0,"low_watermark":2}`,
		"topic_config_described":             `{"operation_id":"op-1","topic":"t","config_name":"retention.ms","value":"1000"}`,
		"topic_config_altered":               opTopicConfig,
		"topic_config_alteration_validated":  opTopicConfig,
		"cluster_described":                  `{"operation_id":"op-1","cluster_id":"abc","broker_ids":[1,2]}`,
		"consumer_groups_listed":             `{"operation_id":"op-1","group_ids":["g"],"broker_errors":[{"broker_id":1,"code":0}]}`,
		"consumer_group_described":           `{"operation_id":"op-1","group_id":"g","member_count":1}`,
		"consumer_group_offset_listed":       `{"operation_id":"op-1","group_id":"g","topic":"t","partition":0,"offset":4}`,
		"consumer_group_offsets_listed":      `{"operation_id":"op-1","group_id":"g","outcomes":[{"topic":"t","partition":0,"offset":4,"error_code":null}]}`,
		"consumer_groups_offsets_listed":     `{"operation_id":"op-1","groups":[{"group_id":"g","error_code":null,"offsets":[{"topic":"t","partition":0,"offset":4,"error_code":null}]}]}`,
		"consumer_group_offset_altered":      groupTP,
		"consumer_group_offsets_altered":     groupOutcomes,
		"consumer_group_offset_deleted":      groupTP,
		"consumer_group_offsets_deleted":     groupOutcomes,
		"consumer_group_deleted":             `{"operation_id":"op-1","group_id":"g"}`,
		"classic_groups_described":           `{"operation_id":"op-1","outcomes":[{"group_id":"g","member_count":1,"error_code":null}]}`,

		"transactional_producer_created":    idOnly("producer_id"),
		"transaction_completed":             `{"transaction_id":"tx1","disposition":"commit"}`,
		"transactional_transform_completed": `{"transaction_id":"tx1","disposition":"abort","consumer_id":"k1","records":[` + rec + `],"group_id":"g","topic":"t","partition":0,"next_offset":4,"group_epoch":{"kind":"classic","generation_id":1}}`,
		"transaction_fence_completed":       `{"transaction_id":"tx1","commit_error_code":"fenced:broker_90"}`,
		"transactional_producer_closed":     idOnly("producer_id"),

		"command_failed": `{"code":"timeout","diagnostic":"x"}`,
		"finished":       `{}`,
		"aborted":        `{}`,
		"fatal":          `{"code":"adapter_state","diagnostic":"x"}`,
	}
}

// snapshotJSON is a valid client_metrics_observed snapshot (§5.1).
func snapshotJSON() string {
	ints := func(keys ...string) string {
		var parts []string
		for i, k := range keys {
			parts = append(parts, fmt.Sprintf("%q:%d", k, i))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	stage := `{"samples":1,"total_ns":2,"max_ns":2}`
	var lat []string
	for _, k := range []string{"mailbox", "routing", "preparation", "writer_admission", "in_flight", "end_to_end", "deadline_lateness"} {
		lat = append(lat, fmt.Sprintf("%q:%s", k, stage))
	}
	prod := strings.TrimSuffix(ints("active_records", "active_bytes", "waiting_records", "waiting_bytes", "prepared_batches",
		"prepared_batch_bytes", "terminal_backlog", "produce_requests", "produce_batches", "produce_records",
		"produce_encoded_bytes", "peak_produce_in_flight_requests", "peak_produce_in_flight_requests_per_broker"), "}") +
		`,"accepting":true,"healthy":true}`
	return `{"calls":` + ints("admitted", "succeeded", "failed", "observer_abandoned", "not_sent", "possibly_sent") +
		`,"failures":` + ints("dns", "connect", "transport", "negotiation", "authentication", "deadline", "local_rejection", "response_capacity", "route_capacity") +
		`,"mailbox":` + ints("capacity_per_lane", "byte_capacity_per_lane", "queued_work", "queued_work_bytes", "queued_control", "queued_control_bytes",
		"work_full", "work_byte_full", "control_full", "control_byte_full", "closed_rejections", "wake_failures") +
		`,"latency":{` + strings.Join(lat, ",") + `},"producer":` + prod + `}`
}

func eventLine(kind, payload string) []byte {
	env := fmt.Sprintf(`{"protocol_version":34,"command_id":"command-00000001","kind":%q`, kind)
	if payload == "{}" {
		return []byte(env + "}")
	}
	return []byte(env + "," + strings.TrimPrefix(payload, "{"))
}

// feedOne feeds line to a fresh session, as the runner does: any error that
// is not the adapter's own fatal makes the run invalid.
func feedOne(line []byte) error {
	s := NewSession()
	s.Begin(CommandID(1), "create_client", map[string]any{"client_id": "x1"})
	_, _, err := s.Feed(line)
	return err
}

// wantInvalid checks that the judge refused line with a Problem the runner
// turns into the verdict invalid, naming the kind and every word of names.
func wantInvalid(t *testing.T, what string, line []byte, kind string, names ...string) {
	t.Helper()
	err := feedOne(line)
	p, ok := err.(*Problem)
	if !ok {
		t.Errorf("%s: accepted (err %v): %s", what, err, line)
		return
	}
	if p.Code != "adapter_output_invalid" && !(kind == "ready" && p.Code == "handshake_event_invalid") {
		t.Errorf("%s: problem code %s, want adapter_output_invalid: %v", what, p.Code, p)
	}
	for _, n := range append([]string{kind}, names...) {
		if !strings.Contains(p.Detail, n) {
			t.Errorf("%s: message %q does not name %q", what, p.Detail, n)
		}
	}
}

// TestEveryKindHasValidSample: the samples cover every kind the judge knows
// and each decodes (so the malformed variants below break a valid event).
func TestEveryKindHasValidSample(t *testing.T) {
	samples := validPayloads()
	if len(EventKinds()) != 67 {
		t.Errorf("%d event kinds, the v34 spec has 67", len(EventKinds()))
	}
	for _, k := range EventKinds() {
		p, ok := samples[k]
		if !ok {
			t.Errorf("no valid sample for %s", k)
			continue
		}
		if _, perr := decodeEvent(eventLine(k, p)); perr != nil {
			t.Errorf("valid %s does not decode: %v", k, perr)
		}
	}
}

// mutation is one malformed variant of a valid payload.
type mutation struct {
	what  string
	names []string // words the judge's message must contain
	tree  any
}

// mutations breaks every object of the payload tree in turn: each key
// removed, an unknown key added, each value replaced by one of a wrong
// JSON type (null by an object with an unknown key, which no type accepts).
func mutations(tree any) []mutation {
	var out []mutation
	var walk func(path string, node any, set func(any) any)
	walk = func(path string, node any, set func(any) any) {
		switch n := node.(type) {
		case map[string]any:
			keys := make([]string, 0, len(n))
			for k := range n {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			out = append(out, mutation{what: path + " + unknown key", names: []string{"zz_unknown"}, tree: set(with(n, "zz_unknown", 1))})
			for _, k := range keys {
				out = append(out, mutation{what: path + " - " + k, names: []string{k}, tree: set(without(n, k))})
				out = append(out, mutation{what: path + "." + k + " wrong type", names: []string{k}, tree: set(with(n, k, ofWrongType(n[k])))})
				k := k
				walk(path+"."+k, n[k], func(v any) any { return set(with(n, k, v)) })
			}
		case []any:
			for i := range n {
				i := i
				walk(fmt.Sprintf("%s[%d]", path, i), n[i], func(v any) any {
					c := append([]any{}, n...)
					c[i] = v
					return set(c)
				})
			}
		}
	}
	walk("", tree, func(v any) any { return v })
	return out
}

func with(m map[string]any, k string, v any) map[string]any {
	c := map[string]any{}
	for kk, vv := range m {
		c[kk] = vv
	}
	c[k] = v
	return c
}

func without(m map[string]any, k string) map[string]any {
	c := with(m, k, nil)
	delete(c, k)
	return c
}

func ofWrongType(v any) any {
	switch v.(type) {
	case string:
		return 7
	case json.Number:
		return "7"
	case bool:
		return "true"
	case []any:
		return map[string]any{}
	case map[string]any:
		return []any{}
	}
	return map[string]any{"zz_unknown": 1} // null
}

// TestMalformedEvents feeds every malformed variant of every event kind:
// a missing key, an unknown key and a wrong JSON type at every level, and a
// bad enum or identifier value where the spec has one. Each must make the
// run invalid with a message naming the kind and the field.
func TestMalformedEvents(t *testing.T) {
	n := 0
	for _, kind := range EventKinds() {
		dec := json.NewDecoder(strings.NewReader(validPayloads()[kind]))
		dec.UseNumber()
		var tree any
		if err := dec.Decode(&tree); err != nil {
			t.Fatalf("%s sample: %v", kind, err)
		}
		for _, m := range mutations(tree) {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(m.tree); err != nil {
				t.Fatal(err)
			}
			wantInvalid(t, kind+m.what, eventLine(kind, strings.TrimSpace(buf.String())), kind, m.names...)
			n++
		}
	}
	// Values of the right JSON type that the spec does not allow.
	bad := []struct{ kind, old, new, field string }{
		{"operation_terminal", `"acknowledged"`, `"delivered"`, "status"},
		{"operation_terminal", `"offset":5`, `"offset":5.0`, "offset"},
		{"operation_terminal", `"offset":5`, `"offset":-5`, "offset"},
		{"operation_terminal", `"offset":5`, `"offset":null`, "status"},
		{"operation_terminal", `"operation_id":"op-1"`, `"operation_id":"-op"`, "operation_id"},
		{"operation_terminal", `"operation_id":"op-1"`, `"operation_id":null`, "operation_id"},
		{"producer_cancellation_completed", `"too_late"`, `"cancelled"`, "outcomes"},
		{"producer_cancellation_completed", `"too_late",`, ``, "outcomes"},
		{"assigned_consumer_control_completed", `"seek"`, `"jump"`, "control"},
		{"group_consumer_control_completed", `"pause"`, `"replace"`, "control"},
		{"receive_completed", `"encoding":"hex"`, `"encoding":"base64"`, "encoding"},
		{"receive_completed", `"data":"6b"`, `"data":"6"`, "data"},
		{"receive_completed", `"partition":0`, `"partition":2147483648`, "partition"},
		{"receive_completed", `"records":[`, `"records":null,"x":[`, "records"},
		{"group_receive_completed", `"kind":"classic"`, `"kind":"static"`, "group_epoch"},
		{"group_receive_completed", `"committed":true`, `"committed":null`, "committed"},
		{"group_assignments_observed", `"kind":"assigned"`, `"kind":"moved"`, "kind"},
		{"group_assignments_observed", `"assignment_epoch":1,"partitions":[{"topic":"t","partition":0}]}]}`, `"assignment_epoch":-1,"partitions":[{"topic":"t","partition":0}]}]}`, "assignment_epoch"},
		{"group_consumer_shutdown_completed", `"request_count":2`, `"request_count":256`, "request_count"},
		{"share_acknowledgement_completed", `["accept"]`, `["drop"]`, "dispositions"},
		{"share_acknowledgement_completed", `"possibly_sent"`, `"maybe_sent"`, "delivery"},
		{"share_consumer_closed", `"definitely_not_sent"`, `"unknown"`, "delivery"},
		{"share_receive_completed", `"delivery_count":1`, `"delivery_count":40000`, "delivery_count"},
		{"transaction_completed", `"commit"`, `"rollback"`, "disposition"},
		{"transactional_transform_completed", `"abort"`, `"undo"`, "disposition"},
		{"transactional_transform_completed", `"group_epoch":{"kind":"classic","generation_id":1}`, `"group_epoch":null`, "group_epoch"},
		{"topic_described", `[0,1]`, `[1,0]`, "partitions"},
		{"topics_listed", `["a","b"]`, `["b","a"]`, "topics"},
		{"cluster_described", `[1,2]`, `[2,1]`, "broker_ids"},
		{"consumer_groups_listed", `"code":0`, `"code":40000`, "code"},
		{"ready", `"id":"fake"`, `"id":"fake adapter"`, "id"},
		{"client_created", `"x1"`, `"x1","client_id":"x2"`, "client_id"},
	}
	samples := validPayloads()
	for _, b := range bad {
		if !strings.Contains(samples[b.kind], b.old) {
			t.Fatalf("%s sample lacks %s", b.kind, b.old)
		}
		p := strings.Replace(samples[b.kind], b.old, b.new, 1)
		wantInvalid(t, fmt.Sprintf("%s %s→%s", b.kind, b.old, b.new), eventLine(b.kind, p), b.kind, b.field)
		n++
	}
	t.Logf("%d malformed variants of %d event kinds refused", n, len(EventKinds()))
}

// TestMalformedEnvelope: the envelope is decoded as strictly as the payload.
func TestMalformedEnvelope(t *testing.T) {
	for what, l := range map[string]string{
		"version as float":     `{"protocol_version":34.0,"command_id":"command-00000001","kind":"client_created","client_id":"c"}`,
		"version missing":      `{"command_id":"command-00000001","kind":"client_created","client_id":"c"}`,
		"command id as number": `{"protocol_version":34,"command_id":1,"kind":"client_created","client_id":"c"}`,
		"kind as number":       `{"protocol_version":34,"command_id":"command-00000001","kind":7,"client_id":"c"}`,
		"kind missing":         `{"protocol_version":34,"command_id":"command-00000001","client_id":"c"}`,
		"repeated envelope":    `{"protocol_version":34,"command_id":"command-00000001","kind":"client_created","kind":"client_created","client_id":"c"}`,
		"array":                `[{"protocol_version":34}]`,
	} {
		err := feedOne([]byte(l))
		if p, ok := err.(*Problem); !ok || p.Code != "adapter_output_invalid" {
			t.Errorf("%s: %v, want adapter_output_invalid", what, err)
		}
	}
}
