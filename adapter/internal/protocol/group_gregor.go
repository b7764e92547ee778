package protocol

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/consumer/assign"
)

// maxTransitions is how many undrained transitions a member retains
// (§4.5, later v34 revision); one more is an adapter failure.
const maxTransitions = 256

// groupShutdownTimeout bounds a member's shutdown (commit, leave, close).
const groupShutdownTimeout = 15 * time.Second

// NewGroupConsumer starts a consumer.Group on a client of its own (the
// coordinator holds a JoinGroup for a whole rebalance, and a broker answers
// one connection's requests in order, so members must not share one).
func (g *gregorClient) NewGroupConsumer(cfg GroupConsumerConfig) (GroupConsumer, error) {
	proto := consumer.GroupProtocol(cfg.Protocol)
	if proto != consumer.ProtocolClassic && proto != consumer.ProtocolConsumer {
		return nil, fmt.Errorf("%w: %q", consumer.ErrProtocolUnsupported, cfg.Protocol)
	}
	c, err := client.New(client.Config{Bootstrap: g.cfg.Endpoints, ClientID: string(g.cfg.ClientID), TLS: g.cfg.TLS, SASL: g.cfg.SASL})
	if err != nil {
		return nil, err
	}
	m := &gregorGroup{cl: c, topic: cfg.Topic, protocol: cfg.Protocol, done: make(chan struct{})}
	gc := consumer.GroupConfig{GroupID: cfg.GroupID, Topics: []string{cfg.Topic}, Protocol: proto,
		Assignors: []assign.Assignor{assign.CooperativeSticky()}, SessionTimeout: 10 * time.Second,
		HeartbeatInterval: 500 * time.Millisecond, RebalanceTimeout: 30 * time.Second,
		DisableAutoCommit: true, OnAssignment: m.onAssignment}
	if cfg.OffsetReset == "latest" {
		gc.OffsetReset = consumer.ResetLatest
	}
	if cfg.ReadCommitted {
		gc.Isolation = consumer.ReadCommitted
	}
	grp, err := consumer.NewGroup(c, gc)
	if err != nil {
		c.Close(context.Background())
		return nil, err
	}
	m.g = grp
	return m, nil
}

// gregorGroup is a consumer.Group with its transitions recorded for
// observe_group_assignments.
type gregorGroup struct {
	g        *consumer.Group
	cl       *client.Client
	topic    string
	protocol string // "classic" or "consumer"

	mu       sync.Mutex
	trans    []GroupTransition // undrained, guarded by mu
	overflow bool              // more than maxTransitions piled up; guarded by mu
	epoch    uint64            // local assignment fence; guarded by mu
	owned    map[TopicPartition]bool

	once sync.Once
	done chan struct{} // closed when the shutdown finished
	err  error         // the shutdown's error, set before done closes
}

func (m *gregorGroup) onAssignment(_ context.Context, ev consumer.AssignmentEvent) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.owned == nil {
		m.owned = map[TopicPartition]bool{}
	}
	m.epoch++
	tps := make([]TopicPartition, len(ev.Partitions))
	for i, tp := range ev.Partitions {
		tps[i] = TopicPartition{Topic: tp.Topic, Partition: tp.Partition}
		if ev.Kind == consumer.Assigned {
			m.owned[tps[i]] = true
		} else {
			delete(m.owned, tps[i])
		}
	}
	if len(m.trans) >= maxTransitions {
		m.overflow = true
		return
	}
	m.trans = append(m.trans, GroupTransition{Kind: ev.Kind.String(), AssignmentEpoch: m.epoch, Partitions: tps})
}

func (m *gregorGroup) DrainTransitions() ([]GroupTransition, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.overflow {
		return nil, fmt.Errorf("more than %d assignment transitions retained", maxTransitions)
	}
	out := m.trans
	m.trans = nil
	return out, nil
}

func (m *gregorGroup) Snapshot() GroupSnapshot {
	md := m.g.GroupMetadata()
	m.mu.Lock()
	defer m.mu.Unlock()
	s := GroupSnapshot{GroupID: md.GroupID, MemberID: md.MemberID, Protocol: m.protocol, Generation: md.GenerationID, AssignmentEpoch: m.epoch}
	for tp := range m.owned {
		s.Partitions = append(s.Partitions, tp)
	}
	sort.Slice(s.Partitions, func(i, j int) bool {
		a, b := s.Partitions[i], s.Partitions[j]
		return a.Topic < b.Topic || a.Topic == b.Topic && a.Partition < b.Partition
	})
	return s
}

func (m *gregorGroup) GroupMetadata() consumer.GroupMetadata { return m.g.GroupMetadata() }

func (m *gregorGroup) Err() error { return m.g.Err() }

func (m *gregorGroup) GroupMembers(ctx context.Context) ([]string, error) {
	group := m.g.GroupMetadata().GroupID
	d, err := admin.New(m.cl, admin.Config{}).DescribeConsumerGroups(ctx, []string{group})
	if err != nil {
		return nil, err
	}
	if len(d) != 1 {
		return nil, fmt.Errorf("group %s: %d descriptions", group, len(d))
	}
	if d[0].Err != nil {
		return nil, d[0].Err
	}
	ids := make([]string, len(d[0].Members))
	for i, mb := range d[0].Members {
		ids[i] = mb.MemberID
	}
	return ids, nil
}

func (m *gregorGroup) PartitionCount(ctx context.Context) (int, error) {
	md, err := m.cl.Metadata(ctx, []string{m.topic})
	if err != nil {
		return 0, err
	}
	tm, ok := md.Topics[m.topic]
	if !ok || tm.Err != nil {
		return 0, fmt.Errorf("topic %s unknown", m.topic)
	}
	return len(tm.Partitions), nil
}

func (m *gregorGroup) Receive(ctx context.Context) ([]ReceivedRecord, error) {
	recs, err := m.g.Receive(ctx)
	if err != nil {
		return nil, err
	}
	return receivedOf(recs), nil
}

// CommitBatch commits the batch's checkpoint, fenced by the assignment: a
// partition the member no longer owns (revoked since the batch was
// received) is left to its new owner.
func (m *gregorGroup) CommitBatch(ctx context.Context, batch []ReceivedRecord) error {
	offs := map[gregor.TopicPartition]int64{}
	m.mu.Lock()
	for _, r := range batch {
		if !m.owned[TopicPartition{Topic: r.Topic, Partition: r.Partition}] {
			continue
		}
		tp := gregor.TopicPartition{Topic: r.Topic, Partition: r.Partition}
		offs[tp] = max(offs[tp], r.Offset+1)
	}
	m.mu.Unlock()
	err := m.g.Commit(ctx, offs)
	var ce *consumer.CommitError
	if errors.As(err, &ce) && onlyNotAssigned(ce) {
		return nil // revoked between the check and the commit
	}
	return err
}

func onlyNotAssigned(ce *consumer.CommitError) bool {
	for _, err := range ce.Partitions {
		if !errors.Is(err, consumer.ErrNotAssigned) {
			return false
		}
	}
	return true
}

func (m *gregorGroup) Pause(tps []TopicPartition) error {
	for _, tp := range tps {
		if err := m.g.Pause(tpOf(tp)); err != nil {
			return err
		}
	}
	return nil
}

func (m *gregorGroup) Resume(tps []TopicPartition) error {
	for _, tp := range tps {
		if err := m.g.Resume(tpOf(tp)); err != nil {
			return err
		}
	}
	return nil
}

func (m *gregorGroup) Seek(ctx context.Context, tp TopicPartition, pos StartPosition) error {
	return m.g.Seek(ctx, tpOf(tp), positionOf(pos))
}

// Shutdown closes the group once (bounded by groupShutdownTimeout); every
// caller waits for that one shutdown within its ctx.
func (m *gregorGroup) Shutdown(ctx context.Context) error {
	m.once.Do(func() {
		go func() {
			sctx, cancel := context.WithTimeout(context.Background(), groupShutdownTimeout)
			defer cancel()
			m.err = m.g.Close(sctx)
			m.cl.Close(context.Background())
			close(m.done)
		}()
	})
	select {
	case <-m.done:
		return m.err
	case <-ctx.Done():
		return errors.Join(client.ErrTimeout, ctx.Err())
	}
}

func (m *gregorGroup) Close(ctx context.Context) error { return m.Shutdown(ctx) }
