package consumer_test

import (
	"context"
	"github.com/gregor-kafka/gregor"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
)

// TestIntegrationEndOfPartition: n records produced one batch each, then
// consumed one Fetch batch at a time (PartitionMaxBytes 1): after each
// Receive, Progress reports End n and a lag that went down by the records
// delivered, n..0; AtEnd and WaitEnd come exactly with the n-th record;
// the client's snapshot shows the partition's produced and fetched counts,
// high watermark, position and zero lag.
func TestIntegrationEndOfPartition(t *testing.T) {
	cluster := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cl, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext)})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	topic := kafkatest.UniqueName(t, "end")
	res, err := admin.New(cl, admin.Config{}).CreateTopics(ctx, []admin.NewTopic{{Name: topic, Partitions: 1, ReplicationFactor: 1}}, admin.TopicOptions{WaitVisible: true})
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
	const n = 6
	for i := range n {
		d, err := p.Send(ctx, &producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: []byte{byte(i)}})
		if err != nil {
			t.Fatal(err)
		}
		if r, err := d.Wait(ctx); err != nil || r.Err != nil { // one batch per record
			t.Fatalf("delivery %d: %v %v", i, err, r.Err)
		}
	}

	c, err := consumer.New(cl, consumer.Config{PartitionMaxBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	tp := gregor.TopicPartition{Topic: topic, Partition: 0}
	if err := c.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	if pr := c.Progress(); len(pr) != 1 || pr[0].Position != 0 || pr[0].AtEnd() || (pr[0].End != -1 && pr[0].End != n) {
		t.Fatalf("progress before any Receive: %+v", pr)
	}
	ended := make(chan error, 1)
	go func() { ended <- c.WaitEnd(ctx, tp) }()
	lag := int64(n) // the lag before the first record is delivered
	lags := []int64{lag}
	for delivered := 0; delivered < n; {
		recs, err := c.Receive(ctx)
		if err != nil {
			t.Fatal(err)
		}
		delivered += len(recs)
		pr := c.Progress()[0]
		if pr.End != n || pr.Position != int64(delivered) || pr.Lag != lag-int64(len(recs)) || pr.AtEnd() != (delivered == n) {
			t.Fatalf("after %d records: progress %+v, want End %d, Position %d, Lag %d", delivered, pr, n, delivered, lag-int64(len(recs)))
		}
		lag = pr.Lag
		lags = append(lags, lag)
		if delivered < n {
			select {
			case err := <-ended:
				t.Fatalf("WaitEnd returned (%v) after %d of %d records", err, delivered, n)
			default:
			}
		}
	}
	if err := <-ended; err != nil {
		t.Fatalf("WaitEnd: %v", err)
	}
	if len(lags) != n+1 {
		t.Errorf("lags %v: want one Receive per record (n..0)", lags)
	}
	if err := c.WaitEnd(ctx); err != nil { // at the end already: returns at once
		t.Fatal(err)
	}
	var got *client.PartitionMetrics
	snap := cl.Metrics()
	for i, pm := range snap.Partitions {
		if pm.Topic == topic && pm.Partition == 0 {
			got = &snap.Partitions[i]
		}
	}
	if got == nil || got.ProducedRecords != n || got.FetchedRecords != n || got.HighWatermark != n || got.Position != n || got.Lag != 0 ||
		got.ProducedBytes == 0 || got.FetchedBytes == 0 || got.BufferedRecords != 0 {
		t.Fatalf("client snapshot of %s/0: %+v", topic, got)
	}
}
