package consumer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer/assign"
	"github.com/gregor-kafka/gregor/wire"
)

// classicMember is the classic protocol's membership (JoinGroup, SyncGroup,
// Heartbeat, LeaveGroup). Its run goroutine alternates between a
// rebalance (join, then sync) and heartbeats. The member ID handshake of
// KIP-394 costs exactly one extra JoinGroup: MEMBER_ID_REQUIRED carries
// the ID, and the next JoinGroup, sent at once, uses it. Eager
// rebalancing revokes everything before joining; cooperative (KIP-429)
// keeps owned partitions, lists them in the subscription, revokes only
// what the new assignment takes away and then rejoins once more, so a
// partition is never owned by two members.
type classicMember struct {
	g   *Group
	key string // group ID: the coordinator key

	wake chan struct{} // capacity 1: a rejoin was requested

	mu         sync.Mutex
	memberID   string // guarded by mu
	generation int32  // generation of the last completed sync, -1 none; guarded by mu

	// Owned by the run goroutine.
	joinedTopics []string                // subscription of the last join
	partCounts   map[string]int          // leader: partition counts the assignment used
	lastCheck    time.Time               // last metadata check
	lastAssigned []gregor.TopicPartition // assignment of the last completed sync (sticky user data)
	syncedAt     time.Time               // when the last SyncGroup answered: the heartbeat interval counts from there
	joins        int                     // JoinGroup requests sent (tests)
	onJoin       func(n int)             // test hook, called after each JoinGroup response
	sleep        func(time.Duration, context.Context) error
}

func newClassicMember(g *Group) *classicMember {
	return &classicMember{g: g, key: g.cfg.GroupID, wake: make(chan struct{}, 1), generation: -1,
		sleep: func(d time.Duration, ctx context.Context) error { return waitBackoff(ctx, d) }}
}

func (m *classicMember) protocol() GroupProtocol { return ProtocolClassic }

func (m *classicMember) identity() (int32, string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.generation, m.memberID
}

func (m *classicMember) rejoin() {
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// errFatal marks membership errors that stop the group.
type errFatal struct{ err error }

func (e errFatal) Error() string { return e.err.Error() }
func (e errFatal) Unwrap() error { return e.err }

// fatalCode reports the JoinGroup/SyncGroup/Heartbeat errors after which
// the member cannot continue (Java raises them from poll). Exception to the
// classifier (wire.Classify): its own list, because the member rejoins
// after a backoff on every other failure, fatal class or not.
func fatalCode(err error) bool {
	for _, f := range []error{wire.ErrFencedInstanceID, wire.ErrGroupAuthorizationFailed, wire.ErrInvalidSessionTimeout,
		wire.ErrInconsistentGroupProtocol, wire.ErrGroupMaxSizeReached, wire.ErrUnsupportedVersion, wire.ErrInvalidGroupID} {
		if errors.Is(err, f) {
			return true
		}
	}
	return false
}

func (m *classicMember) run(ctx context.Context) {
	needJoin := true
	hb := time.NewTimer(time.Hour)
	defer hb.Stop()
	for ctx.Err() == nil {
		if needJoin {
			select { // a rejoin asked for before this one is served by it
			case <-m.wake:
			default:
			}
			err := m.rebalance(ctx)
			if ctx.Err() != nil {
				return
			}
			var fe errFatal
			if errors.As(err, &fe) {
				m.g.fail(fe.err)
				return
			}
			if err != nil {
				_ = m.sleep(retryBackoff, ctx)
				continue
			}
			needJoin = false
			// The first heartbeat of a generation is due an interval
			// after SyncGroup answered, not after the assignment was
			// installed (committed offsets fetched), as Java's
			// heartbeat timer: a member that waited out its own
			// OffsetFetch first learnt of the next rebalance that much
			// later (BenchmarkGroupTakeover, classic).
			hb.Reset(max(m.g.cfg.HeartbeatInterval-time.Since(m.syncedAt), 0))
		} else {
			hb.Reset(m.g.cfg.HeartbeatInterval)
		}
		select {
		case <-ctx.Done():
			return
		case <-m.wake:
			needJoin = true
			continue
		case <-hb.C:
		}
		var err error
		needJoin, err = m.heartbeat(ctx)
		if err != nil {
			var fe errFatal
			if errors.As(err, &fe) {
				m.g.fail(fe.err)
				return
			}
		}
		if !needJoin {
			needJoin = m.metadataChanged(ctx)
		}
	}
}

// coordinator returns the group coordinator's node ID.
func (m *classicMember) coordinator(ctx context.Context) (int32, error) {
	return m.g.cl.Coordinator(ctx, client.CoordinatorGroup, m.key)
}

func (m *classicMember) forgetCoordinator() {
	m.g.cl.InvalidateCoordinator(client.CoordinatorGroup, m.key)
}

// rebalance joins and syncs until the member has an assignment of a new
// generation, or returns an error to retry after a backoff (errFatal to
// stop).
func (m *classicMember) rebalance(ctx context.Context) error {
	if !m.g.cfg.cooperative() {
		// Eager: give up everything before joining (with a chance to
		// commit while the generation is still valid).
		stop := m.keepAlive(ctx)
		m.g.revoke(ctx, m.g.ownedList())
		_ = m.afterFence(ctx, stop()) // the join below starts afresh
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		again, err := m.joinSync(ctx)
		if err != nil || !again {
			return err
		}
	}
}

// joinSync makes one JoinGroup (and SyncGroup when the join succeeds).
// again reports that the rebalance must continue at once (the member ID
// handshake, or a cooperative follow-up rebalance).
func (m *classicMember) joinSync(ctx context.Context) (again bool, err error) {
	coord, err := m.coordinator(ctx)
	if err != nil {
		if fatalCode(err) { // FindCoordinator: GROUP_AUTHORIZATION_FAILED stops the group, as JoinGroup's does
			return false, errFatal{err}
		}
		return false, err
	}
	topics, err := m.g.subscription(ctx)
	if err != nil {
		return false, err
	}
	jresp, err := m.join(ctx, coord, topics)
	if err != nil {
		return false, err
	}
	if again, err := m.joinError(ctx, jresp); again || err != nil {
		return again, err
	}
	m.mu.Lock()
	m.memberID = jresp.MemberID
	m.mu.Unlock()
	protocol := ""
	if jresp.ProtocolName != nil {
		protocol = *jresp.ProtocolName
	}
	var assignments []wire.SyncGroupRequestAssignment
	if jresp.Leader == jresp.MemberID && !jresp.SkipAssignment {
		if assignments, err = m.leaderAssign(ctx, protocol, jresp.Members); err != nil {
			return false, err
		}
	}
	asg, err := m.sync(ctx, coord, jresp.GenerationID, protocol, assignments)
	if err != nil {
		return false, err
	}
	m.joinedTopics = topics
	m.lastAssigned = asg
	m.syncedAt = time.Now()
	m.mu.Lock()
	m.generation = jresp.GenerationID
	m.mu.Unlock()
	stop := m.keepAlive(ctx)
	revoked, err := m.g.reconcile(ctx, asg)
	if fence := m.afterFence(ctx, stop()); fence != nil {
		return false, fence // join again
	}
	if err != nil {
		return false, err
	}
	return revoked && m.g.cfg.cooperative(), nil
}

// join sends one JoinGroup with the member's subscription for every assignor.
func (m *classicMember) join(ctx context.Context, coord int32, topics []string) (*wire.JoinGroupResponse, error) {
	gen, member := m.identity()
	owned := m.g.ownedSnapshot() // without Group.mu: a JoinGroup late by an application call can miss the rebalance
	sub := wire.ConsumerProtocolSubscription{Version: wire.ConsumerProtocolVersion, Topics: topics, GenerationID: gen,
		OwnedPartitions: toProtocolTPs(owned)}
	if m.g.cfg.Rack != "" {
		sub.RackID = &m.g.cfg.Rack
	}
	req := &wire.JoinGroupRequest{GroupID: m.key, SessionTimeoutMs: ms(m.g.cfg.SessionTimeout),
		RebalanceTimeoutMs: ms(m.g.cfg.RebalanceTimeout), MemberID: member, GroupInstanceID: m.g.cfg.instanceID(),
		ProtocolType: wire.ConsumerProtocolType}
	for _, a := range m.g.cfg.Assignors {
		sub.UserData = m.userData(a.Name(), gen)
		req.Protocols = append(req.Protocols, wire.JoinGroupRequestProtocol{Name: a.Name(), Metadata: sub.AppendTo(nil)})
	}
	resp, err := m.g.cl.Request(ctx, coord, req)
	m.joins++
	if err != nil {
		m.forgetCoordinator()
		return nil, err
	}
	jr := resp.(*wire.JoinGroupResponse)
	if m.onJoin != nil {
		m.onJoin(m.joins)
	}
	return jr, nil
}

// userData is the subscription user data Java's assignor of that name
// sends: "sticky" its last assignment and generation (nothing before the
// first assignment), "cooperative-sticky" the generation; others none.
func (m *classicMember) userData(assignor string, gen int32) []byte {
	switch assignor {
	case "sticky":
		if gen < 0 {
			return nil
		}
		var tps []assign.TopicPartitions
		for _, p := range toProtocolTPs(m.lastAssigned) {
			tps = append(tps, assign.TopicPartitions{Topic: p.Topic, Partitions: p.Partitions})
		}
		return assign.StickyUserData(tps, gen)
	case "cooperative-sticky":
		return assign.CooperativeStickyUserData(gen)
	}
	return nil
}

// joinError handles a JoinGroup error code: again to rejoin at once, an
// error to back off (errFatal to stop), or neither for success.
func (m *classicMember) joinError(ctx context.Context, r *wire.JoinGroupResponse) (again bool, err error) {
	kerr := wire.ErrorForCode(r.ErrorCode)
	switch {
	case kerr == nil:
		return false, nil
	case errors.Is(kerr, wire.ErrMemberIDRequired):
		m.mu.Lock()
		m.memberID = r.MemberID
		m.mu.Unlock()
		return true, nil
	case errors.Is(kerr, wire.ErrUnknownMemberID), errors.Is(kerr, wire.ErrIllegalGeneration):
		m.fenced(ctx, errors.Is(kerr, wire.ErrUnknownMemberID))
		return true, nil
	case client.StaleCoordinator(kerr):
		m.forgetCoordinator()
		return false, kerr
	case fatalCode(kerr):
		return false, errFatal{fmt.Errorf("consumer: JoinGroup: %w", kerr)}
	}
	return false, kerr // REBALANCE_IN_PROGRESS, COORDINATOR_LOAD_IN_PROGRESS, ...: back off and retry
}

// fenced handles the coordinator no longer knowing the member's generation
// (or member ID): whatever the member owns may already be someone else's,
// so it is lost (no commit), and the member joins afresh.
func (m *classicMember) fenced(ctx context.Context, memberToo bool) {
	m.resetIdentity(memberToo)
	m.g.lose(ctx, m.g.ownedList())
}

// resetIdentity forgets the generation (and the member ID) after the
// coordinator stopped knowing them.
func (m *classicMember) resetIdentity(memberToo bool) {
	m.mu.Lock()
	m.generation = -1
	if memberToo {
		m.memberID = ""
	}
	m.mu.Unlock()
}

// sync sends SyncGroup and decodes this member's assignment.
func (m *classicMember) sync(ctx context.Context, coord int32, gen int32, protocol string, as []wire.SyncGroupRequestAssignment) ([]gregor.TopicPartition, error) {
	_, member := m.identity()
	pt := wire.ConsumerProtocolType
	req := &wire.SyncGroupRequest{GroupID: m.key, GenerationID: gen, MemberID: member, GroupInstanceID: m.g.cfg.instanceID(),
		ProtocolType: &pt, ProtocolName: &protocol, Assignments: as}
	resp, err := m.g.cl.Request(ctx, coord, req)
	if err != nil {
		m.forgetCoordinator()
		return nil, err
	}
	sr := resp.(*wire.SyncGroupResponse)
	kerr := wire.ErrorForCode(sr.ErrorCode)
	switch {
	case kerr == nil:
	case errors.Is(kerr, wire.ErrUnknownMemberID), errors.Is(kerr, wire.ErrIllegalGeneration):
		m.fenced(ctx, errors.Is(kerr, wire.ErrUnknownMemberID))
		return nil, kerr
	case client.StaleCoordinator(kerr):
		m.forgetCoordinator()
		return nil, kerr
	case fatalCode(kerr):
		return nil, errFatal{fmt.Errorf("consumer: SyncGroup: %w", kerr)}
	default:
		return nil, kerr // REBALANCE_IN_PROGRESS: join again
	}
	if len(sr.Assignment) == 0 {
		return nil, nil // a member the leader gave nothing
	}
	var a wire.ConsumerProtocolAssignment
	if err := a.DecodeFrom(wire.NewReader(sr.Assignment)); err != nil {
		return nil, fmt.Errorf("consumer: SyncGroup assignment: %w", err)
	}
	var out []gregor.TopicPartition
	for _, t := range a.AssignedPartitions {
		for _, p := range t.Partitions {
			out = append(out, gregor.TopicPartition{Topic: t.Topic, Partition: p})
		}
	}
	return out, nil
}

// heartbeat sends one Heartbeat. needJoin reports a rebalance to join;
// fenced members lose their partitions first.
func (m *classicMember) heartbeat(ctx context.Context) (needJoin bool, err error) {
	kerr, err := m.sendHeartbeat(ctx)
	if err != nil {
		return false, err
	}
	switch {
	case kerr == nil:
		return false, nil
	case errors.Is(kerr, wire.ErrRebalanceInProgress):
		return true, nil
	case errors.Is(kerr, wire.ErrUnknownMemberID), errors.Is(kerr, wire.ErrIllegalGeneration):
		m.fenced(ctx, errors.Is(kerr, wire.ErrUnknownMemberID))
		return true, nil
	case errors.Is(kerr, wire.ErrFencedInstanceID):
		return false, errFatal{fmt.Errorf("consumer: Heartbeat: %w", kerr)}
	case client.StaleCoordinator(kerr):
		m.forgetCoordinator()
		return false, kerr
	case fatalCode(kerr):
		return false, errFatal{fmt.Errorf("consumer: Heartbeat: %w", kerr)}
	}
	return false, kerr
}

// sendHeartbeat sends one Heartbeat for the member's generation to its
// coordinator and returns the answer's error code as kerr (nil: the
// coordinator knows the member). err is a failed coordinator lookup or
// request; after a failed request the coordinator is forgotten, as it may
// have moved or be unreachable: it is found again and heartbeating goes on,
// since the generation stays valid until the coordinator says otherwise.
func (m *classicMember) sendHeartbeat(ctx context.Context) (kerr, err error) {
	coord, err := m.coordinator(ctx)
	if err != nil {
		return nil, err
	}
	gen, member := m.identity()
	req := &wire.HeartbeatRequest{GroupID: m.key, GenerationID: gen, MemberID: member, GroupInstanceID: m.g.cfg.instanceID()}
	resp, err := m.g.cl.Request(ctx, coord, req)
	if err != nil {
		m.forgetCoordinator()
		return nil, err
	}
	return wire.ErrorForCode(resp.(*wire.HeartbeatResponse).ErrorCode), nil
}

// keepAlive heartbeats in the background (keepAliveLoop) while the run
// goroutine waits for an assignment callback or Close revokes and commits,
// so the coordinator does not expire the member meanwhile, as Java's
// heartbeat thread does. A moved or silent coordinator is looked up again;
// UNKNOWN_MEMBER_ID or ILLEGAL_GENERATION (the member was expired) is
// returned by stop; other answers (REBALANCE_IN_PROGRESS) are left to the
// run goroutine's next own heartbeat or join.
func (m *classicMember) keepAlive(ctx context.Context) (stop func() error) {
	if m.g.cfg.OnAssignment == nil && m.g.cfg.DisableAutoCommit {
		return noKeepAlive // nothing slow runs during the callback
	}
	interval := func() time.Duration { return m.g.cfg.HeartbeatInterval }
	return m.g.keepAliveLoop(ctx, interval, nil, m.beat)
}

// beat is one background Heartbeat of keepAlive.
func (m *classicMember) beat(ctx context.Context) (beatResult, error) {
	kerr, err := m.sendHeartbeat(ctx)
	if err != nil {
		return beatMoved, err
	}
	switch {
	case errors.Is(kerr, wire.ErrUnknownMemberID), errors.Is(kerr, wire.ErrIllegalGeneration):
		return beatFenced, kerr
	case client.StaleCoordinator(kerr):
		m.forgetCoordinator()
		return beatMoved, kerr
	}
	return beatOK, kerr
}

// afterFence loses what the member still owns when its keep-alive found it
// fenced (stop's error), as its own heartbeat would have.
func (m *classicMember) afterFence(ctx context.Context, fence error) error {
	if fence != nil {
		m.fenced(ctx, errors.Is(fence, wire.ErrUnknownMemberID))
	}
	return fence
}

// metadataCheckInterval bounds how often a member compares metadata with
// what its last rebalance used.
const metadataCheckInterval = time.Second

// metadataChanged reports whether the group must rebalance because the
// subscription (TopicRegex matches) or, on the leader, a subscribed
// topic's partition count changed or the topic is gone. Metadata is the
// client's cached snapshot: a change shows within MetadataMaxAge, or
// sooner when a fetch error refreshed it.
func (m *classicMember) metadataChanged(ctx context.Context) bool {
	if time.Since(m.lastCheck) < metadataCheckInterval {
		return false
	}
	m.lastCheck = time.Now()
	topics, err := m.g.subscription(ctx)
	if err != nil {
		return false
	}
	if !slices.Equal(topics, m.joinedTopics) {
		return true
	}
	if m.partCounts == nil {
		return false
	}
	md, err := m.g.cl.Metadata(ctx, keys(m.partCounts))
	if err != nil {
		return false
	}
	for t, n := range m.partCounts {
		tm, ok := md.Topics[t]
		if ok && tm.Err == nil && len(tm.Partitions) != n {
			return true
		}
		if n > 0 && (!ok || errors.Is(tm.Err, wire.ErrUnknownTopicOrPartition)) {
			return true // deleted: its partitions leave the assignment
		}
	}
	return false
}

// leave sends LeaveGroup for a dynamic member that joined (KIP-345: a
// static member stays until its session times out, so a restart keeps its
// assignment).
func (m *classicMember) leave(ctx context.Context) error {
	_, member := m.identity()
	if m.g.cfg.InstanceID != "" || member == "" {
		return nil
	}
	coord, err := m.coordinator(ctx)
	if err != nil {
		return err
	}
	reason := "the consumer is being closed"
	resp, err := m.g.cl.Request(ctx, coord, &wire.LeaveGroupRequest{GroupID: m.key, MemberID: member,
		Members: []wire.LeaveGroupMember{{MemberID: member, Reason: &reason}}})
	if err != nil {
		return err
	}
	lr := resp.(*wire.LeaveGroupResponse)
	if err := wire.ErrorForCode(lr.ErrorCode); err != nil {
		return fmt.Errorf("consumer: LeaveGroup: %w", err)
	}
	for _, r := range lr.Members {
		if err := wire.ErrorForCode(r.ErrorCode); err != nil && !errors.Is(err, wire.ErrUnknownMemberID) {
			return fmt.Errorf("consumer: LeaveGroup: %w", err)
		}
	}
	return nil
}

func ms(d time.Duration) int32 { return int32(min(d.Milliseconds(), 1<<31-1)) }

func toProtocolTPs(tps []gregor.TopicPartition) []wire.ConsumerProtocolTopicPartitions {
	var out []wire.ConsumerProtocolTopicPartitions
	for _, tp := range tps { // sorted: one entry per topic
		if n := len(out); n > 0 && out[n-1].Topic == tp.Topic {
			out[n-1].Partitions = append(out[n-1].Partitions, tp.Partition)
			continue
		}
		out = append(out, wire.ConsumerProtocolTopicPartitions{Topic: tp.Topic, Partitions: []int32{tp.Partition}})
	}
	return out
}
