package consumer

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// describeConsumerGroup returns the group as ConsumerGroupDescribe
// reports it (KIP-848).
func (e *groupEnv) describeConsumerGroup(group string) wire.ConsumerGroupDescribeGroup {
	e.t.Helper()
	coord, err := e.cl.Coordinator(e.ctx, client.CoordinatorGroup, group)
	if err != nil {
		e.t.Fatal(err)
	}
	r, err := e.cl.Request(e.ctx, coord, &wire.ConsumerGroupDescribeRequest{GroupIDs: []string{group}})
	if err != nil {
		e.t.Fatal(err)
	}
	return r.(*wire.ConsumerGroupDescribeResponse).Groups[0]
}

// TestGroupConsumerIntegrationMixedJava: a gregor member and Apache's Java
// consumer with group.protocol=consumer (VerifiableConsumer
// --group-protocol consumer) share a KIP-848 group: the coordinator's
// assignment splits the partitions disjointly and covering, every record
// is consumed, and when the Java member dies (no leave) the gregor member
// takes over from the Java member's commits once its session expires.
func TestGroupConsumerIntegrationMixedJava(t *testing.T) {
	e := newGroupEnv(t, 4)
	if !e.kip848() {
		return
	}
	group := e.topic + "-g"
	j := e.startJavaWith(group, -1, "--group-protocol", "consumer")
	e.waitFor("the Java member alone with 4 partitions", func() bool {
		d := e.describeConsumerGroup(group)
		return d.ErrorCode == 0 && len(d.Members) == 1 && len(d.Members[0].Assignment.TopicPartitions) == 1 &&
			len(d.Members[0].Assignment.TopicPartitions[0].Partitions) == 4
	})
	g := e.join(group, func(c *GroupConfig) { c.Protocol = ProtocolConsumer; c.AutoCommitInterval = 200 * time.Millisecond })
	var mu sync.Mutex
	var log []Record
	recvCtx, stopRecv := context.WithCancel(e.ctx)
	recvDone := make(chan struct{})
	go func() {
		defer close(recvDone)
		for recvCtx.Err() == nil {
			recs, err := g.Receive(recvCtx)
			if err != nil {
				return
			}
			mu.Lock()
			log = append(log, recs...)
			mu.Unlock()
		}
	}()
	e.waitFor("the gregor member to own 2 of 4 partitions", func() bool { return len(g.ownedSet()) == 2 })
	ours := g.ownedSet()
	d := e.describeConsumerGroup(group)
	for _, m := range d.Members {
		if m.MemberEpoch <= 0 || m.MemberType != -1 && m.MemberType != 1 {
			t.Fatalf("member %+v", m)
		}
	}
	e.produce("a", 40, 4)
	e.waitFor("all 4 partitions committed at 10", func() bool {
		offs := e.committed(group)
		for p := range int32(4) {
			if offs[gregor.TopicPartition{Topic: e.topic, Partition: p}] != 10 {
				return false
			}
		}
		return true
	})
	evs := j.stop(t, true)
	javaOwned := map[gregor.TopicPartition]bool{}
	javaGot := map[string]bool{}
	for _, ev := range evs {
		switch ev.Name {
		case "partitions_assigned":
			for _, p := range ev.Partitions {
				javaOwned[gregor.TopicPartition{Topic: p.Topic, Partition: p.Partition}] = true
			}
		case "partitions_revoked", "partitions_lost":
			for _, p := range ev.Partitions {
				delete(javaOwned, gregor.TopicPartition{Topic: p.Topic, Partition: p.Partition})
			}
		case "record_data":
			javaGot[ev.Value] = true
		}
	}
	for tp := range ours {
		if javaOwned[tp] {
			t.Fatalf("%s owned by both members (gregor %v, java %v)", tp, ours, javaOwned)
		}
	}
	if len(javaOwned)+len(ours) != 4 {
		t.Fatalf("gregor owns %v, java %v: not covering 4 partitions", ours, javaOwned)
	}
	e.waitFor("the gregor member to own all 4 partitions", func() bool { return len(g.ownedSet()) == 4 })
	e.produce("b", 40, 4)
	got := func(v string) bool {
		for _, r := range log {
			if string(r.Value) == v {
				return true
			}
		}
		return false
	}
	e.waitFor("every record consumed", func() bool {
		mu.Lock()
		defer mu.Unlock()
		for i := range 40 {
			a := fmt.Sprintf("a-%d", i)
			if !got(fmt.Sprintf("b-%d", i)) || !(got(a) || javaGot[a]) {
				return false
			}
		}
		return true
	})
	mu.Lock()
	for _, r := range log {
		if javaOwned[gregor.TopicPartition{Topic: r.Topic, Partition: r.Partition}] && strings.HasPrefix(string(r.Value), "a-") {
			t.Fatalf("gregor read %q of the Java member's %s[%d]: it did not start from Java's commit", r.Value, r.Topic, r.Partition)
		}
	}
	mu.Unlock()
	stopRecv()
	<-recvDone
}
