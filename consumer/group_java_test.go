package consumer

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer/assign"
	"github.com/gregor-kafka/gregor/wire"
)

// javaEvent is one JSON line of Kafka's VerifiableConsumer.
type javaEvent struct {
	Name       string `json:"name"`
	Value      string `json:"value"`
	Topic      string `json:"topic"`
	Partition  int32  `json:"partition"`
	Offset     int64  `json:"offset"`
	Partitions []struct {
		Topic     string `json:"topic"`
		Partition int32  `json:"partition"`
	} `json:"partitions"`
	Offsets []struct {
		Topic     string `json:"topic"`
		Partition int32  `json:"partition"`
		Offset    int64  `json:"offset"`
	} `json:"offsets"`
}

// javaConsumer runs Apache's VerifiableConsumer (classic protocol, verbose)
// in the group until its context is cancelled (SIGKILL: no LeaveGroup) or
// it consumed maxMessages; wait returns its events.
type javaConsumer struct {
	cancel context.CancelFunc
	done   chan struct{}
	out    string
	err    error
}

func (e *groupEnv) startJava(group, strategy string, maxMessages int) *javaConsumer {
	return e.startJavaWith(group, maxMessages, "--group-protocol", "classic", "--session-timeout", "6000", "--assignment-strategy", strategy)
}

// startJavaWith runs VerifiableConsumer with the protocol arguments given.
func (e *groupEnv) startJavaWith(group string, maxMessages int, protocolArgs ...string) *javaConsumer {
	ctx, cancel := context.WithCancel(e.ctx)
	j := &javaConsumer{cancel: cancel, done: make(chan struct{})}
	args := append([]string{"--bootstrap-server", strings.Join(e.cluster.Bootstrap("PLAINTEXT"), ","), "--topic", e.topic, "--group-id", group,
		"--verbose", "--reset-policy", "earliest", "--max-messages", fmt.Sprint(maxMessages)}, protocolArgs...)
	go func() {
		defer close(j.done)
		j.out, j.err = e.cluster.RunTool(ctx, "org.apache.kafka.tools.VerifiableConsumer", args...)
	}()
	return j
}

// stop kills the JVM (unless it ended) and returns its events.
func (j *javaConsumer) stop(t *testing.T, kill bool) []javaEvent {
	t.Helper()
	if kill {
		j.cancel()
	}
	<-j.done
	j.cancel()
	if j.err != nil && !kill {
		t.Fatalf("VerifiableConsumer: %v", j.err)
	}
	var evs []javaEvent
	for _, line := range strings.Split(j.out, "\n") {
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var ev javaEvent
		if err := json.Unmarshal([]byte(line), &ev); err == nil {
			evs = append(evs, ev)
		}
	}
	return evs
}

// testMixedGroup: a gregor member and Apache's Java consumer share a group
// with the same assignor: they split the partitions disjointly and
// covering, every record is consumed, when the Java member dies the gregor
// member takes over from the Java member's commits, and a Java member
// started after the gregor member closed starts from gregor's commits.
func testMixedGroup(t *testing.T, javaStrategy string, ours assign.Assignor) {
	e := newGroupEnv(t, 4)
	group := e.topic + "-g"
	j := e.startJava(group, javaStrategy, -1)
	// The Java member joins first, so it leads the group when the gregor
	// member joins: Java's assignor reads gregor's subscription. Its own
	// subscription and assignment, as the coordinator stores them, decode
	// with gregor's codecs (ConsumerProtocol as Java writes it).
	e.waitFor("the Java member alone and stable", func() bool {
		d := e.describe(group)
		if d.GroupState != "Stable" || len(d.Members) != 1 {
			return false
		}
		var sub wire.ConsumerProtocolSubscription
		if err := sub.DecodeFrom(wire.NewReader(d.Members[0].MemberMetadata)); err != nil || sub.Version != wire.ConsumerProtocolVersion ||
			len(sub.Topics) != 1 || sub.Topics[0] != e.topic {
			t.Fatalf("Java's subscription %x decodes as %+v: %v", d.Members[0].MemberMetadata, sub, err)
		}
		var asg wire.ConsumerProtocolAssignment
		if err := asg.DecodeFrom(wire.NewReader(d.Members[0].MemberAssignment)); err != nil || len(asg.AssignedPartitions) > 1 ||
			len(asg.AssignedPartitions) == 1 && len(asg.AssignedPartitions[0].Partitions) != 4 {
			t.Fatalf("Java's assignment %x decodes as %+v: %v", d.Members[0].MemberAssignment, asg, err)
		}
		// Empty until the Java member's metadata shows the new topic's
		// partitions (it rebalances then): wait for it.
		return len(asg.AssignedPartitions) == 1
	})
	g := e.join(group, func(c *GroupConfig) {
		c.Assignors = []assign.Assignor{ours}
		c.AutoCommitInterval = 200 * time.Millisecond
	})
	var gotMu sync.Mutex
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
			gotMu.Lock()
			log = append(log, recs...)
			gotMu.Unlock()
		}
	}()
	// Two members, four partitions: each owns two once both joined
	// (gregor alone would own four).
	e.waitFor("the gregor member to own 2 of 4 partitions", func() bool { return len(g.ownedSet()) == 2 })
	ours2 := g.ownedSet()
	e.produce("a", 40, 4)
	// Both members consume their share and commit it: gregor by
	// auto-commit, Java with commitSync after each poll.
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
		case "partitions_revoked":
			for _, p := range ev.Partitions {
				delete(javaOwned, gregor.TopicPartition{Topic: p.Topic, Partition: p.Partition})
			}
		case "record_data":
			javaGot[ev.Value] = true
		}
	}
	for tp := range ours2 {
		if javaOwned[tp] {
			t.Fatalf("%s owned by both members (gregor %v, java %v)", tp, ours2, javaOwned)
		}
	}
	if len(javaOwned)+len(ours2) != 4 {
		t.Fatalf("gregor owns %v, java %v: not covering 4 partitions", ours2, javaOwned)
	}
	// The survivor takes over after the Java member's session expires,
	// from the Java member's commits.
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
		gotMu.Lock()
		defer gotMu.Unlock()
		for i := range 40 {
			a := fmt.Sprintf("a-%d", i)
			if !got(fmt.Sprintf("b-%d", i)) || !(got(a) || javaGot[a]) {
				return false
			}
		}
		return true
	})
	gotMu.Lock()
	for _, r := range log {
		if javaOwned[gregor.TopicPartition{Topic: r.Topic, Partition: r.Partition}] && strings.HasPrefix(string(r.Value), "a-") {
			t.Fatalf("gregor read %q of the Java member's %s[%d]: it did not start from Java's commit", r.Value, r.Topic, r.Partition)
		}
	}
	gotMu.Unlock()
	stopRecv()
	<-recvDone
	ctx, cancel := context.WithTimeout(e.ctx, 10*time.Second)
	if err := g.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	cancel()
	// Java starts from gregor's commits: it gets only the new records.
	e.produce("c", 4, 4)
	j2 := e.startJava(group, javaStrategy, 4)
	n := 0
	for _, ev := range j2.stop(t, false) {
		if ev.Name == "record_data" {
			n++
			if !strings.HasPrefix(ev.Value, "c-") {
				t.Fatalf("Java member read %q: it did not start from gregor's committed offsets", ev.Value)
			}
		}
	}
	if n != 4 {
		t.Fatalf("Java member read %d records, want 4", n)
	}
}

// describe returns the group as DescribeGroups reports it.
func (e *groupEnv) describe(group string) wire.DescribeGroupsGroup {
	e.t.Helper()
	coord, err := e.cl.Coordinator(e.ctx, client.CoordinatorGroup, group)
	if err != nil {
		e.t.Fatal(err)
	}
	r, err := e.cl.Request(e.ctx, coord, &wire.DescribeGroupsRequest{Groups: []string{group}})
	if err != nil {
		e.t.Fatal(err)
	}
	return r.(*wire.DescribeGroupsResponse).Groups[0]
}

// committed returns the group's committed offsets of the env's topic
// (OffsetFetch v8, by topic name).
func (e *groupEnv) committed(group string) map[gregor.TopicPartition]int64 {
	e.t.Helper()
	coord, err := e.cl.Coordinator(e.ctx, client.CoordinatorGroup, group)
	if err != nil {
		e.t.Fatal(err)
	}
	r, err := e.cl.RequestVersion(e.ctx, coord, &wire.OffsetFetchRequest{Groups: []wire.OffsetFetchRequestGroup{{GroupID: group, MemberEpoch: -1,
		Topics: []wire.OffsetFetchRequestTopic{{Name: e.topic, PartitionIndexes: []int32{0, 1, 2, 3}}}}}}, 8)
	if err != nil {
		e.t.Fatal(err)
	}
	out := map[gregor.TopicPartition]int64{}
	for _, gr := range r.(*wire.OffsetFetchResponse).Groups {
		for _, tr := range gr.Topics {
			for _, p := range tr.Partitions {
				out[gregor.TopicPartition{Topic: tr.Name, Partition: p.PartitionIndex}] = p.CommittedOffset
			}
		}
	}
	return out
}

// TestGroupIntegrationMixedJavaRange: gregor's range members and Java's
// RangeAssignor in one group (testRange computes Java's range assignment
// for dynamic members: ranges over member IDs in order).
func TestGroupIntegrationMixedJavaRange(t *testing.T) {
	testMixedGroup(t, "org.apache.kafka.clients.consumer.RangeAssignor", testRange{})
}
