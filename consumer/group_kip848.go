package consumer

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"sync"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// Member epochs with a meaning of their own in ConsumerGroupHeartbeat
// (KIP-848).
const (
	epochJoin        = 0  // a member joining (or rejoining after being fenced)
	epochLeave       = -1 // a dynamic member leaving
	epochLeaveStatic = -2 // a static member leaving temporarily (keeps its assignment for SessionTimeout)
)

// kip848Member is the KIP-848 consumer protocol's membership: one
// ConsumerGroupHeartbeat loop. The coordinator computes the assignment
// (server-side assignor); the member reconciles towards the target it was
// given (revoking first, then fetching committed offsets and adding) and
// acknowledges by listing what it owns in the next heartbeat, sent at once.
// Every heartbeat is a full one (subscription, rack, assignor, owned
// partitions), which the coordinator accepts at any epoch and which leaves
// no state to lose on a coordinator change. The member ID is generated here
// (KIP-1082, required from ConsumerGroupHeartbeat v1) and kept across
// fencing; only the epoch goes back to 0.
type kip848Member struct {
	g   *Group
	key string // group ID: the coordinator key

	wake chan struct{} // capacity 1: heartbeat now

	mu       sync.Mutex
	memberID string               // guarded by mu
	epoch    int32                // current member epoch, 0 before joining; guarded by mu
	interval time.Duration        // heartbeat interval the coordinator gave; guarded by mu
	idNames  map[wire.UUID]string // topic IDs resolved to names; guarded by mu

	// Owned by the run goroutine.
	target     map[wire.UUID][]int32 // last assignment received, by topic ID; nil before the first
	reconciled bool                  // owned equals target (resolved), acknowledged or to be acknowledged
	supported  bool                  // the cluster's KIP-848 support already decided (autoMember); run-goroutine only
	sleep      func(time.Duration, context.Context) error
}

func newKIP848Member(g *Group) *kip848Member {
	return &kip848Member{g: g, key: g.cfg.GroupID, wake: make(chan struct{}, 1), memberID: newMemberID(),
		interval: g.cfg.HeartbeatInterval, idNames: map[wire.UUID]string{},
		sleep: func(d time.Duration, ctx context.Context) error { return waitBackoff(ctx, d) }}
}

// newMemberID returns a random member ID as Java's Uuid.randomUuid
// prints one (22 characters of URL-safe base64).
func newMemberID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

func (m *kip848Member) protocol() GroupProtocol { return ProtocolConsumer }

func (m *kip848Member) identity() (int32, string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.epoch <= 0 {
		return -1, m.memberID
	}
	return m.epoch, m.memberID
}

// rejoin asks for a heartbeat at once (a commit or fetch saw a stale
// epoch; the heartbeat brings the current one).
func (m *kip848Member) rejoin() {
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

func (m *kip848Member) run(ctx context.Context) {
	if !m.supported && !m.checkSupport(ctx) {
		return
	}
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	for ctx.Err() == nil {
		select {
		case <-m.wake:
		default:
		}
		wait, err := m.step(ctx)
		if ctx.Err() != nil {
			return
		}
		var fe errFatal
		if errors.As(err, &fe) {
			m.g.fail(fe.err)
			return
		}
		if wait == 0 {
			continue
		}
		t.Reset(wait)
		select {
		case <-ctx.Done():
			return
		case <-m.wake:
			if !t.Stop() {
				<-t.C
			}
		case <-t.C:
		}
	}
}

// checkSupport decides from the coordinator's ApiVersions, before the
// first ConsumerGroupHeartbeat, whether the cluster runs KIP-848 groups
// (ConsumerGroupHeartbeat advertised and group.version finalized at 1 or
// more); when it does not, the group fails with gregor.ErrUnsupportedFeature
// and nothing is sent. Kafka 3.7 to 3.9 advertise ConsumerGroupHeartbeat
// without group.version and answer it UNSUPPORTED_VERSION.
func (m *kip848Member) checkSupport(ctx context.Context) bool {
	s, ok := m.g.awaitGroupSupport(ctx)
	if !ok {
		return false
	}
	if !s.consumerProtocol() {
		m.g.fail(kip848Unsupported(s.String(), nil))
		return false
	}
	m.supported = true
	return true
}

// step sends one heartbeat and acts on its answer; it returns how long to
// wait before the next one (0: at once, to acknowledge a reconciliation).
func (m *kip848Member) step(ctx context.Context) (time.Duration, error) {
	resp, err := m.heartbeat(ctx, 0)
	if wire.Fatal(err) {
		// FindCoordinator refused for good (GROUP_AUTHORIZATION_FAILED,
		// INVALID_GROUP_ID): stop the group, as the classic member does.
		return 0, errFatal{err}
	}
	if errors.Is(err, client.ErrUnsupportedVersion) {
		// The coordinator does not advertise a ConsumerGroupHeartbeat
		// version gregor speaks: nothing was sent and no retry can help.
		return 0, errFatal{kip848Unsupported("", err)}
	}
	if err != nil {
		m.forgetCoordinator()
		return retryBackoff, nil
	}
	if err := m.heartbeatError(ctx, resp); err != nil {
		return retryBackoff, err
	}
	if resp.ErrorCode != 0 {
		return retryBackoff, nil // handled (fenced, coordinator moved, retriable)
	}
	m.mu.Lock()
	if resp.MemberID != nil && *resp.MemberID != "" {
		m.memberID = *resp.MemberID
	}
	m.epoch = resp.MemberEpoch
	if resp.HeartbeatIntervalMs > 0 {
		m.interval = time.Duration(resp.HeartbeatIntervalMs) * time.Millisecond
	}
	interval := m.interval
	m.mu.Unlock()
	if resp.Assignment != nil {
		// The coordinator repeats the assignment in the answer to every
		// full heartbeat: only a different one starts a reconciliation.
		next := map[wire.UUID][]int32{}
		for _, tp := range resp.Assignment.TopicPartitions {
			next[tp.TopicID] = append(next[tp.TopicID], tp.Partitions...)
		}
		if m.target == nil || !sameAssignment(next, m.target) {
			m.target, m.reconciled = next, false
		}
	}
	if m.target == nil || m.reconciled {
		return interval, nil
	}
	done, err := m.reconcile(ctx)
	if err != nil {
		// Typically STALE_MEMBER_EPOCH on the offset fetch: the next
		// heartbeat brings the current epoch, then reconcile again. The
		// partitions stay unowned: nothing falls back to OffsetReset.
		return min(interval, retryBackoff), nil
	}
	if !done {
		return min(interval, retryBackoff), nil // a topic ID not yet in metadata
	}
	m.reconciled = true
	return 0, nil // acknowledge at once
}

// sameAssignment reports whether a and b name the same partitions.
func sameAssignment(a, b map[wire.UUID][]int32) bool {
	count := func(m map[wire.UUID][]int32) map[gregor.TopicPartition]bool {
		out := map[gregor.TopicPartition]bool{}
		for id, ps := range m {
			for _, p := range ps {
				out[gregor.TopicPartition{Topic: string(id[:]), Partition: p}] = true
			}
		}
		return out
	}
	return maps.Equal(count(a), count(b))
}

// reconcile moves the owned partitions to the target: revoked first
// (callback, commit), then the added ones (committed offsets, Assigned).
// done is false while some target topic ID is not in metadata yet.
func (m *kip848Member) reconcile(ctx context.Context) (done bool, err error) {
	done = true
	if m.unresolved() {
		if err := m.resolveIDs(ctx); err != nil {
			return false, err
		}
	}
	var next []gregor.TopicPartition
	for id, ps := range m.target {
		name, ok := m.nameOf(id)
		if !ok {
			done = false // kept until metadata knows the topic
			continue
		}
		for _, p := range ps {
			next = append(next, gregor.TopicPartition{Topic: name, Partition: p})
		}
	}
	// With a topic not yet resolved, what is resolved is reconciled now
	// (a member never owns a partition of a topic it cannot name) and the
	// rest later.
	stop := m.keepAlive(ctx)
	_, err = m.g.reconcile(ctx, next)
	if fence := stop(); fence != nil {
		// Expired while the callbacks ran: what it still owns is lost,
		// and the next heartbeat joins again.
		m.fenced(ctx)
		return false, fence
	}
	return done && err == nil, err
}

// nameOf returns a resolved topic ID's name.
func (m *kip848Member) nameOf(id wire.UUID) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, ok := m.idNames[id]
	return n, ok
}

// unresolved reports whether a topic ID of the target has no name yet.
func (m *kip848Member) unresolved() bool {
	for id := range m.target {
		if _, ok := m.nameOf(id); !ok {
			return true
		}
	}
	return false
}

// keepAlive heartbeats in the background (keepAliveLoop) while the run
// goroutine reconciles or Close revokes and commits: full heartbeats
// listing what is owned at that moment, taking only the new member epoch
// from the answers, at once when rejoin asks (a commit saw
// STALE_MEMBER_EPOCH). The assignment in an answer is not lost: the
// coordinator repeats it in the answer to every full heartbeat, so the run
// goroutine's next one brings it. A fence (FENCED_MEMBER_EPOCH,
// UNKNOWN_MEMBER_ID: the member was expired meanwhile, say while its
// coordinator failed over) is returned by stop.
func (m *kip848Member) keepAlive(ctx context.Context) (stop func() error) {
	if m.g.cfg.OnAssignment == nil && m.g.cfg.DisableAutoCommit {
		return noKeepAlive // nothing slow runs during reconciliation
	}
	interval := func() time.Duration {
		m.mu.Lock()
		defer m.mu.Unlock()
		return m.interval
	}
	return m.g.keepAliveLoop(ctx, interval, m.wake, m.beat)
}

// beat is one background heartbeat of keepAlive.
func (m *kip848Member) beat(ctx context.Context) (beatResult, error) {
	resp, err := m.heartbeat(ctx, 0)
	if err != nil {
		m.forgetCoordinator()
		return beatMoved, err
	}
	class := wire.ClassOf(resp.ErrorCode)
	switch {
	case resp.ErrorCode == 0:
		m.mu.Lock()
		m.epoch = resp.MemberEpoch
		m.mu.Unlock()
		return beatOK, nil
	case class.Has(wire.ClassCoordinator):
		m.forgetCoordinator()
		return beatMoved, wire.ErrorForCode(resp.ErrorCode)
	case class.Has(wire.ClassRejoin):
		return beatFenced, wire.ErrorForCode(resp.ErrorCode)
	}
	return beatOK, wire.ErrorForCode(resp.ErrorCode) // the run goroutine's next heartbeat acts on it
}

// resolveIDs maps topic IDs to names from metadata (all topics: the
// assignment names topics by ID only); cached metadata that lacks one of
// them (a topic created since) is refreshed.
func (m *kip848Member) resolveIDs(ctx context.Context) error {
	if err := m.resolveFrom(ctx); err != nil {
		return err
	}
	for id := range m.target {
		if _, ok := m.nameOf(id); !ok {
			if inv, ok := m.g.cl.(interface{ InvalidateMetadata() }); ok {
				inv.InvalidateMetadata()
				return m.resolveFrom(ctx)
			}
			break
		}
	}
	return nil
}

func (m *kip848Member) resolveFrom(ctx context.Context) error {
	md, err := m.g.cl.Metadata(ctx, nil)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for name, tm := range md.Topics {
		if tm.ID != (wire.UUID{}) {
			m.idNames[tm.ID] = name
		}
	}
	return nil
}

// heartbeat sends one ConsumerGroupHeartbeat: a full one with the owned
// partitions, or with leaveEpoch (-1, -2) a leave.
func (m *kip848Member) heartbeat(ctx context.Context, leaveEpoch int32) (*wire.ConsumerGroupHeartbeatResponse, error) {
	coord, err := m.g.cl.Coordinator(ctx, client.CoordinatorGroup, m.key)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	req := &wire.ConsumerGroupHeartbeatRequest{GroupID: m.key, MemberID: m.memberID, MemberEpoch: m.epoch}
	m.mu.Unlock()
	cfg := &m.g.cfg
	req.InstanceID = cfg.instanceID()
	if leaveEpoch != 0 {
		req.MemberEpoch = leaveEpoch
	} else {
		req.RebalanceTimeoutMs = ms(cfg.RebalanceTimeout)
		if cfg.Rack != "" {
			req.RackID = &cfg.Rack
		}
		if cfg.TopicRegex != "" {
			req.SubscribedTopicRegex = &cfg.TopicRegex
		} else {
			req.SubscribedTopicNames = cfg.Topics
		}
		if cfg.ServerAssignor != "" {
			req.ServerAssignor = &cfg.ServerAssignor
		}
		req.TopicPartitions = m.ownedByID()
	}
	resp, err := m.g.cl.Request(ctx, coord, req)
	if err != nil {
		return nil, err
	}
	return resp.(*wire.ConsumerGroupHeartbeatResponse), nil
}

// ownedByID lists the owned partitions by topic ID (never nil: an empty
// list acknowledges an empty assignment).
func (m *kip848Member) ownedByID() []wire.ConsumerGroupHeartbeatTopicPartitions {
	m.mu.Lock()
	ids := make(map[string]wire.UUID, len(m.idNames))
	for id, name := range m.idNames {
		ids[name] = id
	}
	m.mu.Unlock()
	out := []wire.ConsumerGroupHeartbeatTopicPartitions{}
	for _, tp := range m.g.ownedSnapshot() { // sorted: one entry per topic; without Group.mu
		id, ok := ids[tp.Topic]
		if !ok {
			continue
		}
		if n := len(out); n > 0 && out[n-1].TopicID == id {
			out[n-1].Partitions = append(out[n-1].Partitions, tp.Partition)
			continue
		}
		out = append(out, wire.ConsumerGroupHeartbeatTopicPartitions{TopicID: id, Partitions: []int32{tp.Partition}})
	}
	return out
}

// heartbeatError handles a heartbeat's error code by its class
// (wire.ClassOf): nil for success and for errors handled here (fenced:
// partitions lost, epoch 0; coordinator: looked up again; retriable:
// retried), errFatal for the rest.
func (m *kip848Member) heartbeatError(ctx context.Context, r *wire.ConsumerGroupHeartbeatResponse) error {
	if r.ErrorCode == 0 {
		return nil
	}
	kerr := wire.ErrorForCode(r.ErrorCode)
	class := wire.ClassOf(r.ErrorCode)
	switch {
	case class.Has(wire.ClassCoordinator):
		m.forgetCoordinator()
		return nil
	case class.Has(wire.ClassRejoin): // FENCED_MEMBER_EPOCH, UNKNOWN_MEMBER_ID
		m.fenced(ctx)
		return nil
	case class.Has(wire.ClassRetriable):
		return nil
	}
	msg := ""
	if r.ErrorMessage != nil && *r.ErrorMessage != "" {
		msg = ": " + *r.ErrorMessage
	}
	err := fmt.Errorf("consumer: ConsumerGroupHeartbeat: %w%s", kerr, msg)
	if r.ErrorCode == wire.ErrUnsupportedVersion.Code {
		return errFatal{kip848Unsupported("the group coordinator answered UNSUPPORTED_VERSION", err)}
	}
	return errFatal{err}
}

// fenced: the coordinator no longer knows the member at its epoch, so what
// it owns may be someone else's already: lost (no commit), and the member
// joins again with epoch 0 and the same member ID.
func (m *kip848Member) fenced(ctx context.Context) {
	m.mu.Lock()
	m.epoch = epochJoin
	m.mu.Unlock()
	m.target, m.reconciled = nil, false
	m.g.lose(ctx, m.g.ownedList())
}

func (m *kip848Member) forgetCoordinator() {
	m.g.cl.InvalidateCoordinator(client.CoordinatorGroup, m.key)
}

// leave sends the leaving heartbeat: epoch -1, or -2 for a static member
// (which keeps its assignment until the session times out). A member that
// never joined sends nothing; GROUP_ID_NOT_FOUND and UNKNOWN_MEMBER_ID
// (the group or member is already gone) and FENCED_MEMBER_EPOCH count as
// left.
func (m *kip848Member) leave(ctx context.Context) error {
	m.mu.Lock()
	joined := m.epoch > 0
	m.mu.Unlock()
	if !joined {
		return nil
	}
	epoch := int32(epochLeave)
	if m.g.cfg.InstanceID != "" {
		epoch = epochLeaveStatic
	}
	resp, err := m.heartbeat(ctx, epoch)
	if err != nil {
		return err
	}
	kerr := wire.ErrorForCode(resp.ErrorCode)
	switch {
	case kerr == nil, errors.Is(kerr, wire.ErrGroupIDNotFound), errors.Is(kerr, wire.ErrUnknownMemberID), errors.Is(kerr, wire.ErrFencedMemberEpoch):
		m.mu.Lock()
		m.epoch = epochJoin
		m.mu.Unlock()
		return nil
	}
	return fmt.Errorf("consumer: ConsumerGroupHeartbeat (leave): %w", kerr)
}
