package admincheck

import (
	"context"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// bed is one test's view of the shared cluster: our admin, and kadm/kgo as
// the independent observer.
type bed struct {
	t    *testing.T
	boot []string
	adm  *admin.Admin
	obs  *kadm.Client
	kcl  *kgo.Client
	kc   *kafkatest.Cluster
}

func newBed(t *testing.T) *bed {
	t.Helper()
	kc := kafkatest.Shared(t)
	boot := kc.Bootstrap(kafkatest.Plaintext)
	cl, err := client.New(client.Config{Bootstrap: boot, ClientID: "admincheck"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close(context.Background()) })
	kcl, err := kgo.NewClient(kgo.SeedBrokers(boot...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kcl.Close)
	return &bed{t: t, boot: boot, adm: admin.New(cl, admin.Config{RetryBackoff: 50 * time.Millisecond, RetryBackoffMax: 500 * time.Millisecond}), obs: kadm.NewClient(kcl), kcl: kcl, kc: kc}
}

func ctxFor(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func (b *bed) name(prefix string) string { return kafkatest.UniqueName(b.t, prefix) }

// observedTopic creates a topic with the observer.
func (b *bed) observedTopic(partitions int32, configs map[string]*string) string {
	b.t.Helper()
	name := b.name("ac")
	if _, err := b.obs.CreateTopic(ctxFor(b.t, 30*time.Second), partitions, 1, configs, name); err != nil {
		b.t.Fatalf("observer create topic %s: %v", name, err)
	}
	b.t.Cleanup(func() { b.obs.DeleteTopics(context.Background(), name) })
	// CreateTopics returns before every broker serves the topic; a describe
	// sent in that window gets UNKNOWN_TOPIC_OR_PARTITION. Wait (bounded)
	// until the observer's own metadata shows all partitions.
	b.waitObserved(name, int(partitions))
	return name
}

// waitObserved polls fresh observer metadata until topic has want partitions,
// failing the test after 30s.
func (b *bed) waitObserved(topic string, want int) {
	b.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for b.observedPartitions(topic) != want {
		if time.Now().After(deadline) {
			b.t.Fatalf("observer never saw topic %s with %d partitions", topic, want)
		}
		<-tick.C
	}
}

// observedPartitions returns the partition count the observer sees (-1:
// missing), from a fresh Metadata request (kadm's ListTopics may answer
// from kgo's metadata cache).
func (b *bed) observedPartitions(topic string) int {
	b.t.Helper()
	req := kmsg.NewPtrMetadataRequest()
	req.AllowAutoTopicCreation = false
	rt := kmsg.NewMetadataRequestTopic()
	rt.Topic = kmsg.StringPtr(topic)
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(ctxFor(b.t, 10*time.Second), b.kcl)
	if err != nil {
		b.t.Fatalf("observer metadata: %v", err)
	}
	for _, t := range resp.Topics {
		if t.Topic != nil && *t.Topic == topic && t.ErrorCode == 0 {
			return len(t.Partitions)
		}
	}
	return -1
}

// produce writes n records to topic/partition with the observer's client,
// record i with timestamp (now + i ms) so timestamps are distinct.
func (b *bed) produce(topic string, partition int32, n int) {
	b.t.Helper()
	p, err := kgo.NewClient(kgo.SeedBrokers(b.boot...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		b.t.Fatal(err)
	}
	defer p.Close()
	recs := make([]*kgo.Record, n)
	base := time.Now().UnixMilli()
	for i := range recs {
		recs[i] = &kgo.Record{Topic: topic, Partition: partition, Value: []byte("v"), Timestamp: time.UnixMilli(base + int64(i))}
	}
	if err := p.ProduceSync(ctxFor(b.t, 30*time.Second), recs...).FirstErr(); err != nil {
		b.t.Fatalf("observer produce: %v", err)
	}
}

// eventually polls cond until it returns nil or the deadline passes.
func eventually(t *testing.T, d time.Duration, cond func() error) {
	t.Helper()
	deadline := time.Now().Add(d)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		err := cond()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("condition not met within %v: %v", d, err)
		}
		<-tick.C
	}
}
