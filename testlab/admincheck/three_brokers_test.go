package admincheck

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestThreeBrokers uses the shared 1+3 cluster (last: it kills broker 3)
// and checks, with franz-go
// asking each broker directly: WaitVisible returns only once every broker's
// metadata shows a created topic (and none shows a deleted one); ListGroups
// keeps a per-broker error for a killed broker while listing the others'.
func TestThreeBrokers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	kc := threeBrokers(t)
	boot := kc.Bootstrap(kafkatest.Plaintext)
	cl, err := client.New(client.Config{Bootstrap: boot, RetryBackoff: 50 * time.Millisecond, RetryBackoffMax: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	adm := admin.New(cl, admin.Config{RetryBackoff: 50 * time.Millisecond, RetryBackoffMax: 300 * time.Millisecond})
	kcl, err := kgo.NewClient(kgo.SeedBrokers(boot...))
	if err != nil {
		t.Fatal(err)
	}
	defer kcl.Close()
	onEvery := func(topic string) []int {
		var counts []int
		for _, id := range kc.BrokerIDs() {
			req := kmsg.NewPtrMetadataRequest()
			req.AllowAutoTopicCreation = false
			rt := kmsg.NewMetadataRequestTopic()
			rt.Topic = kmsg.StringPtr(topic)
			req.Topics = append(req.Topics, rt)
			resp, err := req.RequestWith(ctxFor(t, 10*time.Second), kcl.Broker(int(id)))
			if err != nil {
				t.Fatalf("observer metadata from %d: %v", id, err)
			}
			n := -1
			for _, tt := range resp.Topics {
				if tt.Topic != nil && *tt.Topic == topic && tt.ErrorCode == 0 {
					n = len(tt.Partitions)
				}
			}
			counts = append(counts, n)
		}
		return counts
	}

	topic := kafkatest.UniqueName(t, "three")
	res, err := adm.CreateTopics(ctxFor(t, time.Minute), []admin.NewTopic{{Name: topic, Partitions: 6, ReplicationFactor: 3}}, admin.TopicOptions{WaitVisible: true})
	if err != nil || res[0].Err != nil {
		t.Fatalf("create: %v / %+v", err, res)
	}
	if got := fmt.Sprint(onEvery(topic)); got != "[6 6 6]" {
		t.Fatalf("right after WaitVisible create, brokers show %s partitions", got)
	}
	dr, err := adm.DeleteTopics(ctxFor(t, time.Minute), []admin.TopicRef{{Name: topic}}, admin.TopicOptions{WaitVisible: true})
	if err != nil || dr[0].Err != nil {
		t.Fatalf("delete: %v / %+v", err, dr)
	}
	if got := fmt.Sprint(onEvery(topic)); got != "[-1 -1 -1]" {
		t.Fatalf("right after WaitVisible delete, brokers show %s partitions", got)
	}

	// Groups on several coordinators, then kill one broker.
	obs := kadm.NewClient(kcl)
	coordOf := map[string]int32{}
	base := kafkatest.UniqueName(t, "lg")
	ctopic := kafkatest.UniqueName(t, "lgt")
	if _, err := obs.CreateTopic(ctxFor(t, time.Minute), 1, 3, nil, ctopic); err != nil {
		t.Fatal(err)
	}
	// CreateTopics returns before every broker serves the topic; a commit
	// sent to a coordinator that does not know it yet gets
	// UNKNOWN_TOPIC_OR_PARTITION. Wait (bounded) until every broker's own
	// metadata shows it.
	deadline := time.Now().Add(30 * time.Second)
	for got := fmt.Sprint(onEvery(ctopic)); got != "[1 1 1]"; got = fmt.Sprint(onEvery(ctopic)) {
		if time.Now().After(deadline) {
			t.Fatalf("observer: brokers still show %s partitions of %s after 30s", got, ctopic)
		}
		select {
		case <-time.After(50 * time.Millisecond):
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		}
	}
	for i := 0; i < 12; i++ {
		g := fmt.Sprintf("%s-%d", base, i)
		var os kadm.Offsets
		os.Add(kadm.Offset{Topic: ctopic, Partition: 0, At: 1, LeaderEpoch: -1})
		if r, err := obs.CommitOffsets(ctxFor(t, time.Minute), g, os); err != nil || r.Error() != nil {
			t.Fatalf("observer commit: %v %v", err, r.Error())
		}
		id, err := cl.Coordinator(ctxFor(t, 30*time.Second), client.CoordinatorGroup, g)
		if err != nil {
			t.Fatal(err)
		}
		coordOf[g] = id
	}
	if _, err := adm.ListGroups(ctxFor(t, 30*time.Second), admin.ListGroupsOptions{}); err != nil {
		t.Fatal(err)
	}
	victim := kc.BrokerIDs()[2]
	if err := kc.KillBroker(ctx, victim); err != nil {
		t.Fatal(err)
	}
	list, err := adm.ListGroups(ctxFor(t, 5*time.Second), admin.ListGroupsOptions{})
	if err != nil {
		t.Fatalf("list groups: %v", err)
	}
	listed := map[string]bool{}
	for _, g := range list.Groups {
		listed[g.GroupID] = true
	}
	for _, o := range list.Brokers {
		if o.Broker == victim {
			if o.Err == nil {
				t.Fatalf("killed broker %d has no error: %+v", victim, list.Brokers)
			}
			if !errors.Is(o.Err, client.ErrTimeout) && !errors.Is(o.Err, client.ErrTransport) {
				t.Fatalf("killed broker error %v is neither timeout nor transport", o.Err)
			}
		} else if o.Err != nil {
			t.Fatalf("live broker %d failed: %v", o.Broker, o.Err)
		}
	}
	for g, id := range coordOf {
		if id != victim && !listed[g] {
			t.Fatalf("group %s of live coordinator %d not listed", g, id)
		}
	}
	t.Logf("outcomes %+v", list.Brokers)
}
