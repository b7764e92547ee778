package admin_test

import (
	"context"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
)

// TestIntegrationLag: on the real broker, a group with committed offsets 3
// (of 10 records) and 4 (of 4) on two partitions lags 7 and 0, total 7; a
// group with no commits has no partitions and no lag.
func TestIntegrationLag(t *testing.T) {
	cluster := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cl, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext)})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	adm := admin.New(cl, admin.Config{})
	topic := kafkatest.UniqueName(t, "lag")
	res, err := adm.CreateTopics(ctx, []admin.NewTopic{{Name: topic, Partitions: 2, ReplicationFactor: 1}}, admin.TopicOptions{WaitVisible: true})
	if err == nil {
		err = res[0].Err
	}
	if err != nil {
		t.Fatal(err)
	}
	p, err := producer.New(cl, producer.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(ctx)
	var ds []*producer.Delivery
	for i := range 14 {
		part := int32(0)
		if i >= 10 {
			part = 1
		}
		d, err := p.Send(ctx, &producer.Record{Topic: topic, Partition: producer.ToPartition(part), Value: []byte("v")})
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	for _, d := range ds {
		if r, err := d.Wait(ctx); err != nil || r.Err != nil {
			t.Fatalf("delivery: %v %v", err, r.Err)
		}
	}
	group := kafkatest.UniqueName(t, "lag-group")
	tp0, tp1 := gregor.TopicPartition{Topic: topic, Partition: 0}, gregor.TopicPartition{Topic: topic, Partition: 1}
	if _, err := adm.AlterOffsets(ctx, group, []admin.OffsetToCommit{{TopicPartition: tp0, Offset: 3, LeaderEpoch: -1}, {TopicPartition: tp1, Offset: 4, LeaderEpoch: -1}}); err != nil {
		t.Fatal(err)
	}
	lag, err := adm.Lag(ctx, group, admin.LagOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []admin.PartitionLag{{TopicPartition: tp0, Committed: 3, End: 10, Lag: 7}, {TopicPartition: tp1, Committed: 4, End: 4, Lag: 0}}
	if len(lag.Partitions) != 2 || lag.Partitions[0] != want[0] || lag.Partitions[1] != want[1] || lag.Total != 7 {
		t.Fatalf("lag %+v, want %+v total 7", lag, want)
	}
	empty, err := adm.Lag(ctx, kafkatest.UniqueName(t, "no-commits"), admin.LagOptions{})
	if err != nil || len(empty.Partitions) != 0 || empty.Total != 0 {
		t.Fatalf("lag of a group without commits: %+v, %v", empty, err)
	}
}
