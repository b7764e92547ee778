package consumer

import (
	"context"
	"fmt"
	"time"

	"github.com/gregor-kafka/gregor"

	"github.com/gregor-kafka/gregor/client"
)

// Progress is one assigned partition's position against the end of its log.
type Progress struct {
	gregor.TopicPartition
	// Position is the next offset Receive returns.
	Position int64
	// End is the offset after the last record the consumer may read now:
	// the partition's high watermark, or its last stable offset under
	// ReadCommitted, as the latest Fetch response listing the partition
	// reported it; -1 before the first such response.
	End int64
	// Lag is End minus Position in offsets (control records and aborted
	// transactions' records count), -1 while End is unknown.
	Lag int64
	// BufferedRecords is how many fetched records wait for Receive.
	BufferedRecords int
}

// AtEnd reports whether the partition has been read to its end: End is
// known and Receive has returned every record below it.
func (p Progress) AtEnd() bool { return p.End >= 0 && p.Position >= p.End }

// partCounts counts what Fetch responses brought for one partition over
// the consumer's life (kept across Remove and Assign). Guarded by c.mu.
type partCounts struct {
	records, bytes uint64
}

// countsLocked returns tp's counters, making them.
func (c *Consumer) countsLocked(tp gregor.TopicPartition) *partCounts {
	pc := c.counts[tp]
	if pc == nil {
		if c.counts == nil {
			c.counts = map[gregor.TopicPartition]*partCounts{}
		}
		pc = &partCounts{}
		c.counts[tp] = pc
	}
	return pc
}

// endLocked is the end of st's log the consumer may read (-1 unknown).
func (c *Consumer) endLocked(st *partState) int64 { return st.readEnd() }

func (c *Consumer) progressLocked(st *partState) Progress {
	p := Progress{TopicPartition: st.tp, Position: st.offset, End: c.endLocked(st), Lag: -1}
	if p.End >= 0 {
		p.Lag = max(p.End-p.Position, 0)
	}
	p.BufferedRecords = st.bufferedRecords()
	return p
}

// Progress returns every assigned partition's progress, in assignment
// order. It does no I/O.
func (c *Consumer) Progress() []Progress {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Progress, 0, len(c.order))
	for _, tp := range c.order {
		out = append(out, c.progressLocked(c.parts[tp]))
	}
	return out
}

// WaitEnd waits until each of tps (every assigned partition when tps is
// empty; with none assigned it returns nil at once) has been read to its
// end (Progress.AtEnd): Receive has returned
// every record below the partition's high watermark (last stable offset
// under ReadCommitted) as the latest Fetch response reported it. Records
// produced later move the end again; WaitEnd reports the first moment all
// listed partitions were at their ends together. It needs another
// goroutine calling Receive unless the partitions are at their end already.
// Errors: ErrNotAssigned when a listed partition is not (or no longer)
// assigned; client.ErrClosed; when ctx ends first, an error wrapping
// client.ErrTimeout or client.ErrCancelled.
func (c *Consumer) WaitEnd(ctx context.Context, tps ...gregor.TopicPartition) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		if c.closed {
			return client.ErrClosed
		}
		done, err := c.atEndLocked(tps)
		if done || err != nil {
			return err
		}
		if c.endCh == nil {
			c.endCh = make(chan struct{})
		}
		ch := c.endCh
		c.mu.Unlock()
		select {
		case <-ch:
		case <-c.closedCh:
		case <-ctx.Done():
			c.mu.Lock()
			return ctxError(ctx.Err())
		}
		c.mu.Lock()
	}
}

// atEndLocked reports whether every partition of tps (every assigned one
// when empty) is at its end.
func (c *Consumer) atEndLocked(tps []gregor.TopicPartition) (bool, error) {
	if len(tps) == 0 {
		tps = c.order
	}
	for _, tp := range tps {
		st := c.parts[tp]
		if st == nil {
			return false, fmt.Errorf("%w: %s", ErrNotAssigned, tp)
		}
		if !c.progressLocked(st).AtEnd() {
			return false, nil
		}
	}
	return true, nil
}

// progressedLocked wakes WaitEnd callers after a position or an end
// changed. It costs a nil check when none waits.
func (c *Consumer) progressedLocked() {
	if c.endCh != nil {
		close(c.endCh)
		c.endCh = nil
	}
}

// partitionMetrics appends the client.PartitionMetrics of every partition
// the consumer fetched or is assigned (RegisterPartitionMetrics source).
func (c *Consumer) partitionMetrics(dst []client.PartitionMetrics) []client.PartitionMetrics {
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	for tp, pc := range c.counts {
		if _, ok := c.parts[tp]; ok {
			continue
		}
		dst = append(dst, client.PartitionMetrics{Topic: tp.Topic, Partition: tp.Partition, FetchedRecords: pc.records, FetchedBytes: pc.bytes,
			HighWatermark: -1, LastStableOffset: -1, Position: -1, Lag: -1})
	}
	for _, tp := range c.order {
		st := c.parts[tp]
		p := c.progressLocked(st)
		m := client.PartitionMetrics{Topic: tp.Topic, Partition: tp.Partition, HighWatermark: st.hwm, LastStableOffset: st.lso,
			Position: p.Position, Lag: p.Lag, BufferedRecords: p.BufferedRecords}
		m.BufferedBytes = st.bufferedCharge()
		m.ReadReplica, m.FromFollower = st.replica.get(now)
		if pc := c.counts[tp]; pc != nil {
			m.FetchedRecords, m.FetchedBytes = pc.records, pc.bytes
		}
		dst = append(dst, m)
	}
	return dst
}
