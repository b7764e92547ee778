package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
)

// TestQuickstart runs the README's quick start against the test bed's
// broker and checks what it prints: three records produced to one
// partition at offsets 0-2, read by the group, copied in a transaction.
func TestQuickstart(t *testing.T) {
	c := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	topic := kafkatest.UniqueName(t, "example-quickstart")
	var out strings.Builder
	if err := run(ctx, c.Bootstrap(kafkatest.Plaintext)[0], topic, &out); err != nil {
		t.Fatalf("run: %v\noutput so far:\n%s", err, out.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("got %d lines, want 5:\n%s", len(lines), out.String())
	}
	for i := range 3 {
		// The test bed's brokers default to one partition per topic.
		if want := fmt.Sprintf("produced %s/0@%d", topic, i); lines[i] != want {
			t.Errorf("line %d: %q, want %q", i, lines[i], want)
		}
	}
	if lines[3] != "read 3 records and committed" {
		t.Errorf("line 3: %q", lines[3])
	}
	if want := fmt.Sprintf("copied 3 records to %s-copy in one transaction", topic); lines[4] != want {
		t.Errorf("line 4: %q, want %q", lines[4], want)
	}
}
