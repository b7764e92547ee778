package client

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/gregor-kafka/gregor/wire"
)

// coordCache caches coordinators by (kind, key) and batches lookups: keys
// asked for while a FindCoordinator of the same kind is in flight go
// together in the next request (v4+ CoordinatorKeys, KIP-699).
type coordCache struct {
	cl      *Client
	mu      sync.Mutex
	cache   map[coordKey]int32
	waiting map[coordKey]*coordLookup          // queued or in flight
	queued  map[CoordinatorType][]*coordLookup // not yet sent
	sending map[CoordinatorType]bool           // a goroutine is sending batches of this kind
}

type coordKey struct {
	kind CoordinatorType
	key  string
}

type coordLookup struct {
	k    coordKey
	done chan struct{}
	id   int32
	err  error
}

// Coordinator returns the node ID of the coordinator of kind for key (a group
// ID, transactional ID, or share-group key), from the cache or found with
// FindCoordinator (batched with concurrent lookups of the same kind) within
// ctx. COORDINATOR_NOT_AVAILABLE, COORDINATOR_LOAD_IN_PROGRESS and
// NOT_COORDINATOR answers are retried with backoff until ctx ends; other
// per-key errors (e.g. GROUP_AUTHORIZATION_FAILED) are returned as
// *RequestError wrapping the *wire.KafkaError, Certainty NotSent.
func (c *Client) Coordinator(ctx context.Context, kind CoordinatorType, key string) (int32, error) {
	cc := &c.coord
	k := coordKey{kind, key}
	cc.mu.Lock()
	id, ok := cc.cache[k]
	cc.mu.Unlock()
	if ok {
		return id, nil // a cached answer needs no deadline (and no timer)
	}
	ctx, cancel := c.opContext(ctx)
	defer cancel()
	for try := 0; ; try++ {
		cc.mu.Lock()
		if id, ok := cc.cache[k]; ok {
			cc.mu.Unlock()
			return id, nil
		}
		l := cc.waiting[k]
		send := false
		if l == nil {
			if cc.waiting == nil {
				cc.waiting = make(map[coordKey]*coordLookup)
				cc.queued = make(map[CoordinatorType][]*coordLookup)
				cc.sending = make(map[CoordinatorType]bool)
			}
			l = &coordLookup{k: k, done: make(chan struct{})}
			cc.waiting[k] = l
			cc.queued[kind] = append(cc.queued[kind], l)
			if !cc.sending[kind] {
				cc.sending[kind] = true
				send = true
			}
		}
		cc.mu.Unlock()
		if send {
			cc.sendBatches(ctx, kind)
		}
		select {
		case <-l.done:
		case <-ctx.Done():
			return -1, reqErr(AnyBroker, "FindCoordinator", NotSent, ctxError(ctx.Err()))
		}
		if l.err == nil {
			return l.id, nil
		}
		err := l.err
		other := (errors.Is(err, ErrTimeout) || errors.Is(err, ErrCancelled)) && ctx.Err() == nil
		if !other && !retriableCoordinator(err) {
			return -1, err
		}
		if dl, _ := ctx.Deadline(); !other && !c.backoff(ctx, dl, try) { // opContext set dl
			return -1, err
		}
	}
}

// retriableCoordinator reports a coordinator that is loading, unavailable
// or elsewhere (wire.ClassCoordinator).
func retriableCoordinator(err error) bool { return wire.Classify(err).Has(wire.ClassCoordinator) }

// sendBatches sends the queued lookups of kind, batch after batch, until the
// queue is empty. Only one goroutine per kind runs it at a time.
func (cc *coordCache) sendBatches(ctx context.Context, kind CoordinatorType) {
	for {
		cc.mu.Lock()
		batch := cc.queued[kind]
		cc.queued[kind] = nil
		if len(batch) == 0 {
			cc.sending[kind] = false
			cc.mu.Unlock()
			return
		}
		cc.mu.Unlock()
		cc.lookup(ctx, kind, batch)
	}
}

// lookup sends one FindCoordinator for batch and completes every lookup in it.
func (cc *coordCache) lookup(ctx context.Context, kind CoordinatorType, batch []*coordLookup) {
	keys := make([]string, len(batch))
	for i, l := range batch {
		keys[i] = l.k.key
	}
	results := make(map[string]*coordLookup, len(batch))
	r, err := cc.cl.Request(ctx, AnyBroker, &wire.FindCoordinatorRequest{
		KeyType: int8(kind), CoordinatorKeys: keys, CoordinatorKey: keys[0],
	})
	if err == nil {
		resp := r.(*wire.FindCoordinatorResponse)
		coords := resp.Coordinators
		if len(coords) == 0 && len(batch) == 1 { // v0-3 answers one key at top level
			coords = []wire.FindCoordinatorResponseCoordinator{{
				Key: keys[0], NodeID: resp.NodeID, Host: resp.Host, Port: resp.Port,
				ErrorCode: resp.ErrorCode, ErrorMessage: resp.ErrorMessage,
			}}
		}
		for _, co := range coords {
			res := &coordLookup{id: co.NodeID}
			if kerr := wire.ErrorForCode(co.ErrorCode); kerr != nil {
				msg := ""
				if co.ErrorMessage != nil && *co.ErrorMessage != "" {
					msg = " (" + *co.ErrorMessage + ")"
				}
				res.err = reqErr(AnyBroker, "FindCoordinator", NotSent, fmt.Errorf("coordinator for %q%s: %w", co.Key, msg, kerr))
			} else {
				cc.cl.meta.setAddr(co.NodeID, co.Host, co.Port)
			}
			results[co.Key] = res
		}
	}
	cc.mu.Lock()
	for _, l := range batch {
		switch res := results[l.k.key]; {
		case err != nil:
			l.err = err
		case res == nil:
			l.err = reqErr(AnyBroker, "FindCoordinator", NotSent, fmt.Errorf("%w: FindCoordinator response lacks key %q", ErrProtocol, l.k.key))
		default:
			l.id, l.err = res.id, res.err
			if res.err == nil {
				if cc.cache == nil {
					cc.cache = make(map[coordKey]int32)
				}
				cc.cache[l.k] = res.id
			}
		}
		delete(cc.waiting, l.k)
		close(l.done)
	}
	cc.mu.Unlock()
}

// InvalidateCoordinator forgets the cached coordinator of kind for key, so
// the next Coordinator call looks it up again (on NOT_COORDINATOR or
// COORDINATOR_NOT_AVAILABLE).
func (c *Client) InvalidateCoordinator(kind CoordinatorType, key string) {
	c.coord.mu.Lock()
	delete(c.coord.cache, coordKey{kind, key})
	c.coord.mu.Unlock()
}

// StaleCoordinator reports whether err (a *wire.KafkaError, possibly
// wrapped) means a cached coordinator is wrong or unavailable, so the caller
// should call InvalidateCoordinator and look it up again: NOT_COORDINATOR,
// COORDINATOR_NOT_AVAILABLE (wire.ClassCoordinatorMoved).
func StaleCoordinator(err error) bool {
	return wire.Classify(err).Has(wire.ClassCoordinatorMoved)
}
