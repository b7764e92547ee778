package producer

import (
	"errors"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// TestFatalErrorIsNotStale: a non-retriable metadata or InitProducerId error
// fails the records waiting when it was observed, but a record admitted
// afterwards gets a fresh lookup first. Here the cause is lifted in the
// cluster without touching the cached snapshot (an ACL granted meanwhile):
// only a new lookup can see it, and the next record must be acknowledged.
func TestFatalErrorIsNotStale(t *testing.T) {
	t.Run("topic authorization granted later", func(t *testing.T) {
		f := newFakeCluster(t, map[string]int{"t": 1}, 1)
		f.topicErr = map[string]error{"t": wire.ErrTopicAuthorizationFailed}
		f.rebuildMetadata()
		p := newTestProducer(t, f, Config{DeliveryTimeout: 30 * time.Second})
		r := waitResult(t, mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("denied")}))
		if !errors.Is(r.Err, wire.ErrTopicAuthorizationFailed) || r.Certainty != client.NotSent {
			t.Fatalf("denied record: %+v", r)
		}

		// Still denied: a new record is failed only after a fresh lookup
		// repeats the error (not at its delivery timeout).
		f.mu.Lock()
		before := f.lookups
		f.mu.Unlock()
		start := time.Now()
		r = waitResult(t, mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("denied again")}))
		if !errors.Is(r.Err, wire.ErrTopicAuthorizationFailed) || r.Certainty != client.NotSent || time.Since(start) > 10*time.Second {
			t.Fatalf("still denied: %+v after %v", r, time.Since(start))
		}
		f.mu.Lock()
		after := f.lookups
		f.mu.Unlock()
		if after == before {
			t.Fatalf("a record admitted after the error was failed without a fresh metadata lookup")
		}

		// Granted: the cached snapshot still says denied; the next record
		// must look again and be acknowledged.
		f.mu.Lock()
		f.topicErr = nil
		f.mu.Unlock()
		for _, part := range []int32{0, -1} {
			r = waitResult(t, mustSend(t, p, &Record{Topic: "t", Partition: choice(part), Value: []byte("granted")}))
			if r.Err != nil || r.Offset < 0 {
				t.Fatalf("partition %d after grant: %+v", part, r)
			}
		}
		if got := len(f.log("t", 0)); got != 2 {
			t.Fatalf("log has %d records, want 2", got)
		}
	})
	t.Run("unkeyed records waiting for metadata", func(t *testing.T) {
		f := newFakeCluster(t, map[string]int{"t": 2}, 1)
		f.topicErr = map[string]error{"t": wire.ErrTopicAuthorizationFailed}
		f.rebuildMetadata()
		p := newTestProducer(t, f, Config{DeliveryTimeout: 30 * time.Second})
		r := waitResult(t, mustSend(t, p, &Record{Topic: "t", Value: []byte("denied")}))
		if !errors.Is(r.Err, wire.ErrTopicAuthorizationFailed) || r.Certainty != client.NotSent {
			t.Fatalf("denied record: %+v", r)
		}
		f.mu.Lock()
		f.topicErr = nil
		f.mu.Unlock()
		r = waitResult(t, mustSend(t, p, &Record{Topic: "t", Value: []byte("granted")}))
		if r.Err != nil {
			t.Fatalf("after grant: %+v", r)
		}
	})
	t.Run("cluster authorization on InitProducerId granted later", func(t *testing.T) {
		f := newFakeCluster(t, map[string]int{"t": 1}, 1)
		f.initErr = wire.ErrClusterAuthorizationFailed.Code
		p := newTestProducer(t, f, Config{DeliveryTimeout: 30 * time.Second})
		r := waitResult(t, mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("denied")}))
		if !errors.Is(r.Err, wire.ErrClusterAuthorizationFailed) || r.Certainty != client.NotSent {
			t.Fatalf("denied record: %+v", r)
		}
		f.mu.Lock()
		f.initErr = 0
		inits := f.inits
		f.mu.Unlock()
		r = waitResult(t, mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("granted")}))
		if r.Err != nil {
			t.Fatalf("after grant: %+v", r)
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.inits != inits+1 {
			t.Fatalf("InitProducerId calls %d, want %d", f.inits, inits+1)
		}
	})
}
