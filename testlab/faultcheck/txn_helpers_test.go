package faultcheck

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/testlab/invariant"
	"github.com/gregor-kafka/gregor/txn"
)

// pendingSend is a transactional send awaiting its terminal: its index in
// the workload's sends.
type pendingSend struct {
	idx int
	d   *producer.Delivery
}

// finishTxn sends the consumed positions next of topic (when any) with gm
// and commits, unless err already failed the transaction. It returns the
// outcome as the history records it (Open: unknown), when EndTxn was
// invoked and when it returned, and the error.
func finishTxn(ctx context.Context, p *txn.Producer, topic string, next map[int32]int64, gm consumer.GroupMetadata, err error) (invariant.Outcome, time.Time, time.Time, error) {
	if err == nil && len(next) > 0 {
		var offs []txn.Offset
		for part, o := range next {
			offs = append(offs, txn.Offset{Topic: topic, Partition: part, Offset: o})
		}
		err = p.SendOffsets(ctx, offs, gm)
	}
	endInvoked := time.Now()
	if err == nil {
		err = p.Commit(ctx)
	}
	end := time.Now()
	switch {
	case err == nil:
		return invariant.Committed, endInvoked, end, nil
	case errors.Is(err, txn.ErrCommitOutcomeUnknown):
		return invariant.Open, endInvoked, end, err
	}
	return invariant.Aborted, endInvoked, end, err
}

// awaitSends waits (30s at most: every delivery has its terminal once the
// transaction ended) for each pending send and records its completion and
// acknowledged offset in *sends, under mu.
func awaitSends(ctx context.Context, mu *sync.Mutex, sends *[]invariant.Send, ds []pendingSend) {
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for _, s := range ds {
		r, werr := s.d.Wait(wctx)
		mu.Lock()
		snd := &(*sends)[s.idx]
		if werr == nil {
			snd.Completed = time.Now()
		}
		if werr == nil && r.Err == nil {
			snd.Acked, snd.Offset = true, r.Offset
		}
		mu.Unlock()
	}
}

// readsOf groups recs by partition into Reads like base (reader,
// isolation, transaction, instants), in the order their partitions first
// appear. A Read Continues when cont holds its partition; cont then holds
// every partition read (the caller clears it on a seek or an assignment
// event). It also returns the next position of each partition.
func readsOf(recs []consumer.Record, base invariant.Read, cont map[invariant.TP]bool) ([]invariant.Read, map[int32]int64) {
	idx := map[invariant.TP]int{}
	var out []invariant.Read
	next := map[int32]int64{}
	for _, r := range recs {
		tp := invariant.TP{Topic: r.Topic, Partition: r.Partition}
		i, ok := idx[tp]
		if !ok {
			rd := base
			rd.TP, rd.From, rd.Continues = tp, r.Offset, cont[tp]
			i = len(out)
			idx[tp] = i
			out = append(out, rd)
		}
		out[i].Records = append(out[i].Records, invariant.LogRecord{Offset: r.Offset, ID: string(r.Value)})
		out[i].To = r.Offset + 1
		next[r.Partition] = r.Offset + 1
	}
	for tp := range idx {
		cont[tp] = true
	}
	return out, next
}

// endFailed ends a failed transaction until the producer *p can begin the
// next one: it aborts, re-initialises, or (ErrFatal, ErrFenced: recreated
// is told) re-creates the producer with replace, as the error says. A nil
// err needs nothing. It returns ctx's error if ctx ended first.
func endFailed(ctx context.Context, err error, p **txn.Producer, replace func(context.Context) error, recreated func(error)) error {
	for err != nil && ctx.Err() == nil {
		switch {
		case errors.Is(err, txn.ErrFatal) || errors.Is(err, txn.ErrFenced):
			recreated(err)
			err = replace(ctx)
		case errors.Is(err, txn.ErrNeedsInit):
			err = initTransactions(ctx, *p)
		default:
			err = (*p).Abort(ctx)
		}
	}
	return ctx.Err()
}

// sendInTxn hands rec to the transactional producer p and, once accepted,
// appends s (with its invocation instant) to *sends under mu; the returned
// pendingSend awaits its terminal (awaitSends).
func sendInTxn(ctx context.Context, p *txn.Producer, rec *producer.Record, s invariant.Send, mu *sync.Mutex, sends *[]invariant.Send) (pendingSend, error) {
	s.Invoked = time.Now()
	d, err := p.Send(ctx, rec)
	if err != nil {
		return pendingSend{}, err
	}
	mu.Lock()
	defer mu.Unlock()
	*sends = append(*sends, s)
	return pendingSend{len(*sends) - 1, d}, nil
}
