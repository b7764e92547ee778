package txn_test

import (
	"context"
	"errors"
	"log"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/txn"
)

// Example is the consume-transform-produce loop: each batch read from "in"
// (read_committed) is transformed into "out" and its input offsets are
// committed in the same transaction, so every input record is reflected in
// the output exactly once. gm would come from the group consumer whose
// partitions these are (its generation fences zombies, KIP-447); here it is
// a group without members.
func Example() {
	ctx := context.Background()
	cl, err := client.New(client.Config{Bootstrap: []string{"127.0.0.1:9092"}})
	if err != nil {
		log.Fatal(err)
	}
	defer cl.Close(context.Background())
	in, err := consumer.New(cl, consumer.Config{Isolation: consumer.ReadCommitted})
	if err != nil {
		log.Fatal(err)
	}
	defer in.Close(context.Background())
	if err := in.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: gregor.TopicPartition{Topic: "in"}, Position: consumer.AtBeginning()}}); err != nil {
		log.Fatal(err)
	}
	p, err := txn.New(cl, txn.Config{TransactionalID: "copier-in-0"})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close(ctx)
	if err := p.InitTransactions(ctx); err != nil {
		log.Fatal(err)
	}
	gm := consumer.GroupMetadata{GroupID: "copier", GenerationID: -1}
	for {
		recs, err := in.Receive(ctx)
		if err != nil {
			log.Fatal(err)
		}
		if err := p.Begin(); err != nil {
			log.Fatal(err)
		}
		for _, r := range recs {
			if _, err := p.Send(ctx, &producer.Record{Topic: "out", Key: r.Key, Value: r.Value}); err != nil {
				break // the transaction cannot commit: Commit reports why
			}
		}
		last := recs[len(recs)-1]
		err = p.SendOffsets(ctx, []txn.Offset{{Topic: last.Topic, Partition: last.Partition, Offset: last.Offset + 1}}, gm)
		if err == nil {
			err = p.Commit(ctx)
		}
		switch {
		case err == nil:
		case errors.Is(err, txn.ErrFatal):
			log.Fatal(err) // fenced by a newer copier: stop
		case errors.Is(err, txn.ErrCommitOutcomeUnknown):
			// The producer re-initialised; whether the batch committed is
			// unknown: re-read the committed input offset before going on.
			log.Fatal(err)
		default:
			// Abortable (or ctx ended): abort and re-read from the last
			// committed offset.
			if err := p.Abort(ctx); err != nil {
				log.Fatal(err)
			}
			if err := in.Seek(ctx, gregor.TopicPartition{Topic: last.Topic, Partition: last.Partition}, consumer.AtOffset(recs[0].Offset)); err != nil {
				log.Fatal(err)
			}
		}
	}
}
