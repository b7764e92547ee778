package producer

import (
	"context"
	"errors"
	"testing"
	"time"
)

func waitClosed(t *testing.T, ch <-chan struct{}, within time.Duration) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(within):
		t.Fatalf("done not closed within %v", within)
	}
}

func TestAttemptCtxDeadline(t *testing.T) {
	c := newAttemptCtx(context.Background())
	defer c.release()
	d := time.Now().Add(20 * time.Millisecond)
	c.arm(d)
	if got, ok := c.Deadline(); !ok || !got.Equal(d) {
		t.Fatalf("Deadline = %v, %v; want %v, true", got, ok, d)
	}
	if c.Err() != nil {
		t.Fatalf("Err before deadline = %v", c.Err())
	}
	waitClosed(t, c.Done(), 5*time.Second)
	if !errors.Is(c.Err(), context.DeadlineExceeded) {
		t.Fatalf("Err = %v, want DeadlineExceeded", c.Err())
	}
	if time.Now().Before(d) {
		t.Fatal("done closed before the deadline")
	}
	// Re-armed after firing: a fresh, open channel.
	c.disarm()
	c.arm(time.Now().Add(time.Hour))
	select {
	case <-c.Done():
		t.Fatal("re-armed context is done")
	default:
	}
	if c.Err() != nil {
		t.Fatalf("Err after re-arm = %v", c.Err())
	}
}

func TestAttemptCtxDisarmedNeverFires(t *testing.T) {
	c := newAttemptCtx(context.Background())
	defer c.release()
	c.arm(time.Now().Add(10 * time.Millisecond))
	ch := c.Done()
	c.disarm()
	// A later attempt with a far deadline: the earlier timer must not close it.
	c.arm(time.Now().Add(time.Hour))
	if c.Done() != ch {
		t.Fatal("open channel replaced on re-arm")
	}
	timer := time.NewTimer(50 * time.Millisecond)
	defer timer.Stop()
	select {
	case <-ch:
		t.Fatal("earlier attempt's deadline closed the later attempt's context")
	case <-timer.C:
	}
}

func TestAttemptCtxParentCancel(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	c := newAttemptCtx(parent)
	defer c.release()
	c.arm(time.Now().Add(time.Hour))
	cancel()
	waitClosed(t, c.Done(), 5*time.Second)
	if !errors.Is(c.Err(), context.Canceled) {
		t.Fatalf("Err = %v, want Canceled", c.Err())
	}
	// Arming under an ended parent is done at once.
	c.disarm()
	c.arm(time.Now().Add(time.Hour))
	waitClosed(t, c.Done(), time.Second)
	if !errors.Is(c.Err(), context.Canceled) {
		t.Fatalf("Err after re-arm = %v, want Canceled", c.Err())
	}
}

func TestAttemptCtxPastDeadline(t *testing.T) {
	c := newAttemptCtx(context.Background())
	defer c.release()
	c.arm(time.Now().Add(-time.Second))
	waitClosed(t, c.Done(), time.Second)
	if !errors.Is(c.Err(), context.DeadlineExceeded) {
		t.Fatalf("Err = %v, want DeadlineExceeded", c.Err())
	}
}
