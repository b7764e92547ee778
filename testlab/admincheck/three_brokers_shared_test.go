package admincheck

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
)

// The multi-broker tests share one 1+3 cluster (controller 100, brokers
// 1-3), started by the first test that asks for it and stopped by
// TestMain. Tests run in file order: TestOperatorThreeBrokers restarts the
// broker it kills; TestThreeBrokers, which kills broker 3 for good, runs
// last.
var three struct {
	once sync.Once
	kc   *kafkatest.Cluster
	err  error
	mu   sync.Mutex
	t    *testing.T // the test whose log receives the cluster's lines; guarded by mu
}

// threeBrokers returns the shared 1+3 cluster, starting it on first use;
// the cluster's progress lines go to t's log.
func threeBrokers(t *testing.T) *kafkatest.Cluster {
	t.Helper()
	three.mu.Lock()
	three.t = t
	three.mu.Unlock()
	t.Cleanup(func() {
		three.mu.Lock()
		if three.t == t {
			three.t = nil
		}
		three.mu.Unlock()
	})
	three.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		start := time.Now()
		three.kc, three.err = kafkatest.Start(ctx, kafkatest.Options{Shape: kafkatest.ThreeBrokers, Log: threeLog})
		threeLog("1+3 cluster up in %v", time.Since(start))
	})
	if three.err != nil {
		t.Fatalf("starting the 1+3 cluster: %v", three.err)
	}
	return three.kc
}

// threeLog forwards a cluster line to the current test's log, or stderr.
func threeLog(format string, args ...any) {
	three.mu.Lock()
	defer three.mu.Unlock()
	if three.t != nil {
		three.t.Logf(format, args...)
		return
	}
	fmtErr(format, args...)
}

func fmtErr(format string, args ...any) {
	_, _ = os.Stderr.WriteString(fmt.Sprintf(format, args...) + "\n")
}

// TestMain stops the shared 1+3 cluster after every test.
func TestMain(m *testing.M) {
	code := m.Run()
	if three.kc != nil {
		three.kc.Close()
	}
	os.Exit(code)
}
