package consumer

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer/assign"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

// testRange is a minimal range assignor for these tests only (the real
// assignors live in package assign): per topic, partitions split in
// contiguous ranges over the members sorted by member ID. coop makes it
// declare the cooperative protocol, so the group rebalances cooperatively
// (the leader withholds transfers, as Java's cooperative-sticky does).
type testRange struct{ coop bool }

func (a testRange) Name() string {
	if a.coop {
		return "test-coop-range"
	}
	return "range"
}

func (a testRange) Protocol() assign.RebalanceProtocol {
	if a.coop {
		return assign.Cooperative
	}
	return assign.Eager
}

func (a testRange) Assign(members []assign.Member, topics map[string][]assign.Partition) (map[string][]assign.TopicPartitions, error) {
	out := map[string][]assign.TopicPartitions{}
	byTopic := map[string][]string{}
	for _, m := range members {
		out[m.MemberID] = nil
		for _, t := range m.Topics {
			byTopic[t] = append(byTopic[t], m.MemberID)
		}
	}
	names := make([]string, 0, len(byTopic))
	for t := range byTopic {
		names = append(names, t)
	}
	sort.Strings(names)
	for _, t := range names {
		ms := byTopic[t]
		sort.Strings(ms)
		ps := topics[t]
		n := len(ps)
		per, extra := n/len(ms), n%len(ms)
		start := 0
		for i, m := range ms {
			k := per
			if i < extra {
				k++
			}
			var ids []int32
			for _, p := range ps[start : start+k] {
				ids = append(ids, p.ID)
			}
			start += k
			if len(ids) > 0 {
				out[m] = append(out[m], assign.TopicPartitions{Topic: t, Partitions: ids})
			}
		}
	}
	return out, nil
}

// groupEnv is a client on the shared cluster with a topic.
type groupEnv struct {
	t       *testing.T
	ctx     context.Context
	cluster *kafkatest.Cluster
	cl      *client.Client
	topic   string
}

func newGroupEnv(t *testing.T, partitions int32) *groupEnv {
	t.Helper()
	cluster := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cl := newTestClient(t, cluster)
	e := &groupEnv{t: t, ctx: ctx, cluster: cluster, cl: cl, topic: kafkatest.UniqueName(t, "group")}
	r, err := cl.RequestController(ctx, &wire.CreateTopicsRequest{TimeoutMs: 30000,
		Topics: []wire.CreateTopicsTopic{{Name: e.topic, NumPartitions: partitions, ReplicationFactor: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if code := r.(*wire.CreateTopicsResponse).Topics[0].ErrorCode; code != 0 {
		t.Fatalf("CreateTopics: %v", wire.ErrorForCode(code))
	}
	return e
}

func newTestClient(t *testing.T, cluster *kafkatest.Cluster) *client.Client {
	t.Helper()
	cl, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close(context.Background()) })
	return cl
}

// produce writes n records with values "prefix-i" to partition i % parts.
func (e *groupEnv) produce(prefix string, n int, parts int32) {
	e.t.Helper()
	p, err := producer.New(e.cl, producer.Config{Linger: time.Millisecond})
	if err != nil {
		e.t.Fatal(err)
	}
	defer p.Close(e.ctx)
	var ds []*producer.Delivery
	for i := range n {
		d, err := p.Send(e.ctx, &producer.Record{Topic: e.topic, Partition: producer.ToPartition(int32(i) % parts), Value: fmt.Appendf(nil, "%s-%d", prefix, i)})
		if err != nil {
			e.t.Fatal(err)
		}
		ds = append(ds, d)
	}
	for _, d := range ds {
		if r, err := d.Wait(e.ctx); err != nil || r.Err != nil {
			e.t.Fatalf("produce: %v %v", err, r.Err)
		}
	}
}

// member is a Group with the events it saw.
type member struct {
	*Group
	mu     sync.Mutex
	events []AssignmentEvent
	owned  map[gregor.TopicPartition]bool
}

func (m *member) onEvent(_ context.Context, ev AssignmentEvent) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.events = append(m.events, ev)
	for _, tp := range ev.Partitions {
		m.owned[tp] = ev.Kind == Assigned
	}
}

func (m *member) ownedSet() map[gregor.TopicPartition]bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[gregor.TopicPartition]bool{}
	for tp, ok := range m.owned {
		if ok {
			out[tp] = true
		}
	}
	return out
}

func (e *groupEnv) join(group string, mod func(*GroupConfig)) *member {
	e.t.Helper()
	// A client per member, as applications in separate processes have.
	return e.joinOn(newTestClient(e.t, e.cluster), group, mod)
}

// joinOn is join through the client cl, which other members may share.
func (e *groupEnv) joinOn(cl *client.Client, group string, mod func(*GroupConfig)) *member {
	e.t.Helper()
	m := &member{owned: map[gregor.TopicPartition]bool{}}
	cfg := GroupConfig{GroupID: group, Topics: []string{e.topic}, Protocol: ProtocolClassic, Assignors: []assign.Assignor{testRange{}},
		SessionTimeout: 6 * time.Second, HeartbeatInterval: 300 * time.Millisecond, RebalanceTimeout: 20 * time.Second,
		OnAssignment: m.onEvent}
	cfg.MaxWait = 100 * time.Millisecond
	if mod != nil {
		mod(&cfg)
	}
	g, err := NewGroup(cl, cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	m.Group = g
	e.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		g.Close(ctx)
	})
	return m
}

// waitFor polls cond until it holds or the env's deadline passes.
func (e *groupEnv) waitFor(what string, cond func() bool) {
	e.t.Helper()
	for !cond() {
		if e.ctx.Err() != nil {
			e.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond) // polling interval of a condition wait
	}
}

// stableSplit waits until the members' owned sets are disjoint and cover
// all parts partitions.
func (e *groupEnv) stableSplit(parts int32, ms ...*member) {
	e.t.Helper()
	e.waitFor(fmt.Sprintf("%d members to split %d partitions", len(ms), parts), func() bool {
		seen := map[gregor.TopicPartition]int{}
		for _, m := range ms {
			for tp := range m.ownedSet() {
				seen[tp]++
			}
			if len(m.ownedSet()) == 0 && int(parts) >= len(ms) {
				return false
			}
		}
		if len(seen) != int(parts) {
			return false
		}
		for _, n := range seen {
			if n != 1 {
				return false
			}
		}
		return true
	})
}

// drain receives from m until want values are collected or the deadline.
func (e *groupEnv) drain(m *member, want int) []Record {
	e.t.Helper()
	var out []Record
	for len(out) < want {
		ctx, cancel := context.WithTimeout(e.ctx, 15*time.Second)
		recs, err := m.Receive(ctx)
		cancel()
		if err != nil {
			e.t.Fatalf("Receive after %d of %d records: %v", len(out), want, err)
		}
		out = append(out, recs...)
	}
	return out
}

// kip848 reports whether the cluster runs KIP-848 consumer groups (Kafka
// 4.0+). On an older release it first checks what gregor does there: a
// ProtocolConsumer member fails within 5 s with gregor.ErrUnsupportedFeature.
// Tests of the consumer protocol end (having asserted that) when it is
// false.
func (e *groupEnv) kip848() bool {
	e.t.Helper()
	if e.cluster.AtLeast(4, 0) {
		return true
	}
	m := e.join(e.topic+"-unsupported", withConsumerProtocol(""))
	ctx, cancel := context.WithTimeout(e.ctx, 5*time.Second)
	defer cancel()
	if _, err := m.Receive(ctx); !errors.Is(err, gregor.ErrUnsupportedFeature) {
		e.t.Fatalf("ProtocolConsumer member on Kafka %s: %v, want gregor.ErrUnsupportedFeature within 5s", e.cluster.Version(), err)
	}
	return false
}
