package protocol

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
)

// TestKafkaSendNegativePartitionRejected: a RecordSpec's partition is >= 0
// (§3.3). gregor's producer reads -1 as "let the partitioner choose", so the
// adapter acknowledged such a send; it must reject it (invalid_record, no
// terminal) and write nothing, in send and in send_batch.
func TestKafkaSendNegativePartitionRejected(t *testing.T) {
	cluster := kafkatest.Shared(t)
	topic := kafkatest.UniqueName(t, "adapter-negpart")
	p := startAdapter(t, []string{})
	p.one("hello", helloFor(cluster.Bootstrap(kafkatest.Plaintext), `{"kind":"plaintext"}`), "ready")
	p.one("create_client", `"client_id":"c1"`, "client_created")
	p.one("await_client_ready", `"client_id":"c1"`, "client_ready")
	p.one("create_topic", fmt.Sprintf(`"client_id":"c1","operation_id":"t1","topic":%q,"partitions":1,"replication_factor":1,"validate_only":false,"timeout_ms":30000`, topic), "topic_created")
	p.one("create_producer", `"client_id":"c1","producer_id":"p1"`, "producer_created")
	record := func(part int) string {
		return fmt.Sprintf(`{"topic":%q,"partition":%d,"sequence":1,"key":null,"value":{"encoding":"utf8","data":"v"},"headers":[]}`, topic, part)
	}

	id := p.send("send", `"producer_id":"p1","operation_id":"op-1","record":`+record(-1))
	evs := p.until(id, "operation_terminal", "operation_rejected")
	if len(evs) != 1 || evs[0].kind != "operation_rejected" {
		t.Fatalf("send with partition -1: %v", kindList(evs))
	}
	expect(t, evs[0], `"operation_id":"op-1","code":"invalid_record"`)

	ops := `{"operation_id":"op-2","record":` + record(0) + `},{"operation_id":"op-3","record":` + record(-2) + `}`
	id = p.send("send_batch", `"producer_id":"p1","operations":[`+ops+`]`)
	evs = p.until(id, "batch_completed")
	if got := strings.Join(kindList(evs), ","); got != "operation_accepted,operation_rejected,operation_terminal,batch_completed" {
		t.Fatalf("send_batch: %s", got)
	}
	expect(t, evs[1], `"operation_id":"op-3","code":"invalid_record"`)
	expect(t, evs[2], `"operation_id":"op-2","status":"acknowledged","code":null,"offset":0}`)

	// Only op-2 reached the log: its end offset is 1.
	cl, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext)})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := admin.New(cl, admin.Config{}).ListOffsets(ctx, []admin.OffsetQuery{{TopicPartition: gregor.TopicPartition{Topic: topic}, Spec: admin.OffsetLatest}}, admin.ListOffsetsOptions{})
	if err != nil || res[0].Err != nil || res[0].Offset != 1 {
		t.Fatalf("end offset: %+v, %v; want 1", res, err)
	}
}
