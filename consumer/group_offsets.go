package consumer

import (
	"context"
	"errors"
	"fmt"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// fetchCommitted reads the group's committed offsets of tps with OffsetFetch
// and require_stable (KIP-447: the coordinator answers
// UNSTABLE_OFFSET_COMMIT while a transaction's offset commit is pending, and
// the fetch is retried, so a partition never starts below an offset a
// transaction is committing). -1 means no committed offset. Coordinator
// errors are retried with backoff within ctx.
func (g *Group) fetchCommitted(ctx context.Context, tps []gregor.TopicPartition) (map[gregor.TopicPartition]int64, error) {
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			if err := waitBackoff(ctx, retryBackoff); err != nil {
				return nil, err
			}
		}
		out, err := g.offsetFetchOnce(ctx, tps)
		if err == nil {
			return out, nil
		}
		// Exception to the classifier: STALE_MEMBER_EPOCH (KIP-848, not
		// retriable) means an assignment change is under way; the
		// heartbeat brings the current epoch, which the next attempt
		// sends (the Java client retries OffsetFetch on it too).
		retry := wire.Retriable(err) || errors.Is(err, wire.ErrStaleMemberEpoch)
		if client.StaleCoordinator(err) || errors.Is(err, client.ErrTransport) {
			g.cl.InvalidateCoordinator(client.CoordinatorGroup, g.cfg.GroupID)
			retry = true
		}
		if !retry || attempt >= maxResolveAttempts {
			return nil, err
		}
	}
}

func (g *Group) offsetFetchOnce(ctx context.Context, tps []gregor.TopicPartition) (map[gregor.TopicPartition]int64, error) {
	byTopic := map[string][]int32{}
	for _, tp := range tps {
		byTopic[tp.Topic] = append(byTopic[tp.Topic], tp.Partition)
	}
	ids, err := g.topicIDs(ctx, keys(byTopic))
	if err != nil {
		return nil, err
	}
	var topics []wire.OffsetFetchRequestTopic
	for _, t := range keys(byTopic) {
		topics = append(topics, wire.OffsetFetchRequestTopic{Name: t, TopicID: ids[t], PartitionIndexes: byTopic[t]})
	}
	// v1-7 name the group and topics at the top level, v8+ per group; the
	// classic protocol sends no member ID and epoch -1 (v9+), the consumer
	// protocol its member ID and epoch (the coordinator answers
	// STALE_MEMBER_EPOCH or FENCED_MEMBER_EPOCH if they are not current).
	grp := wire.OffsetFetchRequestGroup{GroupID: g.cfg.GroupID, MemberEpoch: -1, Topics: topics}
	if g.m.protocol() == ProtocolConsumer {
		epoch, member := g.m.identity()
		grp.MemberID, grp.MemberEpoch = &member, epoch
	}
	req := &wire.OffsetFetchRequest{GroupID: g.cfg.GroupID, Topics: topics, RequireStable: true,
		Groups: []wire.OffsetFetchRequestGroup{grp}}
	coord, err := g.cl.Coordinator(ctx, client.CoordinatorGroup, g.cfg.GroupID)
	if err != nil {
		return nil, err
	}
	r, err := g.cl.Request(ctx, coord, req)
	if err != nil {
		return nil, err
	}
	resp := r.(*wire.OffsetFetchResponse)
	results, code := resp.Topics, resp.ErrorCode
	if len(resp.Groups) > 0 {
		results, code = resp.Groups[0].Topics, resp.Groups[0].ErrorCode
	}
	if err := wire.ErrorForCode(code); err != nil {
		return nil, err
	}
	names := idNames(ids)
	out := make(map[gregor.TopicPartition]int64, len(tps))
	for _, t := range results {
		name := t.Name
		if n, ok := names[t.TopicID]; ok && t.TopicID != (wire.UUID{}) {
			name = n
		}
		for _, p := range t.Partitions {
			if err := wire.ErrorForCode(p.ErrorCode); err != nil {
				return nil, fmt.Errorf("consumer: offset fetch of %s[%d]: %w", name, p.PartitionIndex, err)
			}
			out[gregor.TopicPartition{Topic: name, Partition: p.PartitionIndex}] = p.CommittedOffset
		}
	}
	return out, nil
}
