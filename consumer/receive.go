package consumer

import (
	"context"

	"github.com/gregor-kafka/gregor/client"
)

// Receive waits for the next records and returns every record buffered for
// unpaused partitions at that moment, partition by partition in offset
// order (partitions rotate between calls for fairness). Delivered records
// advance each partition's position past the batches they came from.
//
// Errors: a partition that stopped (*OffsetOutOfRangeError or
// *LogTruncationError under ResetNone, *PartitionError) is reported once,
// before any records; when ctx ends first, an error wrapping
// client.ErrTimeout (deadline) or client.ErrCancelled together with the
// context's error; client.ErrClosed when the consumer is or becomes closed.
// Receive never returns an empty batch with a nil error.
func (c *Consumer) Receive(ctx context.Context) ([]Record, error) {
	for {
		c.mu.Lock()
		if c.closed {
			c.mu.Unlock()
			return nil, client.ErrClosed
		}
		recs, err := c.takeLocked()
		ready := c.ready
		c.mu.Unlock()
		if err != nil || len(recs) > 0 {
			if len(recs) > 0 {
				c.poke() // buffer room and partitions without data: fetch again
			}
			return recs, err
		}
		select {
		case <-ready:
		case <-c.closedCh:
			return nil, client.ErrClosed
		case <-ctx.Done():
			return nil, ctxError(ctx.Err())
		}
	}
}

// takeLocked returns a pending partition error, or the deliverable
// records, advancing positions.
func (c *Consumer) takeLocked() ([]Record, error) {
	n := len(c.order)
	for i := range n {
		st := c.parts[c.order[(c.rotate+i)%n]]
		if st.err != nil {
			err := st.err
			st.err = nil
			return nil, err
		}
	}
	// Size the result once: with several partitions buffered, growing it by
	// append copied every record about twice (bench/RESULTS.md, consumer
	// hot spot 1). A single partition's records are returned as they are.
	total, parts := 0, 0
	for _, tp := range c.order {
		if st := c.parts[tp]; !st.paused && st.buf != nil {
			total += len(st.buf.records)
			parts++
		}
	}
	var out []Record
	if parts > 1 {
		out = make([]Record, 0, total)
	}
	for i := range n {
		st := c.parts[c.order[(c.rotate+i)%n]]
		if st.paused || st.buf == nil {
			continue
		}
		b := st.buf
		st.buf = nil
		c.buffered -= b.bytes
		c.m.RecordsDelivered += uint64(len(b.records))
		c.m.BytesDelivered += uint64(b.bytes)
		st.offset = b.next
		if b.lastEpoch >= 0 {
			st.lastEpoch = b.lastEpoch
		}
		if parts == 1 {
			out = b.records
		} else {
			out = append(out, b.records...)
		}
	}
	if n > 0 {
		c.rotate = (c.rotate + 1) % n
	}
	return out, nil
}
