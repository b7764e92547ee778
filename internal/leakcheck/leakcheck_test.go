package leakcheck

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// recorder is a testing.TB that keeps what Errorf reports.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestCheck: a goroutine still running is reported with its stack; once
// it exits, Check passes; one that exits while Check waits passes too.
func TestCheck(t *testing.T) {
	s := Take()
	stop := make(chan struct{})
	exited := make(chan struct{})
	go func() { defer close(exited); <-stop }()

	r := &recorder{TB: t}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	s.Check(ctx, r)
	cancel()
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "1 goroutine(s) left") || !strings.Contains(r.errs[0], "leakcheck.TestCheck") {
		t.Fatalf("a running goroutine: reports %q", r.errs)
	}

	close(stop)
	<-exited
	r = &recorder{TB: t}
	ctx, cancel = context.WithTimeout(context.Background(), 5*time.Second)
	s.Check(ctx, r)
	cancel()
	if len(r.errs) != 0 {
		t.Fatalf("after the goroutine exited: %q", r.errs)
	}

	release := make(chan struct{})
	go func() { <-release }()
	time.AfterFunc(20*time.Millisecond, func() { close(release) })
	r = &recorder{TB: t}
	ctx, cancel = context.WithTimeout(context.Background(), 5*time.Second)
	s.Check(ctx, r)
	cancel()
	if len(r.errs) != 0 {
		t.Fatalf("a goroutine exiting while Check waits: %q", r.errs)
	}
}
