package producer

import (
	"context"
	"time"

	"github.com/gregor-kafka/gregor/client"
)

// autoResolveTimeout bounds one automatic resolution
// (Config.ResolvePossiblySent).
const autoResolveTimeout = 30 * time.Second

// heldBatch is a failed PossiblySent batch whose records wait for an
// automatic resolution before their terminal (Config.ResolvePossiblySent).
// Its records are out of their batch (which is recycled) but still count
// as active.
type heldBatch struct {
	o    *outcome // the terminal they get unless proof changes it
	recs []rec    // d and size of each held record
	off  []int32  // their offset deltas
}

// holdForResolveLocked takes b's live records out of b and resolves them in
// the background (called from failBatchLocked).
func (p *Producer) holdForResolveLocked(b *batch, o *outcome) {
	h := &heldBatch{o: o}
	delta := int32(0)
	for i := range b.recs {
		r := &b.recs[i]
		if r.cancelled {
			continue
		}
		if r.d != nil && !r.d.isTerminal() {
			r.d.b = nil // Cancel answers TooLate (see cancel)
			h.recs = append(h.recs, rec{d: r.d, size: r.size})
			h.off = append(h.off, delta)
			r.d = nil
		}
		delta++
	}
	if p.held == nil {
		p.held = map[*heldBatch]struct{}{}
	}
	p.held[h] = struct{}{}
	p.resolving.Add(1)
	go p.autoResolve(h)
}

// autoResolve resolves h and gives its records their terminal: Written
// ones are acknowledged at their offsets, NotWritten ones fail NotSent,
// the others keep h.o (PossiblySent).
func (p *Producer) autoResolve(h *heldBatch) {
	defer p.resolving.Done()
	ctx, cancel := context.WithTimeout(p.ctx, autoResolveTimeout)
	res, err := resolveIn(ctx, p.cl, h.o.topic, h.o.partition, h.o.sent)
	cancel()
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.held, h)
	o, ts := h.o, int64(-1)
	switch {
	case err != nil:
	case res.Verdict == Written:
		o = &outcome{topic: h.o.topic, partition: h.o.partition}
		if res.appendTime {
			ts = res.Timestamp.UnixMilli() // LogAppendTime; else each record keeps its create time
		}
	case res.Verdict == NotWritten:
		o = &outcome{topic: h.o.topic, partition: h.o.partition, err: h.o.err, cert: client.NotSent}
	}
	for i := range h.recs {
		off := int64(h.off[i]) // failed: the offset delta (see Delivery.result)
		if o.err == nil {
			off += res.Offset // res is for offset delta 0 (h.o.sent.OffsetDelta)
		}
		p.finishRecordLocked(&h.recs[i], o, off, ts)
	}
	p.admitWaitersLocked()
}

// heldDeliveriesLocked appends one Delivery per held batch (for Flush).
func (p *Producer) heldDeliveriesLocked(dst []*Delivery) []*Delivery {
	for h := range p.held {
		if len(h.recs) > 0 {
			dst = append(dst, h.recs[0].d)
		}
	}
	return dst
}
