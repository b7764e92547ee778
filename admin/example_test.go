package admin_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
)

// ExampleAdmin_CreateTopics creates topics and waits until every broker
// knows them, so producers and consumers can use them at once. It needs a
// running Kafka, so it has no Output comment: go test compiles it but does
// not run it.
func ExampleAdmin_CreateTopics() {
	cl, err := client.New(client.Config{Bootstrap: []string{"127.0.0.1:9092"}})
	if err != nil {
		log.Fatal(err)
	}
	defer cl.Close(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := admin.New(cl, admin.Config{}).CreateTopics(ctx, []admin.NewTopic{
		{Name: "orders", Partitions: 6, ReplicationFactor: 3, Configs: map[string]string{"min.insync.replicas": "2"}},
		{Name: "audit"}, // no counts: the broker's defaults
	}, admin.TopicOptions{WaitVisible: true})
	if err != nil {
		log.Fatal(err) // nothing could be sent, or not visible everywhere in time
	}
	for _, r := range res { // one result per topic, in request order
		switch {
		case r.Err == nil:
			fmt.Printf("created %s (%d partitions)\n", r.Name, r.Partitions)
		case errors.Is(r.Err, gregor.ErrTopicAlreadyExists):
			fmt.Printf("%s exists\n", r.Name)
		default:
			log.Fatalf("%s: %v", r.Name, r.Err)
		}
	}
}

// ExampleAdmin_ListOffsets finds the first offset at or after a time in
// each partition of a topic.
func ExampleAdmin_ListOffsets() {
	cl, err := client.New(client.Config{Bootstrap: []string{"127.0.0.1:9092"}})
	if err != nil {
		log.Fatal(err)
	}
	defer cl.Close(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	adm := admin.New(cl, admin.Config{})
	topics, err := adm.DescribeTopics(ctx, []string{"orders"})
	if err != nil || topics[0].Err != nil {
		log.Fatal(err, topics[0].Err)
	}
	since := admin.AtTimestamp(time.Now().Add(-time.Hour))
	var qs []admin.OffsetQuery
	for _, p := range topics[0].Partitions {
		qs = append(qs, admin.OffsetQuery{TopicPartition: gregor.TopicPartition{Topic: "orders", Partition: p.Partition}, Spec: since})
	}
	offs, err := adm.ListOffsets(ctx, qs, admin.ListOffsetsOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for _, o := range offs {
		fmt.Println(o.Partition, o.Offset, o.Found) // Found false: no record that recent
	}
}
