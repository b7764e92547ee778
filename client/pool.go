package client

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// pool holds at most one live connection per broker address, lane and
// dedicated-connection name (WithGroupConnection; "" for the shared one), and
// coalesces concurrent dials to one slot.
type pool struct {
	cl     *Client
	mu     sync.Mutex
	slots  map[poolKey]*poolSlot // guarded by mu
	closed bool                  // guarded by mu
}

// poolKey names a slot: a broker address in a lane, shared (name "") or
// dedicated to a name.
type poolKey struct {
	addr string
	lane Lane
	name string
}

type poolSlot struct {
	conn    *conn
	dialing chan struct{} // non-nil while a dial is in progress; closed when it ends
	err     error         // result of the last dial
}

// get returns the live connection of slot (addr, lane, name), dialing (and
// negotiating) one within ctx when there is none. Failures are
// NotSent-worthy causes.
func (pl *pool) get(ctx context.Context, addr string, broker int32, lane Lane, name string) (*conn, error) {
	key := poolKey{addr, lane, name}
	for {
		pl.mu.Lock()
		if pl.closed {
			pl.mu.Unlock()
			return nil, ErrClosed
		}
		if pl.slots == nil {
			pl.slots = make(map[poolKey]*poolSlot)
		}
		s := pl.slots[key]
		if s == nil {
			s = &poolSlot{}
			pl.slots[key] = s
		}
		if s.conn != nil && !s.conn.isDead() {
			cn := s.conn
			pl.mu.Unlock()
			return cn, nil
		}
		if ch := s.dialing; ch != nil {
			pl.mu.Unlock()
			select {
			case <-ch:
			case <-ctx.Done():
				return nil, ctxError(ctx.Err())
			}
			pl.mu.Lock()
			cn, err := s.conn, s.err
			pl.mu.Unlock()
			if cn != nil && !cn.isDead() {
				return cn, nil
			}
			// Another caller's deadline or cancellation ended its dial:
			// dial again under our own context.
			if err != nil && !errors.Is(err, ErrTimeout) && !errors.Is(err, ErrCancelled) {
				return nil, err
			}
			continue
		}
		ch := make(chan struct{})
		s.dialing = ch
		pl.mu.Unlock()

		t0 := time.Now()
		cn, err := pl.cl.dial(ctx, addr, broker, lane)
		pl.cl.hooks.ConnOpened(ConnEvent{Addr: addr, Broker: broker, Lane: lane, Dur: time.Since(t0), Err: err})

		pl.mu.Lock()
		s.dialing, s.err = nil, err
		closed := pl.closed
		if err == nil && !closed {
			s.conn = cn
		}
		pl.mu.Unlock()
		close(ch)
		if err == nil && closed {
			cn.fail(ErrClosed)
			return nil, ErrClosed
		}
		return cn, err
	}
}

// liveConn returns the live connection of slot (addr, lane, name), or nil;
// it never waits or allocates.
func (pl *pool) liveConn(addr string, lane Lane, name string) *conn {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if s := pl.slots[poolKey{addr, lane, name}]; s != nil && s.conn != nil && !s.conn.isDead() {
		return s.conn
	}
	return nil
}

// leastLoaded returns the live connection in lane and of name with the
// fewest requests in flight, or nil when there is none; it never waits or
// allocates.
func (pl *pool) leastLoaded(lane Lane, name string) *conn {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	var best *conn
	for k, s := range pl.slots {
		if cn := s.conn; k.lane == lane && k.name == name && cn != nil && !cn.isDead() && (best == nil || cn.inFlight() < best.inFlight()) {
			best = cn
		}
	}
	return best
}

// live returns the pool's live connections.
func (pl *pool) live() []*conn {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	var out []*conn
	for _, s := range pl.slots {
		if s.conn != nil && !s.conn.isDead() {
			out = append(out, s.conn)
		}
	}
	return out
}

// liveAddrs returns the addresses with a live connection in any lane, each
// with the node ID it was dialed for.
func (pl *pool) liveAddrs() map[string]int32 {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	out := make(map[string]int32)
	for k, s := range pl.slots {
		if s.conn != nil && !s.conn.isDead() {
			out[k.addr] = s.conn.broker
		}
	}
	return out
}

// forget drops cn from its slot (called when cn fails).
func (pl *pool) forget(cn *conn) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	for k, s := range pl.slots {
		if k.addr == cn.addr && k.lane == cn.lane && s.conn == cn {
			s.conn = nil
			return
		}
	}
}

// close fails every connection with ErrClosed and refuses new ones.
func (pl *pool) close() {
	pl.mu.Lock()
	pl.closed = true
	var conns []*conn
	for _, s := range pl.slots {
		if s.conn != nil {
			conns = append(conns, s.conn)
		}
	}
	pl.mu.Unlock()
	for _, cn := range conns {
		cn.fail(ErrClosed)
	}
	for _, cn := range conns {
		<-cn.readerDone
	}
}

// reapIdle closes connections with nothing in flight that were last used
// before idleSince.
func (pl *pool) reapIdle(idleSince time.Time) {
	for _, cn := range pl.live() {
		if cn.inFlight() == 0 && cn.lastUsed.Load() < idleSince.UnixNano() {
			cn.fail(fmt.Errorf("%w: idle connection to %s closed after ConnIdleTimeout", ErrTransport, cn.addr))
		}
	}
}
