package producer

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// TestDeliveryTimeoutNamesMissingTopic: a record for a topic that metadata
// reports as UNKNOWN_TOPIC_OR_PARTITION waits for it until DeliveryTimeout
// (as the Java producer waits for metadata), then fails with
// ErrDeliveryTimeout naming the topic and the metadata error, matching both
// with errors.Is, certainty NotSent. Without an explicit partition and with
// one.
func TestDeliveryTimeoutNamesMissingTopic(t *testing.T) {
	for _, partition := range []int32{-1, 0} {
		f := newFakeCluster(t, map[string]int{"t": 1}, 1)
		f.topicErr = map[string]error{"missing": wire.ErrUnknownTopicOrPartition}
		f.rebuildMetadata()
		const timeout = 200 * time.Millisecond
		p := newTestProducer(t, f, Config{DeliveryTimeout: timeout, RetryBackoff: 10 * time.Millisecond})
		start := time.Now()
		r := waitResult(t, mustSend(t, p, &Message{Topic: "missing", Partition: partition, Value: []byte("v")}))
		elapsed := time.Since(start)
		if !errors.Is(r.Err, ErrDeliveryTimeout) || !errors.Is(r.Err, client.ErrTimeout) ||
			!errors.Is(r.Err, wire.ErrUnknownTopicOrPartition) || r.Certainty != client.NotSent {
			t.Fatalf("partition %d: result %v (%v), want a NotSent delivery timeout matching UNKNOWN_TOPIC_OR_PARTITION", partition, r.Err, r.Certainty)
		}
		if msg := r.Err.Error(); !strings.Contains(msg, `topic "missing" not present in metadata`) || !strings.Contains(msg, "UNKNOWN_TOPIC_OR_PARTITION") {
			t.Fatalf("partition %d: error %q does not name the topic and the metadata error", partition, msg)
		}
		// Is matches the broker code, but errors.As finds no *wire.KafkaError,
		// so the failure still classifies as a timeout, not a broker rejection.
		var kerr *wire.KafkaError
		if errors.As(r.Err, &kerr) {
			t.Fatalf("partition %d: errors.As found %v in a delivery timeout", partition, kerr)
		}
		if errors.Is(r.Err, wire.ErrNotLeaderOrFollower) {
			t.Fatalf("partition %d: %v matches an unrelated broker error", partition, r.Err)
		}
		if elapsed < timeout*3/4 {
			t.Fatalf("partition %d: failed after %v, before the %v delivery timeout", partition, elapsed, timeout)
		}
	}
}
