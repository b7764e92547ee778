package txn

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

// env is a real-broker test's client on the shared test bed cluster.
type env struct {
	t   *testing.T
	ctx context.Context
	cl  *client.Client
}

func newEnv(t *testing.T) *env {
	t.Helper()
	cluster := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cl, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Close(context.Background()) })
	return &env{t: t, ctx: ctx, cl: cl}
}

// topic creates a topic with n partitions and returns its name.
func (e *env) topic(prefix string, n int32) string {
	e.t.Helper()
	name := kafkatest.UniqueName(e.t, prefix)
	r, err := e.cl.RequestController(e.ctx, &wire.CreateTopicsRequest{TimeoutMs: 30000,
		Topics: []wire.CreateTopicsTopic{{Name: name, NumPartitions: n, ReplicationFactor: 1}}})
	if err != nil {
		e.t.Fatal(err)
	}
	if code := r.(*wire.CreateTopicsResponse).Topics[0].ErrorCode; code != 0 {
		e.t.Fatalf("CreateTopics %s: %v", name, wire.ErrorForCode(code))
	}
	e.waitVisible(name, n)
	return name
}

// waitVisible waits until a broker's metadata shows topic with n partitions
// and their leaders: on a loaded machine a new topic can stay unknown to
// the brokers' metadata for seconds, longer than the producer's
// UnknownTopicRetries.
func (e *env) waitVisible(topic string, n int32) {
	e.t.Helper()
	for {
		r, err := e.cl.Request(e.ctx, client.AnyBroker, &wire.MetadataRequest{Topics: []wire.MetadataRequestTopic{{Name: &topic}}})
		if err != nil {
			e.t.Fatalf("Metadata %s: %v", topic, err)
		}
		if ts := r.(*wire.MetadataResponse).Topics; len(ts) == 1 && ts[0].ErrorCode == 0 && int32(len(ts[0].Partitions)) == n {
			ok := true
			for _, p := range ts[0].Partitions {
				ok = ok && p.ErrorCode == 0 && p.LeaderID >= 0
			}
			if ok {
				return
			}
		}
		if e.ctx.Err() != nil {
			e.t.Fatalf("topic %s not visible in metadata: %v", topic, e.ctx.Err())
		}
		time.Sleep(20 * time.Millisecond) // polling interval of a condition wait
	}
}

// txnProducer returns an initialised transactional producer.
func (e *env) txnProducer(id string, version int) *Producer {
	e.t.Helper()
	p, err := New(e.cl, Config{TransactionalID: id, TransactionVersion: version, TransactionTimeout: 20 * time.Second,
		Producer: producer.Config{Linger: -1}})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { _ = p.Close(context.Background()) })
	if err := p.InitTransactions(e.ctx); err != nil {
		e.t.Fatalf("InitTransactions: %v", err)
	}
	return p
}

// send sends value to topic/partition in p's transaction and waits for
// its delivery.
func (e *env) send(p *Producer, topic string, partition int32, value string) producer.Result {
	e.t.Helper()
	d, err := p.Send(e.ctx, &producer.Record{Topic: topic, Partition: producer.ToPartition(partition), Value: []byte(value)})
	if err != nil {
		e.t.Fatalf("Send %q: %v", value, err)
	}
	res, err := d.Wait(e.ctx)
	if err != nil || res.Err != nil {
		e.t.Fatalf("delivery of %q: %v %v", value, err, res.Err)
	}
	return res
}

// read returns the values of topic/partition from the beginning up to the
// end offset the isolation level sees (the last stable offset under
// ReadCommitted), read by gregor's assigned consumer, once that end offset
// is past minEnd: a committed transaction's markers are written after
// EndTxn returns, so the last stable offset moves a little later.
func (e *env) read(topic string, partition int32, iso consumer.IsolationLevel, minEnd int64) []string {
	e.t.Helper()
	c, err := consumer.New(e.cl, consumer.Config{Isolation: iso, MaxWait: 100 * time.Millisecond})
	if err != nil {
		e.t.Fatal(err)
	}
	defer c.Close(context.Background())
	tp := gregor.TopicPartition{Topic: topic, Partition: partition}
	var end int64
	for {
		if err := c.Assign(e.ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtEnd()}}); err != nil {
			e.t.Fatal(err)
		}
		if end = c.Assignment()[0].Position.Offset; end >= minEnd {
			break
		}
		if e.ctx.Err() != nil {
			e.t.Fatalf("%s/%d: the end offset stays %d, below %d", topic, partition, end, minEnd)
		}
		time.Sleep(20 * time.Millisecond) // polling interval of a condition wait
	}
	if err := c.Seek(e.ctx, tp, consumer.AtBeginning()); err != nil {
		e.t.Fatal(err)
	}
	var out []string
	for c.Assignment()[0].Position.Offset < end {
		ctx, cancel := context.WithTimeout(e.ctx, 200*time.Millisecond) // poll interval; the loop ends on the position
		recs, err := c.Receive(ctx)
		cancel()
		if err != nil && !errors.Is(err, context.DeadlineExceeded) && e.ctx.Err() == nil {
			e.t.Fatalf("Receive: %v", err)
		}
		if e.ctx.Err() != nil {
			e.t.Fatalf("reading %s/%d to offset %d: %v", topic, partition, end, e.ctx.Err())
		}
		for _, r := range recs {
			if r.Offset < end {
				out = append(out, string(r.Value))
			}
		}
	}
	return out
}

// committedOffset returns group's committed offset for topic/partition
// (OffsetFetch v7 with RequireStable: pending transactional offsets are
// waited for), -1 when none.
func (e *env) committedOffset(group, topic string, partition int32) int64 {
	e.t.Helper()
	for {
		id, err := e.cl.Coordinator(e.ctx, client.CoordinatorGroup, group)
		if err != nil {
			e.t.Fatal(err)
		}
		r, err := e.cl.RequestVersion(e.ctx, id, &wire.OffsetFetchRequest{GroupID: group, RequireStable: true,
			Topics: []wire.OffsetFetchRequestTopic{{Name: topic, PartitionIndexes: []int32{partition}}}}, 7)
		if err != nil {
			e.t.Fatal(err)
		}
		resp := r.(*wire.OffsetFetchResponse)
		err = wire.ErrorForCode(resp.ErrorCode)
		if err == nil {
			err = wire.ErrorForCode(resp.Topics[0].Partitions[0].ErrorCode)
		}
		var ke *wire.KafkaError
		if errors.As(err, &ke) && ke.Retriable {
			continue // UNSTABLE_OFFSET_COMMIT until the transaction's markers are written
		}
		if err != nil {
			e.t.Fatalf("OffsetFetch: %v", err)
		}
		return resp.Topics[0].Partitions[0].CommittedOffset
	}
}

// versions runs f as a subtest for transactions v1 and v2.
func versions(t *testing.T, f func(t *testing.T, version int)) {
	for _, v := range []int{1, 2} {
		t.Run(fmt.Sprintf("v%d", v), func(t *testing.T) { f(t, v) })
	}
}

// groupMeta is the metadata of a group without members (admin-style
// offsets).
func groupMeta(id string) consumer.GroupMetadata {
	return consumer.GroupMetadata{GroupID: id, GenerationID: -1}
}

// integrationVersions is versions on the shared cluster. On a release
// without transactions v2 (transaction.version below 2: Kafka 3.x) the v2
// subtest asserts what gregor does there, InitTransactions failing within
// 5 s with gregor.ErrUnsupportedFeature, and ends.
func integrationVersions(t *testing.T, f func(t *testing.T, version int)) {
	versions(t, func(t *testing.T, version int) {
		if c := kafkatest.Shared(t); version == 2 && !c.AtLeast(4, 0) {
			e := newEnv(t)
			p, err := New(e.cl, Config{TransactionalID: kafkatest.UniqueName(t, "tx-v2"), TransactionVersion: 2})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close(context.Background())
			ctx, cancel := context.WithTimeout(e.ctx, 5*time.Second)
			defer cancel()
			if err := p.InitTransactions(ctx); !errors.Is(err, gregor.ErrUnsupportedFeature) {
				t.Fatalf("TransactionVersion 2 on Kafka %s: %v, want gregor.ErrUnsupportedFeature within 5s", c.Version(), err)
			}
			return
		}
		f(t, version)
	})
}
