package gregor_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/producer"
)

// Example creates a topic, produces one record, reads it back and closes
// everything in order. It needs a running Kafka at the bootstrap address, so
// it has no Output comment: go test compiles it but does not run it.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	cl, err := client.New(client.Config{Bootstrap: []string{"127.0.0.1:9092"}})
	if err != nil {
		log.Fatal(err)
	}
	defer cl.Close(context.Background()) // last: producer and consumer Close leave the client open
	if err := cl.Ready(ctx); err != nil {
		log.Fatal(err)
	}

	// No counts: the broker's defaults (num.partitions,
	// default.replication.factor). WaitVisible returns once every broker knows the topic.
	res, err := admin.New(cl, admin.Config{}).CreateTopics(ctx, []admin.NewTopic{{Name: "greetings"}}, admin.TopicOptions{WaitVisible: true})
	if err != nil {
		log.Fatal(err)
	}
	if err := res[0].Err; err != nil && !errors.Is(err, gregor.ErrTopicAlreadyExists) {
		log.Fatal(err)
	}

	p, err := producer.New(cl, producer.Config{})
	if err != nil {
		log.Fatal(err)
	}
	// No Partition: the partitioner chooses; producer.ToPartition(0) means partition 0.
	// Produce sends and waits; a failure is a *producer.RecordError with
	// its Certainty.
	r, err := p.Produce(ctx, producer.Record{Topic: "greetings", Value: []byte("hello")})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("wrote %s/%d@%d\n", r.Topic, r.Partition, r.Offset)
	if err := p.Flush(ctx); err != nil { // waits for everything sent so far
		log.Fatal(err)
	}
	if err := p.Close(ctx); err != nil {
		log.Fatal(err)
	}

	c, err := consumer.New(cl, consumer.Config{})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close(context.Background()) // runs before cl.Close
	tp := gregor.TopicPartition{Topic: r.Topic, Partition: r.Partition}
	if err := c.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtBeginning()}}); err != nil {
		log.Fatal(err)
	}
	recs, err := c.Receive(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, rec := range recs {
		fmt.Printf("read %s/%d@%d: %s\n", rec.Topic, rec.Partition, rec.Offset, rec.Value)
	}
}
