package consumer

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// ListOffsets special timestamps.
const (
	timestampLatest   int64 = -1 // LATEST_TIMESTAMP: the log end (LSO under read_committed)
	timestampEarliest int64 = -2 // EARLIEST_TIMESTAMP: the log start
)

// listReq is one partition of a ListOffsetsRequest.
type listReq struct {
	gregor.TopicPartition
	Timestamp          int64
	CurrentLeaderEpoch int32
}

// listResp is one partition of a ListOffsetsResponse.
type listResp struct {
	Offset int64
	Err    error
}

// maxResolveAttempts bounds ListOffsets rounds when ctx has no deadline.
const maxResolveAttempts = 50

// resolve turns positions into exact offsets: Exact as given, Beginning and
// End with ListOffsets to each partition's leader (isolation level of the
// consumer, so End is the last stable offset under ReadCommitted).
// Retriable errors (leader moving, topic just created) are retried with
// backoff within ctx.
func (c *Consumer) resolve(ctx context.Context, ps []PartitionPosition) (map[gregor.TopicPartition]int64, error) {
	out := make(map[gregor.TopicPartition]int64, len(ps))
	todo := map[gregor.TopicPartition]int64{}
	for _, p := range ps {
		switch p.Position.Kind {
		case Exact:
			out[p.TopicPartition] = p.Position.Offset
		case Beginning:
			todo[p.TopicPartition] = timestampEarliest
		case End:
			todo[p.TopicPartition] = timestampLatest
		}
	}
	var lastErr error
	for attempt := 0; len(todo) > 0; attempt++ {
		if attempt > 0 {
			if attempt >= maxResolveAttempts {
				return nil, lastErr
			}
			if err := waitBackoff(ctx, retryBackoff); err != nil {
				if lastErr != nil {
					return nil, fmt.Errorf("%w (last error: %v)", err, lastErr)
				}
				return nil, err
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, ctxError(err)
		}
		topicSet := map[string]struct{}{}
		for tp := range todo {
			topicSet[tp.Topic] = struct{}{}
		}
		topics := make([]string, 0, len(topicSet))
		for t := range topicSet {
			topics = append(topics, t)
		}
		sort.Strings(topics)
		md, err := c.cl.Metadata(ctx, topics)
		if err != nil {
			lastErr = err
			if ctx.Err() != nil {
				return nil, err
			}
			continue
		}
		byLeader := map[int32][]listReq{}
		stale := false
		for tp, ts := range todo {
			tm := md.Topics[tp.Topic]
			if tm == nil || tm.Err != nil {
				if tm != nil && isFatalTopicErr(tm.Err) {
					return nil, &PartitionError{tp, tm.Err}
				}
				lastErr = fmt.Errorf("consumer: %s: no metadata: %w", tp, wire.ErrUnknownTopicOrPartition)
				if tm != nil {
					lastErr = &PartitionError{tp, tm.Err}
				}
				stale = true
				continue
			}
			pm := findPartition(tm, tp.Partition)
			if pm == nil || pm.Leader < 0 {
				lastErr = &PartitionError{tp, wire.ErrLeaderNotAvailable}
				if pm == nil {
					lastErr = &PartitionError{tp, wire.ErrUnknownTopicOrPartition}
				}
				stale = true
				continue
			}
			byLeader[pm.Leader] = append(byLeader[pm.Leader], listReq{tp, ts, pm.LeaderEpoch})
		}
		for node, reqs := range byLeader {
			res, err := c.tr.listOffsets(ctx, node, c.cfg.Isolation, reqs)
			if err != nil {
				lastErr = err
				stale = true
				if ctx.Err() != nil {
					return nil, err
				}
				continue
			}
			for _, r := range reqs {
				lr, ok := res[r.TopicPartition]
				switch {
				case !ok:
					lastErr = fmt.Errorf("consumer: ListOffsets response lacks %s", r.TopicPartition)
				case lr.Err == nil:
					out[r.TopicPartition] = lr.Offset
					delete(todo, r.TopicPartition)
				default:
					if wire.Fatal(lr.Err) {
						return nil, &PartitionError{r.TopicPartition, lr.Err}
					}
					lastErr = &PartitionError{r.TopicPartition, lr.Err}
					stale = true
				}
			}
		}
		if stale {
			c.cl.InvalidateMetadata()
		}
	}
	return out, nil
}

// waitBackoff waits d or until ctx ends (then returns the mapped ctx error).
func waitBackoff(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctxError(ctx.Err())
	}
}
