package consumer

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sort"
	"strings"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/backoff"
	"github.com/gregor-kafka/gregor/wire"
)

// CommitError reports partitions whose offsets the coordinator refused.
// errors.Is matches each partition's error: wire.ErrRebalanceInProgress
// (the group is rebalancing: the commit can be retried after it),
// wire.ErrIllegalGeneration and wire.ErrUnknownMemberID (the member was
// fenced: its partitions are or will be reported Lost), and the others
// OffsetCommit returns. A refused commit never stops fetching and never
// changes the assignment; the member rejoins when the error says the group
// moved on.
type CommitError struct {
	GenerationID int32
	MemberID     string
	Partitions   map[gregor.TopicPartition]error
}

// Error names the failed partitions and their errors.
func (e *CommitError) Error() string {
	keys := make([]gregor.TopicPartition, 0, len(e.Partitions))
	for tp := range e.Partitions {
		keys = append(keys, tp)
	}
	sortTPs(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "consumer: commit (generation %d) refused:", e.GenerationID)
	for _, tp := range keys {
		fmt.Fprintf(&b, " %s: %v;", tp, e.Partitions[tp])
	}
	return strings.TrimSuffix(b.String(), ";")
}

// Unwrap returns the partitions' errors.
func (e *CommitError) Unwrap() []error {
	out := make([]error, 0, len(e.Partitions))
	for _, err := range e.Partitions {
		out = append(out, err)
	}
	return out
}

// ErrNotDelivered is returned by MarkProcessed for a record the group has
// not delivered to this member since the partition was assigned (or that
// is already marked), and when CommitProcessed is off.
var ErrNotDelivered = errors.New("consumer: record not delivered or already marked")

// Commit commits offsets (the next offset to consume, per partition) for
// the group with the member's generation and member ID, within ctx. Only
// owned partitions are committed (others are refused with ErrNotAssigned
// in the *CommitError, so a member never overwrites the commits of the
// partition's new owner), and an offset at or below what this Group
// already committed (or fetched) for a partition is skipped, so committed
// offsets never go backwards through the Group's own commits. Errors: *CommitError for refused partitions; client errors
// (*client.RequestError, timeouts); client.ErrClosed.
func (g *Group) Commit(ctx context.Context, offsets map[gregor.TopicPartition]int64) error {
	for tp, o := range offsets {
		if err := validateTP(tp); err != nil {
			return err
		}
		if o < 0 {
			return fmt.Errorf("consumer: negative offset %d for %s", o, tp)
		}
	}
	return g.commit(ctx, offsets)
}

// CommitDelivered commits the position of every owned partition (the
// offset after what Receive delivered, or where the partition was sought).
func (g *Group) CommitDelivered(ctx context.Context) error {
	return g.commit(ctx, g.positions(ctx, g.ownedList()))
}

// MarkProcessed marks delivered records processed (CommitProcessed mode),
// in any order. Only a partition's contiguous prefix of processed
// records, in delivery order, becomes committable. Errors: ErrNotDelivered
// for a record not awaiting a mark (the first such; the others are still
// marked).
func (g *Group) MarkProcessed(recs ...Record) error {
	if !g.cfg.CommitProcessed {
		return fmt.Errorf("%w: CommitProcessed is off", ErrNotDelivered)
	}
	var first error
	g.mu.Lock()
	defer g.mu.Unlock()
	for i := range recs {
		tp := gregor.TopicPartition{Topic: recs[i].Topic, Partition: recs[i].Partition}
		if !g.marks.mark(tp, recs[i].Offset) && first == nil {
			first = fmt.Errorf("%w: %s offset %d", ErrNotDelivered, tp, recs[i].Offset)
		}
	}
	return first
}

// CommitMarked commits each owned partition's contiguous processed prefix
// (CommitProcessed mode): the offset after the last record of the prefix.
func (g *Group) CommitMarked(ctx context.Context) error {
	return g.commit(ctx, g.markedOffsets(g.ownedList()))
}

// commitOwned is the automatic commit of tps: their processed prefixes
// with CommitProcessed, else their positions.
func (g *Group) commitOwned(ctx context.Context, tps []gregor.TopicPartition) error {
	if g.cfg.CommitProcessed {
		return g.commit(ctx, g.markedOffsets(tps))
	}
	return g.commit(ctx, g.positions(ctx, tps))
}

// Close's commit is sent again after STALE_MEMBER_EPOCH (the member's
// heartbeat, asked for by the refusal, brings the current epoch) at most
// closeCommitTries times in all, first after closeCommitBackoff.
const (
	closeCommitTries   = 5
	closeCommitBackoff = 20 * time.Millisecond
)

// commitClosing is Close's commit of tps. A KIP-848 member's epoch moves
// when the group changes around it (a member joins or leaves while this
// one closes): STALE_MEMBER_EPOCH made commitResult ask for a heartbeat
// (rejoin), which the keep-alive sends at once, and the commit is sent
// again with the new epoch, within ctx.
func (g *Group) commitClosing(ctx context.Context, tps []gregor.TopicPartition) error {
	err := g.commitOwned(ctx, tps)
	for try := 1; try < closeCommitTries && errors.Is(err, wire.ErrStaleMemberEpoch); try++ {
		if !backoff.Sleep(ctx, time.Time{}, backoff.Delay(closeCommitBackoff, time.Second, try-1), nil) {
			break
		}
		err = g.commitOwned(ctx, tps)
	}
	return err
}

// positions returns the valid positions of tps (validPositions: none of a
// partition waiting for a reset, as one of a just recreated topic does),
// but not those read under another topic ID than metadata names now (a
// deleted or recreated topic's partition that waits or stopped): committing
// them could only be refused.
func (g *Group) positions(ctx context.Context, tps []gregor.TopicPartition) map[gregor.TopicPartition]int64 {
	want := make(map[gregor.TopicPartition]bool, len(tps))
	for _, tp := range tps {
		want[tp] = true
	}
	out := g.c.validPositions(want)
	if ids, err := g.topicIDs(ctx, topicsOf(out)); err == nil {
		for tp := range g.staleTopicIDs(out, ids) {
			delete(out, tp)
		}
	}
	return out
}

func (g *Group) markedOffsets(tps []gregor.TopicPartition) map[gregor.TopicPartition]int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := map[gregor.TopicPartition]int64{}
	for _, tp := range tps {
		if o, ok := g.marks.committable(tp); ok {
			out[tp] = o
		}
	}
	return out
}

// commit sends one OffsetCommit with the offsets that move a partition's
// committed offset forward (or are for partitions this member does not
// track). Commits are serialized so they reach the coordinator in order.
func (g *Group) commit(ctx context.Context, offsets map[gregor.TopicPartition]int64) error {
	ctx = client.WithGroupConnection(ctx, g.connName)
	g.commitMu.Lock()
	defer g.commitMu.Unlock()
	g.mu.Lock()
	if g.finished {
		g.mu.Unlock()
		return client.ErrClosed
	}
	send := map[gregor.TopicPartition]int64{}
	refused := map[gregor.TopicPartition]error{}
	for tp, o := range offsets {
		if !g.owned[tp] {
			// Another member may own it now, with commits of its own that
			// this one must not overwrite.
			refused[tp] = ErrNotAssigned
			continue
		}
		if c, ok := g.committed[tp]; ok && o <= c {
			continue // never backwards; equal is already committed
		}
		send[tp] = o
	}
	g.mu.Unlock()
	gen, member := g.m.identity()
	if len(send) == 0 {
		if len(refused) > 0 {
			return &CommitError{GenerationID: gen, MemberID: member, Partitions: refused}
		}
		return nil
	}
	ids, err := g.topicIDs(ctx, topicsOf(send))
	if err != nil {
		return err
	}
	// An offset belongs to the topic ID its position was read under: never
	// committed under a recreated topic's new ID (nor by name into it).
	for tp, err := range g.staleTopicIDs(send, ids) {
		delete(send, tp)
		refused[tp] = err
	}
	if len(send) == 0 {
		return &CommitError{GenerationID: gen, MemberID: member, Partitions: refused}
	}
	req := g.commitRequest(send, ids, gen, member)
	coord, err := g.cl.Coordinator(ctx, client.CoordinatorGroup, g.cfg.GroupID)
	if err != nil {
		return err
	}
	resp, err := g.cl.Request(ctx, coord, req)
	if err != nil {
		g.cl.InvalidateCoordinator(client.CoordinatorGroup, g.cfg.GroupID)
		return err
	}
	err = g.commitResult(send, ids, resp.(*wire.OffsetCommitResponse), gen, member)
	if len(refused) == 0 {
		return err
	}
	var ce *CommitError
	if !errors.As(err, &ce) {
		ce = &CommitError{GenerationID: gen, MemberID: member, Partitions: map[gregor.TopicPartition]error{}}
	}
	maps.Copy(ce.Partitions, refused)
	return ce
}

// topicsOf returns the topics of offsets, sorted.
func topicsOf(offsets map[gregor.TopicPartition]int64) []string {
	seen := map[string]bool{}
	for tp := range offsets {
		seen[tp.Topic] = true
	}
	return keys(seen)
}

// commitRequest builds an OffsetCommit naming topics both by name and by ID
// (ids, from metadata; v10+ uses IDs), so it fits whichever version is
// negotiated.
func (g *Group) commitRequest(send map[gregor.TopicPartition]int64, ids map[string]wire.UUID, gen int32, member string) *wire.OffsetCommitRequest {
	byTopic := map[string][]wire.OffsetCommitPartition{}
	for tp, o := range send {
		byTopic[tp.Topic] = append(byTopic[tp.Topic], wire.OffsetCommitPartition{PartitionIndex: tp.Partition, CommittedOffset: o, CommittedLeaderEpoch: -1})
	}
	req := &wire.OffsetCommitRequest{GroupID: g.cfg.GroupID, GenerationIDOrMemberEpoch: gen, MemberID: member, GroupInstanceID: g.cfg.instanceID(), RetentionTimeMs: -1}
	for _, t := range keys(byTopic) {
		ps := byTopic[t]
		sort.Slice(ps, func(i, j int) bool { return ps[i].PartitionIndex < ps[j].PartitionIndex })
		req.Topics = append(req.Topics, wire.OffsetCommitTopic{Name: t, TopicID: ids[t], Partitions: ps})
	}
	return req
}

// commitResult records accepted offsets and types the refusals. A
// refusal saying the group moved on (REBALANCE_IN_PROGRESS,
// ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID; STALE_MEMBER_EPOCH,
// FENCED_MEMBER_EPOCH of KIP-848) asks the membership to rejoin;
// NOT_COORDINATOR forgets the coordinator.
func (g *Group) commitResult(send map[gregor.TopicPartition]int64, ids map[string]wire.UUID, resp *wire.OffsetCommitResponse, gen int32, member string) error {
	names := idNames(ids)
	failed := map[gregor.TopicPartition]error{}
	seen := map[gregor.TopicPartition]bool{}
	g.mu.Lock()
	for _, t := range resp.Topics {
		name := t.Name
		if n, ok := names[t.TopicID]; ok && t.TopicID != (wire.UUID{}) {
			name = n
		}
		for _, p := range t.Partitions {
			tp := gregor.TopicPartition{Topic: name, Partition: p.PartitionIndex}
			seen[tp] = true
			if err := wire.ErrorForCode(p.ErrorCode); err != nil {
				failed[tp] = err
				continue
			}
			if o, ok := send[tp]; ok && g.owned[tp] && o > g.committed[tp] {
				g.committed[tp] = o
			}
		}
	}
	g.mu.Unlock()
	for tp := range send {
		if !seen[tp] {
			failed[tp] = fmt.Errorf("consumer: %s missing from the OffsetCommit response", tp)
		}
	}
	if len(failed) == 0 {
		return nil
	}
	for _, err := range failed {
		switch {
		case errors.Is(err, wire.ErrRebalanceInProgress), errors.Is(err, wire.ErrIllegalGeneration), errors.Is(err, wire.ErrUnknownMemberID),
			errors.Is(err, wire.ErrStaleMemberEpoch), errors.Is(err, wire.ErrFencedMemberEpoch):
			g.m.rejoin() // consumer protocol: heartbeat now for the current epoch
		case client.StaleCoordinator(err):
			g.cl.InvalidateCoordinator(client.CoordinatorGroup, g.cfg.GroupID)
		}
	}
	return &CommitError{GenerationID: gen, MemberID: member, Partitions: failed}
}

// topicIDs returns the IDs metadata gives the topics (zero when unknown).
func (g *Group) topicIDs(ctx context.Context, topics []string) (map[string]wire.UUID, error) {
	md, err := g.cl.Metadata(ctx, topics)
	if err != nil {
		return nil, err
	}
	out := make(map[string]wire.UUID, len(topics))
	for _, t := range topics {
		if tm, ok := md.Topics[t]; ok {
			out[t] = tm.ID
		}
	}
	return out, nil
}

// idNames inverts a name-to-ID map (IDs of v10+ responses back to names).
func idNames(ids map[string]wire.UUID) map[wire.UUID]string {
	out := make(map[wire.UUID]string, len(ids))
	for name, id := range ids {
		out[id] = name
	}
	return out
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
