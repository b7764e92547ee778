package faultcheck

import (
	"context"
	"errors"
	"fmt"
	"github.com/gregor-kafka/gregor"
	"sync"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/testlab/internal/labtest"
	"github.com/gregor-kafka/gregor/testlab/invariant"
	"github.com/gregor-kafka/gregor/txn"
	"github.com/gregor-kafka/gregor/wire"
)

// copierLoad is a consume-transform-produce job on a client of its own
// through the proxies: gregor's read_committed assigned consumer reads every
// partition of the input topic, gregor's transactional producer writes
// "cp-<value>" to the same partition of the output topic and, in the same
// transaction, the next input offsets for group (SendOffsets, KIP-447) —
// up to copierBatch records per transaction. A transaction that aborts or whose
// commit outcome is unknown rewinds the job to the group's committed
// offsets. After the load it drains to the input's end offsets.
//
// What it records: every output send with its transaction, acknowledged
// offset and instants; what each transaction consumed of each input
// partition as a read_committed Read in that transaction (continuing the
// previous one unless a rewind came between; after the drain, a last empty
// Read at the input's end offsets); every transaction's instants and outcome (committed: Commit returned nil;
// aborted: Abort returned nil or the producer re-initialised; unknown:
// ErrCommitOutcomeUnknown, settled by judge from what a read_committed
// reader sees).
type copierLoad struct {
	in, out    string
	group, tid string
	partitions int32
	boot       []string
	inputDone  <-chan struct{}
	bed        *labtest.Bed
	logf       func(string, ...any)

	mu        sync.Mutex // guards the fields below
	sends     []invariant.Send
	reads     []invariant.Read // what each transaction consumed, per partition
	txns      []invariant.Transaction
	unknown   map[string]bool
	committed map[int32]int64 // the job's committed input offsets
	fatal     int             // producers re-created after ErrFatal/ErrFenced
	rewinds   int
}

func (cp *copierLoad) Run(ctx context.Context, drain time.Duration) error {
	cp.unknown = map[string]bool{}
	cp.committed = map[int32]int64{}
	cl, err := client.New(client.Config{Bootstrap: cp.boot, ClientID: "copier", RequestTimeout: 5 * time.Second, DialTimeout: 3 * time.Second,
		RetryBackoff: 50 * time.Millisecond, RetryBackoffMax: 500 * time.Millisecond})
	if err != nil {
		return err
	}
	defer cl.Close(context.Background())
	c, err := consumer.New(cl, consumer.Config{Isolation: consumer.ReadCommitted, MaxWait: 200 * time.Millisecond})
	if err != nil {
		return err
	}
	defer c.Close(context.Background())
	var ps []consumer.PartitionPosition
	for p := range cp.partitions {
		ps = append(ps, consumer.PartitionPosition{TopicPartition: gregor.TopicPartition{Topic: cp.in, Partition: p}, Position: consumer.AtBeginning()})
	}
	// The job works until the drain is over.
	jctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := c.Assign(ctx, ps); err != nil {
		return err
	}
	var target map[int32]int64 // set once the producers are done
	targetCh := make(chan map[int32]int64, 1)
	go func() {
		<-ctx.Done()
		t := time.NewTimer(drain)
		defer t.Stop()
		select {
		case <-cp.inputDone:
			ends, err := cp.bed.Adm.ListEndOffsets(jctx, cp.in)
			m := map[int32]int64{}
			for p := range cp.partitions {
				e, _ := ends.Lookup(cp.in, p)
				m[p] = e.Offset
			}
			if err != nil {
				cp.logf("copier: end offsets: %v", err)
			}
			targetCh <- m
			select {
			case <-t.C:
			case <-jctx.Done(): // the job reached the target
			}
		case <-t.C:
		}
		cancel()
	}()
	j := &copyJob{cp: cp, c: c, cl: cl}
	defer func() {
		if j.p != nil {
			cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			_ = j.p.Close(cctx)
			cancel()
		}
	}()
	if err := j.newProducer(jctx); err != nil {
		return err
	}
	for {
		if target == nil {
			select {
			case target = <-targetCh:
			default:
			}
		}
		if target != nil && cp.reached(target) {
			cp.mu.Lock()
			for p, e := range target {
				tp := invariant.TP{Topic: cp.in, Partition: p}
				cp.reads = append(cp.reads, invariant.Read{Reader: "copier", Committed: true, TP: tp, From: e, To: e, ToEnd: true})
			}
			cp.mu.Unlock()
			return nil
		}
		if jctx.Err() != nil {
			return fmt.Errorf("copier: drain did not reach the input's end offsets %v (committed %v)", target, cp.snapshot())
		}
		if err := j.step(jctx); err != nil {
			if jctx.Err() != nil {
				continue
			}
			return err
		}
	}
}

func (cp *copierLoad) reached(target map[int32]int64) bool {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	for p, e := range target {
		if cp.committed[p] < e {
			return false
		}
	}
	return true
}

func (cp *copierLoad) snapshot() map[int32]int64 {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	m := map[int32]int64{}
	for p, o := range cp.committed {
		m[p] = o
	}
	return m
}

// copyJob is the job's state between transactions.
type copyJob struct {
	cp  *copierLoad
	c   *consumer.Consumer
	cl  *client.Client
	p   *txn.Producer
	buf []consumer.Record
	n   int // transactions begun
	// bufInvoked and bufCompleted bracket the Receive that filled buf;
	// continues holds the partitions read since the last rewind.
	bufInvoked, bufCompleted time.Time
	continues                map[invariant.TP]bool
}

// newProducer (re)creates the transactional producer and initialises it.
func (j *copyJob) newProducer(ctx context.Context) error {
	return replaceProducer(ctx, j.cl, &j.p, j.cp.tid, 5*time.Millisecond)
}

func (j *copyJob) init(ctx context.Context) error { return initTransactions(ctx, j.p) }

// replaceProducer closes *p (when set), creates a transactional producer
// for tid on cl in its place and initialises it.
func replaceProducer(ctx context.Context, cl *client.Client, p **txn.Producer, tid string, linger time.Duration) error {
	if *p != nil {
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		_ = (*p).Close(cctx)
		cancel()
	}
	np, err := txn.New(cl, txn.Config{TransactionalID: tid, TransactionTimeout: 30 * time.Second,
		Producer: producer.Config{Linger: linger, DeliveryTimeout: 60 * time.Second, RequestTimeout: 5 * time.Second}})
	if err != nil {
		return err
	}
	*p = np
	return initTransactions(ctx, np)
}

// initTransactions retries InitTransactions until it succeeds, ctx ends or
// the producer is fatally failed.
func initTransactions(ctx context.Context, p *txn.Producer) error {
	for {
		err := p.InitTransactions(ctx)
		if err == nil || ctx.Err() != nil || errors.Is(err, txn.ErrFatal) {
			return err
		}
	}
}

// copierBatch is the most records one transaction copies: one
// transaction at a time must keep up with the producers (50 did not:
// 268,855 of 528,714 copied in a 20m soak).
const copierBatch = 1000

// step fills the buffer or runs one transaction of up to copierBatch
// buffered records.
func (j *copyJob) step(ctx context.Context) error {
	if len(j.buf) == 0 {
		rctx, cancel := context.WithTimeout(ctx, time.Second)
		j.bufInvoked = time.Now()
		recs, _ := j.c.Receive(rctx)
		j.bufCompleted = time.Now()
		cancel()
		j.buf = recs
		return nil
	}
	batch := j.buf[:min(copierBatch, len(j.buf))]
	j.buf = j.buf[len(batch):]
	j.n++
	id := fmt.Sprintf("tx%d", j.n)
	begin := time.Now()
	j.recordReads(batch, id)
	if err := j.p.Begin(); err != nil {
		return j.recover(ctx, fmt.Errorf("Begin: %w", err))
	}
	var ds []pendingSend
	next := map[int32]int64{}
	var err error
	for _, r := range batch {
		v := "cp-" + string(r.Value)
		var ps pendingSend
		ps, err = sendInTxn(ctx, j.p, &producer.Record{Topic: j.cp.out, Partition: producer.ToPartition(r.Partition), Value: []byte(v)},
			invariant.Send{Producer: "copier", Idempotent: true, TP: invariant.TP{Topic: j.cp.out, Partition: r.Partition}, ID: v, Offset: -1, Txn: id},
			&j.cp.mu, &j.cp.sends)
		if err != nil {
			break
		}
		ds = append(ds, ps)
		next[r.Partition] = r.Offset + 1
	}
	outcome, endInvoked, end, err := finishTxn(ctx, j.p, j.cp.in, next, consumer.GroupMetadata{GroupID: j.cp.group, GenerationID: -1}, err)
	awaitSends(ctx, &j.cp.mu, &j.cp.sends, ds)
	if err == nil {
		j.cp.mu.Lock()
		j.cp.txns = append(j.cp.txns, invariant.Transaction{ID: id, Outcome: invariant.Committed, Begin: begin, EndInvoked: endInvoked, End: end})
		for p, o := range next {
			j.cp.committed[p] = o
		}
		j.cp.mu.Unlock()
		return nil
	}
	j.cp.mu.Lock()
	j.cp.txns = append(j.cp.txns, invariant.Transaction{ID: id, Outcome: outcome, Begin: begin, EndInvoked: endInvoked, End: end})
	if outcome == invariant.Open {
		j.cp.unknown[id] = true
	}
	j.cp.mu.Unlock()
	if outcome == invariant.Open {
		if errors.Is(err, txn.ErrNeedsInit) {
			if ierr := j.init(ctx); ierr != nil {
				return j.recover(ctx, ierr)
			}
		}
		return j.rewind(ctx, err)
	}
	return j.recover(ctx, err)
}

// recordReads records what transaction id consumes of each partition.
func (j *copyJob) recordReads(batch []consumer.Record, id string) {
	if j.continues == nil {
		j.continues = map[invariant.TP]bool{}
	}
	reads, _ := readsOf(batch, invariant.Read{Reader: "copier", Committed: true, Txn: id, Invoked: j.bufInvoked, Completed: j.bufCompleted}, j.continues)
	j.cp.mu.Lock()
	j.cp.reads = append(j.cp.reads, reads...)
	j.cp.mu.Unlock()
}

// recover aborts the open transaction (re-initialising or re-creating the
// producer where the error class says so), then rewinds.
func (j *copyJob) recover(ctx context.Context, cause error) error {
	recreated := func(err error) {
		j.cp.mu.Lock()
		j.cp.fatal++
		j.cp.mu.Unlock()
		j.cp.logf("copier: %v: re-creating the producer", err)
	}
	if err := endFailed(ctx, cause, &j.p, j.newProducer, recreated); err != nil {
		return err
	}
	return j.rewind(ctx, cause)
}

// rewind seeks every input partition to the group's committed offset.
func (j *copyJob) rewind(ctx context.Context, why error) error {
	j.buf, j.continues = nil, nil
	j.cp.mu.Lock()
	j.cp.rewinds++
	j.cp.mu.Unlock()
	offs, err := committedOffsets(ctx, j.cl, j.cp.group, j.cp.in, j.cp.partitions)
	if err != nil {
		return err
	}
	j.cp.logf("copier: rewinding to %v after: %v", offs, why)
	j.cp.mu.Lock()
	for p, o := range offs {
		j.cp.committed[p] = o
	}
	j.cp.mu.Unlock()
	for p, o := range offs {
		if err := j.c.Seek(ctx, gregor.TopicPartition{Topic: j.cp.in, Partition: p}, consumer.AtOffset(o)); err != nil {
			return err
		}
	}
	return nil
}

// committedOffsets is group's committed offset of each partition of topic
// (0 when none), read with OffsetFetch RequireStable through cl; retried
// until ctx ends.
func committedOffsets(ctx context.Context, cl *client.Client, group, topic string, partitions int32) (map[int32]int64, error) {
	var ps []int32
	for p := range partitions {
		ps = append(ps, p)
	}
	for {
		id, err := cl.Coordinator(ctx, client.CoordinatorGroup, group)
		if err == nil {
			var r wire.Response
			r, err = cl.RequestVersion(ctx, id, &wire.OffsetFetchRequest{GroupID: group, RequireStable: true,
				Topics: []wire.OffsetFetchRequestTopic{{Name: topic, PartitionIndexes: ps}}}, 7)
			if err == nil {
				resp := r.(*wire.OffsetFetchResponse)
				err = wire.ErrorForCode(resp.ErrorCode)
				out := map[int32]int64{}
				for _, t := range resp.Topics {
					for _, p := range t.Partitions {
						if err == nil {
							err = wire.ErrorForCode(p.ErrorCode)
						}
						out[p.PartitionIndex] = max(p.CommittedOffset, 0)
					}
				}
				if err == nil && len(out) == int(partitions) {
					return out, nil
				}
				if errors.Is(err, wire.ErrNotCoordinator) || errors.Is(err, wire.ErrCoordinatorNotAvailable) {
					cl.InvalidateCoordinator(client.CoordinatorGroup, group)
				}
			}
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("committed offsets of %s: %v (%w)", group, err, ctx.Err())
		}
		select { // retry backoff (coordinator moving, UNSTABLE_OFFSET_COMMIT)
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Record adds the copier's sends and transactions (unknown outcomes stay
// Open until judge settles them).
func (cp *copierLoad) Record(h *invariant.History, f *Figures) {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	h.Sends = append(h.Sends, cp.sends...)
	h.Reads = append(h.Reads, cp.reads...)
	h.Transactions = append(h.Transactions, cp.txns...)
	f.CopierFatal, f.CopierRewinds = cp.fatal, cp.rewinds
	for _, t := range cp.txns {
		switch {
		case cp.unknown[t.ID]:
			f.TxnUnknown++
		case t.Outcome == invariant.Committed:
			f.TxnCommitted++
		default:
			f.TxnAborted++
		}
	}
}

// judge reads the output with franz-go read_committed (a Read per
// partition for the invariant checker's atomicity rule), settles unknown
// outcomes by what it saw (any record seen: committed, else aborted; the
// atomicity rule then demands all or none), and checks exactly-once: every
// input record below the group's final committed offset (kadm) appears once
// in the committed output, and nothing else does.
func (cp *copierLoad) judge(ctx context.Context, bed *labtest.Bed, h *invariant.History, f *Figures) error {
	c, err := judgeCopy(ctx, bed, h, cp.in, cp.out, cp.group, "cp-", cp.partitions)
	if err != nil {
		return err
	}
	f.CopierLost, f.CopierDuplicates, f.CopierBeyondCommit, f.Copied = c.lost, c.dup, c.beyond, c.copied
	f.Details = append(f.Details, c.details...)
	h.Reads = append(h.Reads, c.reads...)
	seenAt := c.seenAt
	cp.mu.Lock()
	defer cp.mu.Unlock()
	f.TxnUnknownCommitted += settleUnknown(h, cp.sends, cp.unknown, seenAt)
	return nil
}

// copyCounts is judgeCopy's verdict on a consume-transform-produce job.
type copyCounts struct {
	lost, dup, beyond, copied int
	details                   []string
	seenAt                    map[invariant.TP]map[int64]bool // offsets a read_committed reader saw
	reads                     []invariant.Read
}

// judgeCopy checks exactly-once for a job copying in to out (the same
// partition, value prefix+input value) committing its input offsets for
// group: every input record below group's committed offset is once in out
// as a read_committed reader sees it (lost, dup) and nothing else is
// (beyond). h's input logs must be filled.
func judgeCopy(ctx context.Context, bed *labtest.Bed, h *invariant.History, in, out, group, prefix string, partitions int32) (copyCounts, error) {
	c := copyCounts{seenAt: map[invariant.TP]map[int64]bool{}}
	offs, err := fetchGroupOffsets(ctx, bed, group)
	if err != nil {
		return c, err
	}
	inLogs := map[int32]invariant.Log{}
	for _, l := range h.Logs {
		if l.Topic == in {
			inLogs[l.Partition] = l
		}
	}
	for p := range partitions {
		r, err := readCommitted(ctx, bed, "observer-read-committed", out, p)
		if err != nil {
			return c, err
		}
		c.reads = append(c.reads, r)
		count := map[string]int{}
		at := map[int64]bool{}
		for _, rec := range r.Records {
			count[rec.ID]++
			at[rec.Offset] = true
		}
		c.seenAt[r.TP] = at
		want := map[string]bool{}
		co, ok := offs.Lookup(in, p)
		if !ok {
			return c, fmt.Errorf("copier group %s has no committed offset for %s[%d]", group, in, p)
		}
		for _, rec := range inLogs[p].Records {
			if rec.Offset >= co.At {
				break
			}
			id := prefix + rec.ID
			want[id] = true
			switch n := count[id]; {
			case n == 0:
				c.lost++
				if c.lost <= 5 {
					c.details = append(c.details, fmt.Sprintf("copier %s: input %s[%d] offset %d (%q) below the committed %d is not in the committed output", group, in, p, rec.Offset, rec.ID, co.At))
				}
			case n > 1:
				c.dup += n - 1
				if c.dup <= 5 {
					c.details = append(c.details, fmt.Sprintf("copier %s: %q is %d times in the committed output", group, id, n))
				}
			}
		}
		for id := range count {
			if !want[id] {
				c.beyond++
				if c.beyond <= 5 {
					c.details = append(c.details, fmt.Sprintf("copier %s: %q is in the committed output but its input is not below the committed offset %d", group, id, co.At))
				}
			}
		}
		c.copied += len(r.Records)
	}
	return c, nil
}

// settleUnknown settles the transactions in unknown in h by what a
// read_committed reader saw (seenAt): committed when it saw any of their
// acknowledged records, else aborted (the atomicity rule then demands all
// or none). It returns how many it settled committed.
func settleUnknown(h *invariant.History, sends []invariant.Send, unknown map[string]bool, seenAt map[invariant.TP]map[int64]bool) int {
	anySeen := map[string]bool{}
	for _, s := range sends {
		if unknown[s.Txn] && s.Acked && seenAt[s.TP][s.Offset] {
			anySeen[s.Txn] = true
		}
	}
	committed := 0
	for i := range h.Transactions {
		t := &h.Transactions[i]
		if !unknown[t.ID] {
			continue
		}
		if anySeen[t.ID] {
			t.Outcome = invariant.Committed
			committed++
		} else {
			t.Outcome = invariant.Aborted
		}
	}
	return committed
}
