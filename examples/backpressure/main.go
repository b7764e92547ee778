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
	"github.com/gregor-kafka/gregor/producer"
)

func main() {
	bootstrap := flag.String("b", os.Getenv("GREGOR_BOOTSTRAP"), "bootstrap host:port list (env GREGOR_BOOTSTRAP)")
	topic := flag.String("topic", "events", "topic to create and use")
	n := flag.Int("n", 200000, "records to send")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, strings.Split(*bootstrap, ","), *topic, *n, 1000, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run sends n records with at most inFlight outstanding.
func run(ctx context.Context, bootstrap []string, topic string, n, inFlight int, out io.Writer) error {
	cl, err := client.New(client.Config{Bootstrap: bootstrap})
	if err != nil {
		return err
	}
	defer cl.Close(context.Background())
	res, err := admin.New(cl, admin.Config{}).CreateTopics(ctx, []admin.NewTopic{{Name: topic, Partitions: 3, ReplicationFactor: -1}},
		admin.TopicOptions{WaitVisible: true})
	if err != nil {
		return err
	}
	if err := res[0].Err; err != nil && !errors.Is(err, gregor.ErrTopicAlreadyExists) {
		return err
	}
	// A small bound on outstanding records, so the producer pushes back.
	p, err := producer.New(cl, producer.Config{InFlightRecords: inFlight, BatchMaxRecords: min(inFlight, producer.DefaultBatchMaxRecords)})
	if err != nil {
		return err
	}
	var outstanding []*producer.Delivery
	var acked, pushbacks int
	oldest := func() error {
		_, err := outstanding[0].Wait(ctx)
		outstanding = outstanding[1:]
		if err != nil {
			return err // a *producer.RecordError, or ctx ended
		}
		acked++
		return nil
	}
	for i := range n {
		m := &producer.Record{Topic: topic, Value: fmt.Appendf(nil, "event %d", i)}
		for {
			d, err := p.TrySend(m)
			if errors.Is(err, client.ErrBackpressure) && len(outstanding) > 0 {
				pushbacks++
				if err := oldest(); err != nil {
					return err
				}
				continue
			}
			if err != nil {
				return err
			}
			outstanding = append(outstanding, d)
			break
		}
	}
	for len(outstanding) > 0 {
		if err := oldest(); err != nil {
			return err
		}
	}
	if err := p.Close(ctx); err != nil {
		return err
	}
	fmt.Fprintf(out, "wrote %d records to %s; the producer pushed back %d times\n", acked, topic, pushbacks)
	return nil
}
