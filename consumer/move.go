package consumer

import "github.com/gregor-kafka/gregor/wire"

// moveReason says why a partition's position moves (moveLocked).
type moveReason uint8

const (
	// moveSkipped: past batches with nothing to deliver (control, aborted
	// or compacted-away batches), or in place to the epoch of a
	// DivergingEpoch at or above the position; a Fetch in flight for the
	// partition stays valid.
	moveSkipped moveReason = iota
	// moveReset: the reset policy resolved a new position (out of range,
	// or an epoch the leader no longer knows).
	moveReset
	// moveTruncated: the leader's log diverged below the position (KIP-320:
	// a Fetch's DivergingEpoch or an OffsetForLeaderEpoch end offset).
	moveTruncated
	// moveSeek: set from outside the fetch path (Seek, Assign, Add); the
	// buffered records are dropped and the partition is fetched at once,
	// without waiting for a Fetch its broker holds (fetch_moved.go).
	moveSeek
)

// moveLocked is the one transition of a partition's position (st.offset)
// outside delivery (Receive advances it past what it delivered): to offset,
// with lastEpoch the leader epoch of the last batch before it (-1 unknown;
// for moveSkipped, -1 keeps the current one). Every move but moveSkipped
// starts a new gen, so a Fetch in flight for the old position is stale and
// its result for the partition is dropped on arrival; resets and
// truncations count in Metrics.OffsetResets.
func (c *Consumer) moveLocked(st *partState, offset int64, lastEpoch int32, why moveReason) {
	if why == moveSkipped {
		st.offset = offset
		if lastEpoch >= 0 {
			st.lastEpoch = lastEpoch
		}
		return
	}
	c.gen++
	if why == moveSeek {
		// A Fetch in flight for the old position is now stale; the
		// partition may be listed again at once.
		c.buffered -= st.reposition(c.gen, offset)
		// The new position is the topic's as metadata names it at the next
		// Fetch (a stopped partition of a recreated topic restarts there).
		st.topicID, st.gone, st.moved = wire.UUID{}, false, true
		c.progressedLocked()
		return
	}
	from := st.offset
	st.gen, st.offset, st.lastEpoch = c.gen, offset, lastEpoch
	st.decoding = nil // a response being decoded is for the old position
	c.m.OffsetResets++
	if why == moveReset {
		c.logger().Info("gregor: offset reset", "topic", st.tp.Topic, "partition", st.tp.Partition, "from", from, "to", offset, "policy", c.cfg.OffsetReset.String())
	}
}
