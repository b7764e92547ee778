package consumer

import (
	"errors"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// movedConn names the client's fetch-lane connections (one per broker,
// shared by the client's consumers) that carry sessionless Fetches of
// moved partitions (client.WithFetchConnection): a broker answers one
// connection's requests in order, so on the session's connection such a
// Fetch would wait behind the Fetch the broker holds.
const movedConn = "gregor-consumer-moved"

// A partition moved from outside the fetch path (Seek, Assign, Add,
// Resume: partState.moved) while its broker holds the session's Fetch
// (up to MaxWait) is fetched at once in a sessionless Fetch (session ID 0,
// epoch -1: KIP-227's full request that neither uses nor creates a session,
// so the session's one request in flight and its epoch are untouched) on
// the side lane's own connection, with max_wait 0 so it is never held. The
// held Fetch's answer for the partition is stale (its gen moved) and is
// dropped on arrival. While the session's Fetch stays in flight, a moved
// partition whose side Fetch brought records, or whose answer shows it
// still behind the end it may read (the response's bytes went to other
// partitions first), is fetched on the side lane again; one caught up or
// failed waits for the session's next Fetch, which lists it again and ends
// the move.

// anyMoved reports whether any candidate is moved.
func anyMoved(cands []candidate) bool {
	for _, cd := range cands {
		if cd.moved {
			return true
		}
	}
	return false
}

// sessionlessPlan returns the plan of a sessionless full Fetch of order,
// reusing p's arrays.
func sessionlessPlan(p fetchPlan, order []gregor.TopicPartition) fetchPlan {
	return fetchPlan{SessionID: 0, SessionEpoch: finalSessionEpoch, Full: true, Parts: order,
		Forgotten: p.Forgotten[:0], ForgottenIDs: p.ForgottenIDs[:0]}
}

// endMoveLocked is the side lane's answer for st: the move ends (the
// session's next Fetch lists the partition) unless the answer brought
// records, showed the partition behind its end (behindLocked) or sent it to
// another broker (redirectsLocked), and the partition may be fetched on at
// once.
func endMoveLocked(st *partState, records bool) {
	st.moved = st.moved && records
}

// indexAnswers fills fs.answers with resp's partitions by name, for the
// side lane's per-partition decisions (one lookup each, not a scan of the
// response per partition: a side Fetch may carry every partition of an
// Assign).
func (fs *fetchState) indexAnswers(resp *fetchResp) {
	if fs.answers == nil {
		fs.answers = map[gregor.TopicPartition]*fetchRespPart{}
	}
	for i := range resp.Parts {
		fs.answers[resp.Parts[i].TopicPartition] = &resp.Parts[i]
	}
}

// redirectsLocked reports whether p, st's answer from node (nil: none),
// sends the partition to another broker next (KIP-392): a leader naming a
// preferred read replica, or the partition's read replica answering
// OFFSET_OUT_OF_RANGE (back to the leader). A moved partition stays moved
// then, so its Fetch there goes out at once too rather than wait for that
// broker's held session Fetch.
func redirectsLocked(st *partState, p *fetchRespPart, node int32, now time.Time) bool {
	switch {
	case p == nil:
		return false
	case p.Err == nil:
		return p.Preferred.set && p.Preferred.node != node
	case errors.Is(p.Err, wire.ErrOffsetOutOfRange):
		n, ok := st.replica.get(now)
		return ok && n == node
	}
	return false
}

// behindLocked reports whether p, st's side-lane answer without records
// for a Fetch at fetchOffset (nil: none), shows more for the consumer to
// read: no error and a high watermark (under read_committed the last stable
// offset) past fetchOffset. The broker filled the response's max_bytes from
// the partitions before it (KIP-74), or the decode budget ran out before
// it, so it is not caught up: ending its move would leave it waiting for
// the broker's held session Fetch (up to MaxWait) while its records are
// there.
func behindLocked(st *partState, p *fetchRespPart, fetchOffset int64) bool {
	if p == nil || p.Err != nil || p.Diverging != nil {
		return false
	}
	end := p.HighWatermark
	if st.readCommitted && p.LastStableOffset >= 0 {
		end = p.LastStableOffset
	}
	return fetchOffset < end
}
