package cases

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/testlab/invariant"
	"github.com/gregor-kafka/gregor/txn"
)

func init() { register(Case{Name: "eosOffsets", Order: 3, Run: eosOffsets}) }

// eosOffsets (case 3): an input partition holding two records, consumed by
// a classic group member (auto-commit off). "Output + offsets" (one output
// record and SendOffsets of input offset 2 with the member's GroupMetadata,
// KIP-447) in a transaction that aborts: franz-go sees no committed offset
// and no read_committed output. The same in a transaction that commits:
// committed offset 2 and exactly one output record.
func eosOffsets(ctx context.Context, e *Env) error {
	in := e.Bed.Topic(ctx, "lab-eos-in", 1, 3, nil)
	out := e.Bed.Topic(ctx, "lab-eos-out", 1, 3, nil)
	group := in + "-g"
	cl := e.Bed.Client(ctx, client.Config{RetryBackoff: 50 * time.Millisecond})
	h := &invariant.History{}
	if err := produceInputs(ctx, e, cl, h, in, "in0", "in1"); err != nil {
		return err
	}
	ms := newMembers(group, e.T.Logf)
	g, err := newMember(cl, ms, "m", group, in, consumer.ProtocolClassic, nil)
	if err != nil {
		return err
	}
	defer g.Close(context.Background())
	recs, err := receiveN(ctx, g, 2)
	if err != nil {
		return err
	}
	h.Reads = append(h.Reads, readOf("m", recs))
	tp, err := txn.New(cl, txn.Config{TransactionalID: in + "-tx", TransactionTimeout: 60 * time.Second})
	if err != nil {
		return err
	}
	defer tp.Close(context.Background())
	if err := tp.InitTransactions(ctx); err != nil {
		return fmt.Errorf("InitTransactions: %w", err)
	}
	offs := []txn.Offset{{Topic: in, Partition: 0, Offset: recs[len(recs)-1].Offset + 1}}
	attempt := func(id string, commit bool) error {
		if err := tp.Begin(); err != nil {
			return err
		}
		s, err := sendWait(ctx, tp.Send, "tx", id, out, 0, "out-"+id)
		if err != nil {
			return err
		}
		h.Sends = append(h.Sends, s)
		if err := tp.SendOffsets(ctx, offs, g.GroupMetadata()); err != nil {
			return fmt.Errorf("SendOffsets: %w", err)
		}
		if !commit {
			if err := tp.Abort(ctx); err != nil {
				return fmt.Errorf("Abort: %w", err)
			}
			h.Transactions = append(h.Transactions, invariant.Transaction{ID: id, Outcome: invariant.Aborted})
			return nil
		}
		if err := tp.Commit(ctx); err != nil {
			return fmt.Errorf("Commit: %w", err)
		}
		h.Transactions = append(h.Transactions, invariant.Transaction{ID: id, Outcome: invariant.Committed})
		return nil
	}
	if err := attempt("aborted", false); err != nil {
		return err
	}
	if got, err := committedOffset(ctx, e, group, in, 0); err != nil || got != -1 {
		return fmt.Errorf("committed offset after the aborted transaction: %d (error %v); want none", got, err)
	}
	rc, err := observe(ctx, e, "franz-rc-aborted", out, 0, true)
	if err != nil {
		return err
	}
	if len(rc.Records) != 0 {
		return fmt.Errorf("read_committed output after the abort: %v; want none", ids(rc.Records))
	}
	if err := attempt("committed", true); err != nil {
		return err
	}
	got, err := waitCommitted(ctx, e, group, in, 2)
	if err != nil {
		return err
	}
	h.Commits = append(h.Commits, invariant.Commit{Group: group, TP: invariant.TP{Topic: in}, Offset: got, At: time.Now()})
	rc2, err := waitCommittedRead(ctx, e, "franz-rc-committed", out, 1)
	if err != nil {
		return err
	}
	if got := ids(rc2.Records); !slices.Equal(got, []string{"out-committed"}) {
		return fmt.Errorf("read_committed output after the commit: %v; want [out-committed]", got)
	}
	e.T.Logf("after abort: no committed offset, output %v; after commit: committed offset %d, output %v", ids(rc.Records), got, ids(rc2.Records))
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	err = g.Close(cctx)
	cancel()
	if err != nil {
		return fmt.Errorf("member close: %w", err)
	}
	h.Assignments = ms.assignments()
	h.Reads = append(h.Reads, rc, rc2)
	for _, t := range []string{in, out} {
		l, err := readLog(ctx, e, t, 0)
		if err != nil {
			return err
		}
		h.Logs = append(h.Logs, l)
	}
	return checkHistory(h)
}

// waitCommitted waits (up to 30s) until franz-go sees group's committed
// offset of topic's partition 0 at want (the offsets of a committed
// transaction become visible when its markers are written).
func waitCommitted(ctx context.Context, e *Env, group, topic string, want int64) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		got, err := committedOffset(ctx, e, group, topic, 0)
		if err == nil && got == want {
			return got, nil
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return got, fmt.Errorf("committed offset of %s[0] is %d (error %v), not %d, after 30s", topic, got, err, want)
		}
	}
}
