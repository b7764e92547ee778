package protocol

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
)

// expect checks that line holds every fragment.
func expect(t *testing.T, ev event, frags ...string) {
	t.Helper()
	for _, f := range frags {
		if !strings.Contains(ev.raw, f) {
			t.Errorf("%s lacks %s", ev.raw, f)
		}
	}
}

// TestKafkaFullSession walks one adapter process through a whole session
// against the test bed, checking every event line against the completion
// rules (§7): hello, client, topic admin (with an expected failure and
// recovery on the same process), producer send/batch/cancel, assigned
// consumer with every control, group-offset admin, concurrent actors, then
// closes everything, finishes and exits 0.
func TestKafkaFullSession(t *testing.T) {
	cluster := kafkatest.Shared(t)
	topic := kafkatest.UniqueName(t, "adapter-walk")
	other := kafkatest.UniqueName(t, "adapter-walk-b")
	group := kafkatest.UniqueName(t, "adapter-walk-g")
	p := startAdapter(t, []string{})
	ev := p.one("hello", helloFor(cluster.Bootstrap(kafkatest.Plaintext), `{"kind":"plaintext"}`), "ready")
	expect(t, ev, `"protocol_version":34,"capabilities":[`)
	p.one("create_client", `"client_id":"c1"`, "client_created")
	p.one("await_client_ready", `"client_id":"c1"`, "client_ready")

	admin := func(kind, fields, want string) event {
		t.Helper()
		return p.one(kind, `"client_id":"c1",`+fields+`,"timeout_ms":30000`, want)
	}
	q := func(s string) string { return fmt.Sprintf("%q", s) }

	// topics, with an expected failure and recovery
	expect(t, admin("create_topic", `"operation_id":"t1","topic":`+q(topic)+`,"partitions":2,"replication_factor":1,"validate_only":false`, "topic_created"),
		`"operation_id":"t1","topic":`+q(topic)+`}`)
	expect(t, admin("create_topic", `"operation_id":"t2","topic":`+q(topic)+`,"partitions":2,"replication_factor":1,"validate_only":false`, "command_failed"),
		`"code":"broker:broker_36"`)
	expect(t, admin("create_topic", `"operation_id":"t3","topic":`+q(other)+`,"partitions":1,"replication_factor":1,"validate_only":true`, "topic_creation_validated"),
		`"operation_id":"t3","topic":`+q(other)+`}`)
	expect(t, admin("describe_topic", `"operation_id":"d1","topic":`+q(topic), "topic_described"), `"partitions":[0,1]}`)
	expect(t, admin("describe_topic", `"operation_id":"d2","topic":`+q(other), "command_failed"), `"code":"broker:broker_3"`)
	expect(t, admin("create_topics_batch", `"operation_id":"tb","topics":[{"topic":`+q(other)+`,"partitions":1,"replication_factor":1},{"topic":`+q(topic)+`,"partitions":1,"replication_factor":1}]`, "topics_creation_completed"),
		`"outcomes":[{"topic":`+q(other)+`,"error_code":null},{"topic":`+q(topic)+`,"error_code":"broker:broker_36"}]}`)
	ev = admin("list_topics", `"operation_id":"lt","include_internal":false`, "topics_listed")
	expect(t, ev, q(topic), q(other))
	if strings.Contains(ev.raw, "__consumer_offsets") {
		t.Errorf("internal topic listed: %s", ev.raw)
	}

	// producer
	p.one("create_producer", `"client_id":"c1","producer_id":"p1"`, "producer_created")
	record := func(part, seq int, value string) string {
		return fmt.Sprintf(`{"topic":%q,"partition":%d,"sequence":%d,"key":{"encoding":"utf8","data":"k%d"},"value":{"encoding":"utf8","data":%q},"headers":[{"name":"testlab-sequence","value":{"encoding":"utf8","data":"%d"}}]}`, topic, part, seq, seq, value, seq)
	}
	id := p.send("send", `"producer_id":"p1","operation_id":"op-1","record":`+record(0, 1, "one"))
	evs := p.until(id, "operation_terminal", "operation_rejected")
	if len(evs) != 2 || evs[0].kind != "operation_accepted" {
		t.Fatalf("send: %v", kindList(evs))
	}
	expect(t, evs[1], `"operation_id":"op-1","status":"acknowledged","code":null,"offset":0}`)
	var ops []string
	for i := 2; i <= 4; i++ {
		ops = append(ops, fmt.Sprintf(`{"operation_id":"op-%d","record":%s}`, i, record(i%2, i, fmt.Sprint("v", i))))
	}
	id = p.send("send_batch", `"producer_id":"p1","operations":[`+strings.Join(ops, ",")+`]`)
	evs = p.until(id, "batch_completed")
	if got := strings.Join(kindList(evs), ","); got != "operation_accepted,operation_accepted,operation_accepted,operation_terminal,operation_terminal,operation_terminal,batch_completed" {
		t.Fatalf("send_batch: %s", got)
	}
	for i, want := range []string{`"op-2","status":"acknowledged","code":null,"offset":1}`, `"op-3","status":"acknowledged","code":null,"offset":0}`, `"op-4","status":"acknowledged","code":null,"offset":2}`} {
		expect(t, evs[3+i], want)
	}
	id = p.send("cancel_producer_send", `"producer_id":"p1","operation_id":"op-x","record":`+record(1, 5, "cancel me")+`,"timeout_ms":10000`)
	evs = p.until(id, "producer_cancellation_completed")
	if got := strings.Join(kindList(evs), ","); got != "operation_accepted,operation_terminal,producer_cancellation_completed" {
		t.Fatalf("cancel: %s", got)
	}
	cancelled := strings.Contains(evs[2].raw, `"outcomes":["cancelled_not_sent","already_terminal"]`)
	switch {
	case cancelled:
		expect(t, evs[1], `"status":"definitely_not_sent","code":"cancelled","offset":null`)
	case strings.Contains(evs[2].raw, `"outcomes":["too_late",`) || strings.Contains(evs[2].raw, `"outcomes":["already_terminal","already_terminal"]`):
		if strings.Contains(evs[1].raw, "definitely_not_sent") {
			t.Errorf("too_late reported as not sent: %s", evs[1].raw)
		}
	default:
		t.Errorf("cancel outcomes %s", evs[2].raw)
	}
	p.one("flush", `"producer_id":"p1"`, "flush_completed")
	m := p.one("observe_client_metrics", `"client_id":"c1","operation_id":"m1"`, "client_metrics_observed")
	if pr := m.m["snapshot"].(map[string]any)["producer"].(map[string]any); pr["produce_records"].(float64) < 4 {
		t.Errorf("produce_records %v after 4 acknowledged records", pr["produce_records"])
	}

	// assigned consumer with every control
	p.one("create_assigned_consumer", `"client_id":"c1","consumer_id":"k1"`, "assigned_consumer_created")
	p.one("assign_beginning_batch", `"consumer_id":"k1","partitions":[{"topic":`+q(topic)+`,"partition":0},{"topic":`+q(topic)+`,"partition":1}],"timeout_ms":10000`, "assignment_completed")
	want := 4
	if !cancelled {
		want = 5
	}
	recs := p.receiveN("k1", want, 30*time.Second)
	if len(recs) != want {
		t.Fatalf("received %d records, want %d", len(recs), want)
	}
	control := func(op, ctl string) {
		t.Helper()
		kind := ctl[len(`{"kind":"`) : strings.Index(ctl[len(`{"kind":"`):], `"`)+len(`{"kind":"`)]
		ev := p.one("control_assigned_consumer", `"operation_id":"`+op+`","consumer_id":"k1","control":`+ctl+`,"timeout_ms":10000`, "assigned_consumer_control_completed")
		expect(t, ev, `"operation_id":"`+op+`","consumer_id":"k1","control":"`+kind+`"}`)
	}
	tp0 := `{"topic":` + q(topic) + `,"partition":0}`
	control("ctl-seek", `{"kind":"seek","partition":`+tp0+`,"position":{"kind":"offset","offset":1}}`)
	got := p.receiveN("k1", 1, 10*time.Second)
	if len(got) == 0 || got[0]["offset"] != float64(1) || got[0]["partition"] != float64(0) {
		t.Fatalf("after seek to 1: %v", got)
	}
	control("ctl-pause", `{"kind":"pause","partition":`+tp0+`}`)
	control("ctl-resume", `{"kind":"resume","partition":`+tp0+`}`)
	control("ctl-replace", `{"kind":"replace","partitions":[{"topic":`+q(topic)+`,"partition":1,"position":{"kind":"beginning"}}]}`)
	got = p.receiveN("k1", 1, 10*time.Second)
	if len(got) == 0 || got[0]["partition"] != float64(1) || got[0]["offset"] != float64(0) {
		t.Fatalf("after replace: %v", got)
	}
	control("ctl-add", `{"kind":"add","partitions":[{"topic":`+q(topic)+`,"partition":0,"position":{"kind":"end"}}]}`)
	control("ctl-remove", `{"kind":"remove","partitions":[`+tp0+`]}`)
	ev = p.one("receive", `"consumer_id":"k1","receive_id":"r-empty","timeout_ms":300`, "receive_completed")
	expect(t, ev, `"receive_id":"r-empty","records":[]}`)

	// offsets, records, configs, partitions, cluster
	expect(t, admin("list_offsets", `"operation_id":"lo","topic":`+q(topic)+`,"partition":0,"position":"latest"`, "offset_listed"),
		`"operation_id":"lo","topic":`+q(topic)+`,"partition":0,"offset":3}`)
	expect(t, admin("delete_records", `"operation_id":"dr","topic":`+q(topic)+`,"partition":0,"before_offset":1`, "records_deleted"),
		`"partition":0,"low_watermark":1}`)
	expect(t, admin("list_offsets", `"operation_id":"lo2","topic":`+q(topic)+`,"partition":0,"position":"earliest"`, "offset_listed"), `"offset":1}`)
	expect(t, admin("alter_topic_config", `"operation_id":"ac","topic":`+q(topic)+`,"config_name":"retention.ms","value":"3600000","validate_only":false`, "topic_config_altered"),
		`"operation_id":"ac","topic":`+q(topic)+`,"config_name":"retention.ms"}`)
	expect(t, admin("alter_topic_config", `"operation_id":"av","topic":`+q(topic)+`,"config_name":"retention.ms","value":"7200000","validate_only":true`, "topic_config_alteration_validated"),
		`"config_name":"retention.ms"}`)
	// The broker answers DescribeConfigs from its metadata image, which
	// follows the controller's commit of the change (KRaft): under load it
	// may still show the old value for a moment.
	var dc event
	for i, deadline := 0, time.Now().Add(15*time.Second); ; i++ {
		dc = admin("describe_topic_config", fmt.Sprintf(`"operation_id":"dc%d","topic":%s,"config_name":"retention.ms"`, i, q(topic)), "topic_config_described")
		if strings.Contains(dc.raw, `"value":"3600000"`) || time.Now().After(deadline) {
			break
		}
	}
	expect(t, dc, `"config_name":"retention.ms","value":"3600000"}`)
	expect(t, admin("create_partitions", `"operation_id":"cp","topic":`+q(topic)+`,"total_count":3,"validate_only":false`, "topic_partitions_created"), `"operation_id":"cp"`)
	expect(t, admin("create_partitions", `"operation_id":"cv","topic":`+q(topic)+`,"total_count":4,"validate_only":true`, "topic_partition_increase_validated"), `"operation_id":"cv"`)
	expect(t, admin("describe_topic", `"operation_id":"d3","topic":`+q(topic), "topic_described"), `"partitions":[0,1,2]}`)
	expect(t, admin("describe_cluster", `"operation_id":"cl"`, "cluster_described"), `"cluster_id":"`+cluster.ClusterID()+`","broker_ids":[1]}`)

	// group offsets administration (a group with commits but no members)
	g := q(group)
	expect(t, admin("alter_consumer_group_offset", `"operation_id":"ao","group_id":`+g+`,"topic":`+q(topic)+`,"partition":0,"offset":2`, "consumer_group_offset_altered"),
		`"group_id":`+g+`,"topic":`+q(topic)+`,"partition":0}`)
	expect(t, admin("alter_consumer_group_offsets", `"operation_id":"aos","group_id":`+g+`,"offsets":[{"topic":`+q(topic)+`,"partition":1,"offset":1}]`, "consumer_group_offsets_altered"),
		`"outcomes":[{"topic":`+q(topic)+`,"partition":1,"error_code":null}]}`)
	expect(t, admin("list_consumer_group_offsets", `"operation_id":"lg","group_id":`+g+`,"topic":`+q(topic)+`,"partition":0,"require_stable":false`, "consumer_group_offset_listed"),
		`"partition":0,"offset":2}`)
	expect(t, admin("list_consumer_group_offsets_batch", `"operation_id":"lgb","group_id":`+g+`,"require_stable":true,"partitions":[{"topic":`+q(topic)+`,"partition":1},{"topic":`+q(topic)+`,"partition":2}]`, "consumer_group_offsets_listed"),
		`"outcomes":[{"topic":`+q(topic)+`,"partition":1,"offset":1,"error_code":null},{"topic":`+q(topic)+`,"partition":2,"offset":null,"error_code":null}]}`)
	expect(t, admin("list_consumer_groups_offsets", `"operation_id":"lgs","require_stable":false,"groups":[{"group_id":`+g+`,"partitions":[{"topic":`+q(topic)+`,"partition":0}]}]`, "consumer_groups_offsets_listed"),
		`"groups":[{"group_id":`+g+`,"error_code":null,"offsets":[{"topic":`+q(topic)+`,"partition":0,"offset":2,"error_code":null}]}]}`)
	expect(t, admin("list_consumer_groups", `"operation_id":"lcg"`, "consumer_groups_listed"), g, `"broker_errors":[]`)
	expect(t, admin("describe_consumer_group", `"operation_id":"dg","group_id":`+g, "consumer_group_described"), `"group_id":`+g+`,"member_count":0}`)
	expect(t, admin("describe_classic_groups", `"operation_id":"dcg","group_ids":[`+g+`]`, "classic_groups_described"),
		`"outcomes":[{"group_id":`+g+`,"member_count":0,"error_code":null}]}`)
	expect(t, admin("delete_consumer_group_offset", `"operation_id":"do","group_id":`+g+`,"topic":`+q(topic)+`,"partition":0`, "consumer_group_offset_deleted"), `"partition":0}`)
	expect(t, admin("delete_consumer_group_offsets", `"operation_id":"dos","group_id":`+g+`,"partitions":[{"topic":`+q(topic)+`,"partition":1}]`, "consumer_group_offsets_deleted"),
		`"outcomes":[{"topic":`+q(topic)+`,"partition":1,"error_code":null}]}`)
	if cluster.AtLeast(4, 0) {
		expect(t, admin("delete_consumer_group", `"operation_id":"dd","group_id":`+g, "consumer_group_deleted"), `"group_id":`+g+`}`)
	} else {
		// Kafka 3.x's group coordinator removes an empty group with its
		// last offset: the deletion finds no group (GROUP_ID_NOT_FOUND).
		expect(t, admin("delete_consumer_group", `"operation_id":"dd","group_id":`+g, "command_failed"), `"code":"broker:broker_69"`)
	}

	// concurrent actors: a send and a receive released together
	p.one("control_assigned_consumer", `"operation_id":"ctl-back","consumer_id":"k1","control":{"kind":"replace","partitions":[{"topic":`+q(topic)+`,"partition":2,"position":{"kind":"beginning"}}]},"timeout_ms":10000`, "assigned_consumer_control_completed")
	rec2 := strings.Replace(record(2, 9, "actor"), `"partition":2`, `"partition":2`, 1)
	ev = p.one("start_concurrent_actors", `"concurrency_id":"g1","actors":[{"kind":"producer_send","actor_id":"a-send","producer_id":"p1","operation_id":"op-a","record":`+rec2+`},{"kind":"assigned_receive","actor_id":"a-recv","consumer_id":"k1","receive_id":"r-a","timeout_ms":10000}]`, "concurrent_actors_started")
	expect(t, ev, `"concurrency_id":"g1","actor_ids":["a-send","a-recv"]}`)
	id = p.send("join_concurrent_actors", `"concurrency_id":"g1","timeout_ms":30000`)
	evs = p.until(id, "concurrent_actors_completed")
	if got := strings.Join(kindList(evs), ","); got != "operation_accepted,operation_terminal,concurrent_actor_completed,receive_completed,concurrent_actor_completed,concurrent_actors_completed" {
		t.Fatalf("join: %s", got)
	}
	expect(t, evs[1], `"operation_id":"op-a","status":"acknowledged","code":null,"offset":0}`)
	expect(t, evs[2], `"actor_id":"a-send","operation_id":"op-a"}`)
	expect(t, evs[4], `"actor_id":"a-recv","operation_id":"r-a"}`)
	expect(t, evs[5], `"actor_ids":["a-send","a-recv"]}`)

	// tear down
	expect(t, admin("delete_topic", `"operation_id":"dt","topic":`+q(other), "topic_deleted"), `"topic":`+q(other)+`}`)
	expect(t, admin("delete_topic", `"operation_id":"dt2","topic":`+q(other), "command_failed"), `"code":"broker:broker_3"`)
	p.one("close_assigned_consumer", `"consumer_id":"k1"`, "assigned_consumer_closed")
	p.one("close_producer", `"producer_id":"p1"`, "producer_closed")
	p.one("shutdown_client", `"client_id":"c1"`, "client_shutdown")
	p.one("finish", "", "finished")
	if code, late := p.finishExit(); code != 0 || len(late) != 0 {
		t.Fatalf("exit %d, late %v, stderr %s", code, late, p.stderr.String())
	}
}
