package consumer

import (
	"encoding/binary"
	"sync"
	"time"

	"github.com/gregor-kafka/gregor"
)

// The early answer: a session lane's next Fetch goes out while the last
// response is decoded (issue 38). When a session's Fetch is answered after
// a round trip long enough to pay for it (earlyWorthIt), its worker scans
// the response's batch headers (earlyEnds) before it decodes a record. When every batch is uncompressed, where decoding will stop in
// each partition is known from the headers alone (the decode budget's rule
// run on the headers' sizes and record counts: scanHeaders), and so is
// each partition's next fetch position. The worker hands the fetch loop an early
// answer (fetchResult.early) carrying those ends; the loop does the
// session's bookkeeping (the session's epoch and ID come from the
// response's header) and marks the partitions whose buffer slots are free
// as fetchable from their ends (partState.decoding), so the next fetchRound
// sends the lane's next Fetch at once, from the lane's second fetchReq and
// worker, while the first worker decodes. The decoded result follows
// through the same channel and is applied as before.
//
// A partition whose decoded chunk does not end where its headers said (a
// corrupt batch) keeps its position at the chunk's end, so the next
// Fetch's answer for it is stale (fetchedAt) and dropped, and it is
// fetched again from there: the same rule as for a Fetch ahead.
//
// Order: a lane's results reach the loop in the order its Fetches were
// sent (laneOrder), so a response is never applied before the one before
// it, and an early answer comes only after the lane's earlier result was
// handed over.

// earlyEnd is where a partition's next Fetch starts once the response
// being decoded is applied: past its last complete batch (the fetch
// offset when it brought none), with the leader epoch of that batch (-1:
// the partition's own).
type earlyEnd struct {
	next  int64
	epoch int32
}

// laneOrder orders one lane's results: the Fetch sent seq-th hands its
// early answer and result only after the one before it handed its
// result. Shared by the lane's fetchReqs and their workers.
type laneOrder struct {
	mu     sync.Mutex
	cond   sync.Cond
	sent   uint64 // the fetch loop's: seq of the lane's last Fetch sent
	handed uint64 // mu: seq of the last Fetch whose result was handed over
	// perRecord is how long the lane's last response with records took to
	// decode, per record (mu; 0 before one): earlyWorthIt's yardstick.
	perRecord time.Duration
}

func newLaneOrder() *laneOrder {
	o := &laneOrder{}
	o.cond.L = &o.mu
	return o
}

// next numbers the lane's next Fetch (fetch loop only).
func (o *laneOrder) next() uint64 {
	o.sent++
	return o.sent
}

// wait returns once the Fetch before seq handed its result, with the
// lane's last decoding time per record.
func (o *laneOrder) wait(seq uint64) (perRecord time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for o.handed+1 < seq {
		o.cond.Wait()
	}
	return o.perRecord
}

// done records that Fetch seq handed its result, and how long its records
// took to decode per record (0: it had none; the last time stays).
func (o *laneOrder) done(seq uint64, perRecord time.Duration) {
	o.mu.Lock()
	o.handed = seq
	if perRecord > 0 {
		o.perRecord = perRecord
	}
	o.mu.Unlock()
	o.cond.Broadcast()
}

// firstPerRecord is the decoding time per record earlyWorthIt assumes
// before a lane decoded a response: about what 100-byte uncompressed
// records took on the 2-core test machine (75,000 in 10-15 ms).
const firstPerRecord = 200 * time.Nanosecond

// earlyWorthIt reports whether a response of records that took roundTrip
// to come (from the Fetch's write to its whole response) is worth an early
// answer, given the lane's last decoding time per record (0: none yet,
// firstPerRecord): only where the next round trip is long enough that this
// response is decoded before the next one comes (at least twice the
// expected decoding). On a short link (loopback) the next response would
// come while this one decodes: a third response's block held for no gain
// in time, measured at +35 % CPU per record at 256 partitions on loopback.
func earlyWorthIt(roundTrip time.Duration, records int, perRecord time.Duration) bool {
	if perRecord <= 0 {
		perRecord = firstPerRecord
	}
	return roundTrip >= 2*time.Duration(records)*perRecord
}

// v2 batch header fields read by earlyEnds.
const (
	hdrLengthAt = 8  // int32 batchLength, after baseOffset
	hdrEpochAt  = 12 // int32 partitionLeaderEpoch
	hdrMagicAt  = 16
	hdrAttrsAt  = 21 // int16 attributes
	hdrDeltaAt  = 23 // int32 lastOffsetDelta
	hdrCountAt  = 57 // int32 records count
	hdrLen      = 61

	attrCompression = 0x07
	attrControl     = 0x20
)

// earlyEnds fills req.ends from the response's batch headers and reports
// whether an early answer may be handed: a session lane's answer without
// a top-level error whose batches are all magic v2 and uncompressed, so
// that where decodePartition will stop in each partition follows from the
// headers (scanHeaders runs its budget rule on them). A partition answered
// with an error, a diverging epoch or a preferred read replica gets no
// end (it waits for the result, as without an early answer); one the
// response does not list (nothing new, incremental) ends at its fetch
// offset. req.earlyCharge is the headers' charge per records-field byte
// and req.earlyTotal what decoding will charge (at most: more than
// req.maxBytes by the one batch a response decodes whatever its budget,
// KIP-74).
func earlyEnds(req *fetchReq, resp *fetchResp) bool {
	if req.side || resp.Err != nil {
		return false
	}
	if req.ends == nil {
		req.ends = map[gregor.TopicPartition]earlyEnd{}
	}
	ends := req.ends
	clear(ends)
	for tp, sp := range req.want {
		ends[tp] = earlyEnd{next: sp.FetchOffset, epoch: -1}
	}
	budget := int64(req.maxBytes)
	progress := false
	req.earlyTotal = 0
	var charged, recordsBytes int64
	for i := range resp.Parts { // in doFetch's decoding order
		p := &resp.Parts[i]
		sp, ok := req.want[p.TopicPartition]
		if !ok {
			continue
		}
		if p.Err != nil || p.Diverging != nil {
			delete(ends, p.TopicPartition) // not decoded
			continue
		}
		e, charge, ok := scanHeaders(p.Records, sp.FetchOffset, budget, !progress)
		if !ok {
			return false
		}
		progress = progress || e.next > sp.FetchOffset
		budget -= charge
		req.earlyTotal += charge
		if charge > int64(len(p.Records)) {
			charged, recordsBytes = charged+charge, recordsBytes+int64(len(p.Records))
		}
		if p.Preferred.set {
			delete(ends, p.TopicPartition) // decoded, but fetched from the replica next
			continue
		}
		ends[p.TopicPartition] = e
	}
	req.earlyCharge = 0
	if recordsBytes > 0 {
		req.earlyCharge = float64(charged) / float64(recordsBytes)
	}
	return true
}

// scanHeaders reads the complete batches' headers of a partition's
// records field as decodePartition's budget rule takes them: the whole
// field is charged, and a batch is accepted while the field plus
// recordSize per record so far and in the batch stays within budget (the
// first batch anyway when atLeastOne). It returns the end past the last
// accepted batch above fetchOffset (as deliveryFilter moves the position)
// and the charge. Records of batches wholly below fetchOffset and of
// control batches are not delivered, so not charged; other filtered
// records (aborted, below the offset within a batch) are, so the charge
// may be above decodePartition's, never below. ok is false when a batch
// is compressed or not magic v2 (its decoded size is not in the header).
func scanHeaders(raw []byte, fetchOffset, budget int64, atLeastOne bool) (e earlyEnd, charge int64, ok bool) {
	e = earlyEnd{next: fetchOffset, epoch: -1}
	charge = int64(len(raw))
	accepted := false
	for len(raw) >= hdrLen {
		length := int(binary.BigEndian.Uint32(raw[hdrLengthAt:]))
		if length < hdrLen-12 || length > len(raw)-12 {
			break // a truncated trailing batch: fetched again
		}
		attrs := binary.BigEndian.Uint16(raw[hdrAttrsAt:])
		if raw[hdrMagicAt] != 2 || attrs&attrCompression != 0 {
			return e, 0, false
		}
		n := int64(max(int32(binary.BigEndian.Uint32(raw[hdrCountAt:])), 0))
		if charge+n*recordSize > budget && !(atLeastOne && !accepted) {
			break
		}
		accepted = true
		base := int64(binary.BigEndian.Uint64(raw))
		next := base + int64(int32(binary.BigEndian.Uint32(raw[hdrDeltaAt:]))) + 1
		if next > e.next {
			e = earlyEnd{next: next, epoch: int32(binary.BigEndian.Uint32(raw[hdrEpochAt:]))}
			if attrs&attrControl == 0 {
				charge += n * recordSize
			}
		}
		raw = raw[12+length:]
	}
	return e, charge, true
}

// handleEarly applies an early answer: the session's bookkeeping, and the
// partitions that may be fetched on from their ends while the response is
// decoded (partState.decoding). A partition qualifies when it is still in
// this Fetch at the same gen and has both buffer slots free (buf, ahead),
// so that this response's chunk and the next one's both fit.
func (c *Consumer) handleEarly(fs *fetchState, r *fetchResult) {
	req := r.req
	if req.earlyCharge > 0 {
		fs.chargePerByte = req.earlyCharge // the next Fetch is planned before noteCharge
	}
	s := fs.sessions[req.sessionLane()]
	s.succeeded(req.plan, r.resp.SessionID)
	req.sessionDone = true
	if r.resp.ThrottleMs > 0 {
		s.throttledUntil = time.Now().Add(time.Duration(r.resp.ThrottleMs) * time.Millisecond)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.inflight[req.lane()] == req {
		delete(c.inflight, req.lane())
	}
	// The buffer's bound counts what this response will charge, not what
	// was reserved for it: the next Fetch is planned before it is buffered.
	c.reserved += req.earlyTotal - req.reserved
	req.reserved = req.earlyTotal
	if c.closed {
		return
	}
	any := false
	for tp, gen := range req.gens {
		st := c.parts[tp]
		e, ok := req.ends[tp]
		if !ok || st == nil || st.gen != gen || st.flight != req || st.buf != nil || st.ahead != nil || st.noAhead {
			continue
		}
		st.decodedFrom(req, e)
		any = true
	}
	if any {
		c.m.EarlyAnswers++
	}
}
