package share

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

// resourceGroup is ConfigResource.Type GROUP (share group configs).
const resourceGroup = 32

// bed is one test's cluster, client and topic.
type bed struct {
	cluster *kafkatest.Cluster
	cl      *client.Client
	topic   string
}

// newBed connects to the shared cluster and creates a topic of parts
// partitions.
func newBed(ctx context.Context, t *testing.T, parts int32) *bed {
	t.Helper()
	cluster := kafkatest.Shared(t)
	cl, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close(context.Background()) })
	topic := kafkatest.UniqueName(t, "share")
	r, err := cl.RequestController(ctx, &wire.CreateTopicsRequest{TimeoutMs: 30000,
		Topics: []wire.CreateTopicsTopic{{Name: topic, NumPartitions: parts, ReplicationFactor: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if code := r.(*wire.CreateTopicsResponse).Topics[0].ErrorCode; code != 0 {
		t.Fatalf("CreateTopics: %v", wire.ErrorForCode(code))
	}
	return &bed{cluster: cluster, cl: cl, topic: topic}
}

// groupConfig sets share group configs (e.g. share.auto.offset.reset) with
// IncrementalAlterConfigs on resource type GROUP.
func (b *bed) groupConfig(ctx context.Context, t *testing.T, group string, kv ...string) {
	t.Helper()
	res := wire.IncrementalAlterConfigsResource{ResourceType: resourceGroup, ResourceName: group}
	for i := 0; i+1 < len(kv); i += 2 {
		v := kv[i+1]
		res.Configs = append(res.Configs, wire.IncrementalAlterConfigsConfig{Name: kv[i], ConfigOperation: wire.ConfigOpSet, Value: &v})
	}
	r, err := b.cl.Request(ctx, client.AnyBroker, &wire.IncrementalAlterConfigsRequest{Resources: []wire.IncrementalAlterConfigsResource{res}})
	if err != nil {
		t.Fatal(err)
	}
	if code := r.(*wire.IncrementalAlterConfigsResponse).Responses[0].ErrorCode; code != 0 {
		t.Fatalf("group config %v: %v", kv, wire.ErrorForCode(code))
	}
}

// newGroup returns a fresh group ID reading from the earliest offset.
func (b *bed) newGroup(ctx context.Context, t *testing.T, kv ...string) string {
	t.Helper()
	g := kafkatest.UniqueName(t, "share-group")
	b.groupConfig(ctx, t, g, append([]string{"share.auto.offset.reset", "earliest"}, kv...)...)
	return g
}

// produce writes n records with values "v<i>" round-robin over parts
// partitions and waits for all of them.
func (b *bed) produce(ctx context.Context, t *testing.T, n int, parts int32) {
	t.Helper()
	p, err := producer.New(b.cl, producer.Config{Linger: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(ctx)
	var ds []*producer.Delivery
	for i := 0; i < n; i++ {
		d, err := p.Send(ctx, &producer.Record{Topic: b.topic, Partition: producer.ToPartition(int32(i) % parts), Value: []byte(fmt.Sprintf("v%d", i))})
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	for _, d := range ds {
		if _, err := d.Wait(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// consumer starts a share consumer on the bed's topic.
func (b *bed) consumer(t *testing.T, cfg Config) *Consumer {
	t.Helper()
	cfg.Topics = []string{b.topic}
	c, err := New(b.cl, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = c.Close(ctx)
	})
	return c
}

// key names a record by partition and offset.
type key struct {
	p   int32
	off int64
}

// receiveN receives until n records arrived or ctx ends.
func receiveN(ctx context.Context, t *testing.T, c *Consumer, n int) []Record {
	t.Helper()
	var out []Record
	for len(out) < n {
		recs, err := c.Receive(ctx)
		if err != nil {
			t.Fatalf("after %d of %d records: %v", len(out), n, err)
		}
		out = append(out, recs...)
	}
	return out
}

// expectNothing asserts that Receive delivers nothing within d.
func expectNothing(t *testing.T, c *Consumer, d time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	recs, err := c.Receive(ctx)
	if len(recs) > 0 {
		t.Fatalf("got %d records (first %s/%d offset %d, delivery %d), want none", len(recs), recs[0].Topic, recs[0].Partition, recs[0].Offset, recs[0].DeliveryCount)
	}
	if !errors.Is(err, client.ErrTimeout) {
		t.Fatalf("Receive: %v, want a timeout", err)
	}
}

// allOK fails t unless every result succeeded and there are n of them.
func allOK(t *testing.T, rs []AckResult, n int, want AcknowledgeType) {
	t.Helper()
	if len(rs) != n {
		t.Fatalf("%d acknowledgement results, want %d", len(rs), n)
	}
	for _, r := range rs {
		if r.Err != nil || r.Type != want {
			t.Fatalf("acknowledgement %s/%d offset %d: %v %v", r.Topic, r.Partition, r.Offset, r.Type, r.Err)
		}
	}
}

// shareGroups reports whether the cluster runs share groups (Kafka 4.2+,
// where share.version is on by default). On an older release it first
// checks what gregor does there: a share consumer fails within 5 s with
// gregor.ErrUnsupportedFeature. Tests end (having asserted that) when it
// is false.
func (b *bed) shareGroups(ctx context.Context, t *testing.T) bool {
	t.Helper()
	if b.cluster.AtLeast(4, 2) {
		return true
	}
	c, err := New(b.cl, Config{GroupID: kafkatest.UniqueName(t, "share-unsupported"), Topics: []string{b.topic}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	jctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := c.AwaitJoined(jctx); !errors.Is(err, gregor.ErrUnsupportedFeature) {
		t.Fatalf("share consumer on Kafka %s: %v, want gregor.ErrUnsupportedFeature within 5s", b.cluster.Version(), err)
	}
	return false
}
