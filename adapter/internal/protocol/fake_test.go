package protocol

import (
	"context"
	"errors"
	"sync"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/wire"
)

// fakeBackend is an in-memory backend for session tests.
type fakeBackend struct {
	mu      sync.Mutex
	clients []*fakeClient
	configs []ClientConfig
	// admission: TrySend refuses (backpressure) once this many records are
	// admitted in total (0: never).
	admitLimit int
	// hold keeps deliveries pending until cancelled or released.
	hold bool
	// records returned by every Receive.
	records []ReceivedRecord
	// groups are the group consumers made; groupOverflow makes their
	// transition buffer overflow.
	groups        []*fakeGroup
	groupOverflow bool
	// groupErr stops every group consumer's membership; groupMembers are
	// the member IDs the coordinator lists (nil: the one member, m1);
	// groupPartitions is the topic's partition count (0: 1).
	groupErr        error
	groupMembers    []string
	groupPartitions int
}

// fakeGroup is a settled one-member group owning partition 0 at
// generation 3.
type fakeGroup struct {
	b         *fakeBackend
	cfg       GroupConsumerConfig
	mu        sync.Mutex
	trans     []GroupTransition
	overflow  bool
	commits   [][]ReceivedRecord
	shutdowns int
}

func (g *fakeGroup) Receive(ctx context.Context) ([]ReceivedRecord, error) { return g.b.records, nil }
func (g *fakeGroup) CommitBatch(_ context.Context, batch []ReceivedRecord) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.commits = append(g.commits, batch)
	return nil
}
func (g *fakeGroup) DrainTransitions() ([]GroupTransition, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.overflow {
		return nil, errors.New("overflow")
	}
	t := g.trans
	g.trans = nil
	return t, nil
}
func (g *fakeGroup) Snapshot() GroupSnapshot {
	return GroupSnapshot{GroupID: g.cfg.GroupID, MemberID: "m1", Generation: 3, AssignmentEpoch: 1, Partitions: []TopicPartition{{g.cfg.Topic, 0}}}
}
func (g *fakeGroup) GroupMetadata() consumer.GroupMetadata {
	return consumer.GroupMetadata{GroupID: g.cfg.GroupID, GenerationID: 3, MemberID: "m1"}
}
func (g *fakeGroup) PartitionCount(context.Context) (int, error) {
	return max(g.b.groupPartitions, 1), nil
}
func (g *fakeGroup) Err() error { return g.b.groupErr }
func (g *fakeGroup) GroupMembers(context.Context) ([]string, error) {
	if g.b.groupMembers == nil {
		return []string{"m1"}, nil
	}
	return g.b.groupMembers, nil
}
func (g *fakeGroup) Pause([]TopicPartition) error                              { return nil }
func (g *fakeGroup) Resume([]TopicPartition) error                             { return nil }
func (g *fakeGroup) Seek(context.Context, TopicPartition, StartPosition) error { return nil }
func (g *fakeGroup) Shutdown(context.Context) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.shutdowns++
	return nil
}
func (g *fakeGroup) Close(ctx context.Context) error { return g.Shutdown(ctx) }

func (b *fakeBackend) NewClient(cfg ClientConfig) (KafkaClient, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	c := &fakeClient{b: b, admin: &fakeAdmin{topics: map[string]int32{}}}
	b.clients = append(b.clients, c)
	b.configs = append(b.configs, cfg)
	return c, nil
}

type fakeClient struct {
	b        *fakeBackend
	closed   bool
	admin    *fakeAdmin
	admitted int
}

func (c *fakeClient) Ready(ctx context.Context) error { return nil }
func (c *fakeClient) Metrics() client.MetricsSnapshot {
	var m client.MetricsSnapshot
	m.Producer.Records = uint64(c.admitted)
	m.Producer.Accepting, m.Producer.Healthy = true, true
	return m
}
func (c *fakeClient) NewProducer() (Producer, error) { return &fakeProducer{c: c}, nil }
func (c *fakeClient) NewAssignedConsumer() (AssignedConsumer, error) {
	return &fakeConsumer{c: c}, nil
}
func (c *fakeClient) Admin() Admin { return c.admin }
func (c *fakeClient) NewGroupConsumer(cfg GroupConsumerConfig) (GroupConsumer, error) {
	if cfg.Protocol != "classic" {
		return nil, errors.New("fake: classic groups only")
	}
	g := &fakeGroup{b: c.b, cfg: cfg, overflow: c.b.groupOverflow,
		trans: []GroupTransition{{Kind: "assigned", AssignmentEpoch: 1, Partitions: []TopicPartition{{cfg.Topic, 0}}}}}
	c.b.mu.Lock()
	c.b.groups = append(c.b.groups, g)
	c.b.mu.Unlock()
	return g, nil
}
func (c *fakeClient) Close() error { c.closed = true; return nil }

type fakeProducer struct {
	mu     sync.Mutex
	c      *fakeClient
	next   int64
	closed bool
}

func (p *fakeProducer) TrySend(rec *ProducerRecord) (Delivery, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b := p.c.b
	b.mu.Lock()
	limit, hold := b.admitLimit, b.hold
	b.mu.Unlock()
	if limit > 0 && p.c.admitted >= limit {
		return nil, client.ErrBackpressure
	}
	p.c.admitted++
	d := &fakeDelivery{done: make(chan struct{})}
	if rec.Topic == "denied" {
		d.finish(DeliveryOutcome{Err: wire.ErrorForCode(29), NotSent: false})
	} else if !hold {
		d.finish(DeliveryOutcome{Offset: p.next})
	}
	p.next++
	return d, nil
}
func (p *fakeProducer) Flush(ctx context.Context) error { return nil }
func (p *fakeProducer) Close(ctx context.Context) error { p.closed = true; return nil }

type fakeDelivery struct {
	mu      sync.Mutex
	done    chan struct{}
	outcome DeliveryOutcome
	over    bool
}

func (d *fakeDelivery) finish(o DeliveryOutcome) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.over {
		return false
	}
	d.over, d.outcome = true, o
	close(d.done)
	return true
}
func (d *fakeDelivery) Done() <-chan struct{} { return d.done }
func (d *fakeDelivery) Outcome() DeliveryOutcome {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.outcome
}
func (d *fakeDelivery) Cancel() (string, error) {
	if d.finish(DeliveryOutcome{Err: client.ErrCancelled, NotSent: true}) {
		return CancelledNotSent, nil
	}
	return AlreadyTerminal, nil
}

type fakeConsumer struct {
	c      *fakeClient
	calls  []string
	closed bool
}

func (f *fakeConsumer) Assign(ctx context.Context, parts []PartitionPosition) error {
	f.calls = append(f.calls, "assign")
	return nil
}
func (f *fakeConsumer) Add(ctx context.Context, parts []PartitionPosition) error {
	f.calls = append(f.calls, "add")
	return nil
}
func (f *fakeConsumer) Remove(ctx context.Context, parts []TopicPartition) error {
	f.calls = append(f.calls, "remove")
	return nil
}
func (f *fakeConsumer) Seek(ctx context.Context, tp TopicPartition, pos StartPosition) error {
	f.calls = append(f.calls, "seek")
	return nil
}
func (f *fakeConsumer) Pause(ctx context.Context, tp TopicPartition) error {
	f.calls = append(f.calls, "pause")
	return nil
}
func (f *fakeConsumer) Resume(ctx context.Context, tp TopicPartition) error {
	f.calls = append(f.calls, "resume")
	return nil
}
func (f *fakeConsumer) Receive(ctx context.Context) ([]ReceivedRecord, error) {
	if len(f.c.b.records) == 0 {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return f.c.b.records, nil
}
func (f *fakeConsumer) Close() error { f.closed = true; return nil }

type fakeAdmin struct {
	mu     sync.Mutex
	topics map[string]int32
}

func (a *fakeAdmin) CreateTopics(ctx context.Context, topics []TopicSpec, validateOnly bool) ([]error, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	errs := make([]error, len(topics))
	for i, t := range topics {
		if _, ok := a.topics[t.Topic]; ok {
			errs[i] = wire.ErrorForCode(36)
		} else if !validateOnly {
			a.topics[t.Topic] = t.Partitions
		}
	}
	return errs, nil
}
func (a *fakeAdmin) CreatePartitions(ctx context.Context, topic string, total int32, validateOnly bool) error {
	return nil
}
func (a *fakeAdmin) DeleteTopic(ctx context.Context, topic string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.topics[topic]; !ok {
		return wire.ErrorForCode(3)
	}
	delete(a.topics, topic)
	return nil
}
func (a *fakeAdmin) DescribeTopic(ctx context.Context, topic string) ([]int32, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	n, ok := a.topics[topic]
	if !ok {
		return nil, wire.ErrorForCode(3)
	}
	out := []int32{}
	for i := n - 1; i >= 0; i-- {
		out = append(out, i)
	}
	return out, nil
}
func (a *fakeAdmin) ListTopics(ctx context.Context, includeInternal bool) ([]string, error) {
	return []string{"b", "a", "b"}, nil
}
func (a *fakeAdmin) ListOffset(ctx context.Context, topic string, partition int32, latest bool) (*int64, error) {
	v := int64(0)
	if latest {
		v = 5
	}
	return &v, nil
}
func (a *fakeAdmin) DeleteRecords(ctx context.Context, topic string, partition int32, before int64) (int64, error) {
	return before, nil
}
func (a *fakeAdmin) DescribeTopicConfig(ctx context.Context, topic, name string) (*string, error) {
	v := "604800000"
	return &v, nil
}
func (a *fakeAdmin) AlterTopicConfig(ctx context.Context, topic, name, value string, validateOnly bool) error {
	return nil
}
func (a *fakeAdmin) DescribeCluster(ctx context.Context) (*string, []int32, error) {
	id := "cluster-x"
	return &id, []int32{3, 1, 2}, nil
}
func (a *fakeAdmin) ListConsumerGroups(ctx context.Context) ([]string, []BrokerError, error) {
	return nil, nil, nil
}
func (a *fakeAdmin) DescribeConsumerGroup(ctx context.Context, group string) (uint32, error) {
	return 0, nil
}
func (a *fakeAdmin) ListGroupOffsets(ctx context.Context, groups []GroupPartitions, requireStable bool) ([]GroupOffsets, error) {
	out := make([]GroupOffsets, len(groups))
	for i, g := range groups {
		out[i].GroupID = g.GroupID
		for _, tp := range g.Partitions {
			out[i].Offsets = append(out[i].Offsets, GroupOffset{Topic: tp.Topic, Partition: tp.Partition})
		}
	}
	return out, nil
}
func (a *fakeAdmin) AlterGroupOffsets(ctx context.Context, group string, offsets []PartitionOffset) ([]error, error) {
	return make([]error, len(offsets)), nil
}
func (a *fakeAdmin) DeleteGroupOffsets(ctx context.Context, group string, parts []TopicPartition) ([]error, error) {
	errs := make([]error, len(parts))
	for i, p := range parts {
		if p.Partition > 0 {
			errs[i] = wire.ErrorForCode(3)
		}
	}
	return errs, nil
}
func (a *fakeAdmin) DeleteConsumerGroup(ctx context.Context, group string) error {
	return wire.ErrorForCode(69)
}
func (a *fakeAdmin) DescribeClassicGroups(ctx context.Context, groups []string) ([]ClassicGroup, error) {
	out := make([]ClassicGroup, len(groups))
	for i, g := range groups {
		out[i] = ClassicGroup{GroupID: g, MemberCount: 1}
	}
	return out, nil
}
