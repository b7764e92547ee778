package faultcheck

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/testlab/internal/labtest"
	"github.com/gregor-kafka/gregor/testlab/invariant"
	"github.com/gregor-kafka/gregor/txn"
)

// queueLoad is Jepsen's transactional queue workload: `workers` members of
// one consumer group (read_committed, manual commits) on one topic, each on
// a client of its own through the proxies with a transactional producer of
// its own. Every transaction polls once, sends queueSends new values to
// random partitions of the same topic, commits the polled positions in the
// transaction (SendOffsets with the member's group metadata, KIP-447) and
// commits; so transactions read each other's writes and the checker's
// dependency graph has wr and ww edges. An abort or an unknown outcome
// rewinds the member to the group's committed offsets.
//
// Every operation is recorded with its invocation and completion: each
// send (value, partition, acknowledged offset), each poll per partition as
// a read_committed Read in its transaction (Continues unless an
// assignment event or a rewind came between), each transaction's Begin,
// EndInvoked, End and outcome (unknown ones settled by judge from a final
// read_committed read).
type queueLoad struct {
	topic, group string
	partitions   int32
	workers      int
	seed         uint64
	boot         []string
	logf         func(string, ...any)

	mu      sync.Mutex // guards the fields below
	sends   []invariant.Send
	reads   []invariant.Read
	txns    []invariant.Transaction
	unknown map[string]bool
	fatal   int
	errs    []string
}

// queueSends is how many values one transaction sends.
const queueSends = 2

func (ql *queueLoad) Run(ctx context.Context, drain time.Duration) error {
	ql.mu.Lock()
	ql.unknown = map[string]bool{}
	ql.mu.Unlock()
	var wg sync.WaitGroup
	errs := make([]error, ql.workers)
	for w := range ql.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[w] = ql.work(ctx, w, drain)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// queueWorker is one member and its transactional producer.
type queueWorker struct {
	ql   *queueLoad
	name string
	cl   *client.Client
	g    *consumer.Group
	p    *txn.Producer
	rng  *rand.Rand
	n    int
	// cont holds the partitions read continuously since the last
	// assignment event or rewind.
	mu   sync.Mutex
	cont map[invariant.TP]bool
}

func (ql *queueLoad) work(ctx context.Context, w int, drain time.Duration) error {
	name := fmt.Sprintf("q%d", w)
	cl, err := client.New(client.Config{Bootstrap: ql.boot, ClientID: name, RequestTimeout: 5 * time.Second, DialTimeout: 3 * time.Second,
		RetryBackoff: 50 * time.Millisecond, RetryBackoffMax: 500 * time.Millisecond})
	if err != nil {
		return err
	}
	defer cl.Close(context.Background())
	qw := &queueWorker{ql: ql, name: name, cl: cl, rng: rand.New(rand.NewPCG(ql.seed, uint64(w))), cont: map[invariant.TP]bool{}}
	g, err := consumer.NewGroup(cl, consumer.GroupConfig{
		Config:            consumer.Config{Isolation: consumer.ReadCommitted, MaxWait: 200 * time.Millisecond},
		GroupID:           ql.group,
		Topics:            []string{ql.topic},
		DisableAutoCommit: true,
		OnAssignment: func(_ context.Context, ev consumer.AssignmentEvent) {
			qw.mu.Lock()
			for _, tp := range ev.Partitions {
				delete(qw.cont, invariant.TP{Topic: tp.Topic, Partition: tp.Partition})
			}
			qw.mu.Unlock()
		},
	})
	if err != nil {
		return err
	}
	qw.g = g
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), drain)
		defer cancel()
		if qw.p != nil {
			_ = qw.p.Close(cctx)
		}
		_ = g.Close(cctx)
	}()
	// The worker's transactions run until the load ends; the one in
	// flight then finishes within the drain.
	jctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-ctx.Done():
			t := time.NewTimer(drain)
			defer t.Stop()
			select {
			case <-t.C:
				cancel()
			case <-jctx.Done():
			}
		case <-jctx.Done():
		}
	}()
	if err := qw.newProducer(jctx); err != nil {
		return err
	}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for ctx.Err() == nil {
		if err := qw.txn(jctx); err != nil && jctx.Err() == nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		select {
		case <-ctx.Done():
		case <-tick.C:
		}
	}
	return nil
}

func (qw *queueWorker) newProducer(ctx context.Context) error {
	return replaceProducer(ctx, qw.cl, &qw.p, qw.ql.topic+"-"+qw.name, 2*time.Millisecond)
}

// txn runs one transaction: poll, send, SendOffsets, Commit.
func (qw *queueWorker) txn(ctx context.Context) error {
	qw.n++
	id := fmt.Sprintf("%s-tx%d", qw.name, qw.n)
	begin := time.Now()
	rctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	recs, _ := qw.g.Receive(rctx)
	polled := time.Now()
	cancel()
	next := qw.recordPoll(recs, id, begin, polled)
	err := qw.p.Begin()
	var ds []pendingSend
	for k := 0; err == nil && k < queueSends; k++ {
		v := fmt.Sprintf("%s-%d-%d", qw.name, qw.n, k)
		part := qw.rng.Int32N(qw.ql.partitions)
		var ps pendingSend
		ps, err = sendInTxn(ctx, qw.p, &producer.Record{Topic: qw.ql.topic, Partition: producer.ToPartition(part), Value: []byte(v)},
			invariant.Send{Producer: qw.name, Idempotent: true, TP: invariant.TP{Topic: qw.ql.topic, Partition: part}, ID: v, Offset: -1, Txn: id},
			&qw.ql.mu, &qw.ql.sends)
		if err != nil {
			break
		}
		ds = append(ds, ps)
	}
	outcome, endInvoked, end, err := finishTxn(ctx, qw.p, qw.ql.topic, next, qw.g.GroupMetadata(), err)
	awaitSends(ctx, &qw.ql.mu, &qw.ql.sends, ds)
	qw.ql.mu.Lock()
	qw.ql.txns = append(qw.ql.txns, invariant.Transaction{ID: id, Outcome: outcome, Begin: begin, EndInvoked: endInvoked, End: end})
	if outcome == invariant.Open {
		qw.ql.unknown[id] = true
	}
	qw.ql.mu.Unlock()
	if err == nil {
		return nil
	}
	return qw.recover(ctx, err, outcome == invariant.Open)
}

// recordPoll records what transaction id polled, per partition, and
// returns the next position of each.
func (qw *queueWorker) recordPoll(recs []consumer.Record, id string, invoked, completed time.Time) map[int32]int64 {
	qw.mu.Lock()
	reads, next := readsOf(recs, invariant.Read{Reader: qw.name, Committed: true, Txn: id, Invoked: invoked, Completed: completed}, qw.cont)
	qw.mu.Unlock()
	qw.ql.mu.Lock()
	qw.ql.reads = append(qw.ql.reads, reads...)
	qw.ql.mu.Unlock()
	return next
}

// recover ends the failed transaction (abort, re-initialise or re-create
// the producer as the error says; an unknown outcome needs none) and
// rewinds the member to the group's committed offsets.
func (qw *queueWorker) recover(ctx context.Context, cause error, unknown bool) error {
	err := cause
	if unknown && !errors.Is(err, txn.ErrNeedsInit) && !errors.Is(err, txn.ErrFatal) && !errors.Is(err, txn.ErrFenced) {
		err = nil
	}
	recreated := func(err error) {
		qw.ql.mu.Lock()
		qw.ql.fatal++
		qw.ql.mu.Unlock()
		qw.ql.logf("queue %s: %v: re-creating the producer", qw.name, err)
	}
	if err := endFailed(ctx, err, &qw.p, qw.newProducer, recreated); err != nil {
		return err
	}
	offs, err := committedOffsets(ctx, qw.cl, qw.ql.group, qw.ql.topic, qw.ql.partitions)
	if err != nil {
		return err
	}
	qw.mu.Lock()
	qw.cont = map[invariant.TP]bool{}
	qw.mu.Unlock()
	for _, pp := range qw.g.Assignment() {
		tp := pp.TopicPartition
		if err := qw.g.Seek(ctx, tp, consumer.AtOffset(offs[tp.Partition])); err != nil {
			qw.ql.logf("queue %s: seek %v after %v: %v", qw.name, tp, cause, err)
		}
	}
	return nil
}

// Record adds the workload's sends, reads and transactions.
func (ql *queueLoad) Record(h *invariant.History, f *Figures) {
	ql.mu.Lock()
	defer ql.mu.Unlock()
	h.Sends = append(h.Sends, ql.sends...)
	h.Reads = append(h.Reads, ql.reads...)
	h.Transactions = append(h.Transactions, ql.txns...)
	f.QueueSent, f.QueueFatal = len(ql.sends), ql.fatal
	for _, r := range ql.reads {
		f.QueuePolled += len(r.Records)
	}
	for _, t := range ql.txns {
		switch {
		case ql.unknown[t.ID]:
			f.QueueTxnUnknown++
		case t.Outcome == invariant.Committed:
			f.QueueTxnCommitted++
		default:
			f.QueueTxnAborted++
		}
	}
}

// judge reads the topic read_committed to its end (Reads for the checker)
// and settles the unknown outcomes by what that read saw.
func (ql *queueLoad) judge(ctx context.Context, bed *labtest.Bed, h *invariant.History) error {
	seenAt := map[invariant.TP]map[int64]bool{}
	for p := range ql.partitions {
		r, err := readCommitted(ctx, bed, "observer-read-committed", ql.topic, p)
		if err != nil {
			return err
		}
		h.Reads = append(h.Reads, r)
		seenAt[r.TP] = map[int64]bool{}
		for _, rec := range r.Records {
			seenAt[r.TP][rec.Offset] = true
		}
	}
	ql.mu.Lock()
	defer ql.mu.Unlock()
	settleUnknown(h, ql.sends, ql.unknown, seenAt)
	return nil
}
