package protocol

import (
	"context"
	"errors"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// gregorAdmin maps the adapter's Admin onto package admin, one call each.
type gregorAdmin struct{ a *admin.Admin }

func newGregorAdmin(c *client.Client) Admin { return gregorAdmin{admin.New(c, admin.Config{})} }

func atp(tp TopicPartition) gregor.TopicPartition {
	return gregor.TopicPartition{Topic: tp.Topic, Partition: tp.Partition}
}

// one returns the single result of a one-resource call, or a fatal
// adapter_admin_result when the API answered with another count.
func one[T any](rs []T, err error) (T, error) {
	var zero T
	if err != nil {
		return zero, err
	}
	if len(rs) != 1 {
		return zero, fatalf("adapter_admin_result", "%v", errNoResult)
	}
	return rs[0], nil
}

func (g gregorAdmin) CreateTopics(ctx context.Context, topics []TopicSpec, validateOnly bool) ([]error, error) {
	nts := make([]admin.NewTopic, len(topics))
	for i, t := range topics {
		nts[i] = admin.NewTopic{Name: t.Topic, Partitions: t.Partitions, ReplicationFactor: t.ReplicationFactor}
		// The protocol's counts are >= 1; admin.NewTopic takes 0 as the
		// broker's default, so a 0 is sent as -2, which the broker rejects
		// (INVALID_PARTITIONS, INVALID_REPLICATION_FACTOR) as it did a 0.
		if nts[i].Partitions == 0 {
			nts[i].Partitions = -2
		}
		if nts[i].ReplicationFactor == 0 {
			nts[i].ReplicationFactor = -2
		}
	}
	rs, err := g.a.CreateTopics(ctx, nts, admin.TopicOptions{ValidateOnly: validateOnly, WaitVisible: !validateOnly})
	if err != nil {
		return nil, err
	}
	errs := make([]error, len(rs))
	for i, r := range rs {
		errs[i] = r.Err
	}
	return errs, nil
}

func (g gregorAdmin) CreatePartitions(ctx context.Context, topic string, total int32, validateOnly bool) error {
	r, err := one(g.a.CreatePartitions(ctx, []admin.PartitionsIncrease{{Topic: topic, TotalCount: total}},
		admin.TopicOptions{ValidateOnly: validateOnly, WaitVisible: !validateOnly}))
	if err != nil {
		return err
	}
	return r.Err
}

func (g gregorAdmin) DeleteTopic(ctx context.Context, topic string) error {
	r, err := one(g.a.DeleteTopics(ctx, []admin.TopicRef{{Name: topic}}, admin.TopicOptions{WaitVisible: true}))
	if err != nil {
		return err
	}
	return r.Err
}

func (g gregorAdmin) DescribeTopic(ctx context.Context, topic string) ([]int32, error) {
	d, err := one(g.a.DescribeTopics(ctx, []string{topic}))
	if err != nil {
		return nil, err
	}
	if d.Err != nil {
		return nil, d.Err
	}
	parts := make([]int32, len(d.Partitions))
	for i, p := range d.Partitions {
		parts[i] = p.Partition
	}
	return parts, nil
}

func (g gregorAdmin) ListTopics(ctx context.Context, includeInternal bool) ([]string, error) {
	ls, err := g.a.ListTopics(ctx, includeInternal)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(ls))
	for i, l := range ls {
		names[i] = l.Name
	}
	return names, nil
}

func (g gregorAdmin) ListOffset(ctx context.Context, topic string, partition int32, latest bool) (*int64, error) {
	spec := admin.OffsetEarliest
	if latest {
		spec = admin.OffsetLatest
	}
	r, err := one(g.a.ListOffsets(ctx, []admin.OffsetQuery{{TopicPartition: gregor.TopicPartition{Topic: topic, Partition: partition}, Spec: spec}}, admin.ListOffsetsOptions{}))
	if err != nil {
		return nil, err
	}
	if r.Err != nil {
		return nil, r.Err
	}
	if !r.Found {
		return nil, nil
	}
	off := r.Offset
	return &off, nil
}

func (g gregorAdmin) DeleteRecords(ctx context.Context, topic string, partition int32, before int64) (int64, error) {
	r, err := one(g.a.DeleteRecords(ctx, []admin.RecordsCutoff{{TopicPartition: gregor.TopicPartition{Topic: topic, Partition: partition}, Before: before}}))
	if err != nil {
		return 0, err
	}
	return r.LowWatermark, r.Err
}

func (g gregorAdmin) DescribeTopicConfig(ctx context.Context, topic, name string) (*string, error) {
	r, err := one(g.a.DescribeConfigs(ctx, []admin.ConfigResource{{Type: admin.ResourceTopic, Name: topic, Keys: []string{name}}}))
	if err != nil {
		return nil, err
	}
	if r.Err != nil {
		return nil, r.Err
	}
	e, ok := r.Entry(name)
	if !ok {
		return nil, nil
	}
	return e.Value, nil
}

func (g gregorAdmin) AlterTopicConfig(ctx context.Context, topic, name, value string, validateOnly bool) error {
	r, err := one(g.a.IncrementalAlterConfigs(ctx, []admin.AlterConfigsResource{{Type: admin.ResourceTopic, Name: topic,
		Changes: []admin.ConfigChange{{Name: name, Op: admin.OpSet, Value: value}}}}, admin.AlterConfigsOptions{ValidateOnly: validateOnly}))
	if err != nil {
		return err
	}
	return r.Err
}

func (g gregorAdmin) DescribeCluster(ctx context.Context) (*string, []int32, error) {
	d, err := g.a.DescribeCluster(ctx)
	if err != nil {
		return nil, nil, err
	}
	var id *string
	if d.ClusterID != "" {
		s := d.ClusterID
		id = &s
	}
	return id, d.BrokerIDs(), nil
}

func (g gregorAdmin) ListConsumerGroups(ctx context.Context) ([]string, []BrokerError, error) {
	l, err := g.a.ListGroups(ctx, admin.ListGroupsOptions{ConsumerOnly: true})
	if err != nil {
		return nil, nil, err
	}
	groups := make([]string, len(l.Groups))
	for i, gr := range l.Groups {
		groups[i] = gr.GroupID
	}
	var berrs []BrokerError
	for _, b := range l.Brokers {
		if b.Err == nil {
			continue
		}
		code := int16(-1) // UNKNOWN_SERVER_ERROR: a failure without a broker code
		var kerr *wire.KafkaError
		if errors.As(b.Err, &kerr) {
			code = kerr.Code
		}
		berrs = append(berrs, BrokerError{BrokerID: b.Broker, Code: code})
	}
	return groups, berrs, nil
}

func (g gregorAdmin) DescribeConsumerGroup(ctx context.Context, group string) (uint32, error) {
	d, err := one(g.a.DescribeConsumerGroups(ctx, []string{group}))
	if err != nil {
		return 0, err
	}
	if d.Err != nil {
		return 0, d.Err
	}
	return uint32(len(d.Members)), nil
}

func (g gregorAdmin) ListGroupOffsets(ctx context.Context, groups []GroupPartitions, requireStable bool) ([]GroupOffsets, error) {
	qs := make([]admin.GroupOffsetsQuery, len(groups))
	for i, gp := range groups {
		qs[i].GroupID = gp.GroupID
		qs[i].Partitions = make([]gregor.TopicPartition, len(gp.Partitions))
		for j, tp := range gp.Partitions {
			qs[i].Partitions[j] = atp(tp)
		}
	}
	rs, err := g.a.FetchOffsets(ctx, qs, admin.FetchOffsetsOptions{RequireStable: requireStable})
	if err != nil {
		return nil, err
	}
	out := make([]GroupOffsets, len(rs))
	for i, r := range rs {
		out[i] = GroupOffsets{GroupID: r.GroupID, Err: r.Err}
		for _, o := range r.Offsets {
			gof := GroupOffset{Topic: o.Topic, Partition: o.Partition, Err: o.Err}
			if o.Err == nil && o.Committed {
				off := o.Offset
				gof.Offset = &off
			}
			out[i].Offsets = append(out[i].Offsets, gof)
		}
	}
	return out, nil
}

func partitionErrs(rs []admin.PartitionResult, err error) ([]error, error) {
	if err != nil {
		return nil, err
	}
	errs := make([]error, len(rs))
	for i, r := range rs {
		errs[i] = r.Err
	}
	return errs, nil
}

func (g gregorAdmin) AlterGroupOffsets(ctx context.Context, group string, offsets []PartitionOffset) ([]error, error) {
	os := make([]admin.OffsetToCommit, len(offsets))
	for i, o := range offsets {
		os[i] = admin.OffsetToCommit{TopicPartition: gregor.TopicPartition{Topic: o.Topic, Partition: o.Partition}, Offset: o.Offset, LeaderEpoch: -1}
	}
	return partitionErrs(g.a.AlterOffsets(ctx, group, os))
}

func (g gregorAdmin) DeleteGroupOffsets(ctx context.Context, group string, parts []TopicPartition) ([]error, error) {
	tps := make([]gregor.TopicPartition, len(parts))
	for i, tp := range parts {
		tps[i] = atp(tp)
	}
	return partitionErrs(g.a.DeleteOffsets(ctx, group, tps))
}

func (g gregorAdmin) DeleteConsumerGroup(ctx context.Context, group string) error {
	r, err := one(g.a.DeleteGroups(ctx, []string{group}))
	if err != nil {
		return err
	}
	return r.Err
}

func (g gregorAdmin) DescribeClassicGroups(ctx context.Context, groups []string) ([]ClassicGroup, error) {
	ds, err := g.a.DescribeGroups(ctx, groups)
	if err != nil {
		return nil, err
	}
	out := make([]ClassicGroup, len(ds))
	for i, d := range ds {
		out[i] = ClassicGroup{GroupID: d.GroupID, MemberCount: uint32(len(d.Members)), Err: d.Err}
	}
	return out, nil
}
