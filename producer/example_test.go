package producer_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/producer"
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

// ExampleProducer_Send sends one record and waits for its outcome. Wait's
// error is the context's; the record's own failure is in Result.Err, with
// Result.Certainty saying whether it may have been written.
func ExampleProducer_Send() {
	cl := connect()
	defer cl.Close(context.Background()) // after the producer: Close leaves the client open
	p, err := producer.New(cl, producer.Config{})
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	defer p.Close(ctx)

	// No Partition: the partitioner picks (murmur2 of the key).
	d, err := p.Send(ctx, &producer.Record{Topic: "greetings", Key: []byte("k"), Value: []byte("hello")})
	if err != nil {
		log.Fatal(err) // not admitted: nothing was sent
	}
	r, err := d.Wait(ctx)
	var failed *producer.RecordError
	switch {
	case errors.As(err, &failed):
		log.Fatalf("record failed (%s): %v", failed.Certainty, err)
	case err != nil:
		log.Fatal(err) // ctx ended first; the record is still in flight
	}
	fmt.Printf("written to %s/%d at offset %d\n", r.Topic, r.Partition, r.Offset)
}

// ExampleProducer_TrySend admits records without waiting: when the
// producer's bounds are reached TrySend refuses with client.ErrBackpressure
// and the caller waits for the oldest outstanding record before it tries
// again; nothing is lost.
func ExampleProducer_TrySend() {
	cl := connect()
	defer cl.Close(context.Background())
	p, err := producer.New(cl, producer.Config{InFlightRecords: 10000})
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var outstanding []*producer.Delivery
	check := func(d *producer.Delivery) {
		if r, err := d.Wait(ctx); err != nil || r.Err != nil {
			log.Fatal(err, r.Err)
		}
	}
	for i := range 100000 {
		m := &producer.Record{Topic: "events", Value: fmt.Appendf(nil, "event %d", i)}
		for {
			d, err := p.TrySend(m)
			if errors.Is(err, client.ErrBackpressure) && len(outstanding) > 0 {
				check(outstanding[0]) // room frees as records complete
				outstanding = outstanding[1:]
				continue
			}
			if err != nil {
				log.Fatal(err)
			}
			outstanding = append(outstanding, d)
			break
		}
	}
	for _, d := range outstanding {
		check(d)
	}
	if err := p.Close(ctx); err != nil {
		log.Fatal(err)
	}
}

// ExampleDelivery_Cancel withdraws a record that has not left yet.
func ExampleDelivery_Cancel() {
	cl := connect()
	defer cl.Close(context.Background())
	// A long linger keeps the record in its batch for a while.
	p, err := producer.New(cl, producer.Config{Linger: time.Second})
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	defer p.Close(ctx)
	d, err := p.TrySend(&producer.Record{Topic: "greetings", Value: []byte("never mind")})
	if err != nil {
		log.Fatal(err)
	}
	switch d.Cancel() {
	case producer.CancelledNotSent:
		fmt.Println("withdrawn: no byte of it reached a broker")
	case producer.TooLate:
		fmt.Println("already on the wire: the broker decides")
	case producer.AlreadyTerminal:
		fmt.Println("already done")
	}
	r, _ := d.Wait(ctx)
	fmt.Println(errors.Is(r.Err, producer.ErrRecordCancelled), r.Certainty)
}
