package consumer

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
)

// AssignmentEventKind is what happened to a set of partitions.
type AssignmentEventKind int8

const (
	// Assigned: the member now owns the partitions; they are fetched from
	// the group's committed offsets (OffsetReset where none).
	Assigned AssignmentEventKind = iota + 1
	// Revoking: the partitions leave in a rebalance (or on Close). They are
	// paused while the event is handled, and commits of them are still
	// accepted until OnAssignment returns (bounded by RebalanceTimeout);
	// then their buffered records and pause state are dropped.
	Revoking
	// Lost: the member lost the partitions without a rebalance (fenced,
	// session expired: ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID,
	// FENCED_INSTANCE_ID). They are already dropped; no commit is possible.
	Lost
)

// String returns "assigned", "revoking" or "lost".
func (k AssignmentEventKind) String() string {
	switch k {
	case Assigned:
		return "assigned"
	case Revoking:
		return "revoking"
	case Lost:
		return "lost"
	}
	return fmt.Sprintf("AssignmentEventKind(%d)", int8(k))
}

// AssignmentEvent is one change of a member's assignment.
type AssignmentEvent struct {
	Kind       AssignmentEventKind
	Partitions []gregor.TopicPartition // non-empty, sorted by topic then partition
	// GenerationID is the generation the change belongs to (for Revoking
	// and Lost, the generation the partitions were owned in).
	GenerationID int32
	MemberID     string
	Time         time.Time // when the change took effect in the member
}

// emit delivers ev to the configured listener, on the membership goroutine.
func (g *Group) emit(ctx context.Context, kind AssignmentEventKind, tps []gregor.TopicPartition) {
	if len(tps) == 0 {
		return
	}
	if l := g.c.logger(); l.Enabled(ctx, slog.LevelInfo) {
		l.Info("gregor: assignment changed", "group", g.cfg.GroupID, "change", kind.String(), "partitions", len(tps), "generation", g.GroupMetadata().GenerationID)
	}
	if h := g.c.hooks; h.Assignments() {
		id := g.GroupMetadata()
		m := client.TopicPartitions{}
		for _, tp := range tps {
			m[tp.Topic] = append(m[tp.Topic], tp.Partition)
		}
		h.Assignment(client.AssignmentChange{Group: g.cfg.GroupID, MemberID: id.MemberID, Generation: id.GenerationID, Assigned: kind == Assigned, Lost: kind == Lost, Partitions: m})
	}
	if g.cfg.OnAssignment == nil {
		return
	}
	id := g.GroupMetadata()
	g.cfg.OnAssignment(ctx, AssignmentEvent{Kind: kind, Partitions: tps, GenerationID: id.GenerationID, MemberID: id.MemberID, Time: time.Now()})
}

// revoke gives up tps in a rebalance: pause them (nothing more is
// delivered), emit Revoking with a chance to commit bounded by the
// rebalance timeout, auto-commit them, then drop them from the fetch engine;
// a topic among them that was deleted or recreated is not auto-committed
// and is reported by Receive (goneTopics).
func (g *Group) revoke(ctx context.Context, tps []gregor.TopicPartition) {
	if len(tps) == 0 {
		return
	}
	sortTPs(tps)
	for _, tp := range tps {
		_ = g.c.Pause(tp)
	}
	gone := g.goneTopics(ctx, g.c.topicIDsOf(tps, false)) // not those the engine reported
	rctx, cancel := context.WithTimeout(ctx, g.cfg.RebalanceTimeout)
	g.emit(rctx, Revoking, tps)
	if !g.cfg.DisableAutoCommit {
		_ = g.commitOwned(rctx, withoutTopics(tps, gone))
	}
	cancel()
	g.drop(tps)
	for _, t := range keys(gone) {
		g.c.notify(gone[t])
	}
}

// lose drops tps without any commit and emits Lost.
func (g *Group) lose(ctx context.Context, tps []gregor.TopicPartition) {
	if len(tps) == 0 {
		return
	}
	sortTPs(tps)
	g.drop(tps)
	g.emit(ctx, Lost, tps)
}

// drop removes tps from the fetch engine and the group's bookkeeping.
func (g *Group) drop(tps []gregor.TopicPartition) {
	_ = g.c.Remove(context.Background(), tps)
	g.mu.Lock()
	for _, tp := range tps {
		delete(g.owned, tp)
		delete(g.committed, tp)
		g.marks.drop(tp)
	}
	g.publishOwnedLocked()
	g.mu.Unlock()
}

// assign takes tps: their committed offsets are fetched (require_stable),
// they are added to the fetch engine at those offsets (OffsetReset where
// none), then Assigned is emitted. Errors leave tps unowned and
// unannounced; the caller rejoins.
func (g *Group) assign(ctx context.Context, tps []gregor.TopicPartition) error {
	if len(tps) == 0 {
		return nil
	}
	sortTPs(tps)
	offs, err := g.fetchCommitted(ctx, tps)
	if err != nil {
		return err
	}
	ps := make([]PartitionPosition, 0, len(tps))
	var noOffset []gregor.TopicPartition
	for _, tp := range tps {
		pos := g.resetPosition()
		if o, ok := offs[tp]; ok && o >= 0 {
			pos = AtOffset(o)
		} else if g.cfg.OffsetReset == ResetNone {
			noOffset = append(noOffset, tp)
		}
		ps = append(ps, PartitionPosition{tp, pos})
	}
	g.mu.Lock()
	for _, tp := range tps {
		g.owned[tp] = true
		if o, ok := offs[tp]; ok && o >= 0 {
			g.committed[tp] = o
		}
	}
	g.publishOwnedLocked()
	g.mu.Unlock()
	if err := g.c.Add(ctx, ps); err != nil {
		g.mu.Lock()
		for _, tp := range tps {
			delete(g.owned, tp)
			delete(g.committed, tp)
		}
		g.publishOwnedLocked()
		g.mu.Unlock()
		return err // never announced: no event
	}
	// ResetNone: a partition without a committed offset waits, paused,
	// for the application (Java's NoOffsetForPartitionException).
	for _, tp := range noOffset {
		_ = g.c.Pause(tp)
	}
	if len(noOffset) > 0 {
		g.mu.Lock()
		g.pending = append(g.pending, &NoCommittedOffsetError{Partitions: noOffset})
		g.mu.Unlock()
	}
	// Announced once in the fetch engine, so the listener can pause or
	// seek them (TestGroupPauseInAssignedEvent).
	g.emit(ctx, Assigned, tps)
	return nil
}

// NoCommittedOffsetError reports, under ResetNone, assigned partitions
// that have no committed offset (Java's NoOffsetForPartitionException).
// They are owned but paused at the log start: Seek them where to start,
// then Resume them.
type NoCommittedOffsetError struct {
	Partitions []gregor.TopicPartition
}

// Error names the partitions.
func (e *NoCommittedOffsetError) Error() string {
	return fmt.Sprintf("consumer: no committed offset for %v and OffsetReset is none", e.Partitions)
}

// resetPosition is where a partition without a committed offset starts
// (under ResetNone, paused at the beginning).
func (g *Group) resetPosition() Position {
	if g.cfg.OffsetReset == ResetLatest {
		return AtEnd()
	}
	return AtBeginning()
}

// reconcile installs a new assignment: with cooperative rebalancing only
// the difference moves (revoked first, then added) and the member reports
// whether it revoked anything (KIP-429: it must rejoin so the revoked
// partitions can be given to others); eagerly everything was revoked
// before the join, so all of next is added.
func (g *Group) reconcile(ctx context.Context, next []gregor.TopicPartition) (revoked bool, err error) {
	want := make(map[gregor.TopicPartition]bool, len(next))
	for _, tp := range next {
		want[tp] = true
	}
	var gone, added []gregor.TopicPartition
	g.mu.Lock()
	for tp := range g.owned {
		if !want[tp] {
			gone = append(gone, tp)
		}
	}
	for _, tp := range next {
		if !g.owned[tp] {
			added = append(added, tp)
		}
	}
	g.mu.Unlock()
	g.revoke(ctx, gone)
	return len(gone) > 0, g.assign(ctx, added)
}
