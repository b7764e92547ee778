package bench

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/consumer/assign"
	"github.com/twmb/franz-go/pkg/kgo"
)

// groupJoinPartitions is the partition count of the scale group-join
// topic: every member of the largest group gets two.
const groupJoinPartitions = 100

// BenchmarkScaleGroupJoin (issue 37's group-join curve): one op starts a
// new group of members members (classic: range, eager; KIP-848: the
// broker's assignor) on an empty topic of 100 partitions and waits until the group is stable — every member
// owning partitions and every partition owned by exactly one member —
// then closes them (untimed). gregor with every member on its own client
// (clients=each, as franz-go must) and all on one shared client
// (clients=one); franz-go with kgo.ConsumerGroup (classic). Members that
// join after the first generation formed wait for the others' next
// heartbeat (heartbeat.interval.ms, 3 s for every client), so the classic
// times are steps of it. Reported: ns/op is the
// join time; heap-B/member the live heap the stable group holds per
// member (after a GC, the process's own measure).
func BenchmarkScaleGroupJoin(b *testing.B) {
	owner := b
	for _, members := range []int{1, 10, 50} {
		topic := func(b *testing.B) string { return topicFor(b, owner, "group-join", groupJoinPartitions) }
		for _, proto := range []consumer.GroupProtocol{consumer.ProtocolClassic, consumer.ProtocolConsumer} {
			for _, shared := range []bool{false, true} {
				clients := map[bool]string{false: "each", true: "one"}[shared]
				b.Run(fmt.Sprintf("client=gregor/protocol=%s/clients=%s/members=%d", proto, clients, members), func(b *testing.B) {
					benchJoin(b, members, topic(b), func(b *testing.B, topic, group string, tr *joinTracker) func() {
						return gregorJoin(b, topic, group, members, proto, shared, tr)
					})
				})
			}
		}
		b.Run(fmt.Sprintf("client=franz/protocol=classic/clients=each/members=%d", members), func(b *testing.B) {
			benchJoin(b, members, topic(b), func(b *testing.B, topic, group string, tr *joinTracker) func() {
				return franzJoin(b, topic, group, members, tr)
			})
		})
	}
}

// benchJoin times start (which starts the members and returns their
// closer) until tr says the group is stable, b.N times.
func benchJoin(b *testing.B, members int, topic string, start func(b *testing.B, topic, group string, tr *joinTracker) func()) {
	var heap float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tr := newJoinTracker(members, groupJoinPartitions)
		group := fmt.Sprintf("bench-join-%d-%d", time.Now().UnixNano(), groupSeq.Add(1))
		b.StartTimer()
		closeAll := start(b, topic, group, tr)
		select {
		case <-tr.stable:
		case <-time.After(5 * time.Minute):
			b.Fatalf("group of %d not stable after 5 minutes: %s", members, tr.state())
		}
		b.StopTimer()
		heap += liveHeap()
		closeAll()
	}
	b.ReportMetric(heap/float64(b.N)/float64(members), "heap-B/member")
}

// liveHeap is the heap in use after a collection.
func liveHeap() float64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapInuse)
}

// joinTracker follows every member's current partitions and closes
// stable once the group is stable: every member owns some partitions and
// every partition is owned by exactly one member (the members' epochs are
// not compared: a KIP-848 member whose partitions do not change has no
// event for its new epoch; every member of the largest group gets two
// partitions, so none owns nothing in a stable group).
type joinTracker struct {
	mu         sync.Mutex
	partitions int
	owned      []map[int32]bool // per member index (mu)
	gen        []int32          // per member index; -1 before its first assignment (mu)
	stable     chan struct{}
	closed     bool // stable closed (mu)
}

func newJoinTracker(members, partitions int) *joinTracker {
	tr := &joinTracker{partitions: partitions, stable: make(chan struct{})}
	for range members {
		tr.owned = append(tr.owned, map[int32]bool{})
		tr.gen = append(tr.gen, -1)
	}
	return tr
}

// assigned records that member owns ps from generation gen on.
func (tr *joinTracker) assigned(member int, gen int32, ps []int32) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.gen[member] = gen
	for _, p := range ps {
		tr.owned[member][p] = true
	}
	tr.checkLocked()
}

// revoked records that member no longer owns ps.
func (tr *joinTracker) revoked(member int, ps []int32) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	for _, p := range ps {
		delete(tr.owned[member], p)
	}
}

func (tr *joinTracker) checkLocked() {
	if tr.closed {
		return
	}
	owners := map[int32]int{}
	for m, ps := range tr.owned {
		if tr.gen[m] < 0 || len(ps) == 0 {
			return
		}
		for p := range ps {
			owners[p]++
		}
	}
	if len(owners) != tr.partitions {
		return
	}
	for _, n := range owners {
		if n != 1 {
			return
		}
	}
	tr.closed = true
	close(tr.stable)
}

func (tr *joinTracker) state() string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	out := ""
	for m := range tr.owned {
		out += fmt.Sprintf("[m%d gen %d owns %d] ", m, tr.gen[m], len(tr.owned[m]))
	}
	return out
}

// gregorJoin starts members consumer.Group members of group (one client
// each, or one shared client) reporting to tr, and returns their closer.
func gregorJoin(b *testing.B, topic, group string, members int, proto consumer.GroupProtocol, shared bool, tr *joinTracker) func() {
	var clients []*client.Client
	newClient := func() *client.Client {
		cl, err := client.New(client.Config{Bootstrap: bootstrap(b), ClientID: "gregor-bench"})
		if err != nil {
			b.Fatal(err)
		}
		clients = append(clients, cl)
		return cl
	}
	var groups []*consumer.Group
	var cl *client.Client
	for m := range members {
		if cl == nil || !shared {
			cl = newClient()
		}
		onAssign := func(_ context.Context, ev consumer.AssignmentEvent) {
			ps := make([]int32, 0, len(ev.Partitions))
			for _, tp := range ev.Partitions {
				ps = append(ps, tp.Partition)
			}
			if ev.Kind == consumer.Assigned {
				tr.assigned(m, ev.GenerationID, ps)
			} else {
				tr.revoked(m, ps)
			}
		}
		g, err := consumer.NewGroup(cl, consumer.GroupConfig{GroupID: group, Topics: []string{topic}, Protocol: proto,
			Assignors: []assign.Assignor{benchRange{}}, DisableAutoCommit: true, OnAssignment: onAssign})
		if err != nil {
			b.Fatal(err)
		}
		groups = append(groups, g)
	}
	return func() {
		ctx := ctxFor(b, 2*time.Minute)
		var wg sync.WaitGroup
		for _, g := range groups {
			wg.Add(1)
			go func() { defer wg.Done(); g.Close(ctx) }()
		}
		wg.Wait()
		for _, cl := range clients {
			cl.Close(ctx)
		}
	}
}

// franzJoin is gregorJoin with franz-go members, one kgo.Client each.
func franzJoin(b *testing.B, topic, group string, members int, tr *joinTracker) func() {
	var cls []*kgo.Client
	for m := range members {
		gen := func(cl *kgo.Client) int32 { _, g := cl.GroupMetadata(); return g }
		parts := func(a map[string][]int32) []int32 { return a[topic] }
		cl, err := kgo.NewClient(kgo.SeedBrokers(bootstrap(b)...), kgo.ClientID("franz-bench"),
			kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic), kgo.Balancers(kgo.RangeBalancer()), kgo.DisableAutoCommit(),
			kgo.OnPartitionsAssigned(func(_ context.Context, cl *kgo.Client, a map[string][]int32) { tr.assigned(m, gen(cl), parts(a)) }),
			kgo.OnPartitionsRevoked(func(_ context.Context, _ *kgo.Client, r map[string][]int32) { tr.revoked(m, parts(r)) }),
			kgo.OnPartitionsLost(func(_ context.Context, _ *kgo.Client, l map[string][]int32) { tr.revoked(m, parts(l)) }))
		if err != nil {
			b.Fatal(err)
		}
		cls = append(cls, cl)
	}
	return func() {
		var wg sync.WaitGroup
		for _, cl := range cls {
			wg.Add(1)
			go func() { defer wg.Done(); cl.Close() }()
		}
		wg.Wait()
	}
}
