package client

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
)

// route returns a live, negotiated connection for broker: a node ID (its
// address from metadata or FindCoordinator, refreshing metadata once when
// the node is unknown) or AnyBroker.
func (c *Client) route(ctx context.Context, broker int32) (*conn, error) {
	if broker == AnyBroker {
		return c.routeAny(ctx)
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
	cn, err := c.pool.get(ctx, addr, broker)
	if err != nil && (errors.Is(err, ErrTransport) || errors.Is(err, ErrDNS)) {
		// An unreachable broker may have left or moved: look again.
		c.InvalidateMetadata()
	}
	return cn, err
}

// routeLive returns the live connection route would return for broker
// without waiting (no dial, no metadata refresh), or nil.
func (c *Client) routeLive(broker int32) *conn {
	if broker == AnyBroker {
		return c.pool.leastLoaded()
	}
	if broker < 0 {
		return nil
	}
	addr, ok := c.meta.addrOf(broker)
	if !ok {
		return nil
	}
	return c.pool.liveConn(addr)
}

// routeAny picks the least loaded live connection, or else dials the known
// brokers (in random order) and then the bootstrap addresses (in order)
// until one connects.
func (c *Client) routeAny(ctx context.Context) (*conn, error) {
	if best := c.pool.leastLoaded(); best != nil {
		return best, nil
	}
	type cand struct {
		addr string
		id   int32
	}
	var cands []cand
	if md := c.meta.snap.Load(); md != nil {
		for _, b := range md.Brokers {
			if addr, ok := c.meta.addrOf(b.NodeID); ok {
				cands = append(cands, cand{addr, b.NodeID})
			}
		}
		rand.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	}
	for _, a := range c.cfg.Bootstrap {
		cands = append(cands, cand{a, -1})
	}
	var firstErr error
	for _, cd := range cands {
		cn, err := c.pool.get(ctx, cd.addr, cd.id)
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
