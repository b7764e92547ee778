package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/gregor-kafka/gregor"
	"io"
	"log"
	"os"
	"strings"
	"time"

	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/txn"
	"github.com/gregor-kafka/gregor/wire"
)

func main() {
	bootstrap := flag.String("b", os.Getenv("GREGOR_BOOTSTRAP"), "bootstrap host:port list (env GREGOR_BOOTSTRAP)")
	in := flag.String("in", "orders", "input topic (created with 3 partitions if missing)")
	out := flag.String("out", "orders-upper", "output topic (created if missing)")
	group := flag.String("group", "copier", "consumer group; also the transactional.id's prefix")
	n := flag.Int("n", 100, "records to send to the input first")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, strings.Split(*bootstrap, ","), *in, *out, *group, *n, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, bootstrap []string, in, out, group string, n int, w io.Writer) error {
	cl, err := client.New(client.Config{Bootstrap: bootstrap})
	if err != nil {
		return err
	}
	defer cl.Close(context.Background()) // last: the producers and the group leave it open
	if err := cl.Ready(ctx); err != nil {
		return err
	}
	if err := createTopics(ctx, cl, in, out); err != nil {
		return err
	}
	if err := fill(ctx, cl, in, n); err != nil {
		return err
	}
	ends, err := endOffsets(ctx, cl, in)
	if err != nil {
		return err
	}
	copied, txns, err := copyTopic(ctx, cl, in, out, group, ends)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "copied %d records from %s to %s in %d transactions\n", copied, in, out, txns)
	return nil
}

// copyTopic copies in to out as group's member until its position reached
// ends in every partition, and returns the records copied and the
// transactions committed.
func copyTopic(ctx context.Context, cl *client.Client, in, out, group string, ends map[int32]int64) (copied, txns int, err error) {
	g, err := consumer.NewGroup(cl, consumer.GroupConfig{
		Config:            consumer.Config{Isolation: consumer.ReadCommitted},
		GroupID:           group,
		Topics:            []string{in},
		DisableAutoCommit: true, // offsets are committed by the transactions
	})
	if err != nil {
		return 0, 0, err
	}
	defer closeWithin(10*time.Second, g.Close)
	p, err := txn.New(cl, txn.Config{TransactionalID: group + "-" + in})
	if err != nil {
		return 0, 0, err
	}
	defer closeWithin(10*time.Second, p.Close)
	if err := p.InitTransactions(ctx); err != nil {
		return 0, 0, err
	}
	for !reached(g.Assignment(), ends) {
		rctx, cancel := context.WithTimeout(ctx, time.Second)
		recs, err := g.Receive(rctx)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return copied, txns, ctx.Err()
			}
			if errors.Is(err, client.ErrTimeout) {
				continue // nothing new for a second: look at the ends again
			}
			return copied, txns, err
		}
		err = copyBatch(ctx, p, g, out, recs)
		switch {
		case err == nil:
			copied += len(recs)
			txns++
		case errors.Is(err, txn.ErrAbortable):
			// Nothing of the batch is visible: abort and read it again.
			if err := p.Abort(ctx); err != nil {
				return copied, txns, err
			}
			if err := rewind(ctx, g, recs); err != nil {
				return copied, txns, err
			}
		default: // fenced by a newer copier, fatal, outcome unknown, ctx
			return copied, txns, err
		}
	}
	return copied, txns, nil
}

// closeWithin calls close with a context bounded by d.
func closeWithin(d time.Duration, close func(context.Context) error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	if err := close(ctx); err != nil {
		log.Print(err)
	}
}

// copyBatch writes recs to out and commits them with their input offsets
// in one transaction.
func copyBatch(ctx context.Context, p *txn.Producer, g *consumer.Group, out string, recs []consumer.Record) error {
	if err := p.Begin(); err != nil {
		return err
	}
	next := map[gregor.TopicPartition]int64{}
	for _, r := range recs {
		if _, err := p.Send(ctx, &producer.Record{Topic: out, Key: r.Key, Value: bytes.ToUpper(r.Value), Headers: r.Headers}); err != nil {
			return err // the transaction cannot commit now
		}
		next[gregor.TopicPartition{Topic: r.Topic, Partition: r.Partition}] = r.Offset + 1
	}
	offsets := make([]txn.Offset, 0, len(next))
	for tp, o := range next {
		offsets = append(offsets, txn.Offset{Topic: tp.Topic, Partition: tp.Partition, Offset: o})
	}
	// The member's generation fences a zombie copier whose partitions
	// the group gave to another member (KIP-447).
	if err := p.SendOffsets(ctx, offsets, g.GroupMetadata()); err != nil {
		return err
	}
	return p.Commit(ctx)
}

// rewind moves each partition of recs back to its first record in recs.
func rewind(ctx context.Context, g *consumer.Group, recs []consumer.Record) error {
	first := map[gregor.TopicPartition]int64{}
	for _, r := range recs {
		tp := gregor.TopicPartition{Topic: r.Topic, Partition: r.Partition}
		if _, ok := first[tp]; !ok {
			first[tp] = r.Offset
		}
	}
	for tp, o := range first {
		if err := g.Seek(ctx, tp, consumer.AtOffset(o)); err != nil {
			return err
		}
	}
	return nil
}

// reached reports whether the member owns partitions and every one is at
// its end.
func reached(owned []consumer.PartitionPosition, ends map[int32]int64) bool {
	if len(owned) == 0 {
		return false
	}
	for _, pp := range owned {
		if pp.Position.Offset < ends[pp.Partition] {
			return false
		}
	}
	return true
}

func createTopics(ctx context.Context, cl *client.Client, in, out string) error {
	res, err := admin.New(cl, admin.Config{}).CreateTopics(ctx, []admin.NewTopic{
		{Name: in, Partitions: 3, ReplicationFactor: -1},
		{Name: out, Partitions: 3, ReplicationFactor: -1},
	}, admin.TopicOptions{WaitVisible: true})
	if err != nil {
		return err
	}
	for _, r := range res {
		if r.Err != nil && !errors.Is(r.Err, wire.ErrTopicAlreadyExists) {
			return r.Err
		}
	}
	return nil
}

// fill sends n keyed records to topic and waits for all of them.
func fill(ctx context.Context, cl *client.Client, topic string, n int) error {
	p, err := producer.New(cl, producer.Config{})
	if err != nil {
		return err
	}
	defer p.Close(ctx)
	ds := make([]*producer.Delivery, 0, n)
	for i := range n {
		d, err := p.Send(ctx, &producer.Record{Topic: topic, Key: fmt.Appendf(nil, "order-%d", i), Value: fmt.Appendf(nil, "order %d", i)})
		if err != nil {
			return err
		}
		ds = append(ds, d)
	}
	for _, d := range ds {
		r, err := d.Wait(ctx)
		if err != nil {
			return err
		}
		if r.Err != nil {
			return r.Err
		}
	}
	return nil
}

// endOffsets returns the last stable offset of every partition of topic.
func endOffsets(ctx context.Context, cl *client.Client, topic string) (map[int32]int64, error) {
	adm := admin.New(cl, admin.Config{})
	ds, err := adm.DescribeTopics(ctx, []string{topic})
	if err != nil {
		return nil, err
	}
	if ds[0].Err != nil {
		return nil, ds[0].Err
	}
	qs := make([]admin.OffsetQuery, len(ds[0].Partitions))
	for i := range qs {
		qs[i] = admin.OffsetQuery{TopicPartition: gregor.TopicPartition{Topic: topic, Partition: int32(i)}, Spec: admin.OffsetLatest}
	}
	res, err := adm.ListOffsets(ctx, qs, admin.ListOffsetsOptions{ReadCommitted: true})
	if err != nil {
		return nil, err
	}
	ends := map[int32]int64{}
	for _, r := range res {
		if r.Err != nil {
			return nil, r.Err
		}
		ends[r.Partition] = r.Offset
	}
	return ends, nil
}
