package consumer

import (
	"errors"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// handleResult applies a finished Fetch: session bookkeeping (the
// session's lane), then each partition's data or error.
//
// The lane's fetchReq is free for the next Fetch afterwards; one whose
// transport call failed is dropped instead (an abandoned response may still
// be read into it).
func (c *Consumer) handleResult(fs *fetchState, r *fetchResult) {
	req := r.req
	s := fs.sessions[req.sessionLane()]
	now := time.Now()
	req.busy = false
	if r.err != nil {
		delete(fs.reqs, reqSlot{req.lane(), req.slot})
	}
	if r.spare != nil {
		defer c.blocks.put(r.spare) // after the chunks cut from its slab are read
	}
	// The leader's reused request must not keep this response's blocks
	// reachable (through their chunks) after they are delivered and
	// recycled, until its next Fetch.
	defer clear(r.chunks)
	defer req.forgetRecords()

	topErr := r.err
	if topErr == nil {
		topErr = r.resp.Err
	}
	if topErr != nil && !isSessionErr(topErr) {
		c.cl.InvalidateMetadata()
	}
	switch {
	case req.side: // sessionless: no session to update
	case req.sessionDone: // by the early answer
	case topErr != nil:
		s.failed()
	default:
		s.succeeded(req.plan, r.resp.SessionID)
	}
	if r.resp != nil && r.resp.ThrottleMs > 0 && s != nil && !req.sessionDone {
		s.throttledUntil = now.Add(time.Duration(r.resp.ThrottleMs) * time.Millisecond)
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	if c.inflight[req.lane()] == req {
		delete(c.inflight, req.lane())
	}
	c.fetchFailedLocked(req.node, r.err) // KIP-392: back to the leaders
	if topErr != nil {
		c.m.FetchFailures++
	}
	c.reserved -= req.reserved
	if req.side && topErr == nil {
		fs.indexAnswers(r.resp)
		defer clear(fs.answers)
	}
	for tp, gen := range req.gens {
		st := c.parts[tp]
		if st != nil && st.decoding == req {
			st.decoding = nil // its chunk is buffered below (or its end was not reached: fetchedAt)
		}
		if st != nil && st.gen == gen {
			st.answered(req)
			if req.side {
				records := r.chunks[tp] != nil && len(r.chunks[tp].records) > 0
				p := fs.answers[tp] // nil when the Fetch failed as a whole
				endMoveLocked(st, records || redirectsLocked(st, p, req.node, now) || behindLocked(st, p, req.want[tp].FetchOffset))
			}
			if topErr != nil && !isSessionErr(topErr) {
				st.backoff = now.Add(retryBackoff)
			}
		}
	}
	if topErr != nil || c.closed {
		return
	}
	signal := false
	invalidate := false
	for i := range r.resp.Parts {
		p := &r.resp.Parts[i]
		gen, ok := req.gens[p.TopicPartition]
		st := c.parts[p.TopicPartition]
		if !ok || st == nil || st.gen != gen || !st.fetchedAt(req.want[p.TopicPartition].FetchOffset) {
			continue // unassigned, repositioned or not asked for: stale
		}
		if c.readReplicaAnswerLocked(st, p, now) {
			continue // KIP-392: fetched from the leader next
		}
		if p.Err == nil {
			st.hwm, st.lso = p.HighWatermark, p.LastStableOffset
		}
		if st.buf != nil && c.aheadOnly(st, p, r) {
			continue
		}
		switch {
		case p.Err != nil:
			switch c.partitionErrorAction(p.Err) {
			case actRetry:
				if h := p.Leader; h != nil && h.Epoch > st.leaderEpoch && (st.hint == nil || *st.hint != *h) && (errors.Is(p.Err, wire.ErrNotLeaderOrFollower) || errors.Is(p.Err, wire.ErrFencedLeaderEpoch)) {
					// KIP-951: the broker named the newer leader; go
					// there at once, without a metadata round trip. (The
					// same hint twice: it did not help; refresh.)
					st.hint = h
					c.m.LeaderHints++
					c.logger().Info("gregor: leader hint", "topic", p.Topic, "partition", p.Partition, "leader", h.Leader, "epoch", h.Epoch, "reason", p.Err)
					c.poke()
					continue
				}
				invalidate = true
				st.backoff = now.Add(retryBackoff)
			case actReset:
				st.startReset()
				c.poke()
			case actStop:
				st.stop(&PartitionError{p.TopicPartition, p.Err})
				signal = true
			}
		case p.Diverging != nil && p.Diverging.EndOffset < st.offset:
			// KIP-320: the leader's log diverged below our position.
			if c.cfg.OffsetReset == ResetNone {
				st.stop(&LogTruncationError{p.TopicPartition, st.offset, p.Diverging.EndOffset, p.Diverging.Epoch})
				signal = true
			} else {
				c.moveLocked(st, p.Diverging.EndOffset, p.Diverging.Epoch, moveTruncated)
			}
		case p.Diverging != nil:
			// The leader's log diverged at or above the position: the
			// position stays and takes the leader's epoch (transport.go
			// keeps only a DivergingEpoch with epoch >= 0).
			c.moveLocked(st, st.offset, p.Diverging.Epoch, moveSkipped)
		case r.errs[p.TopicPartition] != nil:
			// Corrupt data: the records before it are delivered (after the
			// error), then the partition stops at the corrupt batch until
			// a seek moves past it.
			if ch := r.chunks[p.TopicPartition]; ch != nil && len(ch.records) > 0 {
				st.buffer(ch)
				c.buffered += ch.charge()
				c.countFetchedLocked(st, ch)
			}
			st.stop(&PartitionError{p.TopicPartition, r.errs[p.TopicPartition]})
			signal = true
		default:
			ch := r.chunks[p.TopicPartition]
			if ch == nil {
				continue
			}
			if len(ch.records) == 0 {
				// Nothing deliverable (control or aborted batches, compacted
				// or empty): advance by the batch headers now.
				c.moveLocked(st, ch.next, ch.lastEpoch, moveSkipped)
				continue
			}
			st.buffer(ch)
			c.buffered += ch.charge()
			c.countFetchedLocked(st, ch)
			signal = true
		}
	}
	c.progressedLocked()
	if invalidate {
		c.m.MetadataRefreshes++
		c.cl.InvalidateMetadata()
	}
	if signal {
		c.signalLocked()
	}
}

type errAction int

const (
	actRetry errAction = iota
	actReset
	actStop
)

// partitionErrorAction is what a partition error of a FetchResponse makes
// the fetch loop do, from the classifier's action (wire.ErrorClass.Action):
// reset the position (OFFSET_OUT_OF_RANGE); retry after a backoff
// (whether the leader must be looked up again is asked of the code
// separately); stop the partition for anything fatal (and for a rejoin
// code, which a Fetch does not answer).
func (c *Consumer) partitionErrorAction(err error) errAction {
	switch wire.Classify(err).Action() {
	case wire.ActionResetOffset:
		return actReset
	case wire.ActionRetry, wire.ActionRefreshMetadata, wire.ActionFindCoordinator:
		return actRetry
	}
	return actStop
}

// isSessionErr reports top-level errors that only mean the fetch session is
// gone (KIP-227); the next request is full and nothing else changes.
func isSessionErr(err error) bool {
	return errors.Is(err, wire.ErrFetchSessionIDNotFound) ||
		errors.Is(err, wire.ErrInvalidFetchSessionEpoch) ||
		errors.Is(err, wire.ErrFetchSessionTopicIDError)
}

// aheadOnly handles the answer for a partition fetched ahead (records
// still buffered, st.buf) and reports whether it did: records with nothing
// deliverable advance the buffered chunk's end; any other answer than
// records (an error, a diverging epoch, corrupt data) holds the fetch
// ahead, so that the partition is fetched again from its delivered
// position and the answer handled there. Records are left to the caller.
func (c *Consumer) aheadOnly(st *partState, p *fetchRespPart, r *fetchResult) bool {
	ch := r.chunks[p.TopicPartition]
	switch {
	case p.Err != nil || p.Diverging != nil || r.errs[p.TopicPartition] != nil:
		st.noAhead = true
	case ch == nil:
	case len(ch.records) == 0:
		st.buf.next = ch.next
		if ch.lastEpoch >= 0 {
			st.buf.lastEpoch = ch.lastEpoch
		}
	default:
		return false
	}
	return true
}

// countFetchedLocked adds a fetched chunk to its partition's counters.
func (c *Consumer) countFetchedLocked(st *partState, ch *chunk) {
	if st.counts == nil {
		st.counts = c.countsLocked(st.tp)
	}
	pc := st.counts
	pc.records += uint64(len(ch.records))
	pc.bytes += uint64(ch.bytes)
}
