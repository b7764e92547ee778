package cases

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/testlab/invariant"
	"github.com/gregor-kafka/gregor/txn"
)

func init() { register(Case{Name: "transactionVisibility", Order: 2, Run: transactionVisibility}) }

// transactionVisibility (case 2): one partition, RF 3. A transactional
// producer writes "aborted" and aborts, then writes "open" in a transaction
// it leaves open; a plain idempotent producer then writes "plain". franz-go
// as the observer: read_committed sees nothing (no aborted record, nothing
// at or past the open transaction: the last stable offset stops before
// "open"), read_uncommitted sees all three. After the open transaction
// commits, read_committed sees "open" and "plain" only.
func transactionVisibility(ctx context.Context, e *Env) error {
	topic := e.Bed.Topic(ctx, "lab-txnvis", 1, 3, nil)
	cl := e.Bed.Client(ctx, client.Config{RetryBackoff: 50 * time.Millisecond})
	tp, err := txn.New(cl, txn.Config{TransactionalID: topic + "-tx", TransactionTimeout: 60 * time.Second})
	if err != nil {
		return err
	}
	defer tp.Close(context.Background())
	pp, err := producer.New(cl, producer.Config{})
	if err != nil {
		return err
	}
	defer pp.Close(context.Background())
	if err := tp.InitTransactions(ctx); err != nil {
		return fmt.Errorf("InitTransactions: %w", err)
	}
	h := &invariant.History{}
	add := func(s invariant.Send, err error) error {
		if err == nil {
			h.Sends = append(h.Sends, s)
		}
		return err
	}
	if err := tp.Begin(); err != nil {
		return err
	}
	if err := add(sendWait(ctx, tp.Send, "tx", "t1", topic, 0, "aborted")); err != nil {
		return err
	}
	if err := tp.Abort(ctx); err != nil {
		return fmt.Errorf("Abort: %w", err)
	}
	h.Transactions = append(h.Transactions, invariant.Transaction{ID: "t1", Outcome: invariant.Aborted})
	if err := tp.Begin(); err != nil {
		return err
	}
	if err := add(sendWait(ctx, tp.Send, "tx", "t2", topic, 0, "open")); err != nil {
		return err
	}
	if err := add(sendWait(ctx, pp.Send, "plain", "", topic, 0, "plain")); err != nil {
		return err
	}
	openAt := h.Sends[1].Offset

	rc, err := observe(ctx, e, "franz-rc-open", topic, 0, true)
	if err != nil {
		return err
	}
	if rc.To != openAt || len(rc.Records) != 0 {
		return fmt.Errorf("read_committed with a transaction open at %d: read [%d, %d) = %v; want end %d and no records", openAt, rc.From, rc.To, ids(rc.Records), openAt)
	}
	ru, err := observe(ctx, e, "franz-ru", topic, 0, false)
	if err != nil {
		return err
	}
	if got := ids(ru.Records); !slices.Equal(got, []string{"aborted", "open", "plain"}) {
		return fmt.Errorf("read_uncommitted saw %v; want [aborted open plain]", got)
	}
	if err := tp.Commit(ctx); err != nil {
		return fmt.Errorf("Commit: %w", err)
	}
	h.Transactions = append(h.Transactions, invariant.Transaction{ID: "t2", Outcome: invariant.Committed})
	rc2, err := waitCommittedRead(ctx, e, "franz-rc-done", topic, 2)
	if err != nil {
		return err
	}
	if got := ids(rc2.Records); !slices.Equal(got, []string{"open", "plain"}) {
		return fmt.Errorf("read_committed after the commit saw %v; want [open plain]", got)
	}
	e.T.Logf("read_committed while open: [%d, %d) %v; read_uncommitted %v; after commit %v", rc.From, rc.To, ids(rc.Records), ids(ru.Records), ids(rc2.Records))
	l, err := readLog(ctx, e, topic, 0)
	if err != nil {
		return err
	}
	h.Logs = append(h.Logs, l)
	h.Reads = append(h.Reads, rc, ru, rc2)
	return checkHistory(h)
}

// waitCommittedRead repeats a read_committed observation (up to 30s) until
// it holds at least n records: the commit markers are written just after
// EndTxn is answered.
func waitCommittedRead(ctx context.Context, e *Env, reader, topic string, n int) (invariant.Read, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		r, err := observe(ctx, e, reader, topic, 0, true)
		if err == nil && len(r.Records) >= n {
			return r, nil
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return r, fmt.Errorf("read_committed of %s: %d records (error %v), want %d, after 30s", topic, len(r.Records), err, n)
		}
	}
}
