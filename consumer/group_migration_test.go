package consumer

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/producer"
)

// TestGroupIntegrationMigrationToConsumer: a classic group of two gregor
// members is upgraded online, member by member, to the KIP-848 consumer
// protocol (Kafka 4.x converts the group when the first consumer-protocol
// member joins) while a producer writes: no record is lost, no partition
// is owned by two members at once (from the members' own event times),
// the committed offsets keep advancing to the end, and the group ends as
// a consumer group of two consumer-protocol members.
func TestGroupIntegrationMigrationToConsumer(t *testing.T) {
	const parts = 4
	e := newGroupEnv(t, parts)
	if !e.kip848() {
		return
	}
	group := e.topic + "-g"
	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()

	var mu sync.Mutex
	got := map[string]bool{}
	owners := map[gregor.TopicPartition][]ownership{}
	open := map[[2]any]time.Time{}
	ownedBy := map[int]map[gregor.TopicPartition]bool{}
	start := func(id int, proto GroupProtocol) func() {
		mu.Lock()
		ownedBy[id] = map[gregor.TopicPartition]bool{}
		mu.Unlock()
		m := e.join(group, func(c *GroupConfig) {
			c.Protocol = proto
			c.AutoCommitInterval = 100 * time.Millisecond
			c.OnAssignment = func(_ context.Context, ev AssignmentEvent) {
				mu.Lock()
				defer mu.Unlock()
				for _, tp := range ev.Partitions {
					ownedBy[id][tp] = ev.Kind == Assigned
					k := [2]any{id, tp}
					if ev.Kind == Assigned {
						open[k] = ev.Time
					} else if from, ok := open[k]; ok {
						owners[tp] = append(owners[tp], ownership{id, from, ev.Time})
						delete(open, k)
					}
				}
			}
		})
		done := make(chan struct{})
		go func() {
			defer close(done)
			for {
				recs, err := m.Receive(ctx)
				if err != nil {
					return
				}
				mu.Lock()
				for _, r := range recs {
					got[string(r.Value)] = true
				}
				mu.Unlock()
			}
		}()
		return func() {
			cctx, ccancel := context.WithTimeout(e.ctx, 20*time.Second)
			defer ccancel()
			if err := m.Close(cctx); err != nil {
				t.Errorf("member %d (%s) Close: %v", id, proto, err)
			}
			<-done
		}
	}
	owned := func(id int) map[gregor.TopicPartition]bool {
		mu.Lock()
		defer mu.Unlock()
		out := map[gregor.TopicPartition]bool{}
		for tp, ok := range ownedBy[id] {
			if ok {
				out[tp] = true
			}
		}
		return out
	}
	split := func(ids ...int) {
		e.waitFor(fmt.Sprintf("members %v to split %d partitions", ids, parts), func() bool {
			seen := map[gregor.TopicPartition]int{}
			for _, id := range ids {
				s := owned(id)
				if len(s) == 0 {
					return false
				}
				for tp := range s {
					seen[tp]++
				}
			}
			for _, n := range seen {
				if n != 1 {
					return false
				}
			}
			return len(seen) == parts
		})
	}

	p, err := producer.New(e.cl, producer.Config{Linger: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	written := 0
	stopProd := make(chan struct{})
	prodDone := make(chan struct{})
	go func() {
		defer close(prodDone)
		for {
			select {
			case <-stopProd:
				return
			default:
			}
			if _, err := p.Send(ctx, &producer.Record{Topic: e.topic, Partition: producer.ToPartition(int32(written % parts)), Value: fmt.Appendf(nil, "m-%d", written)}); err != nil {
				return
			}
			written++
			time.Sleep(2 * time.Millisecond) // the production rate, not synchronization
		}
	}()

	stopA := start(0, ProtocolClassic)
	stopB := start(1, ProtocolClassic)
	split(0, 1)
	stopA()
	stopA2 := start(2, ProtocolConsumer) // converts the group (KIP-848 online migration)
	split(1, 2)
	// Converted: one classic and one consumer-protocol member
	// (ConsumerGroupDescribe v1 member types 0 and 1).
	if d := e.describeConsumerGroup(group); d.ErrorCode != 0 || len(d.Members) != 2 || d.Members[0].MemberType+d.Members[1].MemberType != 1 {
		t.Fatalf("mid-migration ConsumerGroupDescribe gives %+v", d)
	}
	stopB()
	stopB2 := start(3, ProtocolConsumer)
	split(2, 3)
	if d := e.describeConsumerGroup(group); d.ErrorCode != 0 || len(d.Members) != 2 {
		t.Fatalf("after the migration ConsumerGroupDescribe gives %+v", d)
	}
	close(stopProd)
	<-prodDone
	if err := p.Close(e.ctx); err != nil {
		t.Fatal(err)
	}
	e.waitFor(fmt.Sprintf("all %d records consumed", written), func() bool {
		mu.Lock()
		defer mu.Unlock()
		for i := range written {
			if !got[fmt.Sprintf("m-%d", i)] {
				return false
			}
		}
		return true
	})
	// Commits continue through the migration: they reach the end of every
	// partition under the consumer protocol.
	e.waitFor("commits at the end of every partition", func() bool {
		offs := e.committed(group)
		n := int64(0)
		for p := range int32(parts) {
			n += offs[gregor.TopicPartition{Topic: e.topic, Partition: p}]
		}
		return n == int64(written)
	})
	stopA2()
	stopB2()
	mu.Lock()
	defer mu.Unlock()
	for tp, os := range owners {
		for i, a := range os {
			for _, b := range os[i+1:] {
				if a.member != b.member && a.from.Before(b.to) && b.from.Before(a.to) {
					t.Fatalf("%s owned by members %d [%v, %v] and %d [%v, %v] at once", tp, a.member, a.from, a.to, b.member, b.from, b.to)
				}
			}
		}
	}
	t.Logf("%d records written and consumed across the migration", written)
}
