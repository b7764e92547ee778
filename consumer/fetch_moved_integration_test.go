package consumer

import (
	"context"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
)

// TestIntegrationSeekDoesNotWaitForHeldFetch: on the real broker, a Seek
// of an idle partition (its broker holding the consumer's Fetch for MaxWait,
// 5s) yields the records at the new position in well under MaxWait: the
// moved partition goes out at once in a sessionless Fetch on its own
// connection instead of waiting for the held one to return (issue 33). On
// the code before, the first record came after about MaxWait.
func TestIntegrationSeekDoesNotWaitForHeldFetch(t *testing.T) {
	e := newGroupEnv(t, 1)
	e.produce("r", 20, 1)
	const maxWait = 5 * time.Second
	c, err := New(e.cl, Config{MaxWait: maxWait})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	tp := gregor.TopicPartition{Topic: e.topic, Partition: 0}
	if err := c.Assign(e.ctx, []PartitionPosition{{tp, AtEnd()}}); err != nil {
		t.Fatal(err)
	}
	// The partition is caught up: its Fetch waits at the broker.
	e.waitFor("a Fetch in flight", func() bool {
		m := c.Metrics()
		return m.FetchRequests >= 1 && m.FetchesInFlight == 1
	})
	t0 := time.Now()
	if err := c.Seek(e.ctx, tp, AtBeginning()); err != nil {
		t.Fatal(err)
	}
	var got []Record
	for len(got) < 20 {
		rs, err := c.Receive(e.ctx)
		if err != nil {
			t.Fatalf("Receive after %d records: %v", len(got), err)
		}
		got = append(got, rs...)
	}
	if d := time.Since(t0); d >= maxWait/2 {
		t.Fatalf("the seek's records came %v after it, want < %v: it waited for the held Fetch (MaxWait %v)", d, maxWait/2, maxWait)
	}
	wantOffsets(t, got, tp, 0, 20)
	if m := c.Metrics(); m.MovedFetches == 0 {
		t.Fatalf("metrics %+v: no sessionless Fetch of the moved partition", m)
	}
}
