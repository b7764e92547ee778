package consumer

import (
	"context"
	"slices"
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

// validationJob checks, after a leader change, that the log below each
// affected position is still the log the consumer read (KIP-320): it asks
// the new leader (OffsetForLeaderEpoch) where the epoch of the last
// consumed batch ends, and returns the function that applies the answers
// in the fetch loop (applyValidations). Fetch v12+ also reports divergence
// in the response (DivergingEpoch); this check covers the positions before
// the next Fetch returns data.
func (c *Consumer) validationJob(ctx context.Context, parts []jobPart) func() {
	topics := make([]string, 0, len(parts))
	for _, jp := range parts {
		if !slices.Contains(topics, jp.tp.Topic) {
			topics = append(topics, jp.tp.Topic)
		}
	}
	slices.Sort(topics)
	results := map[gregor.TopicPartition]epochResp{}
	md, err := c.cl.Metadata(ctx, topics)
	if err != nil {
		return func() { c.applyValidations(parts, results) }
	}
	byLeader := map[int32][]epochReq{}
	for _, jp := range parts {
		tm := md.Topics[jp.tp.Topic]
		var pm *client.PartitionMetadata
		if tm != nil && tm.Err == nil {
			pm = findPartition(tm, jp.tp.Partition)
		}
		if leader, epoch, ok := leaderOf(md, pm, jp.hint); ok {
			byLeader[leader] = append(byLeader[leader], epochReq{jp.tp, epoch, jp.lastEpoch})
		}
	}
	for node, reqs := range byLeader {
		res, err := c.tr.offsetsForLeaderEpoch(ctx, node, reqs)
		if err != nil {
			continue
		}
		for _, r := range reqs {
			if er, ok := res[r.TopicPartition]; ok {
				results[r.TopicPartition] = er
			}
		}
	}
	return func() { c.applyValidations(parts, results) }
}

// applyValidations applies a validation job's answers to the partitions
// still validating at the job's gen. An end below the position means the
// log was truncated by an unclean leader election: the position moves back
// to that end, or under ResetNone the partition stops with a
// *LogTruncationError. An epoch the leader no longer knows applies the
// reset policy. A partition without an answer (no leader, a failed
// request, a retriable error) backs off, metadata is refreshed, and it is
// validated again.
func (c *Consumer) applyValidations(parts []jobPart, results map[gregor.TopicPartition]epochResp) {
	c.mu.Lock()
	defer c.mu.Unlock()
	invalidate := false
	for _, jp := range parts {
		st := c.jobPartLocked(jp)
		if st == nil || st.phase != phaseValidating {
			continue
		}
		r, ok := results[jp.tp]
		if ok && r.Err == nil {
			c.m.Validations++
		}
		switch {
		case !ok:
			st.backoff = time.Now().Add(retryBackoff)
			invalidate = true
		case r.Err != nil:
			if wire.Retriable(r.Err) {
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
				st.stop(&LogTruncationError{jp.tp, st.offset, r.EndOffset, r.LeaderEpoch})
				c.signalLocked()
				continue
			}
			st.validated()
			c.moveLocked(st, r.EndOffset, r.LeaderEpoch, moveTruncated)
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
