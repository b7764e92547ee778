package adapter

import (
	"errors"
	"slices"
	"strings"
)

// errNoResult is reported when the admin API answers with fewer results
// than resources asked for (a bug upstream, never papered over).
var errNoResult = errors.New("admin result does not match the request")

func codePtr(err error) *string {
	if err == nil {
		return nil
	}
	c := normalize(err, familyAdmin)
	return &c
}

func (s *Session) dispatchAdmin(cmd *Command) error {
	var clientID ID
	switch p := cmd.Payload.(type) {
	case *CreateTopic:
		clientID = p.ClientID
	case *CreateTopicsBatch:
		clientID = p.ClientID
	case *CreatePartitions:
		clientID = p.ClientID
	case *DeleteTopic:
		clientID = p.ClientID
	case *ListTopics:
		clientID = p.ClientID
	case *ListOffsets:
		clientID = p.ClientID
	case *DeleteRecords:
		clientID = p.ClientID
	case *DescribeTopicConfig:
		clientID = p.ClientID
	case *AlterTopicConfig:
		clientID = p.ClientID
	case *AdminSimple:
		clientID = p.ClientID
	case *GroupCommand:
		clientID = p.ClientID
	case *ListConsumerGroupOffsets:
		clientID = p.ClientID
	case *ListConsumerGroupOffsetsBatch:
		clientID = p.ClientID
	case *ListConsumerGroupsOffsets:
		clientID = p.ClientID
	case *AlterConsumerGroupOffset:
		clientID = p.ClientID
	case *AlterConsumerGroupOffsets:
		clientID = p.ClientID
	case *DeleteConsumerGroupOffset:
		clientID = p.ClientID
	case *DeleteConsumerGroupOffsets:
		clientID = p.ClientID
	case *DescribeClassicGroups:
		clientID = p.ClientID
	default:
		return unexpectedPayload(cmd.Kind)
	}
	c, err := s.clientOf(clientID)
	if err != nil {
		return err
	}
	ev, err := runAdmin(c.client.Admin(), cmd)
	if err != nil {
		var fe *fatalError
		if errors.As(err, &fe) {
			return err
		}
		return failed(err, familyAdmin)
	}
	return s.emit(ev)
}

// runAdmin performs one admin command and returns its completion event.
// Singleton commands turn a per-resource error into the command's error.
func runAdmin(a Admin, cmd *Command) (Event, error) {
	switch p := cmd.Payload.(type) {
	case *CreateTopic:
		ctx, cancel := timeout(p.TimeoutMs)
		defer cancel()
		errs, err := a.CreateTopics(ctx, []TopicSpec{{Topic: p.Topic, Partitions: p.Partitions, ReplicationFactor: p.ReplicationFactor}}, p.ValidateOnly)
		if err = single(errs, err); err != nil {
			return nil, err
		}
		if p.ValidateOnly {
			return TopicCreationValidated{OperationID: p.OperationID, Topic: p.Topic}, nil
		}
		return TopicCreated{OperationID: p.OperationID, Topic: p.Topic}, nil
	case *CreateTopicsBatch:
		ctx, cancel := timeout(p.TimeoutMs)
		defer cancel()
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
	case *CreatePartitions:
		ctx, cancel := timeout(p.TimeoutMs)
		defer cancel()
		if err := a.CreatePartitions(ctx, p.Topic, p.TotalCount, p.ValidateOnly); err != nil {
			return nil, err
		}
		if p.ValidateOnly {
			return TopicPartitionIncreaseValidated{OperationID: p.OperationID, Topic: p.Topic}, nil
		}
		return TopicPartitionsCreated{OperationID: p.OperationID, Topic: p.Topic}, nil
	case *DeleteTopic:
		ctx, cancel := timeout(p.TimeoutMs)
		defer cancel()
		if cmd.Kind == "describe_topic" {
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
		if err := a.DeleteTopic(ctx, p.Topic); err != nil {
			return nil, err
		}
		return TopicDeleted{OperationID: p.OperationID, Topic: p.Topic}, nil
	case *ListTopics:
		ctx, cancel := timeout(p.TimeoutMs)
		defer cancel()
		topics, err := a.ListTopics(ctx, p.IncludeInternal)
		if err != nil {
			return nil, err
		}
		return TopicsListed{OperationID: p.OperationID, Topics: sortedUnique(topics)}, nil
	case *ListOffsets:
		ctx, cancel := timeout(p.TimeoutMs)
		defer cancel()
		off, err := a.ListOffset(ctx, p.Topic, p.Partition, p.Position == "latest")
		if err != nil {
			return nil, err
		}
		return OffsetListed{OperationID: p.OperationID, Topic: p.Topic, Partition: p.Partition, Offset: off}, nil
	case *DeleteRecords:
		ctx, cancel := timeout(p.TimeoutMs)
		defer cancel()
		low, err := a.DeleteRecords(ctx, p.Topic, p.Partition, p.BeforeOffset)
		if err != nil {
			return nil, err
		}
		return RecordsDeleted{OperationID: p.OperationID, Topic: p.Topic, Partition: p.Partition, LowWatermark: low}, nil
	case *DescribeTopicConfig:
		ctx, cancel := timeout(p.TimeoutMs)
		defer cancel()
		v, err := a.DescribeTopicConfig(ctx, p.Topic, p.ConfigName)
		if err != nil {
			return nil, err
		}
		return TopicConfigDescribed{OperationID: p.OperationID, Topic: p.Topic, ConfigName: p.ConfigName, Value: v}, nil
	case *AlterTopicConfig:
		ctx, cancel := timeout(p.TimeoutMs)
		defer cancel()
		if err := a.AlterTopicConfig(ctx, p.Topic, p.ConfigName, p.Value, p.ValidateOnly); err != nil {
			return nil, err
		}
		if p.ValidateOnly {
			return TopicConfigAlterationValidated{OperationID: p.OperationID, Topic: p.Topic, ConfigName: p.ConfigName}, nil
		}
		return TopicConfigAltered{OperationID: p.OperationID, Topic: p.Topic, ConfigName: p.ConfigName}, nil
	case *AdminSimple:
		ctx, cancel := timeout(p.TimeoutMs)
		defer cancel()
		if cmd.Kind == "describe_cluster" {
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
	case *GroupCommand:
		ctx, cancel := timeout(p.TimeoutMs)
		defer cancel()
		if cmd.Kind == "describe_consumer_group" {
			n, err := a.DescribeConsumerGroup(ctx, p.GroupID)
			if err != nil {
				return nil, err
			}
			return ConsumerGroupDescribed{OperationID: p.OperationID, GroupID: p.GroupID, MemberCount: n}, nil
		}
		if err := a.DeleteConsumerGroup(ctx, p.GroupID); err != nil {
			return nil, err
		}
		return ConsumerGroupDeleted{OperationID: p.OperationID, GroupID: p.GroupID}, nil
	case *ListConsumerGroupOffsets:
		ctx, cancel := timeout(p.TimeoutMs)
		defer cancel()
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
	case *ListConsumerGroupOffsetsBatch:
		ctx, cancel := timeout(p.TimeoutMs)
		defer cancel()
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
	case *ListConsumerGroupsOffsets:
		ctx, cancel := timeout(p.TimeoutMs)
		defer cancel()
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
	case *AlterConsumerGroupOffset:
		ctx, cancel := timeout(p.TimeoutMs)
		defer cancel()
		errs, err := a.AlterGroupOffsets(ctx, p.GroupID, []PartitionOffset{{Topic: p.Topic, Partition: p.Partition, Offset: p.Offset}})
		if err = single(errs, err); err != nil {
			return nil, err
		}
		return ConsumerGroupOffsetAltered{OperationID: p.OperationID, GroupID: p.GroupID, Topic: p.Topic, Partition: p.Partition}, nil
	case *AlterConsumerGroupOffsets:
		ctx, cancel := timeout(p.TimeoutMs)
		defer cancel()
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
	case *DeleteConsumerGroupOffset:
		ctx, cancel := timeout(p.TimeoutMs)
		defer cancel()
		errs, err := a.DeleteGroupOffsets(ctx, p.GroupID, []TopicPartition{{Topic: p.Topic, Partition: p.Partition}})
		if err = single(errs, err); err != nil {
			return nil, err
		}
		return ConsumerGroupOffsetDeleted{OperationID: p.OperationID, GroupID: p.GroupID, Topic: p.Topic, Partition: p.Partition}, nil
	case *DeleteConsumerGroupOffsets:
		ctx, cancel := timeout(p.TimeoutMs)
		defer cancel()
		errs, err := a.DeleteGroupOffsets(ctx, p.GroupID, p.Partitions)
		if err != nil {
			return nil, err
		}
		out, err := partitionOutcomes(p.Partitions, errs)
		if err != nil {
			return nil, err
		}
		return ConsumerGroupOffsetsDeleted{OperationID: p.OperationID, GroupID: p.GroupID, Outcomes: out}, nil
	case *DescribeClassicGroups:
		ctx, cancel := timeout(p.TimeoutMs)
		defer cancel()
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
	return nil, unexpectedPayload(cmd.Kind)
}

// single turns a one-resource result into one error.
func single(errs []error, err error) error {
	if err != nil {
		return err
	}
	if len(errs) != 1 {
		return fatalf("adapter_admin_result", "%v", errNoResult)
	}
	return errs[0]
}

func offsetOutcomes(req []TopicPartition, res []GroupOffset) ([]OffsetOutcome, error) {
	if len(res) != len(req) {
		return nil, fatalf("adapter_admin_result", "%v", errNoResult)
	}
	out := make([]OffsetOutcome, len(req))
	for i, tp := range req {
		out[i] = OffsetOutcome{Topic: tp.Topic, Partition: tp.Partition, ErrorCode: codePtr(res[i].Err)}
		if res[i].Err == nil {
			out[i].Offset = res[i].Offset
		}
	}
	return out, nil
}

func partitionOutcomes(req []TopicPartition, errs []error) ([]PartitionOutcome, error) {
	if len(errs) != len(req) {
		return nil, fatalf("adapter_admin_result", "%v", errNoResult)
	}
	out := make([]PartitionOutcome, len(req))
	for i, tp := range req {
		out[i] = PartitionOutcome{Topic: tp.Topic, Partition: tp.Partition, ErrorCode: codePtr(errs[i])}
	}
	return out, nil
}

// sortedUnique returns names sorted byte-wise without duplicates, never nil.
func sortedUnique(names []string) []string {
	out := slices.Clone(names)
	slices.SortFunc(out, strings.Compare)
	out = slices.Compact(out)
	if out == nil {
		out = []string{}
	}
	return out
}
