package consumer

import (
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// partState is the consumer's state for one assigned partition. Every
// field is guarded by Consumer.mu (owned by no goroutine of its own); phase
// changes only through the transition methods below.
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
	// which the position is validated (phaseValidating) before fetching on.
	leaderEpoch int32
	// hint is the newer leader a Fetch response named with
	// NOT_LEADER_OR_FOLLOWER or FENCED_LEADER_EPOCH (KIP-951), used until
	// metadata shows that epoch; nil for none.
	hint *leaderHint
	// topicID is the topic ID the position belongs to: the one metadata
	// named when the partition was first fetched (zero before, or from a
	// broker without topic IDs). A different ID means the topic was
	// recreated; the position then restarts (topic_id.go).
	topicID wire.UUID
	// gone: metadata no longer lists the topic of topicID and the
	// deletion was reported; cleared when the partition is fetched again.
	gone bool

	phase  phase
	paused bool // orthogonal to phase: not fetched, not delivered
	// backoff: not fetched, validated or reset before this time (retriable
	// errors).
	backoff   time.Time
	resetSeen int64 // the position that failed, for the error under ResetNone
	// err is the stopped partition's error, reported once by Receive.
	err error

	// buf is the fetched, filtered records waiting for delivery: set in
	// phaseBuffered, and possibly in phaseStopped (the records before a
	// corrupt batch); nil in every other phase.
	buf *chunk

	// hwm and lso are the high watermark and last stable offset the
	// latest Fetch response listing the partition reported; -1 before.
	hwm, lso int64
	counts   *partCounts // the consumer's counters of tp, set at the first fetched chunk
}

// phase is where a partition is in the life of a fetch (see INTERNALS.md,
// "A fetch"). The zero value is phaseFetchable.
type phase uint8

const (
	// phaseFetchable: the fetch loop may list the partition in a Fetch
	// (once backoff has passed and unless paused).
	phaseFetchable phase = iota
	// phaseInFlight: listed in a Fetch in flight.
	phaseInFlight
	// phaseBuffered: a fetched chunk (buf) waits for Receive.
	phaseBuffered
	// phaseValidating: after a leader change the position is validated
	// with OffsetForLeaderEpoch (KIP-320) before fetching on.
	phaseValidating
	// phaseResetting: the position must be reset by policy (out of range,
	// truncation, unknown epoch); the fetch loop lists offsets and
	// installs the result.
	phaseResetting
	// phaseStopped: not fetched until a seek or reassignment (a ResetNone
	// out-of-range or truncation, a non-retriable partition error, corrupt
	// data); err is reported once by Receive, buf (if any) still delivered.
	phaseStopped
)

// fetchable reports whether the fetch loop may list the partition now.
func (p *partState) fetchable(now time.Time) bool {
	return !p.paused && p.phase == phaseFetchable && !now.Before(p.backoff)
}

// backingOff reports whether the partition is unpaused and waits only for
// its backoff to pass before the fetch loop acts on it (fetch, validate or
// reset).
func (p *partState) backingOff(now time.Time) bool {
	switch p.phase {
	case phaseFetchable, phaseValidating, phaseResetting:
		return !p.paused && p.backoff.After(now)
	}
	return false
}

// send: fetchable → in flight (listed in a Fetch).
func (p *partState) send() { p.phase = phaseInFlight }

// answered: in flight → fetchable (the Fetch's answer, or its failure,
// arrived; the per-partition outcome may move it on at once).
func (p *partState) answered() {
	if p.phase == phaseInFlight {
		p.phase = phaseFetchable
	}
}

// buffer: fetchable → buffered with ch (records to deliver).
func (p *partState) buffer(ch *chunk) {
	p.buf = ch
	p.phase = phaseBuffered
}

// delivered takes the buffered chunk for Receive: buffered → fetchable; a
// stopped partition stays stopped.
func (p *partState) delivered() *chunk {
	ch := p.buf
	p.buf = nil
	if p.phase == phaseBuffered {
		p.phase = phaseFetchable
	}
	return ch
}

// startValidation: fetchable → validating (leader change, KIP-320).
func (p *partState) startValidation() { p.phase = phaseValidating }

// validated: validating → fetchable (the position holds, or cannot be
// checked and Fetch's DivergingEpoch still guards it, or the caller moves
// it to the leader's end offset).
func (p *partState) validated() { p.phase = phaseFetchable }

// startReset: fetchable or validating → resetting; the current position
// is kept for the error under ResetNone.
func (p *partState) startReset() {
	p.phase = phaseResetting
	p.resetSeen = p.offset
}

// resetDone: resetting → fetchable (the caller installs the new position).
func (p *partState) resetDone() { p.phase = phaseFetchable }

// stop: any phase → stopped with err (nil: reported already or none);
// a buffered chunk stays to be delivered.
func (p *partState) stop(err error) {
	p.phase = phaseStopped
	p.err = err
}

// reposition: any phase → fetchable at a position set from outside the
// fetch path (a Fetch in flight for the old position is stale: its result
// is dropped by gen). It returns the dropped chunk, if any, for the
// caller's accounting.
func (p *partState) reposition(gen uint64, offset int64) *chunk {
	ch := p.buf
	p.gen, p.offset, p.lastEpoch = gen, offset, -1
	p.phase, p.err, p.buf = phaseFetchable, nil, nil
	p.backoff = time.Time{}
	return ch
}

// leaderHint is a partition's leader and leader epoch as a broker reported
// them in a Fetch response (CurrentLeader, KIP-951).
type leaderHint struct {
	Leader, Epoch int32
}

// charge is what the chunk counts against MaxBufferedBytes.
func (ch *chunk) charge() int64 { return ch.bytes + ch.slots }

// chunk is the deliverable result of one partition of one Fetch response.
type chunk struct {
	records   []Record
	next      int64 // position after delivery (past the last batch header)
	lastEpoch int32 // leader epoch of the last batch, -1 none
	bytes     int64 // records field plus decompressed bytes (metrics)
	slots     int64 // memory of the Record values: recordSize per record
	// blk is the block records were cut from (nil when empty); records
	// keeps the block's capacity beyond it, which tells Receive whether
	// the next chunk follows in memory.
	blk *recBlock
}
