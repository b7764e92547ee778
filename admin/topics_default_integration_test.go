package admin_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
)

// TestIntegrationNewTopicDefaults: on the real broker, NewTopic{Name} with
// no counts creates a topic with the broker's num.partitions (read with
// DescribeConfigs) instead of failing INVALID_PARTITIONS.
func TestIntegrationNewTopicDefaults(t *testing.T) {
	cluster := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cl, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext)})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	adm := admin.New(cl, admin.Config{})
	broker := strconv.Itoa(int(cluster.BrokerIDs()[0]))
	cfgs, err := adm.DescribeConfigs(ctx, []admin.ConfigResource{{Type: admin.ResourceBroker, Name: broker, Keys: []string{"num.partitions"}}})
	if err != nil || cfgs[0].Err != nil || len(cfgs[0].Entries) != 1 {
		t.Fatalf("DescribeConfigs num.partitions: %v %+v", err, cfgs)
	}
	want, err := strconv.Atoi(*cfgs[0].Entries[0].Value)
	if err != nil {
		t.Fatal(err)
	}
	topic := kafkatest.UniqueName(t, "defaults")
	res, err := adm.CreateTopics(ctx, []admin.NewTopic{{Name: topic}}, admin.TopicOptions{WaitVisible: true})
	if err == nil {
		err = res[0].Err
	}
	if err != nil {
		t.Fatalf("CreateTopics with no counts: %v", err)
	}
	if res[0].Partitions != int32(want) {
		t.Fatalf("created with %d partitions, broker num.partitions is %d", res[0].Partitions, want)
	}
	desc, err := adm.DescribeTopics(ctx, []string{topic})
	if err != nil || desc[0].Err != nil || len(desc[0].Partitions) != want {
		t.Fatalf("DescribeTopics: %v %+v, want %d partitions", err, desc, want)
	}
	// Another negative count is sent as given and refused (the adapter
	// relies on it for the protocol's out-of-range 0).
	res, err = adm.CreateTopics(ctx, []admin.NewTopic{
		{Name: topic + "-p", Partitions: -2},
		{Name: topic + "-rf", ReplicationFactor: -2},
	}, admin.TopicOptions{ValidateOnly: true})
	if err != nil || !errors.Is(res[0].Err, gregor.ErrInvalidPartitions) || !errors.Is(res[1].Err, gregor.ErrInvalidReplicationFactor) {
		t.Fatalf("negative counts: %v %+v", err, res)
	}
}
