package consumercheck

import (
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/testlab/internal/labtest"
)

// TestFollowsLeaderChange starts its own 1+3 cluster, reads two replicated
// partitions, stops the broker leading partition 0 and checks that the
// consumer follows the new leaders: every record written afterwards (by
// franz-go) arrives exactly once, in order, with no gap.
func TestFollowsLeaderChange(t *testing.T) {
	ctx, cluster, lb := labtest.ThreeBrokers(t, 8*time.Minute)
	b := &bed{lb}
	minISR := "2"
	topic := b.Topic(ctx, "cc-leader", 2, 3, map[string]*string{"min.insync.replicas": &minISR})
	p := b.producer()
	for part := range int32(2) {
		b.seq(p, topic, part, "before", 50)
	}

	gcl := b.Client(ctx, client.Config{RetryBackoff: 50 * time.Millisecond, RetryBackoffMax: 500 * time.Millisecond})
	c, err := consumer.New(gcl, consumer.Config{MaxWait: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var ps []consumer.PartitionPosition
	for part := range int32(2) {
		ps = append(ps, consumer.PartitionPosition{TopicPartition: consumer.TopicPartition{Topic: topic, Partition: part}, Position: consumer.AtBeginning()})
	}
	if err := c.Assign(ctx, ps); err != nil {
		t.Fatal(err)
	}
	got := receiveN(t, c, 100)
	for part := range int32(2) {
		wantOffsets(t, got, topic, part, span(0, 50))
	}

	leader, epoch, err := gcl.Leader(ctx, topic, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("stopping broker %d, leader of partition 0 at epoch %d", leader, epoch)
	if err := cluster.StopBroker(ctx, leader); err != nil {
		t.Fatal(err)
	}
	for part := range int32(2) {
		b.seq(p, topic, part, "after", 50)
	}
	got = receiveN(t, c, 100)
	for part := range int32(2) {
		wantOffsets(t, got, topic, part, span(50, 100))
	}
	expectNothing(t, c, 500*time.Millisecond)
	newLeader, newEpoch, err := gcl.Leader(ctx, topic, 0)
	t.Logf("partition 0 now led by %d at epoch %d (%v); consumer metrics %+v", newLeader, newEpoch, err, c.Metrics())
	if err == nil && newLeader == leader {
		t.Fatalf("leadership did not move from %d", leader)
	}
	// KIP-320: the position on the new leader was validated, and found
	// clean (a controlled shutdown truncates nothing).
	if m := c.Metrics(); m.Validations == 0 || m.OffsetResets != 0 {
		t.Fatalf("metrics %+v: want a clean OffsetForLeaderEpoch validation", m)
	}
}
