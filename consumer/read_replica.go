package consumer

import (
	"cmp"
	"errors"
	"slices"
	"sync/atomic"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// Follower fetching (KIP-392), with the Java client's rules
// (AbstractFetch.selectReadReplica, FetchCollector.updatePartitionState and
// handleInitializeErrors, AbstractFetch.handleFetchFailure,
// SubscriptionState's preferred read replica): a leader that has a
// replica selector (replica.selector.class) answers a Fetch listing
// Config.Rack with an empty partition naming the preferred read replica;
// the partition is fetched from that broker until the choice expires (the
// client's MetadataMaxAge after it was made) or one of the rules below
// clears it, and then from the leader again, which may name a replica
// again. Followers never name one.

// readReplica is one partition's preferred read replica (partState.replica,
// guarded by Consumer.mu). The zero value is none.
type readReplica struct {
	node    int32
	set     bool
	expires time.Time
}

// get returns the preferred read replica, clearing it when it expired
// (SubscriptionState.preferredReadReplica: after expires, not at it).
func (r *readReplica) get(now time.Time) (int32, bool) {
	if r.set && now.After(r.expires) {
		*r = readReplica{}
	}
	return r.node, r.set
}

// update makes node the preferred read replica, expiring ttl from now;
// naming the same replica again keeps its expiry (the lease is not
// renewed: once it expires the leader chooses afresh). It reports whether
// the replica changed.
func (r *readReplica) update(node int32, now time.Time, ttl time.Duration) bool {
	if r.set && r.node == node {
		return false
	}
	*r = readReplica{node: node, set: true, expires: now.Add(ttl)}
	return true
}

// clear drops the preferred read replica and reports whether there was
// one: the partition is fetched from its leader again.
func (r *readReplica) clear() bool {
	was := r.set
	*r = readReplica{}
	return was
}

// preferredReplica is a FetchResponse partition's preferred_read_replica
// (v11+); the zero value is none (-1 on the wire).
type preferredReplica struct {
	node int32
	set  bool
}

// preferredOf maps the wire field (-1: none).
func preferredOf(id int32) preferredReplica {
	if id < 0 {
		return preferredReplica{}
	}
	return preferredReplica{node: id, set: true}
}

// readReplicas is the consumer's follower-fetching state besides the
// partitions' own.
type readReplicas struct {
	// ttl is how long a preferred read replica is used: the client's
	// MetadataMaxAge (metadata.max.age.ms, as the Java client). Set by New.
	ttl time.Duration
	// seen: some partition was given a preferred read replica, so the
	// planner has replicas to route to (a consumer never told of one pays
	// nothing). Set under mu, read without.
	seen atomic.Bool
	// moves and targets are routeReadReplicas' scratch (mu).
	moves   []candidate
	targets []int32
}

// metadataMaxAge is the cluster's MetadataMaxAge, or the default for a
// test cluster without one.
func metadataMaxAge(cl cluster) time.Duration {
	if mc, ok := cl.(interface{ MetadataMaxAge() time.Duration }); ok {
		return mc.MetadataMaxAge()
	}
	return client.DefaultMetadataMaxAge
}

// routeReadReplicas moves each candidate the planner grouped under its
// leader to its preferred read replica when it has one, unexpired, that
// metadata lists as a live broker holding an online replica of the
// partition (Cluster.nodeIfOnline); a replica that is not is cleared and
// metadata refreshed, and the candidate stays with its leader for this
// Fetch (AbstractFetch.selectReadReplica). byLeader's lists are reused.
func (c *Consumer) routeReadReplicas(byLeader map[int32][]candidate, md *client.Metadata, now time.Time) {
	if !c.rr.seen.Load() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	moves, targets := c.rr.moves[:0], c.rr.targets[:0]
	stale := false
	for leader, l := range byLeader {
		keep := l[:0]
		for _, cd := range l {
			st := c.parts[cd.tp]
			if st == nil || st.gen != cd.gen {
				keep = append(keep, cd) // planFetch drops it
				continue
			}
			node, ok := st.replica.get(now)
			switch {
			case !ok || node == leader:
				keep = append(keep, cd)
			case !replicaOnline(md, cd.tp, node):
				st.replica.clear()
				c.m.ReadReplicaFallbacks++
				stale = true
				keep = append(keep, cd)
			default:
				moves, targets = append(moves, cd), append(targets, node)
			}
		}
		byLeader[leader] = keep
	}
	for i, cd := range moves {
		byLeader[targets[i]] = append(byLeader[targets[i]], cd)
	}
	clear(moves) // no hints kept alive
	c.rr.moves, c.rr.targets = moves[:0], targets[:0]
	if stale {
		c.m.MetadataRefreshes++
		c.cl.InvalidateMetadata()
	}
}

// replicaOnline reports whether metadata lists node as a live broker and
// as a replica of tp that is not offline.
func replicaOnline(md *client.Metadata, tp gregor.TopicPartition, node int32) bool {
	if _, ok := slices.BinarySearchFunc(md.Brokers, node, func(b client.Broker, id int32) int { return cmp.Compare(b.NodeID, id) }); !ok {
		return false
	}
	tm := md.Topics[tp.Topic]
	if tm == nil {
		return false
	}
	pm := findPartition(tm, tp.Partition)
	return pm != nil && slices.Contains(pm.Replicas, node) && !slices.Contains(pm.OfflineReplicas, node)
}

// readReplicaAnswerLocked applies the follower-fetching rules to one
// partition's answer in a Fetch response that is not stale: a preferred
// read replica named with no error becomes the partition's; an error that
// means the broker read from is the wrong one clears it
// (FetchUtils.requestMetadataUpdate; the caller refreshes metadata as for
// any of them). It reports whether the answer is handled: OFFSET_OUT_OF_RANGE
// from a preferred read replica (a follower behind the position, or
// truncated past it) only clears it, so that the leader, not the follower,
// decides whether the position is out of range.
func (c *Consumer) readReplicaAnswerLocked(st *partState, p *fetchRespPart, now time.Time) bool {
	switch {
	case p.Err == nil:
		if p.Preferred.set && st.replica.update(p.Preferred.node, now, c.rr.ttl) {
			c.rr.seen.Store(true)
			c.m.ReadReplicaChanges++
			c.logger().Debug("gregor: preferred read replica", "topic", p.Topic, "partition", p.Partition, "replica", p.Preferred.node)
		}
	case errors.Is(p.Err, wire.ErrOffsetOutOfRange):
		if st.replica.clear() {
			c.m.ReadReplicaFallbacks++
			return true
		}
	case clearsReadReplica(p.Err):
		if st.replica.clear() {
			c.m.ReadReplicaFallbacks++
		}
	}
	return false
}

// clearsReadReplica lists the partition errors after which the Java client
// fetches from the leader again (FetchCollector.handleInitializeErrors:
// those it answers with requestMetadataUpdate).
func clearsReadReplica(err error) bool {
	for _, e := range [...]error{wire.ErrReplicaNotAvailable, wire.ErrNotLeaderOrFollower, wire.ErrFencedLeaderEpoch,
		wire.ErrKafkaStorageError, wire.ErrOffsetNotAvailable, wire.ErrUnknownTopicOrPartition,
		wire.ErrUnknownTopicID, wire.ErrInconsistentTopicID} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// fetchFailedLocked clears the preferred read replica of every partition
// read from node after a Fetch to node failed in transport (a follower
// stopped or unreachable): they are fetched from their leaders next
// (AbstractFetch.handleFetchFailure clears the node's session partitions).
func (c *Consumer) fetchFailedLocked(node int32, err error) {
	if err == nil || !c.rr.seen.Load() {
		return
	}
	for _, st := range c.parts {
		if st.replica.set && st.replica.node == node {
			st.replica.clear()
			c.m.ReadReplicaFallbacks++
		}
	}
}
