package consumer

import (
	"context"
	"errors"
	"github.com/gregor-kafka/gregor"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
)

// TestWaitEndErrors: WaitEnd fails with ErrNotAssigned for a partition
// not assigned, and for one removed while it waits; with client.ErrCancelled
// when its context ends first; with client.ErrClosed after Close; with no
// partition assigned and none listed it returns nil at once.
func TestWaitEndErrors(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 2))
	c := newTestConsumer(t, f, Config{})
	if err := c.WaitEnd(bg()); err != nil {
		t.Fatalf("WaitEnd with nothing assigned: %v", err)
	}
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitEnd(bg(), tp1); !errors.Is(err, ErrNotAssigned) {
		t.Fatalf("WaitEnd(unassigned) = %v, want ErrNotAssigned", err)
	}
	ctx, cancel := context.WithCancel(bg())
	cancel()
	if err := c.WaitEnd(ctx, tp0); !errors.Is(err, client.ErrCancelled) {
		t.Fatalf("WaitEnd(cancelled ctx) = %v, want ErrCancelled", err)
	}
	// Nothing received: the partition cannot reach its end (2) until the
	// Remove below.
	done := make(chan error, 1)
	go func() { done <- c.WaitEnd(bg(), tp0) }()
	waitFor(t, "the records buffered", func() bool { return c.Metrics().BufferedRecords == 2 })
	if pr := c.Progress(); len(pr) != 1 || pr[0].End != 2 || pr[0].Lag != 2 || pr[0].BufferedRecords != 2 || pr[0].AtEnd() {
		t.Fatalf("progress with 2 records buffered: %+v", pr)
	}
	if err := c.Remove(bg(), []gregor.TopicPartition{tp0}); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotAssigned) {
			t.Fatalf("WaitEnd across Remove = %v, want ErrNotAssigned", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("WaitEnd did not return after Remove")
	}
	c.Close(context.Background())
	if err := c.WaitEnd(bg()); !errors.Is(err, client.ErrClosed) {
		t.Fatalf("WaitEnd after Close = %v, want ErrClosed", err)
	}
}

// TestWaitEndAfterReceive: WaitEnd returns once Receive delivered the last
// record below the high watermark, and Progress reports lag 0 there.
func TestWaitEndAfterReceive(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 3))
	c := newTestConsumer(t, f, Config{})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.WaitEnd(bg()) }()
	receiveN(t, c, 3)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("WaitEnd did not return after the last record")
	}
	if pr := c.Progress()[0]; pr.Position != 3 || pr.End != 3 || pr.Lag != 0 || !pr.AtEnd() {
		t.Fatalf("progress at the end: %+v", pr)
	}
}
