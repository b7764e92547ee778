package consumer

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/backoff"
	"github.com/gregor-kafka/gregor/wire"
)

// groupCluster is what a Group needs of a *client.Client; fake-coordinator
// tests substitute a scripted one.
type groupCluster interface {
	Request(ctx context.Context, broker int32, req wire.Request) (wire.Response, error)
	Metadata(ctx context.Context, topics []string) (*client.Metadata, error)
	Coordinator(ctx context.Context, kind client.CoordinatorType, key string) (int32, error)
	InvalidateCoordinator(kind client.CoordinatorType, key string)
}

// membership is a group membership protocol's state machine (classicMember,
// kip848Member for KIP-848). run drives it on one goroutine until ctx ends or a fatal
// error (reported with Group.fail); it changes the assignment only through
// the Group's reconcile, revoke and lose. The other methods are safe from
// any goroutine.
type membership interface {
	run(ctx context.Context)
	// identity returns the generation (or member epoch) and member ID that
	// commits carry.
	identity() (generation int32, memberID string)
	// rejoin asks for a rebalance soon (a commit saw the group moving on).
	rejoin()
	// leave leaves the group (not for static members) within ctx.
	leave(ctx context.Context) error
	// protocol is the protocol in use; "" while not yet chosen.
	protocol() GroupProtocol
	// keepAlive heartbeats in the background while the caller is busy in
	// a callback or a commit; stop returns the fence it found, if any.
	keepAlive(ctx context.Context) (stop func() error)
}

// Group is a consumer group member: it joins GroupConfig.GroupID, owns the
// partitions the group assigns it, fetches them from the committed offsets
// and commits what the application consumed. It is safe for concurrent use.
// The fetch engine is an assigned Consumer driven by the membership
// (Add on assignment, Remove on revocation).
type Group struct {
	cl  groupCluster
	c   *Consumer
	cfg GroupConfig
	re  *regexp.Regexp // TopicRegex, anchored; nil for Topics
	m   membership

	ctx    context.Context // lifetime of membership and auto-commit; cancelled by Close
	cancel context.CancelFunc
	// connName names this member's own group-lane connections
	// (client.WithGroupConnection): another group's held JoinGroup on a
	// shared client cannot delay this member's heartbeats and commits.
	connName string
	wg       sync.WaitGroup

	commitMu sync.Mutex // serializes commits so they reach the coordinator in order

	// ownedSnap is owned as a sorted list, replaced (under mu) at every
	// change of owned and read without mu (ownedSnapshot, ownedList): the
	// heartbeat must not wait for the lock, which application calls such
	// as MarkProcessed and commits hold (INTERNALS §5).
	ownedSnap atomic.Pointer[[]gregor.TopicPartition]

	mu        sync.Mutex
	owned     map[gregor.TopicPartition]bool  // guarded by mu; publish changes with publishOwnedLocked
	committed map[gregor.TopicPartition]int64 // highest offset known committed, per owned partition; guarded by mu
	marks     markTracker                     // CommitProcessed bookkeeping; guarded by mu
	fatal     error                           // the membership's fatal error; guarded by mu
	pending   []error                         // errors Receive reports once, in order; guarded by mu
	closed    bool                            // Close was called; guarded by mu
	finished  bool                            // Close returned; guarded by mu
}

// NewGroup starts a group member reading through c with cfg: it joins the
// group in the background and begins fetching when partitions are assigned.
// The client is not owned: Close leaves it open. Errors: an invalid
// GroupConfig, ErrProtocolUnsupported.
func NewGroup(c *client.Client, cfg GroupConfig) (*Group, error) {
	if c == nil {
		return nil, errors.New("consumer: nil client")
	}
	cfg, re, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	cons, err := newConsumer(c, wireTransport{c}, cfg.Config)
	if err != nil {
		return nil, err
	}
	return startGroup(c, cons, cfg, re), nil
}

// startGroup starts the membership and auto-commit goroutines.
func startGroup(cl groupCluster, cons *Consumer, cfg GroupConfig, re *regexp.Regexp) *Group {
	g := &Group{cl: cl, c: cons, cfg: cfg, re: re,
		owned: map[gregor.TopicPartition]bool{}, committed: map[gregor.TopicPartition]int64{}}
	g.connName = fmt.Sprintf("group %q member %p", cfg.GroupID, g)
	ctx, cancel := context.WithCancel(client.WithGroupConnection(context.Background(), g.connName))
	g.ctx, g.cancel = ctx, cancel
	g.marks.init()
	switch cfg.Protocol {
	case ProtocolConsumer:
		g.m = newKIP848Member(g)
	case ProtocolClassic:
		g.m = newClassicMember(g)
	default:
		g.m = &autoMember{g: g}
	}
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		g.m.run(ctx)
	}()
	if !cfg.DisableAutoCommit && cfg.AutoCommitInterval > 0 {
		g.wg.Add(1)
		go g.autoCommitLoop()
	}
	return g
}

// Receive waits for the next records of the owned partitions, as
// Consumer.Receive does. With CommitProcessed the returned records are
// tracked for MarkProcessed. Errors: a *NoCommittedOffsetError once per
// assignment that has partitions without committed offsets under
// ResetNone; a *TopicIDChangedError once when a subscribed topic with
// owned partitions was deleted (after its partitions were revoked:
// errors.Is(err, ErrTopicDeleted)) or recreated (the partitions restart
// under OffsetReset, as in Consumer.Receive); as Consumer.Receive; the membership's
// fatal error (for example wire.ErrFencedInstanceID, or a group
// authorization failure) once the group has stopped; client.ErrClosed
// after Close.
func (g *Group) Receive(ctx context.Context) ([]Record, error) {
	if err := g.fatalErr(); err != nil {
		return nil, err
	}
	g.mu.Lock()
	if len(g.pending) > 0 {
		err := g.pending[0]
		g.pending = g.pending[1:]
		g.mu.Unlock()
		return nil, err
	}
	g.mu.Unlock()
	recs, err := g.c.Receive(ctx)
	g.forgetIncarnation(err)
	if errors.Is(err, client.ErrClosed) {
		if ferr := g.fatalErr(); ferr != nil {
			return nil, ferr
		}
	}
	if g.cfg.CommitProcessed && len(recs) > 0 {
		g.mu.Lock()
		for i := range recs {
			tp := gregor.TopicPartition{Topic: recs[i].Topic, Partition: recs[i].Partition}
			if g.owned[tp] {
				g.marks.delivered(tp, recs[i].Offset)
			}
		}
		g.mu.Unlock()
	}
	return recs, err
}

// Pause stops fetching and delivering an owned partition until Resume (or
// until it leaves the member: a partition that returns is not paused).
// Errors: ErrNotAssigned, client.ErrClosed.
func (g *Group) Pause(tp gregor.TopicPartition) error { return g.c.Pause(tp) }

// Resume undoes Pause. Errors: ErrNotAssigned, client.ErrClosed.
func (g *Group) Resume(tp gregor.TopicPartition) error { return g.c.Resume(tp) }

// Seek moves an owned partition's position, as Consumer.Seek does. A
// position below the committed offset is allowed, but a commit never moves
// the committed offset back (see Commit).
func (g *Group) Seek(ctx context.Context, tp gregor.TopicPartition, p Position) error {
	return g.c.Seek(ctx, tp, p)
}

// Progress returns each owned partition's position against the end of its
// log, as Consumer.Progress does.
func (g *Group) Progress() []Progress { return g.c.Progress() }

// WaitEnd waits until each of tps (every owned partition when tps is empty)
// has been read to its end, as Consumer.WaitEnd does; a partition revoked
// meanwhile fails it with ErrNotAssigned.
func (g *Group) WaitEnd(ctx context.Context, tps ...gregor.TopicPartition) error {
	return g.c.WaitEnd(ctx, tps...)
}

// Assignment returns the owned partitions with their positions, in the
// order they were assigned.
func (g *Group) Assignment() []PartitionPosition { return g.c.Assignment() }

// GroupMetadata returns the member's current identity for
// transactional offset commits (KIP-447): generation -1 and member ID ""
// before the first join completes.
func (g *Group) GroupMetadata() GroupMetadata {
	gen, id := g.m.identity()
	return GroupMetadata{GroupID: g.cfg.GroupID, GenerationID: gen, MemberID: id, InstanceID: g.cfg.InstanceID}
}

// Close leaves the group within ctx: it stops the membership, emits
// Revoking for the owned partitions (with auto-commit, commits them),
// leaves the group (dynamic members only: a static member keeps its
// assignment until SessionTimeout), and closes the fetch engine. It
// returns within ctx's deadline even when the coordinator is unreachable;
// the error is the commit's or the leave's, or nil. Safe to call more than
// once.
func (g *Group) Close(ctx context.Context) error {
	ctx = client.WithGroupConnection(ctx, g.connName)
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return nil
	}
	g.closed = true
	g.mu.Unlock()
	g.cancel()
	done := make(chan struct{})
	go func() { g.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
	}
	var errs []error
	if owned := g.ownedList(); len(owned) > 0 && g.fatalErr() == nil {
		// The membership keeps heartbeating while the callback and the
		// commit run (a KIP-848 epoch moves when the group changes
		// around the member; Java's heartbeat thread runs during close).
		stop := g.m.keepAlive(ctx)
		for _, tp := range owned {
			_ = g.c.Pause(tp)
		}
		g.emit(ctx, Revoking, owned)
		if !g.cfg.DisableAutoCommit {
			errs = append(errs, g.commitClosing(ctx, owned))
		}
		_ = stop() // a member fenced meanwhile leaves below all the same
	}
	if g.fatalErr() == nil {
		errs = append(errs, g.leave(ctx))
	}
	_ = g.c.Close(context.Background())
	g.mu.Lock()
	g.finished = true
	g.mu.Unlock()
	return errors.Join(errs...)
}

// leave leaves the group, trying again while the coordinator is moving or
// loading (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE,
// COORDINATOR_LOAD_IN_PROGRESS) or its connection failed, until ctx ends:
// a member that gives up stays in the group until its session times out.
func (g *Group) leave(ctx context.Context) error {
	for try := 0; ; try++ {
		err := g.m.leave(ctx)
		moved := client.StaleCoordinator(err) || errors.Is(err, client.ErrTransport)
		if err == nil || ctx.Err() != nil || !moved && !wire.Classify(err).Has(wire.ClassCoordinator) {
			return err
		}
		if moved {
			g.cl.InvalidateCoordinator(client.CoordinatorGroup, g.cfg.GroupID)
		}
		if !backoff.Sleep(ctx, time.Time{}, backoff.Delay(leaveBackoff, leaveBackoffMax, try), nil) {
			return err
		}
	}
}

// The backoff between attempts to leave the group.
const (
	leaveBackoff    = 50 * time.Millisecond
	leaveBackoffMax = time.Second
)

// fail stops the group for good: the owned partitions are lost (Lost
// emitted), then err is recorded as the fatal error (Err, Receive) and the
// fetch engine closes. In that order, an Err that is not nil means the
// group owns nothing any more.
func (g *Group) fail(err error) {
	g.lose(context.Background(), g.ownedList())
	g.mu.Lock()
	if g.fatal == nil {
		g.fatal = err
	}
	g.mu.Unlock()
	_ = g.c.Close(context.Background())
}

func (g *Group) fatalErr() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.fatal
}

// ownedList returns the owned partitions, sorted, in a slice the caller
// may modify (a copy of ownedSnapshot).
func (g *Group) ownedList() []gregor.TopicPartition {
	return slices.Clone(g.ownedSnapshot())
}

// ownedSnapshot returns the owned partitions, sorted, without taking mu
// (the list as of the last change; the caller must not modify it).
func (g *Group) ownedSnapshot() []gregor.TopicPartition {
	if p := g.ownedSnap.Load(); p != nil {
		return *p
	}
	return nil
}

// publishOwnedLocked replaces ownedSnap after a change of owned. Called
// with mu held.
func (g *Group) publishOwnedLocked() {
	out := make([]gregor.TopicPartition, 0, len(g.owned))
	for tp := range g.owned {
		out = append(out, tp)
	}
	sortTPs(out)
	g.ownedSnap.Store(&out)
}

// subscription returns the subscribed topics, sorted: Topics, or the
// non-internal topics of current metadata that match TopicRegex.
func (g *Group) subscription(ctx context.Context) ([]string, error) {
	if g.re == nil {
		t := slices.Clone(g.cfg.Topics)
		slices.Sort(t)
		return slices.Compact(t), nil
	}
	md, err := g.cl.Metadata(ctx, nil)
	if err != nil {
		return nil, err
	}
	var out []string
	for name, tm := range md.Topics {
		if !tm.Internal && tm.Err == nil && g.re.MatchString(name) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out, nil
}

// autoCommitLoop commits the owned partitions every AutoCommitInterval
// (failures are left to the next tick or the revocation's commit).
func (g *Group) autoCommitLoop() {
	defer g.wg.Done()
	t := time.NewTicker(g.cfg.AutoCommitInterval)
	defer t.Stop()
	for {
		select {
		case <-g.ctx.Done():
			return
		case <-t.C:
			_ = g.commitOwned(g.ctx, g.ownedList())
		}
	}
}

func sortTPs(tps []gregor.TopicPartition) {
	slices.SortFunc(tps, func(a, b gregor.TopicPartition) int {
		if a.Topic != b.Topic {
			if a.Topic < b.Topic {
				return -1
			}
			return 1
		}
		return int(a.Partition - b.Partition)
	})
}
