package consumer

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// TestReadReplicaLease: the lease of SubscriptionState's preferred read
// replica: valid up to and at its expiry, gone after it; naming the same
// replica again does not renew it, naming another one does; clear reports
// whether there was one.
func TestReadReplicaLease(t *testing.T) {
	t0 := time.Unix(1000, 0)
	var r readReplica
	if _, ok := r.get(t0); ok {
		t.Fatal("zero value has a replica")
	}
	if !r.update(2, t0, time.Second) {
		t.Fatal("first update reported no change")
	}
	if r.update(2, t0.Add(500*time.Millisecond), time.Second) {
		t.Fatal("the same replica again reported a change")
	}
	if n, ok := r.get(t0.Add(time.Second)); !ok || n != 2 {
		t.Fatalf("at expiry: %d %v, want 2 (expires after, not at)", n, ok)
	}
	if _, ok := r.get(t0.Add(time.Second + time.Nanosecond)); ok {
		t.Fatal("the same replica named again renewed the lease")
	}
	if r.set {
		t.Fatal("expired replica not cleared")
	}
	r.update(2, t0, time.Second)
	if !r.update(3, t0.Add(900*time.Millisecond), time.Second) {
		t.Fatal("another replica reported no change")
	}
	if n, ok := r.get(t0.Add(1500 * time.Millisecond)); !ok || n != 3 {
		t.Fatalf("new replica's lease: %d %v", n, ok)
	}
	if !r.clear() || r.clear() {
		t.Fatal("clear: want true once, then false")
	}
}

// TestReadReplicaAnswerRules: FetchCollector's rules, per partition
// answer: a named replica is taken on success only; the errors after
// which Java refreshes metadata clear it; OFFSET_OUT_OF_RANGE clears it and
// is handled (no reset) only when there was one; other errors leave it.
func TestReadReplicaAnswerRules(t *testing.T) {
	now := time.Unix(1000, 0)
	cases := []struct {
		err          error
		cleared      bool
		handledIfSet bool
	}{
		{wire.ErrOffsetOutOfRange, true, true},
		{wire.ErrNotLeaderOrFollower, true, false},
		{wire.ErrFencedLeaderEpoch, true, false},
		{wire.ErrReplicaNotAvailable, true, false},
		{wire.ErrKafkaStorageError, true, false},
		{wire.ErrOffsetNotAvailable, true, false},
		{wire.ErrUnknownTopicOrPartition, true, false},
		{wire.ErrUnknownTopicID, true, false},
		{wire.ErrInconsistentTopicID, true, false},
		{wire.ErrUnknownLeaderEpoch, false, false},
		{wire.ErrTopicAuthorizationFailed, false, false},
	}
	for _, tc := range cases {
		c := &Consumer{rr: readReplicas{ttl: time.Minute}}
		st := &partState{tp: tp0}
		st.replica.update(2, now, time.Minute)
		handled := c.readReplicaAnswerLocked(st, &fetchRespPart{TopicPartition: tp0, Err: tc.err}, now)
		if st.replica.set == tc.cleared || handled != tc.handledIfSet {
			t.Errorf("%v with a replica: cleared %v handled %v, want cleared %v handled %v", tc.err, !st.replica.set, handled, tc.cleared, tc.handledIfSet)
		}
		if handled := c.readReplicaAnswerLocked(&partState{tp: tp0}, &fetchRespPart{TopicPartition: tp0, Err: tc.err}, now); handled {
			t.Errorf("%v without a replica handled: the leader's answer must go the usual way", tc.err)
		}
	}
	c := &Consumer{rr: readReplicas{ttl: time.Minute}}
	st := &partState{tp: tp0}
	c.readReplicaAnswerLocked(st, &fetchRespPart{TopicPartition: tp0, Err: wire.ErrNotLeaderOrFollower, Preferred: preferredOf(2)}, now)
	if st.replica.set {
		t.Fatal("a replica named with an error was taken")
	}
	c.readReplicaAnswerLocked(st, &fetchRespPart{TopicPartition: tp0, Preferred: preferredOf(-1)}, now)
	if st.replica.set || c.rr.seen.Load() {
		t.Fatal("-1 (none) taken as a replica")
	}
	c.readReplicaAnswerLocked(st, &fetchRespPart{TopicPartition: tp0, Preferred: preferredOf(0)}, now)
	if n, ok := st.replica.get(now); !ok || n != 0 || !c.rr.seen.Load() || c.m.ReadReplicaChanges != 1 {
		t.Fatalf("replica 0 not taken: %d %v seen %v changes %d", n, ok, c.rr.seen.Load(), c.m.ReadReplicaChanges)
	}
	if !st.replica.expires.Equal(now.Add(time.Minute)) {
		t.Fatalf("expires %v, want now+ttl", st.replica.expires)
	}
}

// replicaFake is the fake broker with node 1 leading every partition and
// replicas on 1, 2 and 3. Node 1, asked by a consumer with rack "rack-b",
// answers each partition with no records and broker 2 as its preferred read
// replica while 2 is up and not offline (the RackAwareReplicaSelector
// skips replicas out of the ISR); other nodes serve the log. A down node
// fails every Fetch in transport.
type replicaFake struct {
	*fakeBroker
	down    map[int32]bool
	offline map[int32]bool // listed in OfflineReplicas
	ttl     time.Duration  // MetadataMaxAge
	racks   []string       // the rack of each Fetch, in order
}

func newReplicaFake(t *testing.T) *replicaFake {
	f := &replicaFake{fakeBroker: newFakeBroker(t), down: map[int32]bool{}, offline: map[int32]bool{}, ttl: time.Hour}
	f.leaders[tp0] = 1
	return f
}

func (f *replicaFake) MetadataMaxAge() time.Duration { return f.ttl }

func (f *replicaFake) Metadata(ctx context.Context, topics []string) (*client.Metadata, error) {
	md, err := f.fakeBroker.Metadata(ctx, topics)
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, tm := range md.Topics {
		for i := range tm.Partitions {
			pm := &tm.Partitions[i]
			pm.Replicas, pm.ISR = []int32{1, 2, 3}, []int32{1, 2, 3}
			for n := range f.offline {
				pm.OfflineReplicas = append(pm.OfflineReplicas, n)
			}
		}
	}
	return md, nil
}

func (f *replicaFake) fetch(ctx context.Context, req *fetchReq) (*fetchResp, error) {
	f.mu.Lock()
	f.racks = append(f.racks, req.rack)
	if f.down[req.node] {
		f.fetches = append(f.fetches, snapshotReq(req))
		f.mu.Unlock()
		return nil, &client.RequestError{Broker: req.node, API: "Fetch", Certainty: client.NotSent, Err: errors.New("fake: connection refused")}
	}
	if req.node == 1 && req.rack == "rack-b" && !f.down[2] && !f.offline[2] {
		f.fetches = append(f.fetches, snapshotReq(req))
		resp := &fetchResp{} // no session: the next Fetch to 1 is full
		for tp := range req.want {
			resp.Parts = append(resp.Parts, fetchRespPart{TopicPartition: tp, HighWatermark: f.logs[tp].end(), LastStableOffset: f.logs[tp].end(), Preferred: preferredOf(2)})
		}
		f.mu.Unlock()
		return resp, nil
	}
	f.mu.Unlock()
	return f.fakeBroker.fetch(ctx, req)
}

// nodesSince lists the nodes of the Fetches from the i-th on.
func (f *replicaFake) nodesSince(i int) []int32 {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []int32
	for _, r := range f.fetches[i:] {
		out = append(out, r.node)
	}
	return out
}

func (f *replicaFake) set(fn func()) {
	f.mu.Lock()
	fn()
	f.mu.Unlock()
}

func readReplicaOf(t *testing.T, c *Consumer, tp gregor.TopicPartition) (int32, bool) {
	t.Helper()
	for _, m := range c.partitionMetrics(nil) {
		if m.Topic == tp.Topic && m.Partition == tp.Partition {
			return m.ReadReplica, m.FromFollower
		}
	}
	t.Fatalf("no partition metrics for %s", tp)
	return 0, false
}

// TestFollowerFetching: a consumer in rack-b is sent to broker 2 by the
// leader and reads there; OFFSET_OUT_OF_RANGE from the follower sends it
// back to the leader without a reset; a follower failing in transport sends
// it back to the leader, which reads on until the follower is back, then
// names it again; metadata listing the replica offline sends it back too.
// The rack is in every Fetch; the metrics name the replica.
func TestFollowerFetching(t *testing.T) {
	f := newReplicaFake(t)
	f.append(tp0, dataBatch(0, 3))
	c := newTestConsumer(t, f, Config{Rack: "rack-b"})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtOffset(0)}}); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 3), tp0, 0, 3)
	if got := f.nodesSince(0); len(got) < 2 || got[0] != 1 || got[1] != 2 {
		t.Fatalf("Fetches went to %v, want the leader 1, then the replica 2", got)
	}
	if n, ok := readReplicaOf(t, c, tp0); !ok || n != 2 {
		t.Fatalf("metrics: read replica %d from follower %v, want 2", n, ok)
	}
	if m := c.Metrics(); m.ReadReplicaChanges != 1 || m.ReadReplicaFallbacks != 0 {
		t.Fatalf("changes %d fallbacks %d, want 1 0", m.ReadReplicaChanges, m.ReadReplicaFallbacks)
	}

	// A lagging follower: out of range there goes to the leader, no reset.
	mark := f.fetchCount()
	f.set(func() { f.partErr[tp0] = []error{wire.ErrOffsetOutOfRange} })
	f.append(tp0, dataBatch(3, 2))
	wantOffsets(t, receiveN(t, c, 2), tp0, 3, 5)
	// The Fetch that met the error may have left before mark; after it the
	// leader is asked, then the follower again.
	waitFor(t, "the leader, then the follower again after out of range there", func() bool { return isSubsequence([]int32{1, 2}, f.nodesSince(mark)) })
	if m := c.Metrics(); m.OffsetResets != 0 || m.ReadReplicaFallbacks != 1 || m.ReadReplicaChanges != 2 {
		t.Fatalf("resets %d fallbacks %d changes %d, want 0 1 2", m.OffsetResets, m.ReadReplicaFallbacks, m.ReadReplicaChanges)
	}

	// The follower stops: the leader serves the records meanwhile.
	mark = f.fetchCount()
	f.set(func() { f.down[2] = true })
	f.append(tp0, dataBatch(5, 2))
	wantOffsets(t, receiveN(t, c, 2), tp0, 5, 7)
	// A Fetch to broker 2 may have been in flight when it went down: wait
	// for the loop to route to the leader, not for one particular Fetch.
	waitFor(t, "the Fetches to go to the leader with broker 2 down", func() bool { return lastNodeIs(f.nodesSince(mark), 1) })
	waitFor(t, "metrics to stop naming a follower with broker 2 down", func() bool { _, ok := readReplicaOf(t, c, tp0); return !ok })
	// It is back: the leader names it, the consumer returns.
	mark = f.fetchCount()
	f.set(func() { delete(f.down, 2) })
	f.append(tp0, dataBatch(7, 2))
	wantOffsets(t, receiveN(t, c, 2), tp0, 7, 9)
	waitFor(t, "a Fetch to broker 2 again", func() bool { return slices.Contains(f.nodesSince(mark), 2) })

	// Metadata lists the replica offline: back to the leader, metadata
	// refreshed.
	inv := c.Metrics().MetadataRefreshes
	mark = f.fetchCount()
	f.set(func() { f.offline[2] = true })
	c.cl.InvalidateMetadata() // the fake's metadata is never cached; this only counts
	f.append(tp0, dataBatch(9, 2))
	wantOffsets(t, receiveN(t, c, 2), tp0, 9, 11)
	// As above: the records may come from a Fetch to 2 already in flight.
	waitFor(t, "a metadata refresh after the replica went offline", func() bool { return c.Metrics().MetadataRefreshes > inv })
	waitFor(t, "the Fetches to go to the leader with replica 2 offline", func() bool { return lastNodeIs(f.nodesSince(mark), 1) })
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, r := range f.racks {
		if r != "rack-b" {
			t.Fatalf("Fetch %d sent rack %q, want rack-b", i, r)
		}
	}
}

// TestFollowerFetchingExpires: the choice lasts MetadataMaxAge; then the
// consumer asks the leader again, which names the replica again.
func TestFollowerFetchingExpires(t *testing.T) {
	f := newReplicaFake(t)
	f.ttl = 50 * time.Millisecond
	f.append(tp0, dataBatch(0, 3))
	c := newTestConsumer(t, f, Config{Rack: "rack-b"})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtOffset(0)}}); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 3), tp0, 0, 3)
	// Caught up, the consumer keeps fetching (MaxWait 50ms each); after
	// the lease it goes to the leader, which names 2 again.
	waitFor(t, "the replica chosen again after its lease", func() bool { return c.Metrics().ReadReplicaChanges >= 2 })
	if got := f.nodesSince(0); !isSubsequence([]int32{1, 2, 1, 2}, got) {
		t.Fatalf("Fetches to %v, want leader, replica, leader, replica", got)
	}
	if m := c.Metrics(); m.ReadReplicaFallbacks != 0 {
		t.Fatalf("fallbacks %d: an expiry is not a fallback", m.ReadReplicaFallbacks)
	}
}

// TestNoRackNoReplica: without a rack the fake leader names no replica and
// every Fetch goes to the leader with an empty rack.
func TestNoRackNoReplica(t *testing.T) {
	f := newReplicaFake(t)
	f.append(tp0, dataBatch(0, 3))
	c := newTestConsumer(t, f, Config{})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtOffset(0)}}); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 3), tp0, 0, 3)
	for _, n := range f.nodesSince(0) {
		if n != 1 {
			t.Fatalf("a Fetch to %d without a rack", n)
		}
	}
	if c.rr.seen.Load() {
		t.Fatal("replica routing armed without a replica")
	}
}

// isSubsequence reports whether want appears in got in order.
func isSubsequence(want, got []int32) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	return i == len(want)
}

// lastNodeIs reports whether the last Fetch in nodes went to node.
func lastNodeIs(nodes []int32, node int32) bool {
	return len(nodes) > 0 && nodes[len(nodes)-1] == node
}
