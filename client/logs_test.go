package client

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/wire"
)

// lockedBuffer is a bytes.Buffer safe for the handler's concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestLogConnectionLostAndRetry: a broker that drops the connection with a
// Metadata request outstanding yields a Warn "connection lost" naming the
// lane, then an Info "retrying" with the reason, and the retry succeeds.
func TestLogConnectionLostAndRetry(t *testing.T) {
	fc := newFakeCluster(t, 1)
	var dropped atomic.Bool
	fc.setHandle(func(conn *fakeConn, r *fakeReq) bool {
		if r.hdr.Key == wire.KeyMetadata && dropped.CompareAndSwap(false, true) {
			conn.close()
			return true
		}
		return false
	})
	var buf lockedBuffer
	cfg := fc.config()
	cfg.Logger = slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
	c := newTestClient(t, cfg)
	if err := c.Ready(testCtx(t, 10*time.Second)); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{`level=WARN msg="gregor: connection lost"`, "lane=control", `level=INFO msg="gregor: retrying" api=Metadata`, "reason="} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
}

// TestLogNoSecrets: on the real broker, a SASL/SCRAM client logging at
// Debug writes its connection lines without the password.
func TestLogNoSecrets(t *testing.T) {
	cluster := kafkatest.Shared(t)
	var buf lockedBuffer
	c, err := New(Config{
		Bootstrap: cluster.Bootstrap(kafkatest.SASLPlaintext),
		SASL:      &SASL{Mechanism: SASLScramSHA512, Username: "alice", Password: "alice-secret"},
		Logger:    slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Ready(testCtx(t, 30*time.Second)); err != nil {
		t.Fatal(err)
	}
	_ = c.Close(context.Background())
	out := buf.String()
	if !strings.Contains(out, `msg="gregor: connected"`) || !strings.Contains(out, "sasl=SCRAM-SHA-512") {
		t.Fatalf("no connection line:\n%s", out)
	}
	if strings.Contains(out, "alice-secret") {
		t.Fatalf("the password is in the log:\n%s", out)
	}
}

// BenchmarkRetryLogDisabled: a retry's log line costs no allocation when
// Info is off (the default discarding logger).
func BenchmarkRetryLogDisabled(b *testing.B) {
	c := &Client{cfg: Config{Logger: slog.New(slog.DiscardHandler)}}
	err := context.DeadlineExceeded
	b.ReportAllocs()
	for i := range b.N {
		c.logRetry("Metadata", 1, i, err)
	}
}
