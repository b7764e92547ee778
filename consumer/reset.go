package consumer

import (
	"context"
	"log/slog"
	"time"

	"github.com/gregor-kafka/gregor"
)

// resetJob resolves the positions of partitions whose reset policy fired
// (out of range, an unknown epoch) with ListOffsets, and returns the
// function that installs them (or stops the partitions under ResetNone) in
// the fetch loop.
func (c *Consumer) resetJob(ctx context.Context, parts []jobPart) func() {
	ps := make([]PartitionPosition, len(parts))
	for i, jp := range parts {
		ps[i] = PartitionPosition{jp.tp, AtBeginning()} // earliest, and none (to name the log start in the error)
		if c.cfg.OffsetReset == ResetLatest {
			ps[i].Position = AtEnd()
		}
	}
	offsets, err := c.resolve(ctx, ps)
	var ends map[gregor.TopicPartition]int64
	if err == nil && c.cfg.OffsetReset == ResetNone {
		endPs := make([]PartitionPosition, len(ps))
		for i, p := range ps {
			endPs[i] = PartitionPosition{p.TopicPartition, AtEnd()}
		}
		ends, _ = c.resolve(ctx, endPs)
	}
	return func() { c.applyResets(parts, offsets, ends, err) }
}

// applyResets installs a reset job's result: each partition still
// resetting at the job's gen moves to its resolved offset, stops under
// ResetNone, or backs off and resets again after a failure.
func (c *Consumer) applyResets(parts []jobPart, offsets, ends map[gregor.TopicPartition]int64, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, jp := range parts {
		st := c.jobPartLocked(jp)
		if st == nil || st.phase != phaseResetting {
			continue
		}
		if err != nil {
			st.backoff = time.Now().Add(retryBackoff)
			continue
		}
		if c.cfg.OffsetReset == ResetNone {
			end, ok := ends[jp.tp]
			if !ok {
				end = -1
			}
			st.stop(&OffsetOutOfRangeError{jp.tp, jp.offset, offsets[jp.tp], end})
			c.signalLocked()
			continue
		}
		st.resetDone()
		c.moveLocked(st, offsets[jp.tp], -1, moveReset)
	}
}

// logger returns the client's logger, or a discarding one for a consumer
// on a test cluster.
func (c *Consumer) logger() *slog.Logger {
	if c.log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return c.log
}
