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
	// retiredID is the topic ID the partition left when it restarted in a
	// recreated topic (zero: none): metadata still naming it is stale (a
	// broker that has not seen the recreation yet), not a change back.
	retiredID wire.UUID
	// gone: metadata no longer lists the topic of topicID and the
	// deletion was reported; cleared when the partition is fetched again.
	gone bool
	// job: a reset or validation job (jobs.go) for the current phase and
	// gen is running; the fetch loop starts no second one. Cleared when its
	// result is applied or the position moves from outside.
	job bool
	// moved: the position was set from outside the fetch path (Seek,
	// Assign, Add, Resume) and the partition has not been listed in a Fetch
	// of its broker's session since: while that broker holds a Fetch, it is
	// fetched at once in a sessionless one instead (fetch_moved.go).
	moved bool
	// twin: the partition's side when its broker's partitions are split
	// between two fetch sessions (fetch_twin.go), alternating in
	// assignment order.
	twin bool

	phase phase
	// flight is the Fetch the partition is listed in while phaseInFlight
	// (nil otherwise): only its answer moves it on (answered).
	flight *fetchReq
	// decoding is the Fetch whose response for the partition is being
	// decoded after an early answer (fetch_early.go), nil otherwise; the
	// partition is then fetched on from early (fetchPos) until that
	// response's result is applied.
	decoding *fetchReq
	early    earlyEnd
	paused   bool // orthogonal to phase: not fetched, not delivered
	// backoff: not fetched, validated or reset before this time (retriable
	// errors).
	backoff   time.Time
	resetSeen int64 // the position that failed, for the error under ResetNone
	// err is the stopped partition's error, reported once by Receive.
	err error

	// buf is the oldest fetched, filtered records waiting for delivery,
	// ahead the next ones (fetched from buf.next while buf waited, the
	// fetch ahead); nil for none. Buffering is orthogonal to the phase: a
	// partition with buf and no ahead may be fetched again from buf.next
	// (fetchPos), so the next Fetch goes out while buf is delivered and
	// processed. A stopped partition may keep buf (the records before a
	// corrupt batch). noAhead holds the fetch ahead after a response that
	// was not plain records (an error, a diverging epoch, corrupt data):
	// the partition is fetched again only from its delivered position,
	// where the answer is handled as without buffered records.
	buf, ahead *chunk
	noAhead    bool

	// hwm and lso are the high watermark and last stable offset the
	// latest Fetch response listing the partition reported; -1 before.
	hwm, lso int64
	// readCommitted: the consumer reads read_committed, so the log end it
	// may read is lso (readEnd); set at creation.
	readCommitted bool
	counts        *partCounts // the consumer's counters of tp, set at the first fetched chunk
	// replica is the preferred read replica the partition is fetched from
	// instead of its leader (KIP-392, read_replica.go).
	replica readReplica
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

// fetchable reports whether the fetch loop may list the partition now: at
// most one Fetch is in flight for it and at most two chunks are buffered
// (buf, and ahead from a fetch ahead). It is fetched ahead only while the
// log is known to hold more that the consumer may read (buf ends below
// readEnd: the high watermark, or under read_committed the last stable
// offset, which an open transaction holds below it): a fetch
// ahead at the log end would only wait at the broker (MaxWait), holding the
// leader's one Fetch in flight, and a Seek after delivery behind it.
func (p *partState) fetchable(now time.Time) bool {
	return !p.paused && p.phase == phaseFetchable && !now.Before(p.backoff) &&
		(p.buf == nil || (p.ahead == nil && !p.noAhead && p.buf.next < p.readEnd()))
}

// readEnd is the end of the log the consumer may read: the last stable
// offset under read_committed (once known), else the high watermark; -1
// before a Fetch answered.
func (p *partState) readEnd() int64 {
	if p.readCommitted && p.lso >= 0 {
		return p.lso
	}
	return p.hwm
}

// fetchPos is where the next Fetch of the partition starts, with the
// leader epoch of the last batch fetched (LastFetchedEpoch, KIP-320): past
// the buffered records, or the position when none are buffered.
func (p *partState) fetchPos() (offset int64, lastEpoch int32) {
	if p.decoding != nil {
		if p.early.epoch >= 0 {
			return p.early.next, p.early.epoch
		}
		return p.early.next, p.lastEpoch
	}
	if p.buf == nil {
		return p.offset, p.lastEpoch
	}
	if p.buf.lastEpoch >= 0 {
		return p.buf.next, p.buf.lastEpoch
	}
	return p.buf.next, p.lastEpoch
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

// send: fetchable → in flight (listed in Fetch req).
func (p *partState) send(req *fetchReq) { p.phase, p.flight = phaseInFlight, req }

// answered: in flight in req → fetchable (req's answer, or its failure,
// arrived; the per-partition outcome may move it on at once). An answer of
// another Fetch than the one the partition is in (after an early answer it
// may be in the next) changes nothing.
func (p *partState) answered(req *fetchReq) {
	if p.phase == phaseInFlight && p.flight == req {
		p.phase, p.flight = phaseFetchable, nil
	}
}

// decodedFrom: in flight in req → fetchable from e while req's response
// is decoded (an early answer, fetch_early.go); the caller checked that
// both buffer slots are free.
func (p *partState) decodedFrom(req *fetchReq, e earlyEnd) {
	p.phase, p.flight, p.decoding, p.early = phaseFetchable, nil, req, e
}

// fetchedAt reports whether a Fetch from offset continues the partition
// (fetchPos); an answer for another offset is stale.
func (p *partState) fetchedAt(offset int64) bool {
	pos, _ := p.fetchPos()
	return pos == offset
}

// buffer queues ch (records to deliver) behind what is buffered.
func (p *partState) buffer(ch *chunk) {
	if p.buf == nil {
		p.buf = ch
	} else {
		p.ahead = ch
	}
}

// delivered takes the oldest buffered chunk for Receive; the fetched-ahead
// one, if any, moves up, and the partition may be fetched ahead again.
func (p *partState) delivered() *chunk {
	ch := p.buf
	p.buf, p.ahead, p.noAhead = p.ahead, nil, false
	return ch
}

// bufferedCharge and bufferedRecords are the buffered chunks' charge
// against MaxBufferedBytes and their record count.
func (p *partState) bufferedCharge() int64 {
	var n int64
	for _, ch := range [2]*chunk{p.buf, p.ahead} {
		if ch != nil {
			n += ch.charge()
		}
	}
	return n
}

func (p *partState) bufferedRecords() int {
	n := 0
	for _, ch := range [2]*chunk{p.buf, p.ahead} {
		if ch != nil {
			n += len(ch.records)
		}
	}
	return n
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
// fetch path (a Fetch in flight for the old position is stale: its result is
// dropped by gen). It drops the buffered chunks and returns their charge,
// for the caller's accounting.
func (p *partState) reposition(gen uint64, offset int64) int64 {
	dropped := p.bufferedCharge()
	p.gen, p.offset, p.lastEpoch = gen, offset, -1
	p.phase, p.err, p.buf, p.ahead, p.noAhead = phaseFetchable, nil, nil, nil, false
	p.flight, p.decoding = nil, nil
	p.backoff, p.job = time.Time{}, false
	return dropped
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
	// blk is the block records were cut from (nil when empty), at the
	// index in blk.recs where they start; records keeps the block's
	// capacity beyond it, so that chunks next to each other in the block
	// are delivered as one slice (Receive, contiguous).
	blk *recBlock
	at  int
}
