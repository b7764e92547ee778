package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/producer"
)

func main() {
	bootstrap := flag.String("b", os.Getenv("GREGOR_BOOTSTRAP"), "bootstrap host:port list (env GREGOR_BOOTSTRAP)")
	topic := flag.String("topic", "greetings", "topic to create and use")
	n := flag.Int("n", 5, "records to send")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, strings.Split(*bootstrap, ","), *topic, *n, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, bootstrap []string, topic string, n int, out io.Writer) error {
	cl, err := client.New(client.Config{Bootstrap: bootstrap})
	if err != nil {
		return err
	}
	defer cl.Close(context.Background()) // last: producer and consumer Close leave it open
	if err := cl.Ready(ctx); err != nil {
		return err
	}

	// One partition, so the records come back in the order they were sent.
	res, err := admin.New(cl, admin.Config{}).CreateTopics(ctx, []admin.NewTopic{{Name: topic, Partitions: 1, ReplicationFactor: -1}},
		admin.TopicOptions{WaitVisible: true})
	if err != nil {
		return err
	}
	if err := res[0].Err; err != nil && !errors.Is(err, gregor.ErrTopicAlreadyExists) {
		return err
	}

	p, err := producer.New(cl, producer.Config{})
	if err != nil {
		return err
	}
	var last producer.Result
	for i := range n {
		d, err := p.Send(ctx, &producer.Record{Topic: topic, Partition: producer.ToPartition(0), Key: fmt.Appendf(nil, "k%d", i), Value: fmt.Appendf(nil, "hello %d", i)})
		if err != nil {
			return err
		}
		r, err := d.Wait(ctx)
		if err != nil {
			// A *producer.RecordError (the failure and its Certainty), or
			// ctx's error when ctx ended first.
			return fmt.Errorf("record %d: %w", i, err)
		}
		last = r
		fmt.Fprintf(out, "sent k%d to %s/%d at offset %d\n", i, r.Topic, r.Partition, r.Offset)
	}
	if err := p.Close(ctx); err != nil {
		return err
	}

	c, err := consumer.New(cl, consumer.Config{})
	if err != nil {
		return err
	}
	defer c.Close(context.Background())
	tp := gregor.TopicPartition{Topic: topic, Partition: 0}
	if err := c.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtOffset(max(last.Offset-int64(n)+1, 0))}}); err != nil {
		return err
	}
	for c.Assignment()[0].Position.Offset <= last.Offset {
		recs, err := c.Receive(ctx)
		if err != nil {
			return err
		}
		for _, r := range recs {
			if r.Offset <= last.Offset {
				fmt.Fprintf(out, "received %s=%s at offset %d\n", r.Key, r.Value, r.Offset)
			}
		}
	}
	return nil
}
