package consumer

import (
	"context"
	"time"

	"github.com/gregor-kafka/gregor/client"
)

// The twin session (issue 38): a broker's fetch session allows one Fetch in
// flight (KIP-227), so over a long link a consumer catching up reads at most
// one response per round trip, even with the early answer (fetch_early.go)
// overlapping the decoding. When a session's response came back full (the
// broker had more to send than was asked) and the network round trip to
// the broker is long against decoding such a response (twinVote), the
// fetch loop splits the broker's partitions between two sessions, each
// with its own Fetch in flight on a connection of its own (twinConn), so
// two responses arrive per round trip. The network round trip is the
// client's shortest connection-setup round trip to the broker
// (client.Client.RoundTrip), not the Fetch's: a large response over a short
// link takes long to transfer, and two Fetches would share the same
// bandwidth. Each partition has a fixed side (partState.twin, alternating
// in assignment order), so the split moves no partition between sessions
// twice, and a partition whose response is still decoded in one session is
// not fetched in the other (results are ordered within a session only). A
// response that was not full, or whose decoding takes half the round trip,
// joins the halves again; the second session is then closed once its lane
// is idle (dropTwin). Each session's Fetch reserves its share of
// MaxBufferedBytes as before, so the bound on buffered memory is
// unchanged. Before any response, the same rule judges a full response
// decoded at firstPerByte (twinPrior), so a consumer far from its brokers
// starts on two sessions.

// twinConn names the client's fetch-lane connections (one per broker,
// shared by the client's consumers) that carry a split broker's second
// session (client.WithFetchConnection): a broker answers one connection's
// requests in order, so on the first session's connection the second
// session's Fetch would wait behind the first's.
const twinConn = "gregor-consumer-twin"

// twinVote is a session lane's vote, from one response, on splitting its
// broker's partitions between two sessions: +1 split, -1 join, 0 keep as
// it is. rtt is the network round trip to the broker (transport.roundTrip;
// 0 unknown), raw the response's records bytes and ask the Fetch's
// max_bytes, records the response's record count and perRecord the lane's
// last decoding time per record (0: none yet, firstPerRecord). A response
// under half its ask shows a broker with no more to send at once (or a
// consumer whose buffer room is short): two Fetches would not bring more.
func twinVote(rtt time.Duration, raw int, ask int32, records int, perRecord time.Duration) int8 {
	if raw < int(ask)/2 || records == 0 || rtt <= 0 {
		return -1
	}
	if perRecord <= 0 {
		perRecord = firstPerRecord
	}
	return twinRule(rtt, time.Duration(records)*perRecord)
}

// twinRule splits (+1) when the round trip is at least four times a full
// response's decoding, so that two responses per round trip are each
// decoded in at most half of it, and joins (-1) when it is under twice
// that; 0 between the two.
func twinRule(rtt, decode time.Duration) int8 {
	switch {
	case rtt >= 4*decode:
		return 1
	case rtt < 2*decode:
		return -1
	}
	return 0
}

// firstPerByte is the decoding time per records-field byte twinPrior
// assumes: firstPerRecord for records of about 100 bytes.
const firstPerByte = firstPerRecord / 100

// twinPrior is the split of a broker no response has voted on yet: split
// when the client's setup round trip to it (transport.roundTrip; 0 unknown)
// is at least four times the decoding of a full response of askBytes, as
// twinRule would judge it, so that a consumer far from its brokers fetches
// on two sessions from its first Fetch.
func twinPrior(rtt time.Duration, askBytes int64) int8 {
	if rtt <= 0 || twinRule(rtt, time.Duration(askBytes)*firstPerByte) <= 0 {
		return -1
	}
	return 1
}

// noteTwinVote applies a session lane's vote on its broker's split (fetch
// loop). A lane's result and its early answer carry the same vote; applying
// it twice changes nothing.
func (c *Consumer) noteTwinVote(fs *fetchState, req *fetchReq) {
	if !req.side && req.twinVote != 0 {
		fs.twins[req.node] = req.twinVote
	}
}

// twinned reports whether broker node's partitions are split between two
// sessions, judging a broker without a vote by twinPrior (fetch loop).
func (c *Consumer) twinned(fs *fetchState, node int32) bool {
	v, ok := fs.twins[node]
	if !ok {
		v = twinPrior(c.tr.roundTrip(node), int64(fs.askBytes(c.shareBytes())))
		fs.twins[node] = v
	}
	return v > 0
}

// splitTwins returns the candidates of broker node for its first and
// second session: each on its side (partState.twin) while the broker is
// split, all in the first otherwise. It reuses fs's scratch slices.
func (c *Consumer) splitTwins(fs *fetchState, node int32, cands []candidate) (first, second []candidate) {
	if !c.twinned(fs, node) {
		return cands, nil
	}
	first, second = fs.twinFirst[:0], fs.twinSecond[:0]
	for _, cd := range cands {
		if cd.twin {
			second = append(second, cd)
		} else {
			first = append(first, cd)
		}
	}
	fs.twinFirst, fs.twinSecond = first, second
	return first, second
}

// dropTwin closes broker node's second session once the broker is not
// split and the session's lane has no Fetch in flight, so the session
// does not keep one of the broker's cache slots
// (max.incremental.fetch.session.cache.slots) until Close (fetch loop).
func (c *Consumer) dropTwin(fs *fetchState, node int32) {
	lane := fetchLane{node: node, twin: true}
	s := fs.sessions[lane]
	if s == nil || fs.twins[node] > 0 || fs.busy[lane] {
		return
	}
	delete(fs.sessions, lane)
	if s.id == 0 {
		return
	}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), sessionCloseTimeout)
		defer cancel()
		_ = c.tr.closeSession(laneContext(ctx, lane), node, s.id) // ignored as in closeSessions
	}()
}

// laneContext is the context a request of lane is sent with: the side
// lane's go on the movedConn connections, a second session's (its Fetches
// and the request that closes it) on the twinConn ones, so none waits
// behind a Fetch the broker holds on another lane's connection.
func laneContext(ctx context.Context, lane fetchLane) context.Context {
	switch {
	case lane.side:
		return client.WithFetchConnection(ctx, movedConn)
	case lane.twin:
		return client.WithFetchConnection(ctx, twinConn)
	}
	return ctx
}
