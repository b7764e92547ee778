package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/txn"
)

func main() {
	bootstrap := flag.String("b", "127.0.0.1:9092", "a bootstrap broker address")
	topic := flag.String("topic", "greetings", "the topic to write and read; its copy goes to <topic>-copy")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := run(ctx, *bootstrap, *topic, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, bootstrap, topic string, out io.Writer) error {
	// One client is shared by everything; close it last.
	cl, err := client.New(client.Config{Bootstrap: []string{bootstrap}})
	if err != nil {
		return err
	}
	defer cl.Close(context.Background())

	// Topics: the broker's default partition count and replication factor.
	copyTopic := topic + "-copy"
	res, err := admin.New(cl, admin.Config{}).CreateTopics(ctx,
		[]admin.NewTopic{{Name: topic}, {Name: copyTopic}}, admin.TopicOptions{WaitVisible: true})
	if err != nil {
		return err
	}
	for _, r := range res {
		if r.Err != nil && !errors.Is(r.Err, gregor.ErrTopicAlreadyExists) {
			return r.Err
		}
	}

	// Produce = Send + Wait; a failed record's error says, through
	// gregor.MayHaveBeenWritten, whether it may be written anyway.
	p, err := producer.New(cl, producer.Config{})
	if err != nil {
		return err
	}
	for i := range 3 {
		r, err := p.Produce(ctx, producer.Record{Topic: topic, Value: fmt.Appendf(nil, "hello %d", i)})
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "produced %s/%d@%d\n", r.Topic, r.Partition, r.Offset)
	}
	if err := p.Close(ctx); err != nil { // the client stays open
		return err
	}

	// A group consumer: partitions are assigned by the group's coordinator;
	// a new group starts at the beginning (OffsetReset's default).
	g, err := consumer.NewGroup(cl, consumer.GroupConfig{GroupID: topic + "-readers", Topics: []string{topic}, DisableAutoCommit: true})
	if err != nil {
		return err
	}
	defer g.Close(context.Background())
	var read []consumer.Record
	for len(read) < 3 {
		recs, err := g.Receive(ctx)
		if err != nil {
			return err
		}
		read = append(read, recs...)
	}
	if err := g.CommitDelivered(ctx); err != nil {
		return err
	}
	fmt.Fprintf(out, "read %d records and committed\n", len(read))

	// A transaction: the copies become visible to read_committed consumers
	// together, at Commit, or not at all.
	tp, err := txn.New(cl, txn.Config{TransactionalID: topic + "-copier"})
	if err != nil {
		return err
	}
	defer tp.Close(context.Background())
	if err := tp.InitTransactions(ctx); err != nil {
		return err
	}
	if err := tp.Begin(); err != nil {
		return err
	}
	for _, r := range read {
		if _, err := tp.Send(ctx, &producer.Record{Topic: copyTopic, Key: r.Key, Value: r.Value}); err != nil {
			break // Commit reports why the transaction cannot commit
		}
	}
	if err := tp.Commit(ctx); err != nil {
		return err
	}
	fmt.Fprintf(out, "copied %d records to %s in one transaction\n", len(read), copyTopic)
	return nil
}
