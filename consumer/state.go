package consumer

import (
	"time"

	"github.com/gregor-kafka/gregor"
)

// partState is the consumer's state for one assigned partition. It is
// guarded by Consumer.mu.
type partState struct {
	tp gregor.TopicPartition
	// offset is the position: the next offset to deliver (always exact;
	// Beginning and End are resolved before a partition is installed).
	offset int64
	// lastEpoch is the partition leader epoch of the last batch consumed,
	// sent as LastFetchedEpoch (KIP-320) so the leader can report a
	// diverging log; -1 when unknown (after a seek).
	lastEpoch int32
	// gen changes whenever the position is set from outside the fetch path
	// (assign, add, seek, reset); fetch results of an older gen are stale.
	gen uint64
	// leaderEpoch is the largest leader epoch metadata has named for the
	// partition (-1 none yet); a larger one means a leader change, after
	// which the position is validated (validate) before fetching on.
	leaderEpoch int32
	validate    bool
	// hint is the newer leader a Fetch response named with
	// NOT_LEADER_OR_FOLLOWER or FENCED_LEADER_EPOCH (KIP-951), used until
	// metadata shows that epoch; nil for none.
	hint *leaderHint

	paused   bool
	inflight bool      // listed in a Fetch in flight
	backoff  time.Time // not fetched before this time (retriable errors)
	// reset is set when the position must be reset by policy (out of range,
	// truncation); the fetch loop lists offsets and installs the result.
	reset     bool
	resetSeen int64 // the position that failed, for the error under ResetNone
	// stopped partitions are not fetched until a seek or reassignment: a
	// ResetNone out-of-range, a truncation under ResetNone, or a
	// non-retriable partition error. err is reported once by Receive.
	stopped bool
	err     error

	buf *chunk // fetched, filtered records waiting for delivery
}

// leaderHint is a partition's leader and leader epoch as a broker reported
// them in a Fetch response (CurrentLeader, KIP-951).
type leaderHint struct {
	Leader, Epoch int32
}

// chunk is the deliverable result of one partition of one Fetch response.
type chunk struct {
	records   []Record
	next      int64 // position after delivery (past the last batch header)
	lastEpoch int32 // leader epoch of the last batch, -1 none
	bytes     int64 // bytes charged against MaxBufferedBytes
	// blk is the block records were cut from (nil when empty); records
	// keeps the block's capacity beyond it, which tells Receive whether
	// the next chunk follows in memory.
	blk *recBlock
}

// fetchable reports whether the fetch loop may list the partition now.
func (p *partState) fetchable(now time.Time) bool {
	return !p.paused && !p.inflight && !p.stopped && !p.reset && !p.validate && p.buf == nil && !now.Before(p.backoff)
}
