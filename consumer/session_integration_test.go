package consumer

import (
	"context"
	"errors"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/wire"
)

// sessionRecorder is the real transport, remembering the fetch session each
// broker gave the consumer.
type sessionRecorder struct {
	wireTransport
	mu  sync.Mutex
	ids map[int32]int32 // node -> session ID
}

func (r *sessionRecorder) fetch(ctx context.Context, req *fetchReq) (*fetchResp, error) {
	resp, err := r.wireTransport.fetch(ctx, req)
	if err == nil && resp.SessionID != 0 {
		r.mu.Lock()
		r.ids[req.node] = resp.SessionID
		r.mu.Unlock()
	}
	return resp, err
}

// probeSession sends node an incremental Fetch of session id at an epoch
// the consumer never reaches, and returns the broker's top-level error:
// INVALID_FETCH_SESSION_EPOCH while the session exists (the broker leaves
// it as it is), FETCH_SESSION_ID_NOT_FOUND once it is gone (KIP-227).
func probeSession(ctx context.Context, t *testing.T, cl *client.Client, node, id int32) error {
	t.Helper()
	resp, err := cl.Request(ctx, node, &wire.FetchRequest{ReplicaID: -1, ReplicaState: wire.FetchReplicaState{ReplicaID: -1, ReplicaEpoch: -1},
		MaxBytes: 1 << 20, SessionID: id, SessionEpoch: math.MaxInt32})
	if err != nil {
		t.Fatalf("probe of session %d: %v", id, err)
	}
	return wire.ErrorForCode(resp.(*wire.FetchResponse).ErrorCode)
}

// TestIntegrationCloseEndsFetchSession: on the real broker, Close removes
// the consumer's fetch session from the broker's cache (KIP-227 final
// epoch) instead of leaving it to hold a cache slot until evicted, and
// returns without waiting behind the Fetch it abandoned (long-polling for
// MaxWait, 3s here): a 2s-bounded wait there once cost the consume benchmark
// 80% of its records/s with lz4.
func TestIntegrationCloseEndsFetchSession(t *testing.T) {
	cluster := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cl, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext)})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	topic := kafkatest.UniqueName(t, "consumer-session")
	r, err := cl.RequestController(ctx, &wire.CreateTopicsRequest{TimeoutMs: 30000,
		Topics: []wire.CreateTopicsTopic{{Name: topic, NumPartitions: 2, ReplicationFactor: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if code := r.(*wire.CreateTopicsResponse).Topics[0].ErrorCode; code != 0 {
		t.Fatalf("CreateTopics: %v", wire.ErrorForCode(code))
	}

	rec := &sessionRecorder{wireTransport: wireTransport{cl}, ids: map[int32]int32{}}
	// The topic stays empty, so every Fetch long-polls for MaxWait.
	const maxWait = 3 * time.Second
	c, err := newConsumer(cl, rec, Config{MaxWait: maxWait})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	assigned := false
	var node, id int32
	for !assigned || id == 0 {
		if ctx.Err() != nil {
			t.Fatal("no fetch session within a minute")
		}
		if !assigned {
			// The topic's leaders may not be known yet: Assign again until it takes.
			assigned = c.Assign(ctx, []PartitionPosition{{gregor.TopicPartition{Topic: topic, Partition: 0}, AtBeginning()}, {gregor.TopicPartition{Topic: topic, Partition: 1}, AtBeginning()}}) == nil
		}
		rec.mu.Lock()
		for n, s := range rec.ids {
			node, id = n, s
		}
		rec.mu.Unlock()
		time.Sleep(10 * time.Millisecond) // polling interval of a condition wait, not synchronization
	}
	if err := probeSession(ctx, t, cl, node, id); !errors.Is(err, wire.ErrInvalidFetchSessionEpoch) {
		t.Fatalf("probe of the open session %d on broker %d: %v, want INVALID_FETCH_SESSION_EPOCH", id, node, err)
	}
	// Close writes the session's close and returns: it does not wait
	// behind the long poll it abandoned (the broker answers in order).
	before := cl.Metrics().Calls
	t0 := time.Now()
	c.Close(context.Background())
	if d := time.Since(t0); d > maxWait/2 {
		t.Fatalf("Close took %v: it waited behind the %v long poll", d, maxWait)
	}
	// The probe follows the close on the same connection, so the broker
	// has removed the session when it reads the probe.
	if err := probeSession(ctx, t, cl, node, id); !errors.Is(err, wire.ErrFetchSessionIDNotFound) {
		t.Fatalf("probe of session %d on broker %d after Close: %v, want FETCH_SESSION_ID_NOT_FOUND", id, node, err)
	}
	// The close was answered (before the probe) and counts as a success,
	// not as a call Close abandoned: the only failure Close leaves is the
	// long poll it cancelled.
	if m := cl.Metrics().Calls; m.Failed-before.Failed > 1 {
		t.Fatalf("client calls %+v after Close, %+v before: want at most 1 more failure (the cancelled long poll)", m, before)
	}
}
