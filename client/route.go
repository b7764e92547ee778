package client

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
)

// route returns a live, negotiated connection in lane for broker: a node ID
// (its address from metadata or FindCoordinator, refreshing metadata once
// when the node is unknown) or AnyBroker.
func (c *Client) route(ctx context.Context, broker int32, lane Lane) (*conn, error) {
	if broker == AnyBroker {
		return c.routeAny(ctx, lane)
	}
	if broker < 0 {
		return nil, fmt.Errorf("%w: node %d", ErrUnknownBroker, broker)
	}
	addr, ok := c.meta.addrOf(broker)
	if !ok {
		if _, err := c.meta.get(ctx, []string{}, true); err != nil {
			return nil, err
		}
		if addr, ok = c.meta.addrOf(broker); !ok {
			return nil, fmt.Errorf("%w: node %d is not in metadata", ErrUnknownBroker, broker)
		}
	}
	cn, err := c.pool.get(ctx, addr, broker, lane)
	if err != nil && (errors.Is(err, ErrTransport) || errors.Is(err, ErrDNS)) {
		// An unreachable broker may have left or moved: look again.
		c.InvalidateMetadata()
	}
	return cn, err
}

// routeLive returns the live connection route would return for broker in
// lane without waiting (no dial, no metadata refresh), or nil.
func (c *Client) routeLive(broker int32, lane Lane) *conn {
	if broker == AnyBroker {
		return c.pool.leastLoaded(lane)
	}
	if broker < 0 {
		return nil
	}
	addr, ok := c.meta.addrOf(broker)
	if !ok {
		return nil
	}
	return c.pool.liveConn(addr, lane)
}

// routeAny picks the least loaded live connection in lane, or else dials,
// in lane, the brokers reached in another lane, then the known brokers (in
// random order) and then the bootstrap addresses (in order) until one
// connects.
func (c *Client) routeAny(ctx context.Context, lane Lane) (*conn, error) {
	if best := c.pool.leastLoaded(lane); best != nil {
		return best, nil
	}
	type cand struct {
		addr string
		id   int32
	}
	var cands []cand
	seen := c.pool.liveAddrs()
	for addr, id := range seen {
		cands = append(cands, cand{addr, id})
	}
	known := len(cands)
	if md := c.meta.snap.Load(); md != nil {
		for _, b := range md.Brokers {
			if addr, ok := c.meta.addrOf(b.NodeID); ok {
				if _, dup := seen[addr]; !dup {
					cands = append(cands, cand{addr, b.NodeID})
				}
			}
		}
		more := cands[known:]
		rand.Shuffle(len(more), func(i, j int) { more[i], more[j] = more[j], more[i] })
	}
	for _, a := range c.cfg.Bootstrap {
		cands = append(cands, cand{a, -1})
	}
	var firstErr error
	for _, cd := range cands {
		cn, err := c.pool.get(ctx, cd.addr, cd.id, lane)
		if err == nil {
			return cn, nil
		}
		if firstErr == nil {
			firstErr = err
		}
		// Only a failure to reach this one broker is worth trying another
		// for; deadlines, closing, authentication and version or identity
		// mismatches would fail the same way everywhere.
		if ctx.Err() != nil || (!errors.Is(err, ErrTransport) && !errors.Is(err, ErrDNS)) {
			return nil, err
		}
	}
	if firstErr == nil {
		firstErr = fmt.Errorf("%w: no broker address known", ErrUnknownBroker)
	}
	return nil, firstErr
}
