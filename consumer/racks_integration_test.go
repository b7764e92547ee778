package consumer_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
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
// rack-a/b/c, RackAwareReplicaSelector) for follower fetching (KIP-392).
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
	t.Run("FollowerFetching", func(t *testing.T) { testFollowerFetching(ctx, t, kc) })
}

// testFollowerFetching reads a partition led by broker 1 (rack-a) with
// replicas on 2 (rack-b) and 3 (rack-c) as a consumer in rack-b: every
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
		var ds []*producer.Delivery
		for i := range n {
			d, err := p.Send(ctx, &producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: []byte(fmt.Sprintf("%s-%d", tag, i))})
			if err != nil {
				t.Fatal(err)
			}
			ds = append(ds, d)
		}
		for _, d := range ds {
			if r, err := d.Wait(ctx); err != nil || r.Err != nil {
				t.Fatalf("produce %s: %v %v", tag, err, r.Err)
			}
		}
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
	t.Logf("broker 2 stopped: records per broker %v, metrics %+v", after, c.Metrics())
	if after[1] != n || after[2] != n {
		t.Fatalf("records per broker %v with broker 2 stopped: want the %d new ones from the leader, 1", after, n)
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
