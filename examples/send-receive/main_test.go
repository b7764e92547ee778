package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
)

func TestSendReceive(t *testing.T) {
	c := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	topic := kafkatest.UniqueName(t, "example-send-receive")
	var out strings.Builder
	if err := run(ctx, c.Bootstrap(kafkatest.Plaintext), topic, 3, &out); err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for i := range 3 {
		fmt.Fprintf(&want, "sent k%d to %s/0 at offset %d\n", i, topic, i)
	}
	for i := range 3 {
		fmt.Fprintf(&want, "received k%d=hello %d at offset %d\n", i, i, i)
	}
	if out.String() != want.String() {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want.String())
	}
	// Run again on the existing topic: it reads only the new records.
	out.Reset()
	if err := run(ctx, c.Bootstrap(kafkatest.Plaintext), topic, 1, &out); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != fmt.Sprintf("sent k0 to %s/0 at offset 3\nreceived k0=hello 0 at offset 3\n", topic) {
		t.Fatalf("second run:\n%s", got)
	}
}
