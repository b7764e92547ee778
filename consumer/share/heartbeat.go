package share

import (
	"context"
	"errors"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// heartbeatBackoff is the wait before retrying a failed heartbeat.
const heartbeatBackoff = 200 * time.Millisecond

// heartbeatLoop keeps the membership until ctx ends: it joins at epoch 0,
// heartbeats at the coordinator's interval and applies assignments.
func (c *Consumer) heartbeatLoop(ctx context.Context) {
	defer close(c.hbDone)
	epoch := int32(0)
	interval := DefaultHeartbeatInterval
	full := true // send the subscription (joining, or after an error)
	for ctx.Err() == nil {
		resp, err := c.heartbeat(ctx, epoch, full)
		wait := interval
		switch {
		case err != nil && ctx.Err() != nil:
			return
		case errors.Is(err, client.ErrUnsupportedVersion):
			// Nothing was sent: the coordinator has no ShareGroupHeartbeat
			// gregor speaks, and no retry can give it one.
			c.fail(unsupported("", err))
			return
		case err != nil:
			full, wait = true, heartbeatBackoff
		default:
			switch kerr := wire.ErrorForCode(resp.ErrorCode); {
			case kerr == nil:
				epoch, full = resp.MemberEpoch, false
				if resp.HeartbeatIntervalMs > 0 {
					interval = time.Duration(resp.HeartbeatIntervalMs) * time.Millisecond
					wait = interval
				}
				c.applyHeartbeat(ctx, resp)
				if epoch > 0 {
					c.markJoined()
				}
			case client.StaleCoordinator(kerr):
				c.t.invalidateCoordinator(c.cfg.GroupID)
				full, wait = true, heartbeatBackoff
			case errors.Is(kerr, wire.ErrUnknownMemberID) || errors.Is(kerr, wire.ErrFencedMemberEpoch):
				epoch, full, wait, c.unresolved = 0, true, 0, nil
				c.setAssignment(nil, 0)
			case errors.Is(kerr, wire.ErrCoordinatorLoadInProgress):
				full, wait = true, heartbeatBackoff
			case errors.Is(kerr, wire.ErrUnsupportedVersion):
				c.fail(unsupported("the group coordinator answered UNSUPPORTED_VERSION", kerr))
				return
			default:
				c.fail(kerr)
				return
			}
		}
		if wait > 0 {
			tm := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				tm.Stop()
				return
			case <-tm.C:
			}
		}
	}
}

// fail ends the membership with err, which AwaitJoined and later calls
// return.
func (c *Consumer) fail(err error) {
	c.mu.Lock()
	c.fatal = err
	c.mu.Unlock()
	c.setAssignment(nil, 0)
	c.markJoined()
}

// heartbeat sends one ShareGroupHeartbeat at epoch.
func (c *Consumer) heartbeat(ctx context.Context, epoch int32, full bool) (*wire.ShareGroupHeartbeatResponse, error) {
	coord, err := c.t.coordinator(ctx, c.cfg.GroupID)
	if err != nil {
		return nil, err
	}
	req := &wire.ShareGroupHeartbeatRequest{GroupID: c.cfg.GroupID, MemberID: c.memberID, MemberEpoch: epoch}
	if full || epoch == 0 {
		req.SubscribedTopicNames = c.cfg.Topics
		if c.cfg.RackID != "" {
			rack := c.cfg.RackID
			req.RackID = &rack
		}
	}
	resp, err := c.t.request(ctx, coord, req)
	if err != nil {
		return nil, err
	}
	return resp.(*wire.ShareGroupHeartbeatResponse), nil
}

// applyHeartbeat records the epoch and, when the response carries one, the
// new assignment (topic IDs resolved to names through metadata).
// An assignment naming a topic ID that metadata cannot resolve yet is kept
// (unresolved, heartbeat goroutine only) and resolved again at every later
// heartbeat, since the coordinator sends an assignment only when it changes.
func (c *Consumer) applyHeartbeat(ctx context.Context, resp *wire.ShareGroupHeartbeatResponse) {
	a := resp.Assignment
	if a == nil {
		a = c.unresolved
	}
	if a == nil {
		c.mu.Lock()
		c.memberEpoch = resp.MemberEpoch
		c.mu.Unlock()
		return
	}
	names := c.topicNames(ctx, a.TopicPartitions)
	assigned := map[gregor.TopicPartition]struct{}{}
	c.unresolved = nil
	for _, tps := range a.TopicPartitions {
		name, ok := names[tps.TopicID]
		if !ok {
			c.unresolved = a
			continue
		}
		for _, p := range tps.Partitions {
			assigned[gregor.TopicPartition{Topic: name, Partition: p}] = struct{}{}
		}
	}
	c.setAssignment(assigned, resp.MemberEpoch)
}

// topicNames maps the assigned topic IDs to subscribed topic names,
// refreshing metadata once when one is unknown.
func (c *Consumer) topicNames(ctx context.Context, tps []wire.ShareGroupTopicPartitions) map[wire.UUID]string {
	for attempt := 0; attempt < 2; attempt++ {
		c.mu.Lock()
		names := make(map[wire.UUID]string, len(c.topicIDs))
		for n, id := range c.topicIDs {
			names[id] = n
		}
		c.mu.Unlock()
		missing := false
		for _, tp := range tps {
			if _, ok := names[tp.TopicID]; !ok {
				missing = true
			}
		}
		if !missing || attempt == 1 {
			return names
		}
		if attempt == 0 && len(names) > 0 {
			c.t.invalidateMetadata()
		}
		md, err := c.t.metadata(ctx, c.cfg.Topics)
		if err != nil {
			return names
		}
		ids := map[string]wire.UUID{}
		for n, m := range md {
			if m.err == nil {
				ids[n] = m.id
			}
		}
		c.mu.Lock()
		c.topicIDs = ids
		c.mu.Unlock()
	}
	return nil
}

// setAssignment replaces the assignment and wakes a waiting Receive.
func (c *Consumer) setAssignment(assigned map[gregor.TopicPartition]struct{}, epoch int32) {
	if assigned == nil {
		assigned = map[gregor.TopicPartition]struct{}{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.hooks.Assignments() {
		c.hookAssignmentLocked(assigned, epoch)
	}
	c.memberEpoch = epoch
	c.assigned = assigned
	close(c.assignChanged)
	c.assignChanged = make(chan struct{})
}

// leave sends the heartbeat with epoch -1 that leaves the group (also when
// no join was answered: the coordinator may have seen one).
func (c *Consumer) leave(ctx context.Context) error {
	resp, err := c.heartbeat(ctx, -1, false)
	if errors.Is(err, client.ErrUnsupportedVersion) {
		return nil // a cluster without share groups: the member never joined
	}
	if err != nil {
		return err
	}
	// UNKNOWN_MEMBER_ID and GROUP_ID_NOT_FOUND (a member closed before its
	// first heartbeat created the group), UNSUPPORTED_VERSION (no share
	// groups): there is nothing to leave.
	if kerr := wire.ErrorForCode(resp.ErrorCode); kerr != nil && !errors.Is(kerr, wire.ErrUnknownMemberID) && !errors.Is(kerr, wire.ErrGroupIDNotFound) && !errors.Is(kerr, wire.ErrUnsupportedVersion) {
		return kerr
	}
	return nil
}
