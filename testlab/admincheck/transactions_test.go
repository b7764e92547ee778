package admincheck

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestHangingTransaction: a franz-go transactional producer writes into a
// transaction and is abandoned mid-transaction. gregor lists it
// (ListTransactions by state Ongoing and by ID pattern; not among those
// running over an hour), describes it (DescribeTransactions,
// in a batch with an unknown ID that fails alone with
// TRANSACTIONAL_ID_NOT_FOUND; kadm and Java's TransactionsCommand agree)
// and finds its open transaction on the
// partition (DescribeProducers, matching kadm's); the observer's last
// stable offset is stuck at the transaction's start. AbortTransactions
// (WriteTxnMarkers) moves the last stable offset to the high watermark
// and a read_committed franz-go consumer reads past the aborted record to
// the record after it. FenceProducers then bumps the producer's epoch.
func TestHangingTransaction(t *testing.T) {
	b := newBed(t)
	topic := b.observedTopic(1, nil)
	txnID := b.name("hang")
	prod, err := kgo.NewClient(kgo.SeedBrokers(b.boot...), kgo.TransactionalID(txnID), kgo.TransactionTimeout(60*time.Second),
		kgo.DefaultProduceTopic(topic))
	if err != nil {
		t.Fatal(err)
	}
	defer prod.Close()
	if err := prod.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	if err := prod.ProduceSync(ctxFor(t, 20*time.Second), &kgo.Record{Value: []byte("in-txn")}).FirstErr(); err != nil {
		t.Fatalf("transactional produce: %v", err)
	}
	// The producer is now abandoned mid-transaction. A plain record follows.
	if err := b.kcl.ProduceSync(ctxFor(t, 20*time.Second), &kgo.Record{Topic: topic, Value: []byte("after")}).FirstErr(); err != nil {
		t.Fatalf("plain produce: %v", err)
	}

	ls, err := b.adm.ListTransactions(ctxFor(t, 20*time.Second), admin.ListTransactionsOptions{States: []string{"Ongoing"}})
	if err != nil || len(ls.Brokers) == 0 || ls.Brokers[0].Err != nil {
		t.Fatalf("ListTransactions: %v %+v", err, ls)
	}
	if !slices.ContainsFunc(ls.Transactions, func(x admin.ListedTransaction) bool { return x.TransactionalID == txnID && x.State == "Ongoing" }) {
		t.Fatalf("ListTransactions misses %s: %+v", txnID, ls.Transactions)
	}
	// The KIP-1152 pattern keeps it (Kafka 4.1+; before, the broker is
	// not asked and says why), the KIP-994 duration filter drops it.
	byPattern, err := b.adm.ListTransactions(ctxFor(t, 20*time.Second), admin.ListTransactionsOptions{IDPattern: "^" + txnID + "$"})
	if !b.kc.AtLeast(4, 1) {
		if err != nil || len(byPattern.Brokers) != 1 || !errors.Is(byPattern.Brokers[0].Err, gregor.ErrUnsupportedFeature) || len(byPattern.Transactions) != 0 {
			t.Fatalf("ListTransactions by pattern on Kafka %s: %v %+v, want the broker's outcome gregor.ErrUnsupportedFeature", b.kc.Version(), err, byPattern)
		}
	} else if err != nil || len(byPattern.Transactions) != 1 || byPattern.Transactions[0].TransactionalID != txnID {
		t.Fatalf("ListTransactions by pattern: %v %+v", err, byPattern)
	}
	byDuration, err := b.adm.ListTransactions(ctxFor(t, 20*time.Second), admin.ListTransactionsOptions{MinDuration: time.Hour})
	if err != nil || slices.ContainsFunc(byDuration.Transactions, func(x admin.ListedTransaction) bool { return x.TransactionalID == txnID }) {
		t.Fatalf("ListTransactions running over an hour: %v %+v", err, byDuration)
	}
	missing := b.name("nosuchtxn")
	ds, err := b.adm.DescribeTransactions(ctxFor(t, 20*time.Second), []string{txnID, missing})
	if err != nil || len(ds) != 2 || ds[0].Err != nil || ds[0].State != "Ongoing" ||
		!slices.Contains(ds[0].Partitions, gregor.TopicPartition{Topic: topic, Partition: 0}) || !errors.Is(ds[1].Err, wire.ErrTransactionalIDNotFound) {
		t.Fatalf("DescribeTransactions: %v %+v", err, ds)
	}
	obsTxn, err := b.obs.DescribeTransactions(ctxFor(t, 20*time.Second), txnID)
	if err != nil || obsTxn[txnID].ProducerID != ds[0].ProducerID || obsTxn[txnID].State != "Ongoing" {
		t.Fatalf("observer DescribeTransactions: %v %+v, ours %+v", err, obsTxn, ds[0])
	}

	// Java's admin client (TransactionsCommand) sees the same transaction.
	out, err := b.kc.RunTool(ctxFor(t, 60*time.Second), "org.apache.kafka.tools.TransactionsCommand",
		"--bootstrap-server", strings.Join(b.boot, ","), "describe", "--transactional-id", txnID)
	if err != nil || !strings.Contains(out, "Ongoing") || !strings.Contains(out, fmt.Sprint(ds[0].ProducerID)) || !strings.Contains(out, topic+"-0") {
		t.Fatalf("TransactionsCommand describe: %v\n%s", err, out)
	}

	tp := gregor.TopicPartition{Topic: topic, Partition: 0}
	pr, err := b.adm.DescribeProducers(ctxFor(t, 20*time.Second), []gregor.TopicPartition{tp})
	if err != nil || pr[0].Err != nil {
		t.Fatalf("DescribeProducers: %v %+v", err, pr)
	}
	i := slices.IndexFunc(pr[0].Producers, func(p admin.ProducerState) bool { return p.ProducerID == ds[0].ProducerID })
	if i < 0 || pr[0].Producers[i].TxnStartOffset != 0 {
		t.Fatalf("DescribeProducers: no open transaction at offset 0 for producer %d: %+v", ds[0].ProducerID, pr[0].Producers)
	}
	hanging := pr[0].Producers[i]
	obsProd, err := b.obs.DescribeProducers(ctxFor(t, 20*time.Second), kadm.TopicsSet{topic: {0: {}}})
	if err != nil {
		t.Fatalf("observer DescribeProducers: %v", err)
	}
	op, ok := obsProd[topic].Partitions[0]
	if p, found := op.ActiveProducers[hanging.ProducerID]; !ok || op.Err != nil || !found || p.CurrentTxnStartOffset != hanging.TxnStartOffset ||
		int32(p.ProducerEpoch) != hanging.ProducerEpoch {
		t.Fatalf("observer DescribeProducers: %+v", op)
	}
	lso := func() (int64, int64) {
		c, err := b.obs.ListCommittedOffsets(ctxFor(t, 10*time.Second), topic)
		e, err2 := b.obs.ListEndOffsets(ctxFor(t, 10*time.Second), topic)
		if err != nil || err2 != nil {
			t.Fatalf("observer offsets: %v %v", err, err2)
		}
		lc, _ := c.Lookup(topic, 0)
		le, _ := e.Lookup(topic, 0)
		return lc.Offset, le.Offset
	}
	if s, h := lso(); s != 0 || h != 2 {
		t.Fatalf("before the abort the observer sees LSO %d, HW %d; want 0, 2", s, h)
	}

	ab, err := b.adm.AbortTransactions(ctxFor(t, 20*time.Second), []admin.AbortSpec{{TopicPartition: tp, ProducerID: hanging.ProducerID,
		ProducerEpoch: int16(hanging.ProducerEpoch), CoordinatorEpoch: hanging.CoordinatorEpoch}})
	if err != nil || ab[0].Err != nil {
		t.Fatalf("AbortTransactions: %v %+v", err, ab)
	}
	if s, h := lso(); s != h || h != 3 {
		t.Fatalf("after the abort the observer sees LSO %d, HW %d; want both 3 (the marker)", s, h)
	}
	cons, err := kgo.NewClient(kgo.SeedBrokers(b.boot...), kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {0: kgo.NewOffset().AtStart()}}),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	if err != nil {
		t.Fatal(err)
	}
	defer cons.Close()
	fs := cons.PollFetches(ctxFor(t, 20*time.Second))
	if errs := fs.Errors(); len(errs) > 0 {
		t.Fatalf("read_committed poll: %v", errs)
	}
	var got []string
	fs.EachRecord(func(r *kgo.Record) { got = append(got, fmt.Sprintf("%d:%s", r.Offset, r.Value)) })
	if fmt.Sprint(got) != "[1:after]" {
		t.Fatalf("read_committed consumer read %v, want [1:after]", got)
	}

	fp, err := b.adm.FenceProducers(ctxFor(t, 30*time.Second), []string{txnID})
	if err != nil || fp[0].Err != nil || fp[0].ProducerID != hanging.ProducerID || int32(fp[0].ProducerEpoch) <= hanging.ProducerEpoch {
		t.Fatalf("FenceProducers: %v %+v (producer %d epoch %d)", err, fp, hanging.ProducerID, hanging.ProducerEpoch)
	}
	until(t, 20*time.Second, "fenced transaction ended", func() error {
		d, err := b.obs.DescribeTransactions(ctxFor(t, 10*time.Second), txnID)
		if err != nil || d[txnID].State == "Ongoing" {
			return fmt.Errorf("observer sees %v %+v", err, d[txnID])
		}
		return nil
	})
}
