// Package observer reads the broker's truth with franz-go (kgo, kadm), a
// Kafka client independent of gregor, so that testlab never takes the
// adapter's word for a claim: records by exact topic/partition/offset,
// watermarks, topics and partitions, configs, committed offsets, groups and
// cluster metadata. It connects on the PLAINTEXT listener, whose principal
// (ANONYMOUS) is a super user in the test bed.
package observer

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Observer is a franz-go admin client plus per-check consumers.
type Observer struct {
	seeds []string
	cl    *kgo.Client
	adm   *kadm.Client
}

// New connects to the given PLAINTEXT bootstrap addresses.
func New(seeds []string) (*Observer, error) {
	// MetadataMinAge: kgo caches metadata for 5s by default, which would hide
	// a change the adapter just made.
	cl, err := kgo.NewClient(kgo.SeedBrokers(seeds...), kgo.ClientID("testlab-observer"),
		kgo.MetadataMinAge(50*time.Millisecond), kgo.RetryTimeout(5*time.Second))
	if err != nil {
		return nil, err
	}
	return &Observer{seeds: seeds, cl: cl, adm: kadm.NewClient(cl)}, nil
}

// Close releases the observer's connections.
func (o *Observer) Close() { o.cl.Close() }

// CreateTopic creates a topic (rf <= 0: broker default) and waits until its
// metadata shows every partition with a leader.
func (o *Observer) CreateTopic(ctx context.Context, name string, partitions int32, rf int16, configs map[string]string) error {
	if rf <= 0 {
		rf = -1
	}
	cfg := map[string]*string{}
	for k, v := range configs {
		cfg[k] = &v
	}
	res, err := o.adm.CreateTopic(ctx, partitions, rf, cfg, name)
	if err != nil {
		return err
	}
	if res.Err != nil {
		return fmt.Errorf("create topic %s: %w", name, res.Err)
	}
	return o.waitTopic(ctx, name, int(partitions))
}

func (o *Observer) waitTopic(ctx context.Context, name string, partitions int) error {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		td, err := o.Topic(ctx, name)
		if err == nil && td.Exists && len(td.Partitions) == partitions && td.AllLed {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("topic %s not ready: %w", name, ctx.Err())
		case <-tick.C:
		}
	}
}

// TopicFacts is what the broker says about a topic.
type TopicFacts struct {
	Exists            bool
	Partitions        []int32 // ascending
	ReplicationFactor int
	AllLed            bool
}

// Topic describes topic name from metadata.
func (o *Observer) Topic(ctx context.Context, name string) (TopicFacts, error) {
	md, err := o.adm.Metadata(ctx, name)
	if err != nil {
		return TopicFacts{}, err
	}
	td, ok := md.Topics[name]
	if !ok || errors.Is(td.Err, kerrUnknownTopic) {
		return TopicFacts{}, nil
	}
	if td.Err != nil {
		return TopicFacts{}, td.Err
	}
	f := TopicFacts{Exists: true, AllLed: true}
	for p, pd := range td.Partitions {
		f.Partitions = append(f.Partitions, p)
		f.ReplicationFactor = len(pd.Replicas)
		if pd.Leader < 0 || pd.Err != nil {
			f.AllLed = false
		}
	}
	sort.Slice(f.Partitions, func(i, j int) bool { return f.Partitions[i] < f.Partitions[j] })
	return f, nil
}

// Leader returns the leader broker of topic/partition.
func (o *Observer) Leader(ctx context.Context, topic string, partition int32) (int32, error) {
	md, err := o.adm.Metadata(ctx, topic)
	if err != nil {
		return 0, err
	}
	pd, ok := md.Topics[topic].Partitions[partition]
	if !ok || pd.Err != nil || pd.Leader < 0 {
		return 0, fmt.Errorf("no leader for %s[%d]", topic, partition)
	}
	return pd.Leader, nil
}

// Topics lists topic names (internal included when internal is true).
func (o *Observer) Topics(ctx context.Context, internal bool) (map[string]bool, error) {
	var td kadm.TopicDetails
	var err error
	if internal {
		td, err = o.adm.ListTopicsWithInternal(ctx)
	} else {
		td, err = o.adm.ListTopics(ctx)
	}
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for n := range td {
		out[n] = true
	}
	return out, nil
}

// Watermarks returns the log start offset and high watermark of a
// partition, asking again while the broker answers a retriable error.
func (o *Observer) Watermarks(ctx context.Context, topic string, partition int32) (start, end int64, err error) {
	err = untilSettled(ctx, fmt.Sprintf("watermarks of %s[%d]", topic, partition), func() error {
		var rerr error
		start, end, rerr = o.watermarksOnce(ctx, topic, partition)
		return rerr
	})
	return start, end, err
}

func (o *Observer) watermarksOnce(ctx context.Context, topic string, partition int32) (start, end int64, err error) {
	so, err := o.adm.ListStartOffsets(ctx, topic)
	if err != nil {
		return 0, 0, err
	}
	eo, err := o.adm.ListEndOffsets(ctx, topic)
	if err != nil {
		return 0, 0, err
	}
	s, ok1 := so.Lookup(topic, partition)
	e, ok2 := eo.Lookup(topic, partition)
	if !ok1 || !ok2 {
		return 0, 0, fmt.Errorf("no offsets for %s[%d]", topic, partition)
	}
	if s.Err != nil {
		return 0, 0, s.Err
	}
	if e.Err != nil {
		return 0, 0, e.Err
	}
	return s.Offset, e.Offset, nil
}

// Record returns the record at exactly topic/partition/offset, or nil when
// the broker has none there (the fetch starts at offset and the first data
// record returned is later, or the offset is at or past the high watermark).
func (o *Observer) Record(ctx context.Context, topic string, partition int32, offset int64) (*kgo.Record, error) {
	start, end, err := o.Watermarks(ctx, topic, partition)
	if err != nil {
		return nil, err
	}
	if offset < start || offset >= end {
		return nil, nil
	}
	recs, err := o.read(ctx, topic, partition, offset, end, 1, kgo.ReadUncommitted())
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 || recs[0].Offset != offset {
		return nil, nil
	}
	return recs[0], nil
}

// Scan returns every record of a partition from its log start to its high watermark.
func (o *Observer) Scan(ctx context.Context, topic string, partition int32) ([]*kgo.Record, error) {
	start, end, err := o.Watermarks(ctx, topic, partition)
	if err != nil {
		return nil, err
	}
	if start >= end {
		return nil, nil
	}
	return o.read(ctx, topic, partition, start, end, -1, kgo.ReadUncommitted())
}

// ScanCommitted returns what a read_committed consumer sees of a partition
// from its log start to its last stable offset (aborted transactions'
// records and open transactions' records left out), and that offset.
func (o *Observer) ScanCommitted(ctx context.Context, topic string, partition int32) ([]*kgo.Record, int64, error) {
	so, err := o.adm.ListStartOffsets(ctx, topic)
	if err != nil {
		return nil, 0, err
	}
	lo, err := o.adm.ListCommittedOffsets(ctx, topic)
	if err != nil {
		return nil, 0, err
	}
	s, ok1 := so.Lookup(topic, partition)
	l, ok2 := lo.Lookup(topic, partition)
	if !ok1 || !ok2 || s.Err != nil || l.Err != nil {
		return nil, 0, fmt.Errorf("no start or last stable offset for %s[%d]: %v %v", topic, partition, s.Err, l.Err)
	}
	if s.Offset >= l.Offset {
		return nil, l.Offset, nil
	}
	recs, err := o.read(ctx, topic, partition, s.Offset, l.Offset, -1, kgo.ReadCommitted())
	return recs, l.Offset, err
}

// read consumes [from, end) at isolation iso and returns up to max records
// (max < 0: all).
func (o *Observer) read(ctx context.Context, topic string, partition int32, from, end int64, max int, iso kgo.IsolationLevel) ([]*kgo.Record, error) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(o.seeds...), kgo.ClientID("testlab-observer-fetch"), kgo.MetadataMinAge(50*time.Millisecond),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {partition: kgo.NewOffset().At(from)}}),
		kgo.FetchIsolationLevel(iso))
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	var out []*kgo.Record
	for {
		// A partition whose tail is a control record (transaction marker) has
		// no data record at end-1: stop after a quiet poll.
		pctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		fs := cl.PollFetches(pctx)
		quiet := pctx.Err() != nil
		cancel()
		if err := ctx.Err(); err != nil {
			return out, fmt.Errorf("reading %s[%d] from %d: %w", topic, partition, from, err)
		}
		var ferr error
		fs.EachError(func(_ string, _ int32, e error) {
			if !errors.Is(e, context.DeadlineExceeded) && !errors.Is(e, context.Canceled) {
				ferr = e
			}
		})
		if ferr != nil {
			return out, ferr
		}
		done := false
		fs.EachRecord(func(r *kgo.Record) {
			if done {
				return
			}
			out = append(out, r)
			if (max > 0 && len(out) >= max) || r.Offset >= end-1 {
				done = true
			}
		})
		if done || quiet {
			return out, nil
		}
	}
}

// TopicConfig returns the value of config name for topic (nil when unset
// and without a default, or sensitive).
func (o *Observer) TopicConfig(ctx context.Context, topic, name string) (*string, error) {
	rcs, err := o.adm.DescribeTopicConfigs(ctx, topic)
	if err != nil {
		return nil, err
	}
	rc, err := rcs.On(topic, nil)
	if err != nil {
		return nil, err
	}
	if rc.Err != nil {
		return nil, rc.Err
	}
	for _, c := range rc.Configs {
		if c.Key == name {
			if c.Sensitive {
				return nil, nil
			}
			return c.Value, nil
		}
	}
	return nil, nil
}

// Cluster returns the cluster ID and the live broker IDs (sorted).
func (o *Observer) Cluster(ctx context.Context) (string, []int32, error) {
	md, err := o.adm.BrokerMetadata(ctx)
	if err != nil {
		return "", nil, err
	}
	var ids []int32
	for _, b := range md.Brokers {
		ids = append(ids, b.NodeID)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return md.Cluster, ids, nil
}

// Committed returns the committed offset of group for topic/partition, and
// whether one exists.
func (o *Observer) Committed(ctx context.Context, group, topic string, partition int32) (int64, bool, error) {
	resp, err := o.adm.FetchOffsets(ctx, group)
	if err != nil {
		return 0, false, err
	}
	if resp.Error() != nil {
		return 0, false, resp.Error()
	}
	or, ok := resp.Lookup(topic, partition)
	if !ok || or.At < 0 {
		return 0, false, nil
	}
	return or.At, true, nil
}

// Groups lists consumer group IDs known to the broker.
func (o *Observer) Groups(ctx context.Context) (map[string]bool, error) {
	ls, err := o.adm.ListGroups(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, g := range ls.Groups() {
		out[g] = true
	}
	return out, nil
}

// Produce writes records with franz-go (acks=all, idempotent) and returns
// their offsets.
func (o *Observer) Produce(ctx context.Context, recs []*kgo.Record) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(o.seeds...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		return err
	}
	defer cl.Close()
	return cl.ProduceSync(ctx, recs...).FirstErr()
}

// GroupMember is one member of a classic consumer group as the coordinator
// describes it: its member ID and the partitions the leader assigned it.
type GroupMember struct {
	MemberID    string
	MemberEpoch int32              // KIP-848 member epoch; 0 for a classic group
	Partitions  map[string][]int32 // topic -> partitions
}

// ConsumerGroupMembers describes a KIP-848 consumer group
// (ConsumerGroupDescribe): its state and members with their member epochs
// and current assignments.
func (o *Observer) ConsumerGroupMembers(ctx context.Context, group string) (string, []GroupMember, error) {
	gs, err := o.adm.DescribeConsumerGroups(ctx, group)
	if err != nil {
		return "", nil, err
	}
	g, ok := gs[group]
	if !ok {
		return "", nil, fmt.Errorf("consumer group %s not described", group)
	}
	if g.Err != nil {
		return "", nil, g.Err
	}
	var out []GroupMember
	for _, m := range g.Members {
		gm := GroupMember{MemberID: m.MemberID, MemberEpoch: m.MemberEpoch, Partitions: map[string][]int32{}}
		for t, ps := range m.Assignment {
			for p := range ps {
				gm.Partitions[t] = append(gm.Partitions[t], p)
			}
		}
		out = append(out, gm)
	}
	return g.State, out, nil
}

// GroupMembers describes a classic group (DescribeGroups): its state and
// members with their assignments, decoded from the consumer protocol.
func (o *Observer) GroupMembers(ctx context.Context, group string) (string, []GroupMember, error) {
	gs, err := o.adm.DescribeGroups(ctx, group)
	if err != nil {
		return "", nil, err
	}
	g, ok := gs[group]
	if !ok {
		return "", nil, fmt.Errorf("group %s not described", group)
	}
	if g.Err != nil {
		return "", nil, g.Err
	}
	var out []GroupMember
	for _, m := range g.Members {
		gm := GroupMember{MemberID: m.MemberID, Partitions: map[string][]int32{}}
		if a, ok := m.Assigned.AsConsumer(); ok {
			for _, t := range a.Topics {
				gm.Partitions[t.Topic] = append(gm.Partitions[t.Topic], t.Partitions...)
			}
		}
		out = append(out, gm)
	}
	return g.State, out, nil
}
