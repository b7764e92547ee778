package consumer

import (
	"context"
	"log/slog"
	"time"

	"github.com/gregor-kafka/gregor"
)

// runResets resolves the positions of partitions whose reset policy fired
// (out of range) and installs them, or stops them under ResetNone.
func (c *Consumer) runResets() {
	c.mu.Lock()
	var ps []PartitionPosition
	gens := map[gregor.TopicPartition]uint64{}
	seen := map[gregor.TopicPartition]int64{}
	for _, tp := range c.order {
		st := c.parts[tp]
		if st.phase != phaseResetting || time.Now().Before(st.backoff) {
			continue
		}
		gens[tp] = st.gen
		seen[tp] = st.resetSeen
		switch c.cfg.OffsetReset {
		case ResetLatest:
			ps = append(ps, PartitionPosition{tp, AtEnd()})
		default: // earliest, and none (to name the log start in the error)
			ps = append(ps, PartitionPosition{tp, AtBeginning()})
		}
	}
	c.mu.Unlock()
	if len(ps) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(c.ctx, 30*time.Second)
	defer cancel()
	offsets, err := c.resolve(ctx, ps)
	var ends map[gregor.TopicPartition]int64
	if err == nil && c.cfg.OffsetReset == ResetNone {
		endPs := make([]PartitionPosition, len(ps))
		for i, p := range ps {
			endPs[i] = PartitionPosition{p.TopicPartition, AtEnd()}
		}
		ends, _ = c.resolve(ctx, endPs)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range ps {
		st := c.parts[p.TopicPartition]
		if st == nil || st.gen != gens[p.TopicPartition] || st.phase != phaseResetting {
			continue
		}
		if err != nil {
			st.backoff = time.Now().Add(retryBackoff)
			continue
		}
		if c.cfg.OffsetReset == ResetNone {
			end, ok := ends[p.TopicPartition]
			if !ok {
				end = -1
			}
			st.stop(&OffsetOutOfRangeError{p.TopicPartition, seen[p.TopicPartition], offsets[p.TopicPartition], end})
			c.signalLocked()
			continue
		}
		st.resetDone()
		c.gen++
		c.m.OffsetResets++
		st.gen = c.gen
		st.offset = offsets[p.TopicPartition]
		c.logger().Info("gregor: offset reset", "topic", p.Topic, "partition", p.Partition, "from", seen[p.TopicPartition], "to", st.offset, "policy", c.cfg.OffsetReset.String())
		st.lastEpoch = -1
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
