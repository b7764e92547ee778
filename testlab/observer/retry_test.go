package observer

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
)

func TestUntilSettledAsksAgainOnlyWhileRetriable(t *testing.T) {
	ctx := context.Background()
	calls := 0
	err := untilSettled(ctx, "w", func() error {
		calls++
		switch calls {
		case 1:
			return kerr.LeaderNotAvailable
		case 2:
			return kerr.OffsetNotAvailable
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Fatalf("after two transient answers: err %v after %d calls, want nil after 3", err, calls)
	}

	calls = 0
	err = untilSettled(ctx, "w", func() error { calls++; return kerr.TopicAuthorizationFailed })
	if !errors.Is(err, kerr.TopicAuthorizationFailed) || calls != 1 {
		t.Fatalf("non-retriable: err %v after %d calls, want TOPIC_AUTHORIZATION_FAILED after 1", err, calls)
	}

	dctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	err = untilSettled(dctx, "w", func() error { return kerr.NotLeaderForPartition })
	if !errors.Is(err, kerr.NotLeaderForPartition) || dctx.Err() == nil {
		t.Fatalf("deadline: err %v (ctx %v), want the last answer wrapped once the deadline passed", err, dctx.Err())
	}
}
