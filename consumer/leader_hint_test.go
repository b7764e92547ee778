package consumer

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// leaderCheckFake is the fake broker with leadership enforced: a Fetch
// listing a partition its node does not lead gets NOT_LEADER_OR_FOLLOWER
// for it, naming the leader and epoch when hints is set (KIP-951).
type leaderCheckFake struct {
	*fakeBroker
	hints       bool
	epochsAsked []int32 // nodes asked OffsetForLeaderEpoch, in order
}

func (f *leaderCheckFake) fetch(ctx context.Context, req *fetchReq) (*fetchResp, error) {
	f.mu.Lock()
	var moved []fetchRespPart
	for tp := range req.want {
		if leader := f.leaders[tp]; leader != req.node {
			p := fetchRespPart{TopicPartition: tp, Err: wire.ErrNotLeaderOrFollower}
			if f.hints {
				p.Leader = &leaderHint{leader, f.epochs[tp]}
			}
			moved = append(moved, p)
		}
	}
	if len(moved) > 0 {
		f.fetches = append(f.fetches, snapshotReq(req))
		f.mu.Unlock()
		return &fetchResp{SessionID: req.plan.SessionID, Parts: moved}, nil
	}
	f.mu.Unlock()
	resp, err := f.fakeBroker.fetch(ctx, req)
	if resp != nil && f.hints {
		// A Fetch parked before the move ends fenced; a broker names the
		// leader then too.
		f.mu.Lock()
		for i := range resp.Parts {
			if p := &resp.Parts[i]; errors.Is(p.Err, wire.ErrFencedLeaderEpoch) {
				p.Leader = &leaderHint{f.leaders[p.TopicPartition], f.epochs[p.TopicPartition]}
			}
		}
		f.mu.Unlock()
	}
	return resp, err
}

func (f *leaderCheckFake) offsetsForLeaderEpoch(ctx context.Context, node int32, reqs []epochReq) (map[gregor.TopicPartition]epochResp, error) {
	f.mu.Lock()
	f.epochsAsked = append(f.epochsAsked, node)
	f.mu.Unlock()
	return f.fakeBroker.offsetsForLeaderEpoch(ctx, node, reqs)
}

// readThenMove reads tp0's first 3 records from broker 1 (epoch 5), then
// moves the leadership to broker leader (moveLeader). It returns the
// consumer and its metadata refreshes before the move.
func readThenMove(t *testing.T, f *leaderCheckFake, leader int32) (*Consumer, uint64) {
	t.Helper()
	f.append(tp0, dataBatch(0, 3))
	f.epochs[tp0] = 5
	c := newTestConsumer(t, f, Config{})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 3), tp0, 0, 3)
	before := c.Metrics().MetadataRefreshes
	moveLeader(f, leader)
	return c, before
}

// moveLeader makes broker leader lead tp0 at epoch 6 while metadata still
// names broker 1 at epoch 5, and appends two records there.
func moveLeader(f *leaderCheckFake, leader int32) {
	f.mu.Lock()
	f.leaders[tp0], f.epochs[tp0] = leader, 6
	f.stale = map[gregor.TopicPartition][2]int32{tp0: {1, 5}}
	f.mu.Unlock()
	f.append(tp0, dataBatch(3, 2))
}

// TestLeaderHintFromFetch: when the old leader answers NOT_LEADER_OR_FOLLOWER
// naming the new leader (KIP-951), the consumer validates its position with
// and fetches from the new leader at once, although metadata still names the
// old one, and refreshes no metadata.
func TestLeaderHintFromFetch(t *testing.T) {
	f := &leaderCheckFake{fakeBroker: newFakeBroker(t), hints: true}
	c, before := readThenMove(t, f, 2)
	wantOffsets(t, receiveN(t, c, 2), tp0, 3, 5)

	m := c.Metrics()
	if m.LeaderHints != 1 || m.MetadataRefreshes != before {
		t.Fatalf("leader hints %d, metadata refreshes %d -> %d: want 1 hint and no refresh", m.LeaderHints, before, m.MetadataRefreshes)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !slices.Equal(f.epochsAsked, []int32{2}) {
		t.Fatalf("OffsetForLeaderEpoch asked of nodes %v, want [2] (the new leader)", f.epochsAsked)
	}
	last := f.fetches[len(f.fetches)-1]
	if last.node != 2 || last.want[tp0].CurrentLeaderEpoch != 6 {
		t.Fatalf("last fetch to node %d with leader epoch %d, want node 2 epoch 6", last.node, last.want[tp0].CurrentLeaderEpoch)
	}
}

// TestNoLeaderHintWaitsForMetadata is the control: without CurrentLeader
// the consumer can only refresh metadata, and reaches the new leader once
// metadata names it.
func TestNoLeaderHintWaitsForMetadata(t *testing.T) {
	f := &leaderCheckFake{fakeBroker: newFakeBroker(t)}
	c, before := readThenMove(t, f, 2)
	waitFor(t, "metadata refreshes after NOT_LEADER_OR_FOLLOWER", func() bool { return c.Metrics().MetadataRefreshes >= before+2 })
	if c.Metrics().RecordsDelivered != 3 {
		t.Fatal("records delivered while metadata named the old leader")
	}
	f.mu.Lock()
	f.stale = nil
	f.mu.Unlock()
	wantOffsets(t, receiveN(t, c, 2), tp0, 3, 5)
	if m := c.Metrics(); m.LeaderHints != 0 {
		t.Fatalf("leader hints %d, want 0", m.LeaderHints)
	}
}

// TestLeaderHintToUnknownBroker: a hint naming a broker metadata does not
// list (one the client cannot reach yet) is not followed; the partition
// waits for a metadata refresh with the usual backoff instead of asking the
// old leader again at once (which answered with the same hint in a tight
// loop before).
func TestLeaderHintToUnknownBroker(t *testing.T) {
	f := &leaderCheckFake{fakeBroker: newFakeBroker(t), hints: true}
	// Straight to broker 4 (not among the fake metadata's brokers 1-3):
	// moving through broker 2 first let the consumer follow that hint and
	// buffer the records from broker 2 before the second move.
	c, before := readThenMove(t, f, 4)
	f.mu.Lock()
	fetchesBefore := len(f.fetches)
	f.mu.Unlock()
	waitFor(t, "metadata refreshes after the hint to broker 4", func() bool { return c.Metrics().MetadataRefreshes >= before+3 })
	f.mu.Lock()
	fetches := len(f.fetches) - fetchesBefore
	f.mu.Unlock()
	// Three refreshes take at least two 100ms backoffs; a Fetch per backoff
	// (and one before the first) is what waiting looks like.
	if fetches > 6 {
		t.Fatalf("%d Fetches to the old leader during 3 metadata refreshes: the hint to an unknown broker is looping", fetches)
	}
	if got := c.Metrics().RecordsDelivered; got != 3 {
		t.Fatalf("%d records delivered, want 3 (the leader is unreachable)", got)
	}
}
