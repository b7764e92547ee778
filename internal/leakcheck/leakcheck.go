package leakcheck

import (
	"bytes"
	"context"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Snapshot is the set of goroutines (by ID) running when it was taken.
type Snapshot struct{ ids map[string]bool }

// Take records the goroutines running now.
func Take() Snapshot {
	s := Snapshot{ids: map[string]bool{}}
	for _, g := range goroutines() {
		s.ids[g.id] = true
	}
	return s
}

// Check waits until ctx ends for every goroutine started after s (other
// than the testing framework's and the runtime's) to exit, re-examining
// whenever the scheduler has run; it fails t with their stacks if some are
// left. Goroutines whose stack contains one of ignore (a function name
// such as "net/http.(*persistConn)") are not counted.
func (s Snapshot) Check(ctx context.Context, t testing.TB, ignore ...string) {
	t.Helper()
	var left []goroutine
	tick := time.NewTicker(5 * time.Millisecond) // re-examine: exiting goroutines need the scheduler
	defer tick.Stop()
	for {
		left = s.started(ignore)
		if len(left) == 0 {
			return
		}
		select {
		case <-ctx.Done():
			var b strings.Builder
			for _, g := range left {
				b.WriteString(g.stack)
				b.WriteString("\n\n")
			}
			t.Errorf("leakcheck: %d goroutine(s) left:\n%s", len(left), b.String())
			return
		case <-tick.C:
		}
	}
}

// started returns the goroutines not in s that are not ignored.
func (s Snapshot) started(ignore []string) []goroutine {
	var out []goroutine
	for _, g := range goroutines() {
		if s.ids[g.id] || g.ignored(ignore) {
			continue
		}
		out = append(out, g)
	}
	return out
}

type goroutine struct{ id, stack string }

// ignored reports the goroutines a test cannot leak: the caller's own,
// the testing framework's, a context deadline's timer callback (the one
// time.AfterFunc starts when a deadline passes, Check's own ctx included:
// it ends as soon as it has cancelled; caught runnable, it failed
// TestCheck in a loaded CI run), and those matching ignore.
func (g goroutine) ignored(ignore []string) bool {
	for _, f := range append([]string{"leakcheck.goroutines(", "testing.(*T).Run(", "testing.tRunner(", "testing.runTests(",
		"testing.(*M).", "runtime.goexit0", "signal.signal_recv", "os/signal.loop", "context.WithDeadlineCause.func"}, ignore...) {
		if strings.Contains(g.stack, f) {
			return true
		}
	}
	return false
}

// goroutines parses runtime.Stack(all) into one entry per goroutine.
func goroutines() []goroutine {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out []goroutine
	for _, st := range bytes.Split(buf, []byte("\n\n")) {
		head, _, _ := bytes.Cut(st, []byte("\n"))
		f := strings.Fields(string(head)) // "goroutine 12 [running]:"
		if len(f) < 2 || f[0] != "goroutine" {
			continue
		}
		out = append(out, goroutine{id: f[1], stack: string(st)})
	}
	return out
}
