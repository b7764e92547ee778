package protocol

// The admin command handlers of adminCommands (admin_session.go), one per
// command kind: call the Admin, check the result count, build the event.

import (
	"context"
	"slices"
)

// createTopic creates or validates one topic.
func createTopic(ctx context.Context, a Admin, p *CreateTopic) (Event, error) {
	errs, err := a.CreateTopics(ctx, []TopicSpec{{Topic: p.Topic, Partitions: p.Partitions, ReplicationFactor: p.ReplicationFactor}}, p.ValidateOnly)
	if err = single(errs, err); err != nil {
		return nil, err
	}
	if p.ValidateOnly {
		return TopicCreationValidated{OperationID: p.OperationID, Topic: p.Topic}, nil
	}
	return TopicCreated{OperationID: p.OperationID, Topic: p.Topic}, nil
}

// createTopicsBatch creates several topics with per-topic outcomes.
func createTopicsBatch(ctx context.Context, a Admin, p *CreateTopicsBatch) (Event, error) {
	errs, err := a.CreateTopics(ctx, p.Topics, false)
	if err != nil {
		return nil, err
	}
	if len(errs) != len(p.Topics) {
		return nil, fatalf("adapter_admin_result", "%v", errNoResult)
	}
	out := make([]TopicOutcome, len(p.Topics))
	for i, t := range p.Topics {
		out[i] = TopicOutcome{Topic: t.Topic, ErrorCode: codePtr(errs[i])}
	}
	return TopicsCreationCompleted{OperationID: p.OperationID, Outcomes: out}, nil
}

// createPartitions raises (or validates raising) a topic's partition count.
func createPartitions(ctx context.Context, a Admin, p *CreatePartitions) (Event, error) {
	if err := a.CreatePartitions(ctx, p.Topic, p.TotalCount, p.ValidateOnly); err != nil {
		return nil, err
	}
	if p.ValidateOnly {
		return TopicPartitionIncreaseValidated{OperationID: p.OperationID, Topic: p.Topic}, nil
	}
	return TopicPartitionsCreated{OperationID: p.OperationID, Topic: p.Topic}, nil
}

// listTopics lists topic names, sorted and unique.
func listTopics(ctx context.Context, a Admin, p *ListTopics) (Event, error) {
	topics, err := a.ListTopics(ctx, p.IncludeInternal)
	if err != nil {
		return nil, err
	}
	return TopicsListed{OperationID: p.OperationID, Topics: sortedUnique(topics)}, nil
}

// listOffsets looks up one partition's earliest or latest offset.
func listOffsets(ctx context.Context, a Admin, p *ListOffsets) (Event, error) {
	off, err := a.ListOffset(ctx, p.Topic, p.Partition, p.Position == "latest")
	if err != nil {
		return nil, err
	}
	return OffsetListed{OperationID: p.OperationID, Topic: p.Topic, Partition: p.Partition, Offset: off}, nil
}

// deleteRecords deletes one partition's records before an offset.
func deleteRecords(ctx context.Context, a Admin, p *DeleteRecords) (Event, error) {
	low, err := a.DeleteRecords(ctx, p.Topic, p.Partition, p.BeforeOffset)
	if err != nil {
		return nil, err
	}
	return RecordsDeleted{OperationID: p.OperationID, Topic: p.Topic, Partition: p.Partition, LowWatermark: low}, nil
}

// describeTopicConfig reads one topic config entry.
func describeTopicConfig(ctx context.Context, a Admin, p *DescribeTopicConfig) (Event, error) {
	v, err := a.DescribeTopicConfig(ctx, p.Topic, p.ConfigName)
	if err != nil {
		return nil, err
	}
	return TopicConfigDescribed{OperationID: p.OperationID, Topic: p.Topic, ConfigName: p.ConfigName, Value: v}, nil
}

// alterTopicConfig sets (or validates setting) one topic config entry.
func alterTopicConfig(ctx context.Context, a Admin, p *AlterTopicConfig) (Event, error) {
	if err := a.AlterTopicConfig(ctx, p.Topic, p.ConfigName, p.Value, p.ValidateOnly); err != nil {
		return nil, err
	}
	if p.ValidateOnly {
		return TopicConfigAlterationValidated{OperationID: p.OperationID, Topic: p.Topic, ConfigName: p.ConfigName}, nil
	}
	return TopicConfigAltered{OperationID: p.OperationID, Topic: p.Topic, ConfigName: p.ConfigName}, nil
}

// listConsumerGroupOffsets reads one committed offset.
func listConsumerGroupOffsets(ctx context.Context, a Admin, p *ListConsumerGroupOffsets) (Event, error) {
	res, err := a.ListGroupOffsets(ctx, []GroupPartitions{{GroupID: p.GroupID, Partitions: []TopicPartition{{Topic: p.Topic, Partition: p.Partition}}}}, p.RequireStable)
	if err != nil {
		return nil, err
	}
	if len(res) != 1 || (res[0].Err == nil && len(res[0].Offsets) != 1) {
		return nil, fatalf("adapter_admin_result", "%v", errNoResult)
	}
	if res[0].Err != nil {
		return nil, res[0].Err
	}
	if err := res[0].Offsets[0].Err; err != nil {
		return nil, err
	}
	return ConsumerGroupOffsetListed{OperationID: p.OperationID, GroupID: p.GroupID, Topic: p.Topic, Partition: p.Partition, Offset: res[0].Offsets[0].Offset}, nil
}

// listConsumerGroupOffsetsBatch reads one group's committed offsets of several partitions.
func listConsumerGroupOffsetsBatch(ctx context.Context, a Admin, p *ListConsumerGroupOffsetsBatch) (Event, error) {
	res, err := a.ListGroupOffsets(ctx, []GroupPartitions{{GroupID: p.GroupID, Partitions: p.Partitions}}, p.RequireStable)
	if err != nil {
		return nil, err
	}
	if len(res) != 1 {
		return nil, fatalf("adapter_admin_result", "%v", errNoResult)
	}
	if res[0].Err != nil {
		return nil, res[0].Err
	}
	out, err := offsetOutcomes(p.Partitions, res[0].Offsets)
	if err != nil {
		return nil, err
	}
	return ConsumerGroupOffsetsListed{OperationID: p.OperationID, GroupID: p.GroupID, Outcomes: out}, nil
}

// listConsumerGroupsOffsets reads committed offsets of several groups.
func listConsumerGroupsOffsets(ctx context.Context, a Admin, p *ListConsumerGroupsOffsets) (Event, error) {
	res, err := a.ListGroupOffsets(ctx, p.Groups, p.RequireStable)
	if err != nil {
		return nil, err
	}
	if len(res) != len(p.Groups) {
		return nil, fatalf("adapter_admin_result", "%v", errNoResult)
	}
	groups := make([]GroupOffsetsOutcome, len(p.Groups))
	for i, g := range p.Groups {
		groups[i] = GroupOffsetsOutcome{GroupID: g.GroupID, ErrorCode: codePtr(res[i].Err), Offsets: []OffsetOutcome{}}
		if res[i].Err == nil {
			if groups[i].Offsets, err = offsetOutcomes(g.Partitions, res[i].Offsets); err != nil {
				return nil, err
			}
		}
	}
	return ConsumerGroupsOffsetsListed{OperationID: p.OperationID, Groups: groups}, nil
}

// alterConsumerGroupOffset commits one offset for a group.
func alterConsumerGroupOffset(ctx context.Context, a Admin, p *AlterConsumerGroupOffset) (Event, error) {
	errs, err := a.AlterGroupOffsets(ctx, p.GroupID, []PartitionOffset{{Topic: p.Topic, Partition: p.Partition, Offset: p.Offset}})
	if err = single(errs, err); err != nil {
		return nil, err
	}
	return ConsumerGroupOffsetAltered{OperationID: p.OperationID, GroupID: p.GroupID, Topic: p.Topic, Partition: p.Partition}, nil
}

// alterConsumerGroupOffsets commits several offsets for a group.
func alterConsumerGroupOffsets(ctx context.Context, a Admin, p *AlterConsumerGroupOffsets) (Event, error) {
	errs, err := a.AlterGroupOffsets(ctx, p.GroupID, p.Offsets)
	if err != nil {
		return nil, err
	}
	tps := make([]TopicPartition, len(p.Offsets))
	for i, o := range p.Offsets {
		tps[i] = TopicPartition{Topic: o.Topic, Partition: o.Partition}
	}
	out, err := partitionOutcomes(tps, errs)
	if err != nil {
		return nil, err
	}
	return ConsumerGroupOffsetsAltered{OperationID: p.OperationID, GroupID: p.GroupID, Outcomes: out}, nil
}

// deleteConsumerGroupOffset deletes one committed offset.
func deleteConsumerGroupOffset(ctx context.Context, a Admin, p *DeleteConsumerGroupOffset) (Event, error) {
	errs, err := a.DeleteGroupOffsets(ctx, p.GroupID, []TopicPartition{{Topic: p.Topic, Partition: p.Partition}})
	if err = single(errs, err); err != nil {
		return nil, err
	}
	return ConsumerGroupOffsetDeleted{OperationID: p.OperationID, GroupID: p.GroupID, Topic: p.Topic, Partition: p.Partition}, nil
}

// deleteConsumerGroupOffsets deletes several committed offsets.
func deleteConsumerGroupOffsets(ctx context.Context, a Admin, p *DeleteConsumerGroupOffsets) (Event, error) {
	errs, err := a.DeleteGroupOffsets(ctx, p.GroupID, p.Partitions)
	if err != nil {
		return nil, err
	}
	out, err := partitionOutcomes(p.Partitions, errs)
	if err != nil {
		return nil, err
	}
	return ConsumerGroupOffsetsDeleted{OperationID: p.OperationID, GroupID: p.GroupID, Outcomes: out}, nil
}

// describeClassicGroups describes classic groups.
func describeClassicGroups(ctx context.Context, a Admin, p *DescribeClassicGroups) (Event, error) {
	res, err := a.DescribeClassicGroups(ctx, p.GroupIDs)
	if err != nil {
		return nil, err
	}
	if len(res) != len(p.GroupIDs) {
		return nil, fatalf("adapter_admin_result", "%v", errNoResult)
	}
	out := make([]ClassicGroupOutcome, len(res))
	for i, g := range res {
		out[i] = ClassicGroupOutcome{GroupID: p.GroupIDs[i], ErrorCode: codePtr(g.Err)}
		if g.Err == nil {
			n := g.MemberCount
			out[i].MemberCount = &n
		}
	}
	return ClassicGroupsDescribed{OperationID: p.OperationID, Outcomes: out}, nil
}

// deleteTopic deletes one topic.
func deleteTopic(ctx context.Context, a Admin, p *DeleteTopic) (Event, error) {
	if err := a.DeleteTopic(ctx, p.Topic); err != nil {
		return nil, err
	}
	return TopicDeleted{OperationID: p.OperationID, Topic: p.Topic}, nil
}

// describeTopic lists a topic's partitions, sorted and unique.
func describeTopic(ctx context.Context, a Admin, p *DescribeTopic) (Event, error) {
	parts, err := a.DescribeTopic(ctx, p.Topic)
	if err != nil {
		return nil, err
	}
	parts = slices.Clone(parts)
	slices.Sort(parts)
	parts = slices.Compact(parts)
	if parts == nil {
		parts = []int32{}
	}
	return TopicDescribed{OperationID: p.OperationID, Topic: p.Topic, Partitions: parts}, nil
}

// describeCluster reads the cluster ID and the sorted broker IDs.
func describeCluster(ctx context.Context, a Admin, p *AdminSimple) (Event, error) {
	id, brokers, err := a.DescribeCluster(ctx)
	if err != nil {
		return nil, err
	}
	brokers = slices.Clone(brokers)
	slices.Sort(brokers)
	if brokers == nil {
		brokers = []int32{}
	}
	return ClusterDescribed{OperationID: p.OperationID, ClusterID: id, BrokerIDs: brokers}, nil
}

// listConsumerGroups lists group IDs and the brokers that failed to answer.
func listConsumerGroups(ctx context.Context, a Admin, p *AdminSimple) (Event, error) {
	groups, berrs, err := a.ListConsumerGroups(ctx)
	if err != nil {
		return nil, err
	}
	be := make([]BrokerErrorCode, len(berrs))
	for i, b := range berrs {
		be[i] = BrokerErrorCode(b)
	}
	slices.SortFunc(be, func(x, y BrokerErrorCode) int { return int(x.BrokerID) - int(y.BrokerID) })
	return ConsumerGroupsListed{OperationID: p.OperationID, GroupIDs: sortedUnique(groups), BrokerErrors: be}, nil
}

// describeConsumerGroup counts a group's members.
func describeConsumerGroup(ctx context.Context, a Admin, p *GroupCommand) (Event, error) {
	n, err := a.DescribeConsumerGroup(ctx, p.GroupID)
	if err != nil {
		return nil, err
	}
	return ConsumerGroupDescribed{OperationID: p.OperationID, GroupID: p.GroupID, MemberCount: n}, nil
}

// deleteConsumerGroup deletes one group.
func deleteConsumerGroup(ctx context.Context, a Admin, p *GroupCommand) (Event, error) {
	if err := a.DeleteConsumerGroup(ctx, p.GroupID); err != nil {
		return nil, err
	}
	return ConsumerGroupDeleted{OperationID: p.OperationID, GroupID: p.GroupID}, nil
}
