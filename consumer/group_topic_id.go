package consumer

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// notify queues err for Receive (reported once, before records) and wakes
// a waiting Receive.
func (c *Consumer) notify(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.notices = append(c.notices, err)
	c.signalLocked()
}

// forgetIncarnation drops what the group kept of a recreated topic's
// partitions (the committed offset of the old topic ID and CommitProcessed
// marks), so commits of the new topic are not held back by the old
// topic's offsets. err is what Receive is about to return.
func (g *Group) forgetIncarnation(err error) {
	var tc *TopicIDChangedError
	if !errors.As(err, &tc) || tc.NewID.IsZero() {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, p := range tc.Partitions {
		tp := gregor.TopicPartition{Topic: tc.Topic, Partition: p}
		delete(g.committed, tp)
		g.marks.drop(tp)
	}
}

// staleTopicIDs returns, for each partition of tps whose position belongs
// to a topic ID other than the one metadata names now (ids), the error a
// commit of it is refused with: an offset of one topic ID is never
// committed under another. Partitions without a known ID pass.
func (g *Group) staleTopicIDs(tps map[gregor.TopicPartition]int64, ids map[string]wire.UUID) map[gregor.TopicPartition]error {
	list := make([]gregor.TopicPartition, 0, len(tps))
	for tp := range tps {
		list = append(list, tp)
	}
	known := g.c.topicIDsOf(list, true)
	var out map[gregor.TopicPartition]error
	for tp, id := range known {
		if id.IsZero() || ids[tp.Topic] == id {
			continue
		}
		if out == nil {
			out = map[gregor.TopicPartition]error{}
		}
		out[tp] = &TopicIDChangedError{Topic: tp.Topic, Partitions: []int32{tp.Partition}, OldID: id, NewID: ids[tp.Topic]}
	}
	return out
}

// goneTopics returns, by name, the topics among the revoked partitions
// (ids: their topic IDs) that were deleted or recreated, from a fresh
// metadata look: their positions are not auto-committed (an offset of a
// deleted topic committed by name would become the recreated topic's), and
// Receive reports each with a *TopicIDChangedError at once instead of
// waiting silently for records that will not come. Only topics whose ID the
// member knew count; nil when metadata cannot be had.
func (g *Group) goneTopics(ctx context.Context, ids map[gregor.TopicPartition]wire.UUID) map[string]*TopicIDChangedError {
	byTopic := map[string]*TopicIDChangedError{}
	for tp, id := range ids {
		if id.IsZero() {
			continue
		}
		tc := byTopic[tp.Topic]
		if tc == nil {
			tc = &TopicIDChangedError{Topic: tp.Topic, OldID: id}
			byTopic[tp.Topic] = tc
		}
		tc.Partitions = append(tc.Partitions, tp.Partition)
	}
	if len(byTopic) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	g.c.cl.InvalidateMetadata()
	md, err := g.cl.Metadata(ctx, keys(byTopic))
	if err != nil {
		return nil // nothing certain to report
	}
	for t, tc := range byTopic {
		tm := md.Topics[t]
		switch {
		case tm == nil || errors.Is(tm.Err, wire.ErrUnknownTopicOrPartition):
		case tm.Err == nil && !tm.ID.IsZero() && tm.ID != tc.OldID:
			tc.NewID = tm.ID
		default:
			delete(byTopic, t) // still there: an ordinary revocation
			continue
		}
		slices.Sort(tc.Partitions)
	}
	return byTopic
}

// withoutTopics returns the partitions of tps whose topic is not in gone.
func withoutTopics(tps []gregor.TopicPartition, gone map[string]*TopicIDChangedError) []gregor.TopicPartition {
	if len(gone) == 0 {
		return tps
	}
	out := make([]gregor.TopicPartition, 0, len(tps))
	for _, tp := range tps {
		if gone[tp.Topic] == nil {
			out = append(out, tp)
		}
	}
	return out
}
