package consumer_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/consumer/assign"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

// brokerCounts counts, per broker, the Fetch requests written and the
// records Fetch responses brought (client hooks).
type brokerCounts struct {
	mu      sync.Mutex
	fetches map[int32]int
	records map[int32]int
}

func (h *brokerCounts) OnRequestWritten(ev client.RequestEvent) {
	if ev.Key != wire.KeyFetch || ev.Err != nil {
		return
	}
	h.mu.Lock()
	h.fetches[ev.Broker]++
	h.mu.Unlock()
}

func (h *brokerCounts) OnFetchBatch(ev client.BatchEvent) {
	h.mu.Lock()
	h.records[ev.Broker] += ev.Records
	h.mu.Unlock()
}

// snapshot returns copies of the counts.
func (h *brokerCounts) snapshot() (fetches, records map[int32]int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	fetches, records = map[int32]int{}, map[int32]int{}
	for k, v := range h.fetches {
		fetches[k] = v
	}
	for k, v := range h.records {
		records[k] = v
	}
	return fetches, records
}

var probeOut = regexp.MustCompile(`preferred-read-replica=(-?\d+) records=(\d+)`)

// TestIntegrationRacks starts the 1+3 cluster with racks (broker i in
// rack-a/b/c, RackAwareReplicaSelector) once, for follower fetching
// (KIP-392), rack-aware partitioning (KIP-1123, a producer feature) and
// rack-aware assignment (KIP-881), so that the four JVMs start only once.
func TestIntegrationRacks(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 12*time.Minute)
	defer cancel()
	kc, err := kafkatest.Start(ctx, kafkatest.Options{Shape: kafkatest.ThreeBrokers, Racks: true, Log: t.Logf, StartTimeout: 5 * time.Minute})
	if err != nil {
		t.Fatalf("the racked 1+3 cluster did not start: %v", err)
	}
	defer func() {
		if err := kc.Close(); err != nil {
			t.Errorf("stopping the cluster: %v", err)
		}
	}()
	if kc.BrokerRack(2) != "rack-b" {
		t.Fatalf("broker 2 is in rack %q, want rack-b", kc.BrokerRack(2))
	}
	// Partitioning first: follower fetching stops and restarts broker 2.
	t.Run("RackAwarePartitioning", func(t *testing.T) { testRackAwarePartitioning(ctx, t, kc) })
	t.Run("RackAwareAssignment", func(t *testing.T) { testRackAwareAssignment(ctx, t, kc) })
	t.Run("FollowerFetching", func(t *testing.T) { testFollowerFetching(ctx, t, kc) })
}

// testFollowerFetching reads a partition led by broker 1 (rack-a; or 3
// when 1 lost the first election) with replicas on 2 (rack-b) and 3
// (rack-c) as a consumer in rack-b: every
// record comes from broker 2 (per broker record counts of the FetchBatch
// hook; broker 1 only answers the first Fetch, naming 2), and the metrics
// name 2. With broker 2 stopped the records come from the leader; once 2 is
// back (and in the ISR) they come from 2 again. Apache's Java consumer with
// client.rack=rack-b reports the same preferred read replica.
func testFollowerFetching(ctx context.Context, t *testing.T, kc *kafkatest.Cluster) {
	h := &brokerCounts{fetches: map[int32]int{}, records: map[int32]int{}}
	cl, err := client.New(client.Config{Bootstrap: kc.Bootstrap(kafkatest.Plaintext), Hooks: []client.Hook{h},
		RetryBackoff: 50 * time.Millisecond, RetryBackoffMax: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	topic := createTopic(ctx, t, cl, "racks", [][]int32{{1, 2, 3}})
	p, err := producer.New(cl, producer.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(context.Background())
	produce := func(tag string, n int) {
		t.Helper()
		sendAll(ctx, t, p, n, func(i int) *producer.Record {
			return &producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: []byte(fmt.Sprintf("%s-%d", tag, i))}
		})
	}

	c, err := consumer.New(cl, consumer.Config{Rack: "rack-b", MaxWait: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	tp := gregor.TopicPartition{Topic: topic, Partition: 0}
	if err := c.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	receive := func(n int) {
		t.Helper()
		for got := 0; got < n; {
			rctx, rcancel := context.WithTimeout(ctx, time.Minute)
			recs, err := c.Receive(rctx)
			rcancel()
			if err != nil {
				t.Fatalf("Receive after %d of %d records: %v", got, n, err)
			}
			got += len(recs)
		}
	}
	readReplica := func() (int32, bool) {
		for _, m := range cl.Metrics().Partitions {
			if m.Topic == topic && m.Partition == 0 {
				return m.ReadReplica, m.FromFollower
			}
		}
		return 0, false
	}

	const n = 200
	produce("a", n)
	receive(n)
	fetches, records := h.snapshot()
	t.Logf("rack-b consumer, all brokers up: Fetches per broker %v, records per broker %v, metrics %+v", fetches, records, c.Metrics())
	if records[2] != n || records[1] != 0 || records[3] != 0 {
		t.Fatalf("records per broker %v: want all %d from broker 2 (rack-b)", records, n)
	}
	if r, ok := readReplica(); !ok || r != 2 {
		t.Fatalf("PartitionMetrics: read replica %d (from a follower: %v), want 2", r, ok)
	}

	// Broker 2 stops: the leader serves the records.
	if err := kc.StopBroker(ctx, 2); err != nil {
		t.Fatal(err)
	}
	produce("b", n)
	receive(n)
	_, after := h.snapshot()
	// The leader is asked, not assumed: under load the bed's broker 1 can
	// lose the topic's first election (CI: the records came from its
	// leader, broker 3, the test wanted 1).
	md, err := cl.Metadata(ctx, []string{topic})
	if err != nil {
		t.Fatal(err)
	}
	leader := md.Topics[topic].Partitions[0].Leader
	t.Logf("broker 2 stopped: leader %d, records per broker %v, metrics %+v", leader, after, c.Metrics())
	if leader == 2 || after[leader] != n || after[2] != n {
		t.Fatalf("records per broker %v with broker 2 stopped: want the %d new ones from the leader, %d", after, n, leader)
	}
	if _, ok := readReplica(); ok {
		t.Fatal("PartitionMetrics: still reading from a follower with broker 2 stopped")
	}
	if m := c.Metrics(); m.ReadReplicaFallbacks == 0 {
		t.Fatalf("metrics %+v: no fallback to the leader counted", m)
	}

	// Broker 2 is back: once it is in the ISR the leader names it again.
	if err := kc.RestartBroker(ctx, 2); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for rounds := 0; ; rounds++ {
		if _, rs := h.snapshot(); rs[2] > n {
			t.Logf("broker 2 back: records per broker %v after %d rounds of 10", rs, rounds)
			break
		}
		if time.Now().After(deadline) {
			_, rs := h.snapshot()
			t.Fatalf("no records from broker 2 within 2m of its restart: records per broker %v, metrics %+v", rs, c.Metrics())
		}
		produce("c", 10)
		receive(10)
	}
	if r, ok := readReplica(); !ok || r != 2 {
		t.Fatalf("PartitionMetrics after broker 2's return: read replica %d (from a follower: %v), want 2", r, ok)
	}

	// Apache's Java consumer in the same rack picks the same replica.
	probe, err := filepath.Abs(filepath.Join("testdata", "RackProbe.java"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := kc.RunTool(ctx, probe, strings.Join(kc.Bootstrap(kafkatest.Plaintext), ","), topic, "rack-b", fmt.Sprint(2*n))
	if err != nil {
		t.Fatalf("Java consumer: %v", err)
	}
	m := probeOut.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("Java consumer printed no preferred-read-replica:\n%s", out)
	}
	t.Logf("Java consumer (client.rack=rack-b): preferred-read-replica=%s after %s records", m[1], m[2])
	if m[1] != "2" {
		t.Fatalf("Java consumer's preferred-read-replica is %s, gregor's 2", m[1])
	}
}

// createTopic creates a topic with the given replica assignments (preferred
// leader first) and returns its name.
func createTopic(ctx context.Context, t *testing.T, cl *client.Client, prefix string, assignments [][]int32) string {
	t.Helper()
	topic := kafkatest.UniqueName(t, prefix)
	res, err := admin.New(cl, admin.Config{}).CreateTopics(ctx, []admin.NewTopic{{Name: topic, Assignments: assignments}}, admin.TopicOptions{WaitVisible: true})
	if err == nil {
		err = res[0].Err
	}
	if err != nil {
		t.Fatal(err)
	}
	return topic
}

// rackAssignments leads partitions 1 and 4 of six by broker 2 (rack-b),
// the others by brokers 1 and 3; every partition has a replica on each.
var rackAssignments = [][]int32{{1, 2, 3}, {2, 3, 1}, {3, 1, 2}, {1, 3, 2}, {2, 1, 3}, {3, 2, 1}}

// testRackAwarePartitioning (KIP-1123): gregor's producer with
// RackAwarePartitioning and Rack rack-b puts every keyless record in a
// partition led by broker 2, as Apache's Java producer
// (ProducerPerformance, keyless records) does with partitioner.rack.aware
// and client.rack=rack-b; without it, records reach the other partitions
// too.
func testRackAwarePartitioning(ctx context.Context, t *testing.T, kc *kafkatest.Cluster) {
	cl, err := client.New(client.Config{Bootstrap: kc.Bootstrap(kafkatest.Plaintext)})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	ends := func(topic string) []int64 {
		t.Helper()
		var qs []admin.OffsetQuery
		for part := range int32(len(rackAssignments)) {
			qs = append(qs, admin.OffsetQuery{TopicPartition: gregor.TopicPartition{Topic: topic, Partition: part}, Spec: admin.OffsetLatest})
		}
		res, err := admin.New(cl, admin.Config{}).ListOffsets(ctx, qs, admin.ListOffsetsOptions{})
		if err != nil {
			t.Fatal(err)
		}
		out := make([]int64, len(rackAssignments))
		for _, r := range res {
			if r.Err != nil {
				t.Fatalf("ListOffsets %s: %v", r.TopicPartition, r.Err)
			}
			out[r.Partition] = r.Offset
		}
		return out
	}
	const n = 400
	produce := func(cfg producer.Config) []int64 {
		t.Helper()
		topic := createTopic(ctx, t, cl, "kip1123", rackAssignments)
		cfg.BatchMaxBytes, cfg.Linger = 1024, time.Millisecond // the sticky partition switches every ~10 records
		p, err := producer.New(cl, cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close(context.Background())
		sendAll(ctx, t, p, n, func(i int) *producer.Record {
			return &producer.Record{Topic: topic, Value: []byte(fmt.Sprintf("%098d", i))} // keyless
		})
		return ends(topic)
	}
	inRackOnly := func(who string, e []int64) {
		t.Helper()
		var total int64
		for part, off := range e {
			total += off
			if leader := rackAssignments[part][0]; leader != 2 && off != 0 {
				t.Errorf("%s: %d records in partition %d, led by broker %d (%s); ends %v", who, off, part, leader, kc.BrokerRack(leader), e)
			}
		}
		if total != n {
			t.Errorf("%s: %d records in all, want %d; ends %v", who, total, n, e)
		}
	}
	gregorEnds := produce(producer.Config{Rack: "rack-b", RackAwarePartitioning: true})
	t.Logf("gregor, partitioner.rack.aware, rack-b: records per partition %v", gregorEnds)
	inRackOnly("gregor", gregorEnds)
	if gregorEnds[1] == 0 || gregorEnds[4] == 0 {
		t.Errorf("gregor: records per partition %v: want both rack-b partitions (1 and 4) used", gregorEnds)
	}
	plain := produce(producer.Config{Rack: "rack-b"})
	t.Logf("gregor, rack-b, not rack-aware: records per partition %v", plain)
	if plain[0]+plain[2]+plain[3]+plain[5] == 0 {
		t.Errorf("gregor without RackAwarePartitioning used only rack-b's partitions: %v", plain)
	}

	if known, err := kc.JavaClientKnows("partitioner.rack.aware"); err != nil {
		t.Fatal(err)
	} else if !known {
		// The Java leg compares with Apache's producer of the cluster's
		// release: before KIP-1123 it has no rack-aware partitioning.
		t.Logf("Kafka %s: the Java producer has no partitioner.rack.aware (KIP-1123), no comparison with it", kc.Version())
		return
	}
	javaTopic := createTopic(ctx, t, cl, "kip1123-java", rackAssignments)
	out, err := kc.RunTool(ctx, "org.apache.kafka.tools.ProducerPerformance", "--topic", javaTopic, "--num-records", fmt.Sprint(n),
		"--record-size", "100", "--throughput", "-1", "--producer-props", "bootstrap.servers="+strings.Join(kc.Bootstrap(kafkatest.Plaintext), ","),
		"partitioner.rack.aware=true", "client.rack=rack-b", "batch.size=1024", "linger.ms=1", "acks=all")
	if err != nil {
		t.Fatalf("Java producer: %v", err)
	}
	javaEnds := ends(javaTopic)
	t.Logf("Java ProducerPerformance, partitioner.rack.aware, rack-b: records per partition %v (%s)", javaEnds, strings.TrimSpace(lastLine(out)))
	inRackOnly("Java", javaEnds)
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// sendAll sends records rec(0) .. rec(n-1) and waits until each is
// acknowledged.
func sendAll(ctx context.Context, t *testing.T, p *producer.Producer, n int, rec func(i int) *producer.Record) {
	t.Helper()
	ds := make([]*producer.Delivery, 0, n)
	for i := range n {
		d, err := p.Send(ctx, rec(i))
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	for i, d := range ds {
		if r, err := d.Wait(ctx); err != nil || r.Err != nil {
			t.Fatalf("record %d: %v %v", i, err, r.Err)
		}
	}
}

// testRackAwareAssignment (KIP-881): a classic group of Apache's Java
// consumer (VerifiableConsumer, client.rack=rack-a) and gregor's (Rack
// rack-b), both with the range assignor, on a topic whose partitions 0 and
// 2 live on broker 1 (rack-a) and 1 and 3 on broker 2 (rack-b): whichever
// leads, the Java member gets 0 and 2 and gregor's 1 and 3 (plain range
// would give one member 0-1 and the other 2-3). Then a KIP-848 member's
// rack reaches the coordinator (ConsumerGroupDescribe).
func testRackAwareAssignment(ctx context.Context, t *testing.T, kc *kafkatest.Cluster) {
	cl, err := client.New(client.Config{Bootstrap: kc.Bootstrap(kafkatest.Plaintext)})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	topic := createTopic(ctx, t, cl, "kip881", [][]int32{{1}, {2}, {1}, {2}})
	group := topic + "-g"
	props, err := kc.WriteClientProperties(kafkatest.Plaintext, "", "", "")
	if err == nil {
		err = appendProperty(props, "client.rack=rack-a")
	}
	if err != nil {
		t.Fatal(err)
	}
	jctx, jcancel := context.WithCancel(ctx)
	jdone := make(chan string, 1)
	go func() {
		out, _ := kc.RunTool(jctx, "org.apache.kafka.tools.VerifiableConsumer", "--bootstrap-server", strings.Join(kc.Bootstrap(kafkatest.Plaintext), ","),
			"--topic", topic, "--group-id", group, "--group-protocol", "classic", "--session-timeout", "6000",
			"--assignment-strategy", "org.apache.kafka.clients.consumer.RangeAssignor", "--consumer.config", props) // --command-config: 4.2+
		jdone <- out
	}()
	defer func() {
		jcancel()
		<-jdone
	}()
	g, err := consumer.NewGroup(cl, consumer.GroupConfig{Config: consumer.Config{Rack: "rack-b"}, GroupID: group, Topics: []string{topic},
		Protocol: consumer.ProtocolClassic, Assignors: []assign.Assignor{assign.Range()}, SessionTimeout: 6 * time.Second,
		HeartbeatInterval: time.Second, DisableAutoCommit: true})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close(context.Background())
	go receiveUntilClosed(ctx, g)
	var byRack map[string][]int32
	pollUntil(ctx, t, 3*time.Minute, "a stable group of the Java (rack-a) and the gregor (rack-b) member", func() bool {
		byRack = describeByRack(ctx, t, cl, group)
		return len(byRack) == 2 && len(byRack["rack-a"])+len(byRack["rack-b"]) == 4
	})
	t.Logf("classic group, range assignor: partitions by member rack %v (0 and 2 on rack-a's broker 1, 1 and 3 on rack-b's broker 2)", byRack)
	if !slices.Equal(byRack["rack-a"], []int32{0, 2}) || !slices.Equal(byRack["rack-b"], []int32{1, 3}) {
		t.Fatalf("partitions by member rack %v: want rack-a [0 2], rack-b [1 3]", byRack)
	}

	// KIP-848: the rack is in the joining heartbeat. Kafka 3.x has no
	// KIP-848 groups: the member fails at once, typed.
	g2, err := consumer.NewGroup(cl, consumer.GroupConfig{Config: consumer.Config{Rack: "rack-b"}, GroupID: group + "-848", Topics: []string{topic},
		Protocol: consumer.ProtocolConsumer, DisableAutoCommit: true})
	if err != nil {
		t.Fatal(err)
	}
	defer g2.Close(context.Background())
	if !kc.AtLeast(4, 0) {
		rctx, rcancel := context.WithTimeout(ctx, 5*time.Second)
		defer rcancel()
		if _, err := g2.Receive(rctx); !errors.Is(err, gregor.ErrUnsupportedFeature) {
			t.Fatalf("KIP-848 member on Kafka %s: %v, want gregor.ErrUnsupportedFeature within 5s", kc.Version(), err)
		}
		return
	}
	go receiveUntilClosed(ctx, g2)
	var rack *string
	pollUntil(ctx, t, time.Minute, "the KIP-848 member's join", func() bool {
		coord, err := cl.Coordinator(ctx, client.CoordinatorGroup, group+"-848")
		if err != nil {
			return false
		}
		r, err := cl.Request(ctx, coord, &wire.ConsumerGroupDescribeRequest{GroupIDs: []string{group + "-848"}})
		if err != nil {
			t.Fatal(err)
		}
		gs := r.(*wire.ConsumerGroupDescribeResponse).Groups
		if len(gs) != 1 || len(gs[0].Members) != 1 {
			return false
		}
		rack = gs[0].Members[0].RackID
		return true
	})
	if rack == nil || *rack != "rack-b" {
		t.Fatalf("KIP-848 member's rack at the coordinator: %v, want rack-b", rack)
	}
	t.Logf("KIP-848 member's rack at the coordinator: %s", *rack)
}

// receiveUntilClosed calls g.Receive (the group needs a reader to move
// through its rebalances) until g is closed or ctx ends.
func receiveUntilClosed(ctx context.Context, g *consumer.Group) {
	for ctx.Err() == nil {
		rctx, cancel := context.WithTimeout(ctx, time.Second)
		_, err := g.Receive(rctx)
		cancel()
		if errors.Is(err, client.ErrClosed) {
			return
		}
	}
}

// pollUntil checks cond every 200ms until it holds, failing the test after
// d.
func pollUntil(ctx context.Context, t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within %s", what, d)
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			t.Fatalf("waiting for %s: %v", what, ctx.Err())
		}
	}
}

// describeByRack describes a classic group and returns the partitions
// assigned to each member, by the rack of its subscription, once the group
// is Stable (empty otherwise).
func describeByRack(ctx context.Context, t *testing.T, cl *client.Client, group string) map[string][]int32 {
	t.Helper()
	out := map[string][]int32{}
	coord, err := cl.Coordinator(ctx, client.CoordinatorGroup, group)
	if err != nil {
		return out // not there yet
	}
	r, err := cl.Request(ctx, coord, &wire.DescribeGroupsRequest{Groups: []string{group}})
	if err != nil {
		t.Fatal(err)
	}
	d := r.(*wire.DescribeGroupsResponse).Groups[0]
	if d.GroupState != "Stable" {
		return out
	}
	for _, m := range d.Members {
		var sub wire.ConsumerProtocolSubscription
		var asg wire.ConsumerProtocolAssignment
		if sub.DecodeFrom(wire.NewReader(m.MemberMetadata)) != nil || asg.DecodeFrom(wire.NewReader(m.MemberAssignment)) != nil || sub.RackID == nil {
			t.Fatalf("member %s: subscription %x assignment %x (want a rack in the subscription)", m.MemberID, m.MemberMetadata, m.MemberAssignment)
		}
		for _, tp := range asg.AssignedPartitions {
			out[*sub.RackID] = append(out[*sub.RackID], tp.Partitions...)
		}
		slices.Sort(out[*sub.RackID])
	}
	return out
}

// appendProperty adds a "key=value" line to a properties file.
func appendProperty(path, kv string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(kv + "\n")
	return errors.Join(err, f.Close())
}
