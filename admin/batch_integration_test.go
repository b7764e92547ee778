package admin_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/wire"
)

// requestCounter counts the requests written per API.
type requestCounter struct {
	mu sync.Mutex
	n  map[wire.APIKey]int // mu
}

func (c *requestCounter) OnRequestWritten(e client.RequestEvent) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n[e.Key]++
}

// take returns the count of key since the last take and resets it.
func (c *requestCounter) take(key wire.APIKey) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.n[key]
	c.n[key] = 0
	return n
}

// batchTopics is how many topics TestIntegrationAdminBatchOverManyTopics
// handles in each call.
const batchTopics = 1000

// TestIntegrationAdminBatchOverManyTopics (issue 37, seed 002's "batch
// requests that reduce network calls"): create, describe, describe
// configs, alter configs, list offsets and delete over 1,000 topics, each
// call in one request per broker of its API (the single-node bed: one),
// every topic answered.
func TestIntegrationAdminBatchOverManyTopics(t *testing.T) {
	cluster := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	counter := &requestCounter{n: map[wire.APIKey]int{}}
	cl, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext), Hooks: []client.Hook{counter}})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	adm := admin.New(cl, admin.Config{})
	brokers := len(cluster.BrokerIDs())
	prefix := kafkatest.UniqueName(t, "batch")
	names := make([]string, batchTopics)
	for i := range names {
		names[i] = fmt.Sprintf("%s-%04d", prefix, i)
	}
	expect := func(call string, key wire.APIKey, most int) {
		t.Helper()
		if n := counter.take(key); n < 1 || n > most {
			t.Errorf("%s over %d topics: %d requests (API key %d), want 1 to %d", call, batchTopics, n, key, most)
		} else {
			t.Logf("%s over %d topics: %d request(s) (API key %d)", call, batchTopics, n, key)
		}
	}

	newTopics := make([]admin.NewTopic, len(names))
	for i, n := range names {
		newTopics[i] = admin.NewTopic{Name: n, Partitions: 1, ReplicationFactor: 1}
	}
	created, err := adm.CreateTopics(ctx, newTopics, admin.TopicOptions{WaitVisible: true})
	checkEach(t, "CreateTopics", len(created), err, func(i int) error { return created[i].Err })
	expect("CreateTopics", wire.KeyCreateTopics, 1) // to the controller
	counter.take(wire.KeyMetadata)                  // WaitVisible's polling
	refs := make([]admin.TopicRef, len(names))
	for i, n := range names {
		refs[i] = admin.TopicRef{Name: n}
	}
	defer func() {
		deleted, err := adm.DeleteTopics(context.Background(), refs, admin.TopicOptions{})
		checkEach(t, "DeleteTopics", len(deleted), err, func(i int) error { return deleted[i].Err })
		expect("DeleteTopics", wire.KeyDeleteTopics, 1)
	}()

	// A partition the metadata shows led may still answer
	// NOT_LEADER_OR_FOLLOWER for a moment, until its leader has created
	// its log (seen on a loaded broker: 18 rounds of retries for 1,000 new
	// topics). One uncounted ListOffsets lets every partition settle, so
	// the counted calls measure batching, not the broker's warm-up.
	settle := make([]admin.OffsetQuery, len(names))
	for i, n := range names {
		settle[i] = admin.OffsetQuery{TopicPartition: gregor.TopicPartition{Topic: n, Partition: 0}, Spec: admin.OffsetLatest}
	}
	settled, err := adm.ListOffsets(ctx, settle, admin.ListOffsetsOptions{})
	checkEach(t, "ListOffsets (settling)", len(settled), err, func(i int) error { return settled[i].Err })
	counter.take(wire.KeyListOffsets)
	counter.take(wire.KeyMetadata)

	described, err := adm.DescribeTopics(ctx, names)
	checkEach(t, "DescribeTopics", len(described), err, func(i int) error { return described[i].Err })
	expect("DescribeTopics", wire.KeyMetadata, 1)

	cfgs := make([]admin.ConfigResource, len(names))
	alters := make([]admin.AlterConfigsResource, len(names))
	for i, n := range names {
		cfgs[i] = admin.ConfigResource{Type: admin.ResourceTopic, Name: n, Keys: []string{"retention.ms"}}
		alters[i] = admin.AlterConfigsResource{Type: admin.ResourceTopic, Name: n,
			Changes: []admin.ConfigChange{{Name: "retention.ms", Op: admin.OpSet, Value: "3600000"}}}
	}
	described2, err := adm.DescribeConfigs(ctx, cfgs)
	checkEach(t, "DescribeConfigs", len(described2), err, func(i int) error { return described2[i].Err })
	expect("DescribeConfigs", wire.KeyDescribeConfigs, brokers)
	altered, err := adm.IncrementalAlterConfigs(ctx, alters, admin.AlterConfigsOptions{})
	checkEach(t, "IncrementalAlterConfigs", len(altered), err, func(i int) error { return altered[i].Err })
	expect("IncrementalAlterConfigs", wire.KeyIncrementalAlterConfigs, brokers)
	listed, err := adm.ListOffsets(ctx, settle, admin.ListOffsetsOptions{})
	checkEach(t, "ListOffsets", len(listed), err, func(i int) error { return listed[i].Err })
	expect("ListOffsets", wire.KeyListOffsets, brokers)
}

// checkEach fails the test on err or the first of n per-item errors.
func checkEach(t *testing.T, call string, n int, err error, itemErr func(int) error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", call, err)
	}
	if n != batchTopics {
		t.Fatalf("%s: %d answers, want %d", call, n, batchTopics)
	}
	for i := range n {
		if err := itemErr(i); err != nil {
			t.Fatalf("%s: item %d: %v", call, i, err)
		}
	}
}
