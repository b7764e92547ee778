package producer

import (
	"context"
	"time"

	"github.com/gregor-kafka/gregor/client"
)

// This file is the producer's side of Config.Transactional (package txn):
// the identity package txn obtains and the drain at a transaction's abort.

// setIdentity implements txnhook.Hooks.SetIdentity.
func (p *Producer) setIdentity(pid int64, epoch int16) {
	p.mu.Lock()
	p.ident.set(pid, epoch)
	p.walk = true
	p.mu.Unlock()
	p.wakeup()
}

// failHeld implements txnhook.Hooks.FailHeld: every record not in a
// ProduceRequest fails with err, now.
func (p *Producer) failHeld(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.draining = true
	p.failHeldLocked(err, false)
	p.draining = false
	p.walk = true
}

// drain implements txnhook.Hooks.Drain: it waits until no ProduceRequest is
// outstanding, failing with err every batch one returns for a retry (it
// would otherwise be written into the next transaction); then every
// partition restarts its sequence under the identity set next. Batches
// never handed to a request (the next transaction's, which package txn
// holds back until the abort ends) are left alone.
func (p *Producer) drain(ctx context.Context, err error) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.draining = true
	defer func() { p.draining, p.walk = false, true }()
	for {
		p.failHeldLocked(err, true)
		if p.totalInflight == 0 {
			for _, part := range p.parts {
				part.hasID, part.confirmed = false, false
				part.gap, part.gapUnknown, part.retry = false, false, false
				part.backoffUntil = time.Time{}
			}
			return nil
		}
		if p.idle == nil {
			p.idle = make(chan struct{})
		}
		idle := p.idle
		p.mu.Unlock()
		select {
		case <-idle:
			p.mu.Lock()
		case <-ctx.Done():
			p.mu.Lock()
			return ctxError(ctx)
		}
	}
}

// failHeldLocked fails every batch that is not in an outstanding
// ProduceRequest (only those handed to one before, when sentOnly), with the
// certainty its attempts leave, and (unless sentOnly) the records still
// waiting for their topic's partitions (NotSent).
func (p *Producer) failHeldLocked(err error, sentOnly bool) {
	for _, part := range p.parts {
		for i := 0; i < len(part.batches); i++ {
			b := part.batches[i]
			if b.inFlight() || (sentOnly && !b.handed) {
				continue
			}
			p.failBatchLocked(b, err, certaintyOf(b))
			p.removeBatchLocked(part, i)
			p.recycleLocked(b)
			i--
		}
	}
	if sentOnly {
		return
	}
	for _, t := range p.topics {
		if t.unassigned != nil {
			p.failBatchLocked(t.unassigned, err, client.NotSent)
			t.unassigned = nil
		}
	}
}
