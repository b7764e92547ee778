package admin

import (
	"context"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// Share groups (KIP-932). The share group configs (share.auto.offset.reset,
// share.record.lock.duration.ms, share.isolation.level, ...) are group
// configs: IncrementalAlterConfigs / DescribeConfigs with ConfigResource type
// 32 (GROUP) and the group ID as the resource name.

// DescribeShareGroups describes share groups (ShareGroupDescribe v1, one
// request per coordinator) and returns one description per group in request
// order, with Type "share", State "Empty" / "Stable" / "Dead", Protocol the
// assignor ("simple"), Epoch the group epoch, and each member's MemberEpoch
// and assignment. A group that does not exist or is not a share group has
// Err wire.ErrGroupIDNotFound.
func (a *Admin) DescribeShareGroups(ctx context.Context, groups []string) ([]GroupDescription, error) {
	out := make([]GroupDescription, len(groups))
	for i, g := range groups {
		out[i] = GroupDescription{GroupID: g, Type: "share", Epoch: -1, Coordinator: -1}
	}
	runGroupCall(ctx, a, groups, groupCall[wire.ShareGroupDescribeGroup]{
		request: func(ids []string) wire.Request { return &wire.ShareGroupDescribeRequest{GroupIDs: ids} },
		answers: func(r wire.Response) []wire.ShareGroupDescribeGroup {
			return r.(*wire.ShareGroupDescribeResponse).Groups
		},
		id:   func(r *wire.ShareGroupDescribeGroup) string { return r.GroupID },
		code: func(r *wire.ShareGroupDescribeGroup) (int16, *string) { return r.ErrorCode, r.ErrorMessage },
		ok: func(i int, broker int32, r *wire.ShareGroupDescribeGroup) {
			d := &out[i]
			d.State, d.Protocol, d.Epoch, d.Coordinator = r.GroupState, r.AssignorName, r.GroupEpoch, broker
			d.Members = make([]GroupMember, 0, len(r.Members))
			for _, m := range r.Members {
				gm := GroupMember{MemberID: m.MemberID, ClientID: m.ClientID, ClientHost: m.ClientHost, MemberEpoch: m.MemberEpoch}
				for _, tp := range m.Assignment.TopicPartitions {
					for _, p := range tp.Partitions {
						gm.Assignment = append(gm.Assignment, gregor.TopicPartition{Topic: tp.TopicName, Partition: p})
					}
				}
				d.Members = append(d.Members, gm)
			}
		},
		idempotent: true,
	}, func(i int, err error) { out[i].Err = err })
	return out, nil
}

// ShareGroupOffset is one partition's share-partition start offset (SPSO):
// every offset below it is acknowledged or archived.
type ShareGroupOffset struct {
	gregor.TopicPartition
	// StartOffset is the share-partition start offset, -1 when the group
	// holds no state for the partition.
	StartOffset int64
	// LeaderEpoch is the leader epoch the state was written at.
	LeaderEpoch int32
	// Lag is the number of records not yet acknowledged, -1 when unknown
	// (brokers before DescribeShareGroupOffsets v1, KIP-1226).
	Lag int64
	// Err is nil or the partition's Kafka error.
	Err error
}

// ListShareGroupOffsets reads a share group's start offsets
// (DescribeShareGroupOffsets to the group coordinator) for the given topics,
// or every topic the group has state for when topics is nil, sorted as the
// broker answers. The broker persists a start offset with the state write
// after the one that moved it, so it may lag the acknowledgements by one
// write. A group-level failure (e.g. wire.ErrGroupIDNotFound) is returned
// as the error.
func (a *Admin) ListShareGroupOffsets(ctx context.Context, groupID string, topics []string) ([]ShareGroupOffset, error) {
	var out []ShareGroupOffset
	send := func(ctx context.Context, broker int32) (groupErr, err error) {
		g := wire.DescribeShareGroupOffsetsGroup{GroupID: groupID}
		if topics != nil {
			md, err := a.cl.Metadata(ctx, topics)
			if err != nil {
				return nil, err
			}
			g.Topics = []wire.DescribeShareGroupOffsetsTopic{}
			for _, t := range topics {
				rt := wire.DescribeShareGroupOffsetsTopic{TopicName: t}
				if tm, ok := md.Topics[t]; ok {
					for _, p := range tm.Partitions {
						rt.Partitions = append(rt.Partitions, p.Partition)
					}
				}
				g.Topics = append(g.Topics, rt)
			}
		}
		resp, err := a.cl.Request(ctx, broker, &wire.DescribeShareGroupOffsetsRequest{Groups: []wire.DescribeShareGroupOffsetsGroup{g}})
		if err != nil {
			return nil, err
		}
		out = out[:0]
		for _, rg := range resp.(*wire.DescribeShareGroupOffsetsResponse).Groups {
			if err := codeErr(rg.ErrorCode, rg.ErrorMessage); err != nil {
				return err, nil
			}
			for _, t := range rg.Topics {
				for _, p := range t.Partitions {
					out = append(out, ShareGroupOffset{TopicPartition: gregor.TopicPartition{Topic: t.TopicName, Partition: p.PartitionIndex},
						StartOffset: p.StartOffset, LeaderEpoch: p.LeaderEpoch, Lag: p.Lag, Err: codeErr(p.ErrorCode, p.ErrorMessage)})
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

// ShareOffsetToSet is a new share-partition start offset.
type ShareOffsetToSet struct {
	gregor.TopicPartition
	// StartOffset is the offset the group's next deliveries start from.
	StartOffset int64
}

// AlterShareGroupOffsets sets start offsets of an empty share group
// (AlterShareGroupOffsets v0 to the group coordinator) and returns one
// result per partition in request order. A group-level failure (e.g.
// wire.ErrNonEmptyGroup while the group has members,
// wire.ErrGroupIDNotFound) is returned as the error.
func (a *Admin) AlterShareGroupOffsets(ctx context.Context, groupID string, offsets []ShareOffsetToSet) ([]PartitionResult, error) {
	out := make([]PartitionResult, len(offsets))
	for i, o := range offsets {
		out[i].TopicPartition = o.TopicPartition
	}
	send := func(ctx context.Context, broker int32) (groupErr, err error) {
		req := &wire.AlterShareGroupOffsetsRequest{GroupID: groupID}
		pos := map[gregor.TopicPartition]int{}
		for i, o := range offsets {
			pos[o.TopicPartition] = i
			t := topicEntry(&req.Topics, o.Topic, func(t *wire.AlterShareGroupOffsetsTopic) *string { return &t.TopicName })
			t.Partitions = append(t.Partitions, wire.AlterShareGroupOffsetsPartition{PartitionIndex: o.Partition, StartOffset: o.StartOffset})
		}
		resp, err := a.cl.Request(ctx, broker, req)
		if err != nil {
			return nil, err
		}
		r := resp.(*wire.AlterShareGroupOffsetsResponse)
		if err := codeErr(r.ErrorCode, r.ErrorMessage); err != nil {
			return err, nil
		}
		for _, t := range r.Responses {
			for _, p := range t.Partitions {
				if i, ok := pos[gregor.TopicPartition{Topic: t.TopicName, Partition: p.PartitionIndex}]; ok {
					out[i].Err = codeErr(p.ErrorCode, p.ErrorMessage)
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

// DeleteShareGroupOffsets deletes an empty share group's state for whole
// topics (DeleteShareGroupOffsets v0 to the group coordinator) and returns
// one result per topic in request order. A group-level failure (e.g.
// wire.ErrNonEmptyGroup) is returned as the error.
func (a *Admin) DeleteShareGroupOffsets(ctx context.Context, groupID string, topics []string) ([]TopicResult, error) {
	out := make([]TopicResult, len(topics))
	for i, t := range topics {
		out[i].Name = t
	}
	send := func(ctx context.Context, broker int32) (groupErr, err error) {
		req := &wire.DeleteShareGroupOffsetsRequest{GroupID: groupID}
		for _, t := range topics {
			req.Topics = append(req.Topics, wire.DeleteShareGroupOffsetsTopic{TopicName: t})
		}
		resp, err := a.cl.Request(ctx, broker, req)
		if err != nil {
			return nil, err
		}
		r := resp.(*wire.DeleteShareGroupOffsetsResponse)
		if err := codeErr(r.ErrorCode, r.ErrorMessage); err != nil {
			return err, nil
		}
		for i, t := range topics {
			rt := answerFor(r.Responses, func(x *wire.DeleteShareGroupOffsetsTopicResult) bool { return x.TopicName == t })
			if rt == nil {
				out[i].Err = wire.ErrUnknownServerError
				continue
			}
			out[i].TopicID, out[i].Err = rt.TopicID, codeErr(rt.ErrorCode, rt.ErrorMessage)
		}
		return nil, nil
	}
	if err := a.atCoordinator(ctx, groupID, send); err != nil {
		return nil, err
	}
	return out, nil
}
