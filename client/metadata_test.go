package client

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

func TestMetadataSnapshotAndLeader(t *testing.T) {
	fc := newFakeCluster(t, 3)
	fc.leaders["orders"] = []int32{2, -1, 3}
	fc.epochs["orders"] = []int32{7, 4, 9}
	c := newTestClient(t, fc.config())
	ctx := testCtx(t, 5*time.Second)
	md, err := c.Metadata(ctx, []string{"orders", "missing"})
	if err != nil {
		t.Fatal(err)
	}
	if md.ClusterID == nil || *md.ClusterID != fc.clusterID || md.ControllerID != 1 || len(md.Brokers) != 3 || md.Brokers[0].NodeID != 1 {
		t.Fatalf("snapshot %+v", md)
	}
	o := md.Topics["orders"]
	if o == nil || o.Err != nil || len(o.Partitions) != 3 || o.Partitions[1].Leader != -1 || o.ID.IsZero() {
		t.Fatalf("orders %+v", o)
	}
	if m := md.Topics["missing"]; m == nil || !errors.Is(m.Err, wire.ErrUnknownTopicOrPartition) {
		t.Fatalf("missing %+v", m)
	}
	if l, e, err := c.Leader(ctx, "orders", 2); l != 3 || e != 9 || err != nil {
		t.Fatalf("Leader(orders,2) = %d %d %v", l, e, err)
	}
	l, e, err := c.Leader(ctx, "orders", 1)
	if l != -1 || e != 4 || !errors.Is(err, wire.ErrLeaderNotAvailable) || CertaintyOf(err) != NotSent {
		t.Fatalf("Leader(orders,1) = %d %d %v", l, e, err)
	}
	if _, _, err := c.Leader(ctx, "orders", 3); !errors.Is(err, wire.ErrUnknownTopicOrPartition) {
		t.Fatalf("Leader(orders,3): %v", err)
	}
	if c.CachedMetadata() == nil {
		t.Fatal("no cached snapshot")
	}

	// A failed lookup marked the cache stale: the next one refetches, the
	// one after is served from the cache until invalidated.
	before := len(fc.requests(wire.KeyMetadata))
	if _, _, err := c.Leader(ctx, "orders", 0); err != nil {
		t.Fatal(err)
	}
	if n := len(fc.requests(wire.KeyMetadata)); n != before+1 {
		t.Fatalf("stale cache not refetched: %d -> %d", before, n)
	}
	before++
	if _, _, err := c.Leader(ctx, "orders", 0); err != nil {
		t.Fatal(err)
	}
	if n := len(fc.requests(wire.KeyMetadata)); n != before {
		t.Fatalf("fresh cache refetched: %d -> %d", before, n)
	}
	fc.mu.Lock()
	fc.leaders["orders"][0], fc.epochs["orders"][0] = 1, 8
	fc.mu.Unlock()
	c.InvalidateMetadata()
	if l, e, err := c.Leader(ctx, "orders", 0); l != 1 || e != 8 || err != nil {
		t.Fatalf("after invalidation: %d %d %v", l, e, err)
	}
}

func TestMetadataMaxAge(t *testing.T) {
	fc := newFakeCluster(t, 1)
	cfg := fc.config()
	cfg.MetadataMaxAge = 20 * time.Millisecond
	c := newTestClient(t, cfg)
	ctx := testCtx(t, 5*time.Second)
	md1, err := c.Metadata(ctx, []string{})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "metadata to age", time.Second, func() bool { return time.Since(md1.Fetched) > cfg.MetadataMaxAge })
	md2, err := c.Metadata(ctx, []string{})
	if err != nil {
		t.Fatal(err)
	}
	if md2 == md1 || len(fc.requests(wire.KeyMetadata)) != 2 {
		t.Fatal("stale metadata not refreshed")
	}
}

func TestMetadataRefreshesCoalesce(t *testing.T) {
	fc := newFakeCluster(t, 1)
	release := make(chan struct{})
	fc.setHandle(func(conn *fakeConn, r *fakeReq) bool {
		if r.hdr.Key != wire.KeyMetadata {
			return false
		}
		go func() { <-release; conn.answer(r) }()
		return true
	})
	c := newTestClient(t, fc.config())
	ctx := testCtx(t, 5*time.Second)
	const n = 16
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := c.Metadata(ctx, []string{})
			errs <- err
		}()
	}
	waitFor(t, "the first Metadata request", 5*time.Second, func() bool { return len(fc.requests(wire.KeyMetadata)) >= 1 })
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := len(fc.requests(wire.KeyMetadata)); got != 1 {
		t.Fatalf("%d concurrent Metadata calls sent %d requests, want 1", n, got)
	}
}

func TestExpectedClusterID(t *testing.T) {
	fc := newFakeCluster(t, 1)
	cfg := fc.config()
	cfg.ExpectedClusterID = "another-cluster"
	c := newTestClient(t, cfg)
	err := c.Ready(testCtx(t, 5*time.Second))
	if !errors.Is(err, ErrClusterIdentity) {
		t.Fatalf("Ready: %v, want ErrClusterIdentity", err)
	}
	if c.CachedMetadata() != nil {
		t.Fatal("metadata of the wrong cluster was cached")
	}
	cfg.ExpectedClusterID = fc.clusterID
	c2 := newTestClient(t, cfg)
	if err := c2.Ready(testCtx(t, 5*time.Second)); err != nil {
		t.Fatal(err)
	}
}

func TestRequestControllerAndUnknownBroker(t *testing.T) {
	fc := newFakeCluster(t, 2)
	c := newTestClient(t, fc.config())
	ctx := testCtx(t, 5*time.Second)
	if _, err := c.RequestController(ctx, createTopics("c")); err != nil {
		t.Fatal(err)
	}
	reqs := fc.requests(wire.KeyCreateTopics)
	if reqs[0].broker != 1 {
		t.Fatalf("controller request went to broker %d", reqs[0].broker)
	}
	_, err := c.Request(ctx, 42, createTopics("x"))
	expectFailure(t, "node 42", err, ErrUnknownBroker, NotSent)
}

func TestCoordinatorBatchedAndCached(t *testing.T) {
	fc := newFakeCluster(t, 3)
	release := make(chan struct{})
	var once sync.Once
	fc.setHandle(func(conn *fakeConn, r *fakeReq) bool {
		if r.hdr.Key != wire.KeyFindCoordinator {
			return false
		}
		first := false
		once.Do(func() { first = true })
		if first { // hold the first lookup so the others queue behind it
			go func() { <-release; conn.answer(r) }()
			return true
		}
		return false
	})
	c := newTestClient(t, fc.config())
	ctx := testCtx(t, 5*time.Second)
	keys := []string{"g1", "group-22", "g333", "g4444", "g55555"}
	var wg sync.WaitGroup
	ids := make([]int32, len(keys))
	errs := make([]error, len(keys))
	wg.Add(1)
	go func() { defer wg.Done(); ids[0], errs[0] = c.Coordinator(ctx, CoordinatorGroup, keys[0]) }()
	waitFor(t, "the first FindCoordinator", 5*time.Second, func() bool { return len(fc.requests(wire.KeyFindCoordinator)) == 1 })
	for i := 1; i < len(keys); i++ {
		wg.Add(1)
		go func() { defer wg.Done(); ids[i], errs[i] = c.Coordinator(ctx, CoordinatorGroup, keys[i]) }()
	}
	waitFor(t, "lookups to queue", 5*time.Second, func() bool {
		c.coord.mu.Lock()
		defer c.coord.mu.Unlock()
		return len(c.coord.queued[CoordinatorGroup]) == len(keys)-1
	})
	close(release)
	wg.Wait()
	for i, k := range keys {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if want := fc.brokers[len(k)%3].id; ids[i] != want {
			t.Fatalf("coordinator of %s = %d, want %d", k, ids[i], want)
		}
	}
	reqs := fc.requests(wire.KeyFindCoordinator)
	if len(reqs) != 2 || len(reqs[1].req.(*wire.FindCoordinatorRequest).CoordinatorKeys) != len(keys)-1 || reqs[1].hdr.Version < 4 {
		t.Fatalf("want one single lookup then one batch of %d at v4+, got %d requests", len(keys)-1, len(reqs))
	}
	// Cached; then invalidated and looked up again.
	if _, err := c.Coordinator(ctx, CoordinatorGroup, "g1"); err != nil || len(fc.requests(wire.KeyFindCoordinator)) != 2 {
		t.Fatalf("not served from cache: %v", err)
	}
	c.InvalidateCoordinator(CoordinatorGroup, "g1")
	if _, err := c.Coordinator(ctx, CoordinatorGroup, "g1"); err != nil || len(fc.requests(wire.KeyFindCoordinator)) != 3 {
		t.Fatalf("not looked up again after invalidation: %v", err)
	}
	// The coordinator's node is routable.
	if _, err := c.Request(ctx, ids[1], createTopics("to-coordinator")); err != nil {
		t.Fatal(err)
	}
}

func TestCoordinatorRetriesNotAvailable(t *testing.T) {
	fc := newFakeCluster(t, 1)
	var mu sync.Mutex
	tries := 0
	fc.setHandle(func(conn *fakeConn, r *fakeReq) bool {
		if r.hdr.Key != wire.KeyFindCoordinator {
			return false
		}
		mu.Lock()
		tries++
		n := tries
		mu.Unlock()
		if n > 2 {
			return false
		}
		k := r.req.(*wire.FindCoordinatorRequest).CoordinatorKeys[0]
		conn.respond(r, &wire.FindCoordinatorResponse{Coordinators: []wire.FindCoordinatorResponseCoordinator{{Key: k, NodeID: -1, ErrorCode: wire.ErrCoordinatorNotAvailable.Code}}})
		return true
	})
	c := newTestClient(t, fc.config())
	id, err := c.Coordinator(testCtx(t, 5*time.Second), CoordinatorTransaction, "txn")
	if err != nil || id != 1 || tries != 3 {
		t.Fatalf("id %d err %v after %d tries", id, err, tries)
	}
}
