package protocol

import (
	"context"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
)

// Integration tests: the built adapter binary against the real test bed
// (kafkatest.Shared fails, never skips, without GREGOR_KAFKA_STATE).

func helloFor(endpoints []string, security string) string {
	q := make([]string, len(endpoints))
	for i, e := range endpoints {
		q[i] = fmt.Sprintf("%q", e)
	}
	return `"run_id":"run-1","scenario_id":"s1","broker_endpoints":[` + strings.Join(q, ",") + `],"security":` + security
}

// receiveN receives through consumer k until n records arrived (or the
// deadline), returning them in order.
func (p *proc) receiveN(k string, n int, deadline time.Duration) []map[string]any {
	p.t.Helper()
	var got []map[string]any
	end := time.Now().Add(deadline)
	for i := 0; len(got) < n && time.Now().Before(end); i++ {
		ev := p.one("receive", fmt.Sprintf(`"consumer_id":%q,"receive_id":"r-%s-%d","timeout_ms":2000`, k, k, i), "receive_completed")
		for _, r := range ev.m["records"].([]any) {
			got = append(got, r.(map[string]any))
		}
	}
	return got
}

func configuration(compression string) string {
	return `{"delivery_timeout_ms":30000,"compression":"` + compression + `","max_retries":5,"retry_backoff_ms":100,` +
		`"limits":{"retained_bytes":8388608,"in_flight_records":1024,"waiting_records":256,"waiting_bytes":1048576,` +
		`"batch_records":64,"batch_bytes":262144,"request_bytes":1048576,"max_in_flight_requests_per_broker":5,"linger_ms":20}}`
}

// TestKafkaCompressionRoundTrip: each of the five compression selections,
// configured through create_configured_client, delivers records that read
// back byte-identically (keys, values, null/empty, ordered and repeated
// headers).
func TestKafkaCompressionRoundTrip(t *testing.T) {
	cluster := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p := startAdapter(t, []string{})
	p.one("hello", helloFor(cluster.Bootstrap(kafkatest.Plaintext), `{"kind":"plaintext"}`), "ready")
	for _, comp := range []string{"none", "gzip", "snappy", "lz4", "zstd"} {
		topic := kafkatest.UniqueName(t, "adapter-comp-"+comp)
		if err := cluster.CreateTopic(ctx, topic, 1, 1); err != nil {
			t.Fatal(err)
		}
		c, prod, cons := "c-"+comp, "p-"+comp, "k-"+comp
		p.one("create_configured_client", fmt.Sprintf(`"client_id":%q,"configuration":%s`, c, configuration(comp)), "client_created")
		p.one("await_client_ready", fmt.Sprintf(`"client_id":%q`, c), "client_ready")
		p.one("create_producer", fmt.Sprintf(`"client_id":%q,"producer_id":%q`, c, prod), "producer_created")
		const n = 20
		var ops []string
		type want struct{ key, value any }
		wants := make([]want, n)
		for i := range n {
			value := strings.Repeat(fmt.Sprintf("value-%s-%d;", comp, i), 20) // compressible
			key := `{"encoding":"hex","data":"` + hex.EncodeToString([]byte{byte(i), 0, 0xff}) + `"}`
			wants[i] = want{hex.EncodeToString([]byte{byte(i), 0, 0xff}), hex.EncodeToString([]byte(value))}
			valueJSON := fmt.Sprintf(`{"encoding":"utf8","data":%q}`, value)
			if i == 3 {
				key, valueJSON = "null", "null"
				wants[i] = want{nil, nil}
			}
			if i == 4 {
				key, valueJSON = `{"encoding":"utf8","data":""}`, `{"encoding":"hex","data":""}`
				wants[i] = want{"", ""}
			}
			ops = append(ops, fmt.Sprintf(`{"operation_id":"op-%s-%d","record":{"topic":%q,"partition":0,"sequence":%d,"key":%s,"value":%s,"headers":[{"name":"testlab-sequence","value":{"encoding":"utf8","data":"%d"}},{"name":"dup","value":null},{"name":"dup","value":{"encoding":"hex","data":"00"}}]}}`,
				comp, i, topic, i, key, valueJSON, i))
		}
		id := p.send("send_batch", fmt.Sprintf(`"producer_id":%q,"operations":[%s]`, prod, strings.Join(ops, ",")))
		evs := p.until(id, "batch_completed")
		var terms []string
		for _, e := range evs {
			if e.kind == "operation_terminal" {
				terms = append(terms, fmt.Sprint(e.m["status"], "@", e.m["offset"]))
			}
		}
		if len(evs) != 2*n+1 || len(terms) != n {
			t.Fatalf("%s: batch events %v", comp, kindList(evs))
		}
		for i, s := range terms {
			if s != fmt.Sprintf("acknowledged@%d", i) {
				t.Fatalf("%s: terminal %d = %s", comp, i, s)
			}
		}
		p.one("flush", fmt.Sprintf(`"producer_id":%q`, prod), "flush_completed")
		p.one("create_assigned_consumer", fmt.Sprintf(`"client_id":%q,"consumer_id":%q`, c, cons), "assigned_consumer_created")
		p.one("assign_beginning", fmt.Sprintf(`"consumer_id":%q,"topic":%q,"partition":0`, cons, topic), "assignment_completed")
		got := p.receiveN(cons, n, 30*time.Second)
		if len(got) != n {
			t.Fatalf("%s: received %d of %d records", comp, len(got), n)
		}
		for i, r := range got {
			bs := func(v any) any {
				if v == nil {
					return nil
				}
				m := v.(map[string]any)
				if m["encoding"] != "hex" {
					t.Fatalf("%s: consumed bytes not hex: %v", comp, m)
				}
				return m["data"]
			}
			if r["offset"] != float64(i) || bs(r["key"]) != wants[i].key || bs(r["value"]) != wants[i].value {
				t.Fatalf("%s: record %d = %v, want key %v value %v", comp, i, r, wants[i].key, wants[i].value)
			}
			hs := r["headers"].([]any)
			if len(hs) != 3 || fmt.Sprint(hs[1]) != "map[name:dup value:<nil>]" || bs(hs[2].(map[string]any)["value"]) != "00" ||
				bs(hs[0].(map[string]any)["value"]) != hex.EncodeToString([]byte(fmt.Sprint(i))) {
				t.Fatalf("%s: record %d headers %v", comp, i, hs)
			}
			if _, ok := r["timestamp_millis"].(float64); !ok {
				t.Fatalf("%s: no timestamp: %v", comp, r)
			}
		}
		m := p.one("observe_client_metrics", fmt.Sprintf(`"client_id":%q,"operation_id":"m-%s"`, c, comp), "client_metrics_observed")
		if pr := m.m["snapshot"].(map[string]any)["producer"].(map[string]any); pr["produce_records"].(float64) < n {
			t.Errorf("%s: metrics produce_records %v after %d acknowledged records", comp, pr["produce_records"], n)
		}
		p.one("close_assigned_consumer", fmt.Sprintf(`"consumer_id":%q`, cons), "assigned_consumer_closed")
		p.one("close_producer", fmt.Sprintf(`"producer_id":%q`, prod), "producer_closed")
		p.one("shutdown_client", fmt.Sprintf(`"client_id":%q`, c), "client_shutdown")
	}
	p.one("finish", "", "finished")
	if code, late := p.finishExit(); code != 0 || len(late) != 0 {
		t.Fatalf("exit %d, late events %v, stderr %s", code, late, p.stderr.String())
	}
}

func saslEnv(cluster *kafkatest.Cluster, user, password string) []string {
	return []string{
		"TESTLAB_KAFKA_TLS_CA_PEM=" + cluster.CAFile(),
		"TESTLAB_KAFKA_SASL_USERNAME=" + user,
		"TESTLAB_KAFKA_SASL_PASSWORD=" + password,
	}
}

const saslTLSSecurity = `{"kind":"sasl_tls","ca_pem_environment":"TESTLAB_KAFKA_TLS_CA_PEM","mechanism":"scram_sha512","username_environment":"TESTLAB_KAFKA_SASL_USERNAME","password_environment":"TESTLAB_KAFKA_SASL_PASSWORD"}`

// TestKafkaSASLSSL: hello with sasl_tls + scram_sha512 on the SASL_SSL
// listener reaches readiness and produces; a wrong password fails the probe
// with command_failed (access kind), and EOF right after it exits 0.
func TestKafkaSASLSSL(t *testing.T) {
	cluster := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	topic := kafkatest.UniqueName(t, "adapter-sasl")
	if err := cluster.CreateTopic(ctx, topic, 1, 1); err != nil {
		t.Fatal(err)
	}
	bs := cluster.Bootstrap(kafkatest.SASLSSL)

	p := startAdapter(t, saslEnv(cluster, kafkatest.AdminUser, kafkatest.AdminPassword))
	p.one("hello", helloFor(bs, saslTLSSecurity), "ready")
	p.one("create_client", `"client_id":"c1"`, "client_created")
	p.one("await_client_ready", `"client_id":"c1"`, "client_ready")
	p.one("create_producer", `"client_id":"c1","producer_id":"p1"`, "producer_created")
	id := p.send("send", `"producer_id":"p1","operation_id":"op-1","record":{"topic":"`+topic+`","partition":0,"sequence":1,"key":null,"value":{"encoding":"utf8","data":"over sasl_ssl"}}`)
	evs := p.until(id, "operation_terminal", "operation_rejected")
	if len(evs) != 2 || !strings.Contains(evs[1].raw, `"status":"acknowledged","code":null,"offset":0`) {
		t.Fatalf("send over SASL_SSL: %v", evs)
	}
	p.one("close_producer", `"producer_id":"p1"`, "producer_closed")
	p.one("shutdown_client", `"client_id":"c1"`, "client_shutdown")
	p.one("finish", "", "finished")
	if code, _ := p.finishExit(); code != 0 {
		t.Fatalf("exit %d: %s", code, p.stderr.String())
	}

	bad := startAdapter(t, saslEnv(cluster, kafkatest.AliceUser, "not-the-password"))
	bad.one("hello", helloFor(bs, saslTLSSecurity), "ready")
	bad.one("create_client", `"client_id":"c1"`, "client_created")
	fail := bad.one("await_client_ready", `"client_id":"c1"`, "command_failed")
	if code, _ := fail.m["code"].(string); !strings.HasPrefix(code, "access") {
		t.Errorf("wrong password: %s", fail.raw)
	}
	if strings.Contains(fail.raw, "not-the-password") || strings.Contains(bad.stderr.String(), "not-the-password") {
		t.Error("the password leaked into the output")
	}
	if code, _ := bad.finishExit(); code != 0 {
		t.Fatalf("EOF after command_failed: exit %d", code)
	}
}

// TestKafkaSecurityKinds: every security kind of hello reaches readiness on
// its listener (tls_custom on SSL, sasl_plaintext with PLAIN and
// SCRAM-SHA-256 on SASL_PLAINTEXT, sasl_tls with PLAIN on SASL_SSL).
func TestKafkaSecurityKinds(t *testing.T) {
	cluster := kafkatest.Shared(t)
	cases := []struct {
		name     string
		listener kafkatest.Listener
		security string
	}{
		{"tls_custom", kafkatest.SSL, `{"kind":"tls_custom","ca_pem_environment":"TESTLAB_KAFKA_TLS_CA_PEM"}`},
		{"sasl_plaintext plain", kafkatest.SASLPlaintext, `{"kind":"sasl_plaintext","mechanism":"plain","username_environment":"TESTLAB_KAFKA_SASL_USERNAME","password_environment":"TESTLAB_KAFKA_SASL_PASSWORD"}`},
		{"sasl_plaintext scram_sha256", kafkatest.SASLPlaintext, `{"kind":"sasl_plaintext","mechanism":"scram_sha256","username_environment":"TESTLAB_KAFKA_SASL_USERNAME","password_environment":"TESTLAB_KAFKA_SASL_PASSWORD"}`},
		{"sasl_tls plain", kafkatest.SASLSSL, `{"kind":"sasl_tls","ca_pem_environment":"TESTLAB_KAFKA_TLS_CA_PEM","mechanism":"plain","username_environment":"TESTLAB_KAFKA_SASL_USERNAME","password_environment":"TESTLAB_KAFKA_SASL_PASSWORD"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := startAdapter(t, saslEnv(cluster, kafkatest.AliceUser, kafkatest.AlicePassword))
			p.one("hello", helloFor(cluster.Bootstrap(tc.listener), tc.security), "ready")
			p.one("create_client", `"client_id":"c1"`, "client_created")
			p.one("await_client_ready", `"client_id":"c1"`, "client_ready")
			p.one("shutdown_client", `"client_id":"c1"`, "client_shutdown")
			p.one("finish", "", "finished")
			if code, _ := p.finishExit(); code != 0 {
				t.Fatalf("exit %d: %s", code, p.stderr.String())
			}
		})
	}
	t.Run("missing CA file", func(t *testing.T) {
		p := startAdapter(t, []string{"TESTLAB_KAFKA_TLS_CA_PEM=/nonexistent/ca.pem"})
		ev := p.until(p.send("hello", helloFor(cluster.Bootstrap(kafkatest.SSL), cases[0].security)))
		if len(ev) != 1 || ev[0].kind != "fatal" {
			t.Fatalf("events %v", kindList(ev))
		}
		if code, _ := p.finishExit(); code == 0 {
			t.Fatal("exit 0 after fatal")
		}
	})
}
