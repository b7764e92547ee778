package admin

import (
	"context"
	"errors"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// OffsetSpec selects which offset ListOffsets returns: one of the constants
// or a timestamp in milliseconds since the epoch (AtTimestamp).
type OffsetSpec int64

// Offset specs (the special timestamps of ListOffsets).
const (
	// OffsetLatest is the high watermark (the last stable offset under
	// ReadCommitted): the offset the next record will get.
	OffsetLatest OffsetSpec = OffsetSpec(wire.ListOffsetsLatest)
	// OffsetEarliest is the log start offset (the low watermark).
	OffsetEarliest OffsetSpec = OffsetSpec(wire.ListOffsetsEarliest)
	// OffsetMaxTimestamp is the offset of the record with the largest
	// timestamp (ListOffsets v7+, KIP-734).
	OffsetMaxTimestamp OffsetSpec = OffsetSpec(wire.ListOffsetsMaxTimestamp)
)

// AtTimestamp selects the earliest offset whose record timestamp is at or
// after t (millisecond precision; t must be after the Unix epoch).
func AtTimestamp(t time.Time) OffsetSpec { return OffsetSpec(t.UnixMilli()) }

// OffsetQuery asks for one partition's offset.
type OffsetQuery struct {
	gregor.TopicPartition
	// Spec selects the offset.
	Spec OffsetSpec
}

// ListedOffset is the answer for one partition of ListOffsets.
type ListedOffset struct {
	gregor.TopicPartition
	// Found is false when no offset matches (a timestamp after every
	// record); Offset is then -1 and Timestamp the zero time.
	Found bool
	// Offset is the offset found.
	Offset int64
	// Timestamp is the matching record's timestamp (millisecond precision),
	// the zero time for earliest/latest or when none was found.
	Timestamp time.Time
	// LeaderEpoch is the partition leader's epoch (-1 unknown).
	LeaderEpoch int32
	// Err is nil, wire.ErrUnknownTopicOrPartition for a missing topic or
	// partition, another Kafka error, or the failure that ended the retries.
	Err error
}

// ListOffsetsOptions tunes ListOffsets.
type ListOffsetsOptions struct {
	// ReadCommitted makes OffsetLatest the last stable offset.
	ReadCommitted bool
}

// leaderPlan is the plan of a call on n partitions, each sent to its
// leader (leaderRoute); a failed request invalidates metadata, as the
// leader may have moved.
func (a *Admin) leaderPlan(n int, parts func(i int) gregor.TopicPartition, send sendFunc, fail func(i int, err error)) resourcePlan {
	route, retryRoute := a.leaderRoute(parts)
	return resourcePlan{
		resources:     n,
		idempotent:    true,
		route:         route,
		send:          send,
		retryRoute:    retryRoute,
		onSendFailure: func(int32, []int) { a.cl.InvalidateMetadata() },
		fail:          fail,
	}
}

// leaderRoute routes partition parts[i] to its leader. An unknown topic or
// partition is retried once after a metadata refresh (the cache may predate
// a creation), then final.
func (a *Admin) leaderRoute(parts func(i int) gregor.TopicPartition) (routeFunc, func(ctx context.Context, i int, err error) bool) {
	unknownSeen := map[int]bool{}
	route := func(ctx context.Context, i int) (int32, error) {
		tp := parts(i)
		id, _, err := a.cl.Leader(ctx, tp.Topic, tp.Partition)
		return id, err
	}
	onErr := func(ctx context.Context, i int, err error) bool {
		if ctx.Err() != nil {
			return false
		}
		if errors.Is(err, wire.ErrUnknownTopicOrPartition) {
			if unknownSeen[i] {
				return false
			}
			unknownSeen[i] = true
			a.cl.InvalidateMetadata()
			return true
		}
		if wire.Retriable(err) {
			a.cl.InvalidateMetadata()
			return true
		}
		return transient(ctx, err, true)
	}
	return route, onErr
}

// ListOffsets looks up offsets of many partitions at once (ListOffsets
// v1-11, one request per partition leader) and returns one answer per query
// in request order. Leadership changes are retried after a metadata refresh
// within ctx. The error is reserved for operation-wide failures (never
// returned today: every failure is per partition).
func (a *Admin) ListOffsets(ctx context.Context, queries []OffsetQuery, opts ListOffsetsOptions) ([]ListedOffset, error) {
	out := make([]ListedOffset, len(queries))
	for i, q := range queries {
		out[i] = ListedOffset{TopicPartition: q.TopicPartition, Offset: -1, LeaderEpoch: -1}
	}
	leaders := func(i int) gregor.TopicPartition { return queries[i].TopicPartition }
	send := inRounds(func(i int) gregor.TopicPartition { return queries[i].TopicPartition }, func(ctx context.Context, broker int32, idx []int) (map[int]error, error) {
		req := &wire.ListOffsetsRequest{ReplicaID: -1, TimeoutMs: timeoutMs(ctx, 30*time.Second)}
		if opts.ReadCommitted {
			req.IsolationLevel = 1
		}
		pos := map[gregor.TopicPartition]int{}
		for _, i := range idx {
			q := queries[i]
			pos[q.TopicPartition] = i
			t := topicEntry(&req.Topics, q.Topic, func(t *wire.ListOffsetsTopic) *string { return &t.Name })
			t.Partitions = append(t.Partitions,
				wire.ListOffsetsPartition{PartitionIndex: q.Partition, CurrentLeaderEpoch: -1, Timestamp: int64(q.Spec)})
		}
		resp, err := a.cl.Request(ctx, broker, req)
		if err != nil {
			return nil, err
		}
		answers := a.newLeaderAnswers(pos, func(i int, err error) { out[i].Err = err })
		for _, t := range resp.(*wire.ListOffsetsResponse).Topics {
			for _, p := range t.Partitions {
				if i, ok := answers.answer(gregor.TopicPartition{Topic: t.Name, Partition: p.PartitionIndex}, p.ErrorCode); ok {
					out[i].Offset, out[i].Timestamp, out[i].LeaderEpoch = p.Offset, wire.TimeOfMillis(p.Timestamp), p.LeaderEpoch
					out[i].Found = p.Offset >= 0
				}
			}
		}
		return answers.done(idx, "offset", func(i int) gregor.TopicPartition { return queries[i].TopicPartition }), nil
	})
	a.runPlan(ctx, a.leaderPlan(len(queries), leaders, send, func(i int, err error) { out[i].Err = err }))
	return out, nil
}

// RecordsCutoff deletes the records of one partition before an offset.
type RecordsCutoff struct {
	gregor.TopicPartition
	// Before is the exclusive cutoff: records with offsets below it are
	// deleted. -1 deletes up to the high watermark.
	Before int64
}

// DeletedRecords is the outcome for one partition of DeleteRecords.
type DeletedRecords struct {
	gregor.TopicPartition
	// LowWatermark is the partition's log start offset after the deletion.
	LowWatermark int64
	// Err is nil, wire.ErrOffsetOutOfRange for a cutoff above the high
	// watermark, wire.ErrUnknownTopicOrPartition, another Kafka error, or
	// the failure that ended the retries.
	Err error
}

// DeleteRecords advances the log start offset of partitions (DeleteRecords
// v0-2, one request per partition leader) and returns one outcome per
// cutoff in request order. Deleting before an offset is idempotent, so
// leadership changes and transport failures are retried within ctx.
func (a *Admin) DeleteRecords(ctx context.Context, cutoffs []RecordsCutoff) ([]DeletedRecords, error) {
	out := make([]DeletedRecords, len(cutoffs))
	for i, c := range cutoffs {
		out[i] = DeletedRecords{TopicPartition: c.TopicPartition, LowWatermark: -1}
	}
	leaders := func(i int) gregor.TopicPartition { return cutoffs[i].TopicPartition }
	send := inRounds(func(i int) gregor.TopicPartition { return cutoffs[i].TopicPartition }, func(ctx context.Context, broker int32, idx []int) (map[int]error, error) {
		req := &wire.DeleteRecordsRequest{TimeoutMs: timeoutMs(ctx, 30*time.Second)}
		pos := map[gregor.TopicPartition]int{}
		for _, i := range idx {
			c := cutoffs[i]
			pos[c.TopicPartition] = i
			t := topicEntry(&req.Topics, c.Topic, func(t *wire.DeleteRecordsTopic) *string { return &t.Name })
			t.Partitions = append(t.Partitions, wire.DeleteRecordsPartition{PartitionIndex: c.Partition, Offset: c.Before})
		}
		resp, err := a.cl.Request(ctx, broker, req)
		if err != nil {
			return nil, err
		}
		answers := a.newLeaderAnswers(pos, func(i int, err error) { out[i].Err = err })
		for _, t := range resp.(*wire.DeleteRecordsResponse).Topics {
			for _, p := range t.Partitions {
				if i, ok := answers.answer(gregor.TopicPartition{Topic: t.Name, Partition: p.PartitionIndex}, p.ErrorCode); ok {
					out[i].LowWatermark = p.LowWatermark
				}
			}
		}
		return answers.done(idx, "result", func(i int) gregor.TopicPartition { return cutoffs[i].TopicPartition }), nil
	})
	a.runPlan(ctx, a.leaderPlan(len(cutoffs), leaders, send, func(i int, err error) { out[i].Err = err }))
	return out, nil
}

// inRounds wraps a per-partition send so that a partition asked for more
// than once (e.g. earliest and latest) goes in separate requests: Kafka
// answers each partition once per request.
func inRounds(key func(i int) gregor.TopicPartition, send sendFunc) sendFunc {
	return func(ctx context.Context, broker int32, idx []int) (map[int]error, error) {
		retry := map[int]error{}
		for len(idx) > 0 {
			seen := map[gregor.TopicPartition]bool{}
			var now, later []int
			for _, i := range idx {
				if seen[key(i)] {
					later = append(later, i)
					continue
				}
				seen[key(i)] = true
				now = append(now, i)
			}
			r, err := send(ctx, broker, now)
			if err != nil {
				return nil, err
			}
			for i, e := range r {
				retry[i] = e
			}
			idx = later
		}
		return retry, nil
	}
}
