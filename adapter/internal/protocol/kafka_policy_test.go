package protocol

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
)

// TestKafkaProducerPolicy drives producer policy through the real
// producer: a lingering record is cancelled before send (cancelled_not_sent,
// then already_terminal; terminal definitely_not_sent/cancelled), and an
// in-flight bound of one record admits the first record of a batch and
// rejects the suffix with backpressure, terminals after all admissions.
func TestKafkaProducerPolicy(t *testing.T) {
	cluster := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	topic := kafkatest.UniqueName(t, "adapter-policy")
	if err := cluster.CreateTopic(ctx, topic, 1, 1); err != nil {
		t.Fatal(err)
	}
	p := startAdapter(t, []string{})
	p.one("hello", helloFor(cluster.Bootstrap(kafkatest.Plaintext), `{"kind":"plaintext"}`), "ready")
	cfg := `{"delivery_timeout_ms":20000,"compression":"none","max_retries":0,"retry_backoff_ms":0,` +
		`"limits":{"retained_bytes":1048576,"in_flight_records":1,"waiting_records":1,"waiting_bytes":65536,` +
		`"batch_records":1,"batch_bytes":16384,"request_bytes":65536,"max_in_flight_requests_per_broker":1,"linger_ms":1000}}`
	p.one("create_configured_client", `"client_id":"c1","configuration":`+cfg, "client_created")
	p.one("create_producer", `"client_id":"c1","producer_id":"p1"`, "producer_created")
	rec := func(seq int) string {
		return fmt.Sprintf(`{"topic":%q,"partition":0,"sequence":%d,"key":null,"value":{"encoding":"utf8","data":"v%d"}}`, topic, seq, seq)
	}

	id := p.send("cancel_producer_send", `"producer_id":"p1","operation_id":"op-c","record":`+rec(0)+`,"timeout_ms":5000`)
	evs := p.until(id, "producer_cancellation_completed")
	if got := strings.Join(kindList(evs), ","); got != "operation_accepted,operation_terminal,producer_cancellation_completed" {
		t.Fatalf("cancel: %s", got)
	}
	expect(t, evs[1], `"operation_id":"op-c","status":"definitely_not_sent","code":"cancelled","offset":null}`)
	expect(t, evs[2], `"operation_id":"op-c","outcomes":["cancelled_not_sent","already_terminal"]}`)

	var ops []string
	for i := 1; i <= 3; i++ {
		ops = append(ops, fmt.Sprintf(`{"operation_id":"op-%d","record":%s}`, i, rec(i)))
	}
	id = p.send("send_batch", `"producer_id":"p1","operations":[`+strings.Join(ops, ",")+`]`)
	evs = p.until(id, "batch_completed")
	if got := strings.Join(kindList(evs), ","); got != "operation_accepted,operation_rejected,operation_rejected,operation_terminal,batch_completed" {
		t.Fatalf("batch: %s", got)
	}
	expect(t, evs[1], `"operation_id":"op-2","code":"backpressure"}`)
	expect(t, evs[2], `"operation_id":"op-3","code":"backpressure"}`)
	expect(t, evs[3], `"operation_id":"op-1","status":"acknowledged","code":null,"offset":0}`)
	p.one("close_producer", `"producer_id":"p1"`, "producer_closed")
	p.one("shutdown_client", `"client_id":"c1"`, "client_shutdown")
	p.one("finish", "", "finished")
	if code, _ := p.finishExit(); code != 0 {
		t.Fatalf("exit %d: %s", code, p.stderr.String())
	}
}
