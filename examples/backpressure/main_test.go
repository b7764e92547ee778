package main

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

func TestBackpressure(t *testing.T) {
	c := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	topic := kafkatest.UniqueName(t, "example-backpressure")
	var out strings.Builder
	const n = 20000
	if err := run(ctx, c.Bootstrap(kafkatest.Plaintext), topic, n, 100, &out); err != nil {
		t.Fatal(err)
	}
	var acked, pushbacks int
	if _, err := fmt.Sscanf(out.String(), "wrote %d records to "+topic+"; the producer pushed back %d times\n", &acked, &pushbacks); err != nil {
		t.Fatalf("output %q: %v", out.String(), err)
	}
	// 20000 records through at most 100 outstanding must have been refused.
	if acked != n || pushbacks == 0 {
		t.Fatalf("acked %d, pushbacks %d", acked, pushbacks)
	}
	// The log holds exactly n records.
	cl, err := client.New(client.Config{Bootstrap: c.Bootstrap(kafkatest.Plaintext)})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	var qs []admin.OffsetQuery
	for p := range int32(3) {
		qs = append(qs, admin.OffsetQuery{TopicPartition: gregor.TopicPartition{Topic: topic, Partition: p}, Spec: admin.OffsetLatest})
	}
	offs, err := admin.New(cl, admin.Config{}).ListOffsets(ctx, qs, admin.ListOffsetsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, o := range offs {
		if o.Err != nil {
			t.Fatal(o.Err)
		}
		total += o.Offset
	}
	if total != n {
		t.Fatalf("the log holds %d records, want %d", total, n)
	}
}
