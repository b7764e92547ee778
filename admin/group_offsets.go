package admin

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// offsetVersionCap is the highest OffsetFetch/OffsetCommit version admin
// uses: v10 names topics by ID only (KIP-848), v9 still by name.
const offsetVersionCap = 9

// offsetVersion returns the version of api (OffsetFetch or OffsetCommit) to
// send to broker: the broker's highest, capped at offsetVersionCap. A broker
// without the API fails with wire.ErrUnsupportedVersion.
func (a *Admin) offsetVersion(ctx context.Context, broker int32, api wire.APIKey) (int16, error) {
	vers, err := a.cl.BrokerVersions(ctx, broker)
	if err != nil {
		return 0, err
	}
	vr, ok := vers[api]
	if !ok {
		return 0, wire.ErrUnsupportedVersion
	}
	return min(vr[1], offsetVersionCap), nil
}

// GroupOffsetsQuery asks for a group's committed offsets.
type GroupOffsetsQuery struct {
	// GroupID is the group ID.
	GroupID string
	// Partitions to read; nil reads every partition with a committed offset.
	Partitions []gregor.TopicPartition
}

// CommittedOffset is a group's committed offset for one partition.
type CommittedOffset struct {
	gregor.TopicPartition
	// Committed is false when the group has no committed offset for the
	// partition: absence, never offset 0 (Offset is then -1).
	Committed bool
	// Offset is the committed offset: the next offset to consume.
	Offset int64
	// LeaderEpoch is the committed leader epoch, -1 when unknown.
	LeaderEpoch int32
	// Metadata is the commit's metadata string.
	Metadata string
	// Err is nil or the partition's Kafka error (e.g. UNSTABLE_OFFSET_COMMIT
	// until the deadline with RequireStable).
	Err error
}

// GroupOffsets is the outcome for one group of FetchOffsets.
type GroupOffsets struct {
	// GroupID is the group ID.
	GroupID string
	// Offsets follow the query's partitions in order, or, for a query of
	// every partition, are sorted by topic and partition.
	Offsets []CommittedOffset
	// Err is nil, a group-level Kafka error (e.g. GROUP_AUTHORIZATION_FAILED),
	// or the failure that ended the retries.
	Err error
}

// FetchOffsetsOptions tunes FetchOffsets.
type FetchOffsetsOptions struct {
	// RequireStable waits out pending transactional commits: the broker
	// answers UNSTABLE_OFFSET_COMMIT (retried within ctx) until they
	// complete (OffsetFetch v7+, KIP-447).
	RequireStable bool
}

// FetchOffsets reads committed offsets of one or many groups (OffsetFetch:
// v8+ batches the groups sharing a coordinator into one request, KIP-709;
// older brokers get one request per group) and returns one result per query
// in request order.
func (a *Admin) FetchOffsets(ctx context.Context, queries []GroupOffsetsQuery, opts FetchOffsetsOptions) ([]GroupOffsets, error) {
	out := make([]GroupOffsets, len(queries))
	for i, q := range queries {
		out[i].GroupID = q.GroupID
	}
	group := func(i int) string { return queries[i].GroupID }
	send := func(ctx context.Context, broker int32, idx []int) (map[int]error, error) {
		v, err := a.offsetVersion(ctx, broker, wire.KeyOffsetFetch)
		if err != nil {
			return nil, err
		}
		retry := map[int]error{}
		if v >= 8 {
			req := &wire.OffsetFetchRequest{RequireStable: opts.RequireStable}
			for _, i := range idx {
				req.Groups = append(req.Groups, wire.OffsetFetchRequestGroup{GroupID: queries[i].GroupID, MemberEpoch: -1, Topics: fetchTopics(queries[i].Partitions)})
			}
			resp, err := a.cl.RequestVersion(ctx, broker, req, v)
			if err != nil {
				return nil, err
			}
			gs := resp.(*wire.OffsetFetchResponse).Groups
			for _, i := range idx {
				var g *wire.OffsetFetchGroupResult
				for j := range gs {
					if gs[j].GroupID == queries[i].GroupID {
						g = &gs[j]
					}
				}
				if g == nil {
					out[i].Err = wire.ErrUnknownServerError
					continue
				}
				if e := a.applyFetched(&out[i], queries[i], g.ErrorCode, g.Topics); e != nil {
					retry[i] = e
				}
			}
			return retry, nil
		}
		for _, i := range idx {
			req := &wire.OffsetFetchRequest{GroupID: queries[i].GroupID, Topics: fetchTopics(queries[i].Partitions), RequireStable: opts.RequireStable}
			resp, err := a.cl.RequestVersion(ctx, broker, req, v)
			if err != nil {
				return nil, err
			}
			r := resp.(*wire.OffsetFetchResponse)
			if e := a.applyFetched(&out[i], queries[i], r.ErrorCode, r.Topics); e != nil {
				retry[i] = e
			}
		}
		return retry, nil
	}
	a.runPlan(ctx, resourcePlan{
		resources:     len(queries),
		idempotent:    true,
		route:         a.coordRoute(group),
		send:          send,
		onSendFailure: a.forgetCoordinators(group),
		fail:          func(i int, err error) { out[i].Err = err },
	})
	return out, nil
}

// fetchTopics converts requested partitions to OffsetFetch topics (nil: all).
func fetchTopics(parts []gregor.TopicPartition) []wire.OffsetFetchRequestTopic {
	if parts == nil {
		return nil
	}
	topics := []wire.OffsetFetchRequestTopic{}
	for _, p := range parts {
		t := topicEntry(&topics, p.Topic, func(t *wire.OffsetFetchRequestTopic) *string { return &t.Name })
		t.PartitionIndexes = append(t.PartitionIndexes, p.Partition)
	}
	return topics
}

// applyFetched records one group's OffsetFetch answer into res. It returns
// a non-nil error when the group must be asked again (coordinator moved,
// or an unstable offset under RequireStable).
func (a *Admin) applyFetched(res *GroupOffsets, q GroupOffsetsQuery, code int16, topics []wire.OffsetFetchTopicResult) error {
	if err := wire.ErrorForCode(code); err != nil {
		if a.coordRetry(q.GroupID, err) {
			return err
		}
		res.Err = err
		return nil
	}
	got := map[gregor.TopicPartition]CommittedOffset{}
	var all []CommittedOffset
	for _, t := range topics {
		for _, p := range t.Partitions {
			c := CommittedOffset{TopicPartition: gregor.TopicPartition{Topic: t.Name, Partition: p.PartitionIndex}, Offset: p.CommittedOffset,
				LeaderEpoch: p.CommittedLeaderEpoch, Err: wire.ErrorForCode(p.ErrorCode)}
			if errors.Is(c.Err, wire.ErrUnstableOffsetCommit) {
				return c.Err
			}
			if wire.Classify(c.Err).Has(wire.ClassCoordinator) {
				a.coordRetry(q.GroupID, c.Err)
				return c.Err
			}
			if p.Metadata != nil {
				c.Metadata = *p.Metadata
			}
			c.Committed = c.Err == nil && p.CommittedOffset >= 0
			if !c.Committed {
				c.Offset = -1
			}
			got[c.TopicPartition] = c
			all = append(all, c)
		}
	}
	if q.Partitions == nil {
		slices.SortFunc(all, func(x, y CommittedOffset) int {
			if c := strings.Compare(x.Topic, y.Topic); c != 0 {
				return c
			}
			return int(x.Partition) - int(y.Partition)
		})
		res.Offsets = all
		return nil
	}
	res.Offsets = make([]CommittedOffset, len(q.Partitions))
	for k, tp := range q.Partitions {
		c, ok := got[tp]
		if !ok {
			c = CommittedOffset{TopicPartition: tp, Offset: -1, LeaderEpoch: -1}
		}
		res.Offsets[k] = c
	}
	return nil
}

// OffsetToCommit is one offset to set for a group.
type OffsetToCommit struct {
	gregor.TopicPartition
	// Offset is the next offset the group will consume.
	Offset int64
	// LeaderEpoch is the leader epoch of the record before Offset, or -1.
	LeaderEpoch int32
	// Metadata is an optional metadata string.
	Metadata string
}

// PartitionResult is the outcome of a group offset operation for one partition.
type PartitionResult struct {
	gregor.TopicPartition
	// Err is nil or the Kafka error for the partition (e.g.
	// UNKNOWN_MEMBER_ID when the group has active members,
	// GROUP_SUBSCRIBED_TO_TOPIC for OffsetDelete of a consumed topic).
	Err error
}

// AlterOffsets sets committed offsets of a group as an admin (OffsetCommit
// v2-9 to the group coordinator, generation -1 and no member: the group
// must have no active members) and returns one result per offset in request
// order. The error is non-nil when the group could not be reached at all
// (e.g. its coordinator cannot be found before the deadline).
func (a *Admin) AlterOffsets(ctx context.Context, groupID string, offsets []OffsetToCommit) ([]PartitionResult, error) {
	out := make([]PartitionResult, len(offsets))
	for i, o := range offsets {
		out[i].TopicPartition = o.TopicPartition
	}
	send := func(ctx context.Context, broker int32) (groupErr, err error) {
		v, err := a.offsetVersion(ctx, broker, wire.KeyOffsetCommit)
		if err != nil {
			return nil, err
		}
		req := &wire.OffsetCommitRequest{GroupID: groupID, GenerationIDOrMemberEpoch: -1, RetentionTimeMs: -1}
		pos := map[gregor.TopicPartition]int{}
		for i, o := range offsets {
			pos[o.TopicPartition] = i
			t := topicEntry(&req.Topics, o.Topic, func(t *wire.OffsetCommitTopic) *string { return &t.Name })
			md := o.Metadata
			t.Partitions = append(t.Partitions, wire.OffsetCommitPartition{
				PartitionIndex: o.Partition, CommittedOffset: o.Offset, CommittedLeaderEpoch: o.LeaderEpoch, CommittedMetadata: &md})
		}
		resp, err := a.cl.RequestVersion(ctx, broker, req, v)
		if err != nil {
			return nil, err
		}
		for _, t := range resp.(*wire.OffsetCommitResponse).Topics {
			for _, p := range t.Partitions {
				i, ok := pos[gregor.TopicPartition{Topic: t.Name, Partition: p.PartitionIndex}]
				if !ok {
					continue
				}
				err := wire.ErrorForCode(p.ErrorCode)
				if wire.Classify(err).Has(wire.ClassCoordinator) {
					return err, nil // atCoordinator finds the coordinator again
				}
				out[i].Err = err
			}
		}
		return nil, nil
	}
	if err := a.atCoordinator(ctx, groupID, send); err != nil {
		return nil, err
	}
	return out, nil
}

// DeleteOffsets deletes committed offsets of a group (OffsetDelete v0 to the
// group coordinator; KIP-496) and returns one result per partition in request
// order. A group-level failure (e.g. wire.ErrGroupIDNotFound, or
// wire.ErrNonEmptyGroup-like refusals) is returned as the error.
func (a *Admin) DeleteOffsets(ctx context.Context, groupID string, partitions []gregor.TopicPartition) ([]PartitionResult, error) {
	out := make([]PartitionResult, len(partitions))
	for i, tp := range partitions {
		out[i].TopicPartition = tp
	}
	send := func(ctx context.Context, broker int32) (groupErr, err error) {
		req := &wire.OffsetDeleteRequest{GroupID: groupID}
		pos := map[gregor.TopicPartition]int{}
		for i, tp := range partitions {
			pos[tp] = i
			t := topicEntry(&req.Topics, tp.Topic, func(t *wire.OffsetDeleteTopic) *string { return &t.Name })
			t.Partitions = append(t.Partitions, tp.Partition)
		}
		resp, err := a.cl.Request(ctx, broker, req)
		if err != nil {
			return nil, err
		}
		r := resp.(*wire.OffsetDeleteResponse)
		if err := wire.ErrorForCode(r.ErrorCode); err != nil {
			return err, nil
		}
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				if i, ok := pos[gregor.TopicPartition{Topic: t.Name, Partition: p.PartitionIndex}]; ok {
					out[i].Err = wire.ErrorForCode(p.ErrorCode)
				}
			}
		}
		return nil, nil
	}
	if err := a.atCoordinator(ctx, groupID, send); err != nil {
		return nil, err
	}
	return out, nil
}

// coordSend sends one request to the group coordinator broker and records
// its per-item results; it returns the answer's group-level Kafka error
// (nil when there is none) or a whole-request failure.
type coordSend func(ctx context.Context, broker int32) (groupErr, err error)

// atCoordinator runs send as one request at groupID's coordinator, retried
// within ctx as runPlan does: after a failed request, or a group-level
// error that finding the coordinator again cures (NOT_COORDINATOR and the
// like), the coordinator is looked up again. It returns the group-level
// error, or the failure that ended the retries, if any.
func (a *Admin) atCoordinator(ctx context.Context, groupID string, send coordSend) error {
	var opErr, groupErr error
	group := func(int) string { return groupID }
	once := func(ctx context.Context, broker int32, _ []int) (map[int]error, error) {
		gerr, err := send(ctx, broker)
		if err != nil {
			return nil, err
		}
		if gerr != nil && a.coordRetry(groupID, gerr) {
			return map[int]error{0: gerr}, nil
		}
		groupErr = gerr
		return nil, nil
	}
	a.runPlan(ctx, resourcePlan{
		resources:     1,
		idempotent:    true,
		route:         a.coordRoute(group),
		send:          once,
		onSendFailure: a.forgetCoordinators(group),
		fail:          func(_ int, err error) { opErr = err },
	})
	if opErr != nil {
		return opErr
	}
	return groupErr
}
