package client

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// metaCache holds the latest metadata snapshot and runs refreshes, one at a
// time: callers that need a refresh while one is running wait for it.
type metaCache struct {
	cl   *Client
	snap atomic.Pointer[Metadata]

	mu       sync.Mutex
	wantAll  bool                // some caller asked for all topics: refreshes fetch all
	tracked  map[string]struct{} // topics callers asked for; refreshes include them
	gen      uint64              // bumped by InvalidateMetadata
	snapGen  uint64              // gen when the running/last fetch started
	inflight *metaFetch
	addrs    map[int32]string // node ID -> host:port, from Metadata and FindCoordinator
}

type metaFetch struct {
	done   chan struct{}
	all    bool
	topics []string
	md     *Metadata
	err    error
}

// Metadata returns metadata that includes the given topics (nil: all
// topics; empty: brokers and controller only), refreshing when the cache
// lacks one of them (or holds it with an error), is older than
// MetadataMaxAge or was invalidated. Concurrent refreshes are coalesced. The
// snapshot is immutable and shared: do not modify it. Topics that do not
// exist appear with Err wire.ErrUnknownTopicOrPartition; topics are never
// created automatically. A cluster ID other than ExpectedClusterID fails
// with ErrClusterIdentity.
func (c *Client) Metadata(ctx context.Context, topics []string) (*Metadata, error) {
	if c.closed.Load() {
		c.m.closedRejections.Add(1)
		return nil, reqErr(AnyBroker, "Metadata", NotSent, ErrClosed)
	}
	if md := c.meta.fresh(topics); md != nil {
		return md, nil // the common case: no context to derive
	}
	ctx, cancel := c.opContext(ctx)
	defer cancel()
	return c.meta.get(ctx, topics, false)
}

// CachedMetadata returns the latest snapshot without any I/O, or nil before
// the first successful refresh.
func (c *Client) CachedMetadata() *Metadata { return c.meta.snap.Load() }

// InvalidateMetadata marks the cached metadata stale so the next Metadata
// (or Leader) call refreshes it. Call it on NOT_LEADER_OR_FOLLOWER,
// UNKNOWN_TOPIC_OR_PARTITION, LEADER_NOT_AVAILABLE, FENCED_LEADER_EPOCH,
// UNKNOWN_TOPIC_ID and similar errors.
func (c *Client) InvalidateMetadata() {
	c.meta.mu.Lock()
	c.meta.gen++
	c.meta.mu.Unlock()
}

// Leader returns the leader node ID and leader epoch of a partition from
// metadata (refreshed when stale or lacking the topic). A partition without
// a leader returns leader -1 with wire.ErrLeaderNotAvailable; an unknown
// topic or partition wire.ErrUnknownTopicOrPartition; a topic-level error
// that error. Errors are *RequestError values with Certainty NotSent, and
// mark the cache stale so the next call refreshes it.
func (c *Client) Leader(ctx context.Context, topic string, partition int32) (leader int32, epoch int32, err error) {
	md, err := c.Metadata(ctx, []string{topic})
	if err != nil {
		return -1, -1, err
	}
	fail := func(err error) (int32, int32, error) {
		c.InvalidateMetadata() // the next lookup asks the cluster again
		return -1, -1, reqErr(AnyBroker, "Metadata", NotSent, fmt.Errorf("%s[%d]: %w", topic, partition, err))
	}
	t := md.Topics[topic]
	if t == nil {
		return fail(wire.ErrUnknownTopicOrPartition)
	}
	if t.Err != nil {
		return fail(t.Err)
	}
	i, found := slices.BinarySearchFunc(t.Partitions, partition, func(p PartitionMetadata, id int32) int { return cmp.Compare(p.Partition, id) })
	if !found {
		return fail(wire.ErrUnknownTopicOrPartition)
	}
	p := &t.Partitions[i]
	if p.Leader < 0 {
		lerr := p.Err
		if lerr == nil {
			lerr = wire.ErrLeaderNotAvailable
		}
		_, _, err := fail(lerr)
		return -1, p.LeaderEpoch, err
	}
	return p.Leader, p.LeaderEpoch, nil
}

// addrOf returns the host:port of a node.
func (mc *metaCache) addrOf(id int32) (string, bool) {
	mc.mu.Lock()
	defer mc.mu.Unlock()
	a, ok := mc.addrs[id]
	return a, ok
}

// setAddr records a node's address (from FindCoordinator).
func (mc *metaCache) setAddr(id int32, host string, port int32) {
	mc.mu.Lock()
	defer mc.mu.Unlock()
	if mc.addrs == nil {
		mc.addrs = make(map[int32]string)
	}
	mc.addrs[id] = net.JoinHostPort(host, strconv.Itoa(int(port)))
}

// covers reports whether a cached snapshot answers a request for topics.
func (mc *metaCache) coversLocked(md *Metadata, topics []string) bool {
	if topics == nil {
		return mc.wantAll && md.allTopics
	}
	for _, t := range topics {
		if tm := md.Topics[t]; tm == nil || tm.Err != nil {
			return false
		}
	}
	return true
}

// fresh returns the cached snapshot when get would return it without a
// refresh (current, not older than MetadataMaxAge, covering topics), else
// nil.
func (mc *metaCache) fresh(topics []string) *Metadata {
	mc.mu.Lock()
	defer mc.mu.Unlock()
	md := mc.snap.Load()
	if md != nil && mc.snapGen == mc.gen && time.Since(md.Fetched) < mc.cl.cfg.MetadataMaxAge && mc.coversLocked(md, topics) {
		return md
	}
	return nil
}

// get returns a snapshot that includes topics, refreshing as needed (always
// when force). ctx already carries the operation deadline.
func (mc *metaCache) get(ctx context.Context, topics []string, force bool) (*Metadata, error) {
	for {
		mc.mu.Lock()
		md := mc.snap.Load()
		if !force && md != nil && mc.snapGen == mc.gen && time.Since(md.Fetched) < mc.cl.cfg.MetadataMaxAge && mc.coversLocked(md, topics) {
			mc.mu.Unlock()
			return md, nil
		}
		if f := mc.inflight; f != nil {
			mc.mu.Unlock()
			select {
			case <-f.done:
			case <-ctx.Done():
				return nil, reqErr(AnyBroker, "Metadata", NotSent, ctxError(ctx.Err()))
			}
			if f.err == nil && f.includes(topics) {
				return f.md, nil
			}
			if f.err != nil && !errors.Is(f.err, ErrTimeout) && !errors.Is(f.err, ErrCancelled) {
				return nil, f.err
			}
			continue // it fetched other topics, or its caller gave up: fetch ours
		}
		if topics == nil {
			mc.wantAll = true
		}
		if mc.tracked == nil {
			mc.tracked = make(map[string]struct{})
		}
		for _, t := range topics {
			mc.tracked[t] = struct{}{}
		}
		f := &metaFetch{done: make(chan struct{}), all: mc.wantAll}
		if !f.all {
			f.topics = make([]string, 0, len(mc.tracked))
			for t := range mc.tracked {
				f.topics = append(f.topics, t)
			}
			slices.Sort(f.topics)
		}
		gen := mc.gen
		mc.inflight = f
		mc.mu.Unlock()

		f.md, f.err = mc.fetch(ctx, f)

		mc.mu.Lock()
		mc.inflight = nil
		old := mc.snap.Load()
		if f.err == nil {
			mc.snap.Store(f.md)
			mc.snapGen = gen
			// Brokers that left the cluster become unknown (requests to
			// them fail fast with ErrUnknownBroker instead of dialing).
			mc.addrs = make(map[int32]string, len(f.md.Brokers))
			for _, b := range f.md.Brokers {
				mc.addrs[b.NodeID] = net.JoinHostPort(b.Host, strconv.Itoa(int(b.Port)))
			}
		}
		mc.mu.Unlock()
		close(f.done)
		if f.err == nil {
			mc.cl.logMetadataChanges(old, f.md)
			mc.cl.tel.wake() // it may wait for a broker metadata names
		}
		return f.md, f.err
	}
}

// includes reports whether a finished fetch answered for topics (present,
// possibly with a per-topic error).
func (f *metaFetch) includes(topics []string) bool {
	if f.all {
		return true
	}
	if topics == nil {
		return false
	}
	for _, t := range topics {
		if _, ok := f.md.Topics[t]; !ok {
			return false
		}
	}
	return true
}

// fetch sends one MetadataRequest (retried within ctx by Request) and builds
// the snapshot.
func (mc *metaCache) fetch(ctx context.Context, f *metaFetch) (*Metadata, error) {
	req := &wire.MetadataRequest{}
	if !f.all {
		req.Topics = make([]wire.MetadataRequestTopic, len(f.topics))
		for i := range f.topics {
			req.Topics[i].Name = &f.topics[i]
		}
	}
	var resp *wire.MetadataResponse
	for try := 0; ; try++ {
		r, err := mc.cl.Request(ctx, AnyBroker, req)
		if err != nil {
			return nil, err
		}
		resp = r.(*wire.MetadataResponse)
		kerr := wire.ErrorForCode(resp.ErrorCode)
		if kerr == nil {
			break
		}
		if errors.Is(kerr, wire.ErrRebootstrapRequired) && try == 0 && mc.cl.cfg.MetadataRecoveryStrategy == RecoveryRebootstrap {
			mc.cl.requireRebootstrap() // KIP-1102: ask the bootstrap addresses instead
			continue
		}
		return nil, reqErr(AnyBroker, "Metadata", PossiblySent, kerr)
	}
	if err := mc.checkIdentity(resp.ClusterID); err != nil {
		mc.cl.m.fail[classNegotiation].Add(1) // the call succeeded; the identity check did not
		return nil, err
	}
	mc.cl.metadataFetched()
	return buildMetadata(resp, f.all), nil
}

// checkIdentity checks a Metadata response's cluster ID against
// ExpectedClusterID or, when that is unset, against the cluster ID of the
// cached snapshot, so that a rebootstrap never moves the client to another
// cluster.
func (mc *metaCache) checkIdentity(clusterID *string) error {
	got := "<none>"
	if clusterID != nil {
		got = *clusterID
	}
	want := mc.cl.cfg.ExpectedClusterID
	if want == "" {
		if prev := mc.snap.Load(); prev != nil && prev.ClusterID != nil {
			want = *prev.ClusterID
		}
	}
	if want == "" || got == want {
		return nil
	}
	return reqErr(AnyBroker, "Metadata", PossiblySent, fmt.Errorf("%w: expected cluster %q, brokers report %q", ErrClusterIdentity, want, got))
}

// buildMetadata converts a MetadataResponse into an immutable snapshot.
func buildMetadata(resp *wire.MetadataResponse, all bool) *Metadata {
	md := &Metadata{
		ClusterID:    resp.ClusterID,
		ControllerID: resp.ControllerID,
		Brokers:      make([]Broker, 0, len(resp.Brokers)),
		Topics:       make(map[string]*TopicMetadata, len(resp.Topics)),
		Fetched:      time.Now(),
		allTopics:    all,
	}
	for _, b := range resp.Brokers {
		md.Brokers = append(md.Brokers, Broker{NodeID: b.NodeID, Host: b.Host, Port: b.Port, Rack: b.Rack})
	}
	slices.SortFunc(md.Brokers, func(a, b Broker) int { return cmp.Compare(a.NodeID, b.NodeID) })
	for _, t := range resp.Topics {
		if t.Name == nil {
			continue // an unknown topic asked by ID
		}
		tm := &TopicMetadata{
			Name:       *t.Name,
			ID:         t.TopicID,
			Internal:   t.IsInternal,
			Err:        wire.ErrorForCode(t.ErrorCode),
			Partitions: make([]PartitionMetadata, 0, len(t.Partitions)),
		}
		for _, p := range t.Partitions {
			tm.Partitions = append(tm.Partitions, PartitionMetadata{
				Partition:       p.PartitionIndex,
				Leader:          p.LeaderID,
				LeaderEpoch:     p.LeaderEpoch,
				Replicas:        p.ReplicaNodes,
				ISR:             p.IsrNodes,
				OfflineReplicas: p.OfflineReplicas,
				Err:             wire.ErrorForCode(p.ErrorCode),
			})
		}
		slices.SortFunc(tm.Partitions, func(a, b PartitionMetadata) int { return cmp.Compare(a.Partition, b.Partition) })
		md.Topics[tm.Name] = tm
	}
	return md
}

// StaleMetadata reports whether err (a *wire.KafkaError, possibly wrapped)
// means cached metadata is out of date, so the caller should call
// InvalidateMetadata before retrying: NOT_LEADER_OR_FOLLOWER,
// UNKNOWN_TOPIC_OR_PARTITION, LEADER_NOT_AVAILABLE, FENCED_LEADER_EPOCH,
// UNKNOWN_LEADER_EPOCH, UNKNOWN_TOPIC_ID, INCONSISTENT_TOPIC_ID,
// KAFKA_STORAGE_ERROR, NOT_CONTROLLER.
func StaleMetadata(err error) bool { return wire.Classify(err).Has(wire.ClassStaleMetadata) }
