package lifecycle_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/internal/leakcheck"
)

// fatalTB is a testing.TB whose Fatal ends the calling goroutine as
// testing's does (runtime.Goexit, deferred calls run) and which keeps what
// is reported and the cleanups registered, so a test can run a failing
// case without failing itself.
type fatalTB struct {
	testing.TB
	mu       sync.Mutex
	errs     []string
	cleanups []func()
}

func (f *fatalTB) Helper() {}

func (f *fatalTB) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}

func (f *fatalTB) Error(args ...any) { f.Errorf("%s", fmt.Sprint(args...)) }

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	runtime.Goexit()
}

func (f *fatalTB) Fatal(args ...any) { f.Fatalf("%s", fmt.Sprint(args...)) }

func (f *fatalTB) FailNow() { runtime.Goexit() }

func (f *fatalTB) Cleanup(fn func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cleanups = append(f.cleanups, fn)
}

// run runs body in a goroutine of its own, as testing runs a test, then
// the cleanups it registered, last first.
func (f *fatalTB) run(body func(testing.TB)) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		body(f)
	}()
	<-done
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
}

// failingStart is an object whose start fails the case (t.Fatal) once the
// object under it is in its state.
type failingStart struct{ object }

func (f failingStart) start(ctx context.Context, t testing.TB, st state) <-chan error {
	f.object.start(ctx, t, st)
	t.Fatalf("injected failure after start")
	return nil
}

// TestLifecycleFailedCaseCleansUp: a case that fails with t.Fatal after
// its group consumer joined and has a Fetch long poll in flight still
// closes its object and client, so none of its goroutines outlives it.
// (Without that, the failed case's group went on fetching and the next
// case's leak check counted its fetch worker, waiting in Client.do, and
// that worker's new connection as the next case's leak.)
func TestLifecycleFailedCaseCleansUp(t *testing.T) {
	cluster := kafkatest.Shared(t)
	snap := leakcheck.Take()
	s := groupSubject()
	build := s.build
	s.build = func(ctx context.Context, t testing.TB, b *bed) object { return failingStart{build(ctx, t, b)} }
	f := &fatalTB{TB: t}
	f.run(func(tb testing.TB) { runCase(tb, cluster, s, clientFirst, pending) })
	if len(f.errs) != 1 || !strings.Contains(f.errs[0], "injected failure") {
		t.Errorf("the failed case reported %q, want only the injected failure", f.errs)
	}
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	snap.Check(ctx, t)
}
