package consumer

import (
	"context"
	"maps"
	"math"
	"sync"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// Fetch session constants (KIP-227).
const (
	initialSessionEpoch int32 = 0  // a full request that creates a session
	finalSessionEpoch   int32 = -1 // a full request that uses (or closes) no session
)

// sessionPart is what a fetch session holds for one partition: the fields
// of the FetchRequest partition that, when they change, make an incremental
// request carry the partition again.
type sessionPart struct {
	TopicID            wire.UUID
	FetchOffset        int64
	CurrentLeaderEpoch int32
	LastFetchedEpoch   int32
	MaxBytes           int32
}

// fetchSession is the client side of one broker's fetch session (KIP-227).
// A full request lists every wanted partition; the broker answers with a
// session ID, after which incremental requests list only partitions that
// are new or changed and name the ones to forget, and responses carry only
// partitions with news. The owner serializes requests to the broker (one in
// flight), so the state moves: build, then exactly one of succeeded or
// failed.
type fetchSession struct {
	id    int32
	epoch int32
	// sent is what the broker's session holds after the last successful
	// request; pending is what it will hold if the request in flight
	// succeeds.
	sent    map[gregor.TopicPartition]sessionPart
	pending map[gregor.TopicPartition]sessionPart
	// throttledUntil is when the broker may be sent the next Fetch after
	// it reported a quota throttle (KIP-219).
	throttledUntil time.Time
}

// fetchPlan is one FetchRequest's session fields and partitions.
type fetchPlan struct {
	SessionID    int32
	SessionEpoch int32
	Full         bool
	Parts        []gregor.TopicPartition // partitions to list (all when Full), in want order
	Forgotten    []gregor.TopicPartition // incremental only: partitions to drop
	ForgottenIDs []wire.UUID             // their topic IDs as the session knows them
}

func newFetchSession() *fetchSession {
	return &fetchSession{sent: map[gregor.TopicPartition]sessionPart{}}
}

// build plans the next request for the wanted partitions (order gives the
// order of Parts).
func (s *fetchSession) build(order []gregor.TopicPartition, want map[gregor.TopicPartition]sessionPart) fetchPlan {
	var p fetchPlan
	s.buildInto(&p, order, want)
	return p
}

// buildInto is build into p, reusing p's Forgotten arrays (and Parts',
// unless the request is full: Parts is then order itself). want must stay
// unchanged until succeeded or failed (the session copies it on success).
func (s *fetchSession) buildInto(p *fetchPlan, order []gregor.TopicPartition, want map[gregor.TopicPartition]sessionPart) {
	s.pending = want
	parts := p.Parts
	if p.Full {
		parts = nil // order's array, owned by the caller
	}
	*p = fetchPlan{SessionID: s.id, SessionEpoch: s.epoch, Forgotten: p.Forgotten[:0], ForgottenIDs: p.ForgottenIDs[:0]}
	if s.id == 0 || s.epoch == initialSessionEpoch {
		// No session yet: a full request that asks for one.
		p.SessionID, p.SessionEpoch, p.Full = 0, initialSessionEpoch, true
		p.Parts = order
		return
	}
	p.Parts = parts[:0]
	for _, tp := range order {
		if old, ok := s.sent[tp]; !ok || old != want[tp] {
			p.Parts = append(p.Parts, tp)
		}
	}
	for tp, old := range s.sent {
		if nw, ok := want[tp]; !ok || nw.TopicID != old.TopicID {
			p.Forgotten = append(p.Forgotten, tp)
			p.ForgottenIDs = append(p.ForgottenIDs, old.TopicID)
		}
	}
}

// succeeded records a response with no top-level error and its session ID.
func (s *fetchSession) succeeded(plan fetchPlan, sessionID int32) {
	clear(s.sent)
	maps.Copy(s.sent, s.pending) // pending is the caller's, reused later
	s.pending = nil
	if plan.Full {
		if sessionID == 0 {
			// The broker made no session (cache full, or not offered):
			// every request stays full.
			s.id, s.epoch = 0, initialSessionEpoch
			return
		}
		s.id, s.epoch = sessionID, 1
		return
	}
	if s.epoch == math.MaxInt32 {
		s.epoch = 1 // KIP-227: the epoch wraps to 1
	} else {
		s.epoch++
	}
}

// failed forgets the session after a failed request or a session error
// (FETCH_SESSION_ID_NOT_FOUND, INVALID_FETCH_SESSION_EPOCH,
// FETCH_SESSION_TOPIC_ID_ERROR); the next request is full and creates a new
// one. The broker expires the abandoned session on its own.
func (s *fetchSession) failed() {
	s.id, s.epoch = 0, initialSessionEpoch
	clear(s.sent)
	s.pending = nil
}

// sessionCloseTimeout, plus MaxWait, bounds how long Close spends writing
// the requests that close fetch sessions (a connection to dial, or no
// in-flight slot) and how long their answers are awaited in the background.
const sessionCloseTimeout = 2 * time.Second

// closeSessions asks every broker the consumer holds a fetch session with to
// drop it (closeSession, concurrently, within sessionCloseTimeout+MaxWait
// in all; the requests are written, their answers not awaited). A session left
// behind would keep one of the broker's cache slots, which all clients share
// (max.incremental.fetch.session.cache.slots, default 1000), until the
// broker evicts it as idle; a failure here is ignored for that reason.
// Called by the fetch loop once its Fetches have ended. The context stays
// live until its deadline rather than ending when the requests are
// written, so an answer arriving within it counts as a success in the
// client's metrics, not as a call abandoned by every Close.
func (c *Consumer) closeSessions(sessions map[fetchLane]*fetchSession) {
	// The answer comes after the long poll Close abandoned: up to MaxWait.
	live := sessionCloseTimeout + c.cfg.MaxWait
	ctx, cancel := context.WithTimeout(context.Background(), live)
	time.AfterFunc(live, cancel)
	var wg sync.WaitGroup
	for lane, s := range sessions {
		if s.id == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = c.tr.closeSession(laneContext(ctx, lane), lane.node, s.id)
		}()
	}
	wg.Wait()
}
