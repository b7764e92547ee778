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
	p.mu.Unlock()
	p.wakeup()
}

// drain implements txnhook.Hooks.Drain: records not in a ProduceRequest fail
// with err, and again after each outstanding request completes (a batch it
// returns for a retry would otherwise be written into the next
// transaction), until no request is outstanding; then every partition
// restarts its sequence under the identity set next.
func (p *Producer) drain(ctx context.Context, err error) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.draining = true
	defer func() { p.draining = false }()
	for {
		p.failHeldLocked(err)
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

// failHeldLocked fails every batch that is not in an outstanding ProduceRequest,
// with the certainty its attempts leave, and the records still waiting for
// their topic's partitions (NotSent).
func (p *Producer) failHeldLocked(err error) {
	for _, part := range p.parts {
		for i := 0; i < len(part.batches); i++ {
			b := part.batches[i]
			if b.inFlight() {
				continue
			}
			p.failBatchLocked(b, err, certaintyOf(b))
			p.removeBatchLocked(part, i)
			p.recycleLocked(b)
			i--
		}
	}
	for _, t := range p.topics {
		if t.unassigned != nil {
			p.failBatchLocked(t.unassigned, err, client.NotSent)
			t.unassigned = nil
		}
	}
}
