package cases

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/testlab/invariant"
	"github.com/gregor-kafka/gregor/txn"
)

func init() { register(Case{Name: "producerFencing", Order: 7, Run: producerFencing}) }

// producerFencing (case 7): two transactional producers with one
// transactional ID. The old one writes "old" in an open transaction; the new
// one's InitTransactions fences it (and aborts that transaction); the old
// one's Commit fails with txn.ErrFenced. The new one writes "new" and
// commits; franz-go's read_committed view holds "new" only.
func producerFencing(ctx context.Context, e *Env) error {
	topic := e.Bed.Topic(ctx, "lab-fence", 1, 3, nil)
	id := topic + "-tx"
	cfg := txn.Config{TransactionalID: id, TransactionTimeout: 60 * time.Second}
	oldP, err := txn.New(e.Bed.Client(ctx, client.Config{RetryBackoff: 50 * time.Millisecond}), cfg)
	if err != nil {
		return err
	}
	defer oldP.Close(context.Background())
	newP, err := txn.New(e.Bed.Client(ctx, client.Config{RetryBackoff: 50 * time.Millisecond}), cfg)
	if err != nil {
		return err
	}
	defer newP.Close(context.Background())
	h := &invariant.History{}
	if err := oldP.InitTransactions(ctx); err != nil {
		return fmt.Errorf("old InitTransactions: %w", err)
	}
	if err := oldP.Begin(); err != nil {
		return err
	}
	s, err := sendWait(ctx, oldP.Send, "old", "old", topic, 0, "old")
	if err != nil {
		return err
	}
	h.Sends = append(h.Sends, s)
	if err := newP.InitTransactions(ctx); err != nil {
		return fmt.Errorf("new InitTransactions: %w", err)
	}
	cerr := oldP.Commit(ctx)
	if !errors.Is(cerr, txn.ErrFenced) {
		return fmt.Errorf("old producer's Commit after the new one's InitTransactions: %v; want txn.ErrFenced", cerr)
	}
	e.T.Logf("old producer's commit: %v", cerr)
	h.Transactions = append(h.Transactions, invariant.Transaction{ID: "old", Outcome: invariant.Aborted})
	if err := newP.Begin(); err != nil {
		return err
	}
	s, err = sendWait(ctx, newP.Send, "new", "new", topic, 0, "new")
	if err != nil {
		return err
	}
	h.Sends = append(h.Sends, s)
	if err := newP.Commit(ctx); err != nil {
		return fmt.Errorf("new Commit: %w", err)
	}
	h.Transactions = append(h.Transactions, invariant.Transaction{ID: "new", Outcome: invariant.Committed})
	rc, err := waitCommittedRead(ctx, e, "franz-rc", topic, 1)
	if err != nil {
		return err
	}
	if got := ids(rc.Records); !slices.Equal(got, []string{"new"}) {
		return fmt.Errorf("read_committed saw %v; want [new]", got)
	}
	h.Reads = append(h.Reads, rc)
	l, err := readLog(ctx, e, topic, 0)
	if err != nil {
		return err
	}
	h.Logs = append(h.Logs, l)
	return checkHistory(h)
}
