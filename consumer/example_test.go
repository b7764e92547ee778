package consumer_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
)

// connect returns a ready client. The examples of this package need a
// running Kafka, so they have no Output comment: go test compiles them but
// does not run them.
func connect() *client.Client {
	cl, err := client.New(client.Config{Bootstrap: []string{"127.0.0.1:9092"}})
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := cl.Ready(ctx); err != nil {
		log.Fatal(err)
	}
	return cl
}

// ExampleConsumer_Assign reads every record a partition holds now: it
// assigns the partition at its beginning and stops at the end offset
// ListOffsets gave before reading.
func ExampleConsumer_Assign() {
	cl := connect()
	defer cl.Close(context.Background()) // after the consumer: Close leaves the client open
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tp := gregor.TopicPartition{Topic: "greetings", Partition: 0}

	ends, err := admin.New(cl, admin.Config{}).ListOffsets(ctx, []admin.OffsetQuery{
		{TopicPartition: gregor.TopicPartition{Topic: tp.Topic, Partition: tp.Partition}, Spec: admin.OffsetLatest},
	}, admin.ListOffsetsOptions{})
	if err != nil || ends[0].Err != nil {
		log.Fatal(err, ends[0].Err)
	}
	c, err := consumer.New(cl, consumer.Config{})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close(context.Background())
	if err := c.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtBeginning()}}); err != nil {
		log.Fatal(err)
	}
	for c.Assignment()[0].Position.Offset < ends[0].Offset {
		recs, err := c.Receive(ctx)
		if err != nil {
			log.Fatal(err)
		}
		for _, r := range recs {
			fmt.Printf("%d: %s=%s\n", r.Offset, r.Key, r.Value)
		}
	}
}

// ExampleConsumer_Seek rewinds an assigned partition to an exact offset;
// records buffered for it are dropped and the next Receive starts there.
func ExampleConsumer_Seek() {
	cl := connect()
	defer cl.Close(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := consumer.New(cl, consumer.Config{Isolation: consumer.ReadCommitted})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close(context.Background())
	tp := gregor.TopicPartition{Topic: "greetings", Partition: 0}
	if err := c.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtEnd()}}); err != nil {
		log.Fatal(err)
	}
	if err := c.Seek(ctx, tp, consumer.AtOffset(42)); err != nil {
		log.Fatal(err)
	}
	recs, err := c.Receive(ctx) // waits for the first records
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("first offset", recs[0].Offset)
}

// ExampleNewGroup consumes a topic as a member of group "billing": the
// group assigns the partitions (members share them), each partition starts
// at the group's committed offset, and the member commits after handling
// each batch, so a member that takes over a partition goes on from there
// (at least once: a crash between handling and committing replays the
// batch). Close commits nothing more here (auto-commit is off) and leaves
// the group.
func ExampleNewGroup() {
	cl := connect()
	defer cl.Close(context.Background()) // after the group: Close leaves the client open
	g, err := consumer.NewGroup(cl, consumer.GroupConfig{
		GroupID:           "billing",
		Topics:            []string{"orders"},
		DisableAutoCommit: true,
	})
	if err != nil {
		log.Fatal(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := g.Close(ctx); err != nil {
			log.Print(err)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for ctx.Err() == nil {
		recs, err := g.Receive(ctx)
		if err != nil {
			log.Print(err) // ctx ended, or the group failed (fenced, not authorized)
			return
		}
		for _, r := range recs {
			fmt.Printf("%s/%d@%d: %s\n", r.Topic, r.Partition, r.Offset, r.Value)
		}
		// Commit the positions after the records Receive returned.
		if err := g.CommitDelivered(ctx); err != nil {
			log.Print(err) // a *consumer.CommitError names the partitions
		}
	}
}
