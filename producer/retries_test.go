package producer

import (
	"errors"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// TestZeroConfigRetriesWithinDeliveryTimeout: Config{} (MaxRetries nil)
// resends retriable failures as Kafka's default does (retries=MAX_INT),
// so a leader that answers NOT_LEADER_OR_FOLLOWER and REQUEST_TIMED_OUT a
// few times still gets the record, exactly once.
func TestZeroConfigRetriesWithinDeliveryTimeout(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	failures := 0
	f.script = func(broker int32, topic string, partition int32, b *wire.RecordBatch) fault {
		failures++
		switch {
		case failures <= 3:
			return fault{code: wire.ErrNotLeaderOrFollower.Code}
		case failures <= 6:
			return fault{code: wire.ErrRequestTimedOut.Code, appendFirst: failures == 4}
		}
		return fault{}
	}
	p := newTestProducer(t, f, Config{RetryBackoff: -1, Linger: -1})
	ds := sendN(t, p, "t", 0, 1, 0)
	checkLog(t, f, "t", 0, ds)
	if failures != 7 {
		t.Fatalf("%d attempts, want 7 (6 retriable failures, then success)", failures)
	}
}

// TestUnlimitedRetriesEndAtDeliveryTimeout: with MaxRetries nil a batch that
// keeps failing retriably is resent until DeliveryTimeout, then fails with
// ErrDeliveryTimeout naming the last error (or, when the deadline passes
// while an attempt is out, with that attempt's error), certainty NotSent.
func TestUnlimitedRetriesEndAtDeliveryTimeout(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	attempts := 0
	f.script = func(broker int32, topic string, partition int32, b *wire.RecordBatch) fault {
		attempts++
		return fault{code: wire.ErrNotEnoughReplicas.Code}
	}
	p := newTestProducer(t, f, Config{DeliveryTimeout: 300 * time.Millisecond, RetryBackoff: 10 * time.Millisecond, Linger: -1})
	start := time.Now()
	r := waitResult(t, mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("v")}))
	elapsed := time.Since(start)
	var te interface{ Last() error }
	timedOut := errors.As(r.Err, &te) && errors.Is(r.Err, ErrDeliveryTimeout) && errors.Is(te.Last(), wire.ErrNotEnoughReplicas)
	if !timedOut && !errors.Is(r.Err, wire.ErrNotEnoughReplicas) || r.Certainty != client.NotSent {
		t.Fatalf("result %v (%v), want a delivery timeout after NOT_ENOUGH_REPLICAS, NotSent", r.Err, r.Certainty)
	}
	if elapsed < 250*time.Millisecond {
		t.Fatalf("failed after %v, before the 300ms delivery timeout", elapsed)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if attempts < 5 {
		t.Fatalf("only %d attempts within the delivery timeout; unlimited retries expected", attempts)
	}
}
