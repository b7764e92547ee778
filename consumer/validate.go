package consumer

import (
	"context"
	"errors"
	"sort"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// epochReq is one partition of an OffsetForLeaderEpochRequest.
type epochReq struct {
	gregor.TopicPartition
	CurrentLeaderEpoch int32 // the leader epoch metadata names (fencing)
	LeaderEpoch        int32 // the epoch of the last consumed batch
}

// epochResp is one partition of an OffsetForLeaderEpochResponse: the
// largest epoch <= LeaderEpoch the leader knows and its end offset
// (-1, -1 when the leader knows no such epoch).
type epochResp struct {
	LeaderEpoch int32
	EndOffset   int64
	Err         error
}

// runValidations checks, after a leader change, that the log below each
// affected position is still the log the consumer read (KIP-320): it asks
// the new leader (OffsetForLeaderEpoch) where the epoch of the last
// consumed batch ends. An end below the position means the log was
// truncated by an unclean leader election: the position moves back to that
// end, or under ResetNone the partition stops with a *LogTruncationError.
// An epoch the leader no longer knows applies the reset policy. Fetch v12+
// also reports divergence in the response (DivergingEpoch); this check
// covers the positions before the next Fetch returns data.
func (c *Consumer) runValidations() {
	type snap struct {
		offset      int64
		lastEpoch   int32
		leaderEpoch int32
		gen         uint64
		hint        *leaderHint
	}
	now := time.Now()
	c.mu.Lock()
	todo := map[gregor.TopicPartition]snap{}
	for _, tp := range c.order {
		st := c.parts[tp]
		if st.phase == phaseValidating && !now.Before(st.backoff) {
			todo[tp] = snap{st.offset, st.lastEpoch, st.leaderEpoch, st.gen, st.hint}
		}
	}
	c.mu.Unlock()
	if len(todo) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(c.ctx, 30*time.Second)
	defer cancel()

	topicSet := map[string]struct{}{}
	for tp := range todo {
		topicSet[tp.Topic] = struct{}{}
	}
	topics := make([]string, 0, len(topicSet))
	for t := range topicSet {
		topics = append(topics, t)
	}
	sort.Strings(topics)
	results := map[gregor.TopicPartition]epochResp{}
	failed := map[gregor.TopicPartition]bool{}
	md, err := c.cl.Metadata(ctx, topics)
	if err == nil {
		byLeader := map[int32][]epochReq{}
		for tp, s := range todo {
			tm := md.Topics[tp.Topic]
			var pm *client.PartitionMetadata
			if tm != nil && tm.Err == nil {
				pm = findPartition(tm, tp.Partition)
			}
			leader, epoch, ok := leaderOf(md, pm, s.hint)
			if !ok {
				failed[tp] = true
				continue
			}
			byLeader[leader] = append(byLeader[leader], epochReq{tp, epoch, s.lastEpoch})
		}
		for node, reqs := range byLeader {
			res, err := c.tr.offsetsForLeaderEpoch(ctx, node, reqs)
			for _, r := range reqs {
				if er, ok := res[r.TopicPartition]; err == nil && ok {
					results[r.TopicPartition] = er
				} else {
					failed[r.TopicPartition] = true
				}
			}
		}
	} else {
		for tp := range todo {
			failed[tp] = true
		}
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	invalidate := false
	for tp, s := range todo {
		st := c.parts[tp]
		if st == nil || st.gen != s.gen || st.phase != phaseValidating {
			continue
		}
		r, ok := results[tp]
		if ok && !failed[tp] && r.Err == nil {
			c.m.Validations++
		}
		switch {
		case !ok || failed[tp]:
			st.backoff = time.Now().Add(retryBackoff)
			invalidate = true
		case r.Err != nil:
			var ke *wire.KafkaError
			if errors.As(r.Err, &ke) && ke.Retriable {
				st.backoff = time.Now().Add(retryBackoff)
				invalidate = true
				continue
			}
			// The leader cannot validate (e.g. an old version): fetch on,
			// Fetch's DivergingEpoch still guards.
			st.validated()
		case r.EndOffset < 0 || r.LeaderEpoch < 0:
			// The leader no longer knows the epoch: the position cannot be
			// validated, so the reset policy decides.
			st.startReset()
		case r.EndOffset < st.offset:
			if c.cfg.OffsetReset == ResetNone {
				st.stop(&LogTruncationError{tp, st.offset, r.EndOffset, r.LeaderEpoch})
				c.signalLocked()
				continue
			}
			st.validated()
			c.gen++
			c.m.OffsetResets++
			st.gen = c.gen
			st.offset, st.lastEpoch = r.EndOffset, r.LeaderEpoch
		default:
			st.validated()
		}
	}
	if invalidate {
		c.m.MetadataRefreshes++
		c.cl.InvalidateMetadata()
	}
}

// offsetsForLeaderEpoch sends one OffsetForLeaderEpochRequest to node.
func (t wireTransport) offsetsForLeaderEpoch(ctx context.Context, node int32, reqs []epochReq) (map[gregor.TopicPartition]epochResp, error) {
	m := &wire.OffsetForLeaderEpochRequest{ReplicaID: -1}
	idx := map[string]int{}
	for _, r := range reqs {
		i := topicSlot(&m.Topics, idx, r.Topic, wire.OffsetForLeaderTopic{Topic: r.Topic})
		m.Topics[i].Partitions = append(m.Topics[i].Partitions, wire.OffsetForLeaderPartition{
			Partition: r.Partition, CurrentLeaderEpoch: r.CurrentLeaderEpoch, LeaderEpoch: r.LeaderEpoch,
		})
	}
	er, err := requestAs[*wire.OffsetForLeaderEpochResponse](ctx, t.cl, node, m, "OffsetForLeaderEpoch")
	if err != nil {
		return nil, err
	}
	out := map[gregor.TopicPartition]epochResp{}
	for _, t := range er.Topics {
		for _, p := range t.Partitions {
			out[gregor.TopicPartition{Topic: t.Topic, Partition: p.Partition}] = epochResp{p.LeaderEpoch, p.EndOffset, wire.ErrorForCode(p.ErrorCode)}
		}
	}
	return out, nil
}
