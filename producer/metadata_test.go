package producer

import (
	"errors"
	"github.com/gregor-kafka/gregor"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// TestDeliveryTimeoutNamesMissingTopic: with UnknownTopicRetries negative,
// a record for a topic that metadata reports as UNKNOWN_TOPIC_OR_PARTITION
// waits for it until DeliveryTimeout (as the Java producer waits for
// metadata), then fails with
// ErrDeliveryTimeout naming the topic and the metadata error, matching both
// with errors.Is, certainty NotSent. Without an explicit partition and with
// one.
func TestDeliveryTimeoutNamesMissingTopic(t *testing.T) {
	for _, partition := range []int32{-1, 0} {
		f := newFakeCluster(t, map[string]int{"t": 1}, 1)
		f.topicErr = map[string]error{"missing": wire.ErrUnknownTopicOrPartition}
		f.rebuildMetadata()
		const timeout = 200 * time.Millisecond
		p := newTestProducer(t, f, Config{DeliveryTimeout: timeout, RetryBackoff: 10 * time.Millisecond, UnknownTopicRetries: -1})
		start := time.Now()
		r := waitResult(t, mustSend(t, p, &Record{Topic: "missing", Partition: choice(partition), Value: []byte("v")}))
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

// TestUnknownTopicFailsFast: a record for a topic metadata keeps reporting
// as UNKNOWN_TOPIC_OR_PARTITION fails after UnknownTopicRetries refreshes
// in a row with that error itself (not a delivery timeout), certainty
// NotSent, long before DeliveryTimeout; with and without an explicit
// partition. A record for an existing topic is not held up meanwhile.
func TestUnknownTopicFailsFast(t *testing.T) {
	for _, partition := range []int32{-1, 0} {
		f := newFakeCluster(t, map[string]int{"t": 1}, 1)
		f.topicErr = map[string]error{"missing": wire.ErrUnknownTopicOrPartition}
		f.rebuildMetadata()
		const retries = 3
		p := newTestProducer(t, f, Config{RetryBackoff: 10 * time.Millisecond, UnknownTopicRetries: retries})
		d := mustSend(t, p, &Record{Topic: "missing", Partition: choice(partition), Value: []byte("v")})
		if r := waitResult(t, mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("ok")})); r.Err != nil {
			t.Fatalf("record for an existing topic: %v", r.Err)
		}
		r := waitResult(t, d)
		if !errors.Is(r.Err, wire.ErrUnknownTopicOrPartition) || errors.Is(r.Err, ErrDeliveryTimeout) || r.Certainty != client.NotSent {
			t.Fatalf("partition %d: result %v (%v), want UNKNOWN_TOPIC_OR_PARTITION, NotSent, no delivery timeout", partition, r.Err, r.Certainty)
		}
		f.mu.Lock()
		lookups := f.lookups
		f.mu.Unlock()
		if lookups < retries+1 {
			t.Fatalf("partition %d: failed after %d metadata lookups, want at least %d", partition, lookups, retries+1)
		}
		if !strings.Contains(r.Err.Error(), `"missing"`) {
			t.Fatalf("error %q does not name the topic", r.Err)
		}
		// Terminal: not retriable, although UNKNOWN_TOPIC_OR_PARTITION is
		// (issue 36); the message counts retries as UnknownTopicRetries does.
		if gregor.IsRetriable(r.Err) || gregor.IsRetriable(recordError(&r)) {
			t.Fatalf("IsRetriable(%v) = true on a record's terminal error", r.Err)
		}
		if want := "after UnknownTopicRetries (3) retries (4 metadata refreshes in a row)"; !strings.Contains(r.Err.Error(), want) {
			t.Fatalf("error %q: want it to say %q", r.Err, want)
		}
	}
}

// TestUnknownTopicAppearing: a record for a topic that metadata reports
// unknown, created before UnknownTopicRetries refreshes pass, is delivered.
func TestUnknownTopicAppearing(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	f.topicErr = map[string]error{"late": wire.ErrUnknownTopicOrPartition}
	f.rebuildMetadata()
	p := newTestProducer(t, f, Config{RetryBackoff: 10 * time.Millisecond, UnknownTopicRetries: 1000})
	d := mustSend(t, p, &Record{Topic: "late", Value: []byte("v")})
	waitFor(t, "two lookups reporting the topic unknown", func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.lookups >= 2
	})
	f.mu.Lock()
	delete(f.topicErr, "late")
	f.leaders["late"] = []int32{1}
	f.logs["late"] = []*fakeLog{{state: map[int64]*fakeProducerState{}}}
	f.rebuildMetadata()
	f.mu.Unlock()
	if r := waitResult(t, d); r.Err != nil {
		t.Fatalf("record for the topic created meanwhile: %v", r.Err)
	}
	if n := len(f.log("late", 0)); n != 1 {
		t.Fatalf("%d records in the new topic, want 1", n)
	}
}

func TestMetadataBackoff(t *testing.T) {
	for _, c := range []struct {
		backoff time.Duration
		unknown int
		want    time.Duration
	}{
		{100 * time.Millisecond, 0, 100 * time.Millisecond},
		{10 * time.Millisecond, 0, 50 * time.Millisecond},
		{100 * time.Millisecond, 1, 200 * time.Millisecond},
		{100 * time.Millisecond, 3, 800 * time.Millisecond},
		{100 * time.Millisecond, 4, time.Second},
		{100 * time.Millisecond, 1000, time.Second},
		{2 * time.Second, 1, 2 * time.Second},
	} {
		if got := metadataBackoff(c.backoff, c.unknown); got != c.want {
			t.Errorf("metadataBackoff(%v, %d) = %v, want %v", c.backoff, c.unknown, got, c.want)
		}
	}
}
