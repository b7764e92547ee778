package consumer

import (
	"context"
	"math"
	"slices"
	"unsafe"

	"github.com/gregor-kafka/gregor/client"
)

// Receive waits for the next records and returns the records buffered for
// unpaused partitions at that moment (of each partition, those of its
// oldest undelivered Fetch response; records fetched ahead behind them
// come with the next call), partition by partition in offset order (records that arrived in one Fetch response keep the response's
// partition order; otherwise partitions rotate between calls for
// fairness). Delivered records advance each partition's position past the
// batches they came from. The application owns the returned slice and the
// bytes its records point to; it may hand them back with Recycle when done
// with them, so that later fetches reuse their memory.
//
// Errors: a partition that stopped (*OffsetOutOfRangeError or
// *LogTruncationError under ResetNone, *PartitionError) is reported once,
// before any records; so is a *TopicIDChangedError when an assigned
// partition's topic was deleted or recreated (a notice: the consumer goes
// on); when ctx ends first, an error wrapping
// client.ErrTimeout (deadline) or client.ErrCancelled together with the
// context's error; client.ErrClosed when the consumer or its client is or
// becomes closed.
// Receive never returns an empty batch with a nil error.
func (c *Consumer) Receive(ctx context.Context) ([]Record, error) {
	for {
		c.mu.Lock()
		if c.closed || c.clientClosed() {
			c.mu.Unlock()
			return nil, client.ErrClosed
		}
		recs, err := c.takeLocked()
		if err != nil || len(recs) > 0 {
			c.mu.Unlock()
			if len(recs) > 0 {
				c.poke() // buffer room and partitions without data: fetch again
			}
			return recs, err
		}
		w := c.waitLocked()
		c.mu.Unlock()
		var done error
		select {
		case <-w:
		case <-c.closedCh:
			done = client.ErrClosed
		case <-c.clientDone:
			done = client.ErrClosed
		case <-ctx.Done():
			done = ctxError(ctx.Err())
		}
		c.mu.Lock()
		c.unwaitLocked(w)
		c.mu.Unlock()
		if done != nil {
			return nil, done
		}
	}
}

// clientClosed reports whether the client was closed.
func (c *Consumer) clientClosed() bool {
	select {
	case <-c.clientDone:
		return true
	default:
		return false
	}
}

// waitLocked registers a waiting Receive: signalLocked sends on the
// returned channel (reused across calls, so waiting allocates nothing in
// steady state).
func (c *Consumer) waitLocked() chan struct{} {
	var w chan struct{}
	if k := len(c.idleWait); k > 0 {
		w = c.idleWait[k-1]
		c.idleWait = c.idleWait[:k-1]
	} else {
		w = make(chan struct{}, 1)
	}
	c.waiters = append(c.waiters, w)
	return w
}

// unwaitLocked forgets w (if no signal did) and keeps it, drained, for the
// next wait.
func (c *Consumer) unwaitLocked(w chan struct{}) {
	if i := slices.Index(c.waiters, w); i >= 0 {
		c.waiters = slices.Delete(c.waiters, i, i+1)
	}
	select {
	case <-w:
	default:
	}
	c.idleWait = append(c.idleWait, w)
}

// takeLocked returns a pending partition error, or the deliverable
// records, advancing positions.
func (c *Consumer) takeLocked() ([]Record, error) {
	if len(c.notices) > 0 {
		err := c.notices[0]
		c.notices[0] = nil
		c.notices = c.notices[1:]
		return nil, err
	}
	n := len(c.order)
	for i := range n {
		st := c.parts[c.order[(c.rotate+i)%n]]
		if st.err != nil {
			err := st.err
			st.err = nil
			return nil, err
		}
	}
	// The chunks to deliver, in rotation order. Records of one Fetch
	// response sit one partition after the other in one block: when the
	// chunks to deliver form one run of memory they are delivered as that
	// run, without a copy (in the response's partition order); otherwise
	// they are copied into one slice of the right size.
	take := c.take[:0]
	total := 0
	for i := range n {
		st := c.parts[c.order[(c.rotate+i)%n]]
		if st.paused || st.buf == nil {
			continue
		}
		take = append(take, st)
		total += len(st.buf.records)
	}
	c.take = take
	if n > 0 {
		c.rotate = (c.rotate + 1) % n
	}
	if len(take) == 0 {
		return nil, nil
	}
	var out []Record
	var p pin
	if first, ok := contiguous(take); ok {
		out = first.records[:total:total]
		p.key = first.blk
	} else {
		p.merged = c.blocks.get(total, false, 0, math.MaxInt64)
		out = p.merged.recs[:0:total]
		p.key = p.merged
	}
	for i, st := range take {
		b := st.delivered()
		take[i] = nil
		c.buffered -= b.charge()
		c.m.RecordsDelivered += uint64(len(b.records))
		c.m.BytesDelivered += uint64(b.bytes)
		st.offset = b.next
		if b.lastEpoch >= 0 {
			st.lastEpoch = b.lastEpoch
		}
		if p.merged != nil {
			out = append(out, b.records...)
		}
		if b.blk != nil {
			p.add(b.blk)
			b.blk.loosen()
		}
		*b = chunk{} // the block's slab must not keep the records alive
	}
	if p.merged != nil {
		p.merged.loosen()
	}
	p.first = uintptr(unsafe.Pointer(&out[0]))
	c.pins.put(p)
	c.progressedLocked()
	return out, nil
}

// contiguous reports whether the chunks of take lie one after the other in
// one run of memory (in some order), and returns the first of them. Chunks
// cut from one block never overlap (each is its own part of blk.recs, at
// chunk.at), so they form one run exactly when the span from the lowest
// start to the highest end holds no more than their records; O(len(take)).
func contiguous(take []*partState) (*chunk, bool) {
	first := take[0].buf
	if len(take) == 1 {
		return first, true
	}
	blk := first.blk
	total, end := 0, 0
	for _, st := range take {
		ch := st.buf
		if ch.blk != blk || blk == nil {
			return nil, false
		}
		total += len(ch.records)
		if ch.at < first.at {
			first = ch
		}
		end = max(end, ch.at+len(ch.records))
	}
	return first, end-first.at == total
}
