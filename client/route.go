package client

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"syscall"
)

// route returns a live, negotiated connection in lane (shared, or dedicated
// to name: WithGroupConnection) for broker: a node ID (its address from
// metadata or FindCoordinator, refreshing metadata once when the node is
// unknown) or AnyBroker.
func (c *Client) route(ctx context.Context, broker int32, lane Lane, name string) (*conn, error) {
	if broker == AnyBroker {
		return c.routeAny(ctx, lane, name)
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
	cn, err := c.pool.get(ctx, addr, broker, lane, name)
	if err != nil && (errors.Is(err, ErrTransport) || errors.Is(err, ErrDNS)) {
		// An unreachable broker may have left or moved: look again.
		c.InvalidateMetadata()
	}
	return cn, err
}

// routeLive returns the live connection route would return for broker in
// lane and name without waiting (no dial, no metadata refresh), or nil.
func (c *Client) routeLive(broker int32, lane Lane, name string) *conn {
	if broker == AnyBroker {
		if c.meta.snap.Load() != nil && c.rebootstrapDue() {
			return nil // routeAny dials the bootstrap addresses
		}
		return c.pool.leastLoaded(lane, name)
	}
	if broker < 0 {
		return nil
	}
	addr, ok := c.meta.addrOf(broker)
	if !ok {
		return nil
	}
	return c.pool.liveConn(addr, lane, name)
}

// routeAny picks the least loaded live connection in lane, or else dials,
// in lane, the brokers reached in another lane and then the known brokers
// (in random order) until one connects. The bootstrap addresses (in order)
// are dialed before metadata names any broker, and instead of the known
// brokers when a rebootstrap is due (KIP-899).
func (c *Client) routeAny(ctx context.Context, lane Lane, name string) (*conn, error) {
	md := c.meta.snap.Load()
	rebootstrap := md != nil && c.rebootstrapDue()
	if !rebootstrap {
		if best := c.pool.leastLoaded(lane, name); best != nil {
			return best, nil
		}
	}
	var cands []dialCand
	if !rebootstrap {
		seen := c.pool.liveAddrs()
		for addr, id := range seen {
			cands = append(cands, dialCand{addr, id})
		}
		live := len(cands)
		if md != nil {
			for _, b := range md.Brokers {
				if addr, ok := c.meta.addrOf(b.NodeID); ok {
					if _, dup := seen[addr]; !dup {
						cands = append(cands, dialCand{addr, b.NodeID})
					}
				}
			}
			more := cands[live:]
			rand.Shuffle(len(more), func(i, j int) { more[i], more[j] = more[j], more[i] })
		}
	}
	knownOnly := md != nil && len(cands) > 0 && !rebootstrap
	if !knownOnly {
		for _, a := range c.cfg.Bootstrap {
			cands = append(cands, dialCand{a, -1})
		}
	}
	cn, refused, err := c.dialFirst(ctx, lane, name, cands)
	if err != nil && knownOnly && ctx.Err() == nil && (errors.Is(err, ErrTransport) || errors.Is(err, ErrDNS)) {
		c.knownUnreachable()
	}
	if err != nil && refused && md == nil {
		err = refusedEverywhere{err}
	}
	return cn, err
}

// refusedEverywhere marks a route failure before any metadata was loaded
// in which every bootstrap address refused the connection: nothing listens
// there, so do retries it only bootstrapRefusedRetries times.
type refusedEverywhere struct{ error }

func (e refusedEverywhere) Unwrap() error { return e.error }

// bootstrapRefusedRetries is how many times in a row a request is retried
// when every bootstrap address refuses the connection before the client
// has reached any broker (a few backoffs, about 0.7s with the default
// RetryBackoff: a broker restarting on that port has that long to come
// back). Once the client has metadata, refused connections are retried
// within the deadline as any transport failure.
const bootstrapRefusedRetries = 3

// dialCand is an address to dial and the node ID it is for (-1 for a
// bootstrap address).
type dialCand struct {
	addr string
	id   int32
}

// dialFirst returns a connection in lane and name to the first of cands
// that connects; refused reports that every one refused the connection
// (ECONNREFUSED).
func (c *Client) dialFirst(ctx context.Context, lane Lane, name string, cands []dialCand) (_ *conn, refused bool, _ error) {
	var firstErr error
	refused = len(cands) > 0
	for _, cd := range cands {
		cn, err := c.pool.get(ctx, cd.addr, cd.id, lane, name)
		if err == nil {
			return cn, false, nil
		}
		if firstErr == nil {
			firstErr = err
		}
		refused = refused && errors.Is(err, syscall.ECONNREFUSED)
		// Only a failure to reach this one broker is worth trying another
		// for; deadlines, closing, authentication and version or identity
		// mismatches would fail the same way everywhere.
		if ctx.Err() != nil || (!errors.Is(err, ErrTransport) && !errors.Is(err, ErrDNS)) {
			return nil, false, err
		}
	}
	if firstErr == nil {
		firstErr = fmt.Errorf("%w: no broker address known", ErrUnknownBroker)
	}
	return nil, refused, firstErr
}
