package producer

import "time"

// This file is the sender's readiness bookkeeping (issue 37): which
// partitions a pass must look at, so that a pass costs O(partitions that
// changed + partitions drained), not O(partitions with state).
//
//   - Each broker has a queue (brokerReady.q) of the partitions it leads
//     that hold an unsent batch, in order of waitSince (when the partition
//     joined, at most its oldest unsent batch's creation): the head's
//     linger passes first, so the broker is due once the head lingered.
//     Leaderless partitions wait in the queue of broker -1.
//   - Events that change a partition's sendability (a batch sealed full, a
//     response) put it on Producer.look; the next pass looks at it
//     (lookLocked) and marks its broker due when its batch is.
//   - A draining broker's request walks its queue from the head; a drained
//     partition goes to the tail (rotation: no partition starves).
//   - Rare events that touch many partitions (metadata applied, identity
//     set, a transaction's Wake or abort) and time-driven ones other than
//     linger (delivery deadlines, retry backoffs: walkAt) make the next
//     pass walk every partition (walkAllLocked), as every pass once did.

// partQueue is an intrusive list of partitions (partState.qPrev/qNext).
type partQueue struct{ head, tail *partState }

func (q *partQueue) push(part *partState) {
	part.qPrev, part.qNext = q.tail, nil
	if q.tail != nil {
		q.tail.qNext = part
	} else {
		q.head = part
	}
	q.tail = part
}

func (q *partQueue) remove(part *partState) {
	if part.qPrev != nil {
		part.qPrev.qNext = part.qNext
	} else {
		q.head = part.qNext
	}
	if part.qNext != nil {
		part.qNext.qPrev = part.qPrev
	} else {
		q.tail = part.qPrev
	}
	part.qPrev, part.qNext = nil, nil
}

// brokerReady is one broker's readiness. Guarded by Producer.mu; written
// by the sender and by admission (queue membership).
type brokerReady struct {
	id int32
	q  partQueue // partitions led here with an unsent batch, by waitSince
	// due: a queued partition has a due batch (full, sealed, flushed), or
	// the broker's last request stopped at RequestMaxBytes; cleared when a
	// drain takes everything sendable.
	due bool
	// idle: the last drain found nothing sendable (every queued partition
	// waits for a response, a backoff or txn); the head's linger is not
	// looked at until a partition of the broker is looked at again.
	idle bool
}

// brokerLocked returns broker id's readiness, creating it.
func (p *Producer) brokerLocked(id int32) *brokerReady {
	if br := p.brokers[id]; br != nil {
		return br
	}
	br := &brokerReady{id: id}
	p.brokers[id] = br
	p.brokerOrder = append(p.brokerOrder, br)
	return br
}

// lookAtLocked makes the next pass look at part.
func (p *Producer) lookAtLocked(part *partState) {
	if !part.looking {
		part.looking = true
		p.look = append(p.look, part)
	}
}

// walkByLocked makes a pass walk every partition no later than t (a
// delivery deadline or a retry backoff).
func (p *Producer) walkByLocked(t time.Time) {
	if t.Before(p.walkAt) {
		p.walkAt = t
	}
	p.soonLocked(t)
}

// oldestUnsent returns part's first batch that is not in flight, or nil.
func oldestUnsent(part *partState) *batch {
	for _, b := range part.batches {
		if !b.inFlight() {
			return b
		}
	}
	return nil
}

// requeueLocked puts part in the queue it belongs to: its leader's (-1:
// none known) when it holds an unsent batch, else none. With rotate a
// queued partition moves to its queue's tail.
func (p *Producer) requeueLocked(part *partState, rotate bool) {
	var want *brokerReady
	b := oldestUnsent(part)
	if b != nil {
		if part.qb != nil && part.qb.id == part.leader {
			want = part.qb
		} else {
			want = p.brokerLocked(part.leader)
		}
	}
	if part.qb == want && !rotate {
		return
	}
	if part.qb != nil {
		part.qb.q.remove(part)
		part.qb = nil
	}
	if want == nil {
		return
	}
	since := b.created
	if t := want.q.tail; t != nil && since.Before(t.waitSince) {
		since = t.waitSince // keeps the queue in waitSince order
	}
	part.waitSince, part.qb = since, want
	want.q.push(part)
	want.idle = false // a new member: "nothing sendable" no longer holds
}

// lookLocked looks at one partition: its next sendable batch (expiry and
// the rest on the way, sendableLocked), its queue, and whether its broker
// is due. It reports whether a due batch waits for a producer ID.
func (p *Producer) lookLocked(part *partState, now time.Time, needID bool) bool {
	b, due := p.sendableLocked(part, now)
	p.requeueLocked(part, false)
	if b == nil {
		return needID
	}
	if !p.ident.have {
		if !due || p.txn != nil {
			return needID // package txn sets the identity (SetIdentity)
		}
		if now.Before(p.ident.backoff) {
			p.soonLocked(p.ident.backoff)
		} else {
			if !needID || b.deadline.Before(p.ident.deadline) {
				p.ident.deadline = b.deadline
			}
			needID = true
		}
		return needID
	}
	if part.leader < 0 {
		if due {
			p.needMetadataLocked(now)
		}
		return needID
	}
	br := part.qb
	br.idle = false
	if due {
		br.due = true
	}
	return needID
}

// readyLocked looks at what changed since the last pass (every partition
// when a walk is due) and fills p.ready with the brokers to drain now: due
// ones (a due batch, Flush or Close, or the queue head's linger passed)
// with an in-flight slot. It reports whether a due batch waits for a
// producer ID.
func (p *Producer) readyLocked(now time.Time) (needID bool) {
	if p.txnWoken.Swap(false) {
		p.walk = true
	}
	if p.walk || !p.ident.have || !now.Before(p.walkAt) {
		p.walk = !p.ident.have // once more after the identity is set
		p.walkAt = now.Add(time.Hour)
		for _, part := range p.parts {
			needID = p.lookLocked(part, now, needID)
		}
	}
	for i, part := range p.look {
		part.looking = false
		p.look[i] = nil
		needID = p.lookLocked(part, now, needID)
	}
	p.look = p.look[:0]
	p.soonLocked(p.walkAt)
	all := p.flushing > 0 || p.closing
	for _, br := range p.brokerOrder {
		head := br.q.head
		if head == nil {
			br.due, br.idle = false, false
			continue
		}
		if !br.due && !br.idle {
			if due := head.waitSince.Add(p.cfg.linger); all || !now.Before(due) {
				br.due = true
			} else {
				p.soonLocked(due)
			}
		}
		if !br.due {
			continue
		}
		if br.id < 0 {
			br.due = false
			p.needMetadataLocked(now)
			continue
		}
		if p.ident.have && p.inflight[br.id] < p.cfg.MaxInFlightPerBroker {
			p.ready = append(p.ready, br)
		} // else a response (or the identity) wakes the sender
	}
	if p.leaderlessLocked() {
		p.refreshMetadataLocked(now, true) // only the brokers can tell more (rate-limited by metaSync)
	}
	return needID
}

// leaderlessLocked reports whether a partition with an unsent batch has no
// known leader (as of the last pass).
func (p *Producer) leaderlessLocked() bool {
	br := p.brokers[-1]
	return br != nil && br.q.head != nil
}
