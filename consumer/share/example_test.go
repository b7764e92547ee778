package share_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer/share"
)

// Example reads a topic as a queue (KIP-932): every member of share group
// "workers" gets records no other member holds, and acknowledges each
// one: Accept when handled, Release to let another delivery try again,
// Reject to drop it. It needs a running Kafka with share groups, so it
// has no Output comment: go test compiles it but does not run it.
func Example() {
	cl, err := client.New(client.Config{Bootstrap: []string{"127.0.0.1:9092"}})
	if err != nil {
		log.Fatal(err)
	}
	defer cl.Close(context.Background()) // last: Close of the consumer leaves the client open
	c, err := share.New(cl, share.Config{GroupID: "workers", Topics: []string{"jobs"}, AckMode: share.AckExplicit})
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	defer func() {
		// Close sends the pending acknowledgements and leaves the group.
		if err := c.Close(context.Background()); err != nil {
			log.Print(err)
		}
	}()
	recs, err := c.Receive(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for i := range recs {
		r := &recs[i]
		t := share.Accept
		switch {
		case len(r.Value) == 0:
			t = share.Reject // a poison record: never deliver it again
		case r.DeliveryCount > 1:
			fmt.Printf("retry %d of %s/%d@%d\n", r.DeliveryCount, r.Topic, r.Partition, r.Offset)
		}
		if err := c.Acknowledge(r, t); err != nil {
			log.Fatal(err)
		}
	}
	results, err := c.Commit(ctx) // acknowledge now rather than with the next Receive
	if err != nil {
		log.Fatal(err)
	}
	for _, res := range results {
		if res.Err != nil { // e.g. wire.ErrInvalidRecordState: the lock expired first
			fmt.Printf("%s/%d@%d: %v\n", res.Topic, res.Partition, res.Offset, res.Err)
		}
	}
}
