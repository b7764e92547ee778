package client

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// pending is one request on its way through a connection. It reaches exactly
// one terminal outcome: complete is the only way to set resp/err, guarded by
// the state CAS, and it signals the waiter once.
//
// A pending comes in two kinds:
//
//   - a handle (newPending; Enqueue, the fuzz test): returned to a caller
//     who may keep it for as long as it likes, so it is never reused. Its
//     terminal is recorded under mu: it wakes Result through cond, closes
//     done if Done made one, and signals the watcher watching it, if any.
//     Done makes its channel only when called before the terminal (after
//     it, Done returns the client's closed channel), so a caller that
//     waits with Result costs one allocation: the handle.
//   - a pooled record (getPending; Request, RequestVersion, connection
//     setup): the client's own call waits for it (wait) and nothing outside
//     the package ever sees it. Its terminal sends one value on sig (buffered,
//     capacity 1), which the waiting call receives exactly once per use. It
//     goes back to the client's pool when its last reference is dropped
//     (unref): one held by the waiting call, one by the connection while the
//     record is in its queue (until the reader or fail has completed it), one
//     by a stall timer while that is armed. Whoever drops the last one
//     recycles it, so a record is never reused while any goroutine can still
//     touch it, and sig is empty when it is reused, so a signal can never
//     wake the next use's waiter.
type pending struct {
	cl       *Client
	req      wire.Request
	info     wire.APIInfo
	version  int16
	broker   int32
	corrID   int32 // set under the connection's write lock
	admitted time.Time
	written  time.Time // set before the first byte is written
	internal bool      // connection setup (ApiVersions, SASL): no metrics at all
	counted  bool      // completion counts the call's outcome (Enqueue)
	noSlot   bool      // written without an in-flight slot (re-authentication)

	ctx      context.Context // the caller's: its cancellation and deadline end the request
	deadline time.Time       // the effective deadline (see deadline.go); zero for none

	cn       *conn
	inQueue  bool // guarded by cn.mu: in cn.queue (written or being written)
	answered bool // guarded by cn.mu: removed from the queue by the reader or fail
	// stall is the stall check's timer of an abandoned request (watchStall),
	// guarded by cn.mu; stopped when the request is answered or its
	// connection fails.
	stall *time.Timer

	state atomic.Uint32 // 0 open, 1 terminal
	resp  wire.Response
	err   error

	sig   chan struct{} // pooled record: receives one value at the terminal
	refs  atomic.Int32  // pooled record: references; recycled at zero
	timer *time.Timer   // pooled record: wait's deadline timer, kept for reuse

	handle   bool          // a handle (newPending), not a pooled record
	mu       sync.Mutex    // handle: guards terminal, done, watching
	cond     sync.Cond     // handle: broadcast at the terminal; L is &mu
	terminal bool          // handle: resp and err are set
	done     chan struct{} // handle: made by Done before the terminal, closed at it
	watching chan struct{} // handle: the signal of the watcher watching it (capacity 1)
}

var _ Pending = (*pending)(nil)

// newPending returns a handle for a request sent within ctx (which must
// carry the request's effective deadline): a pending the caller owns for
// good, never recycled.
func (c *Client) newPending(ctx context.Context, req wire.Request, info wire.APIInfo, v int16, broker int32, internal bool) *pending {
	p := &pending{
		cl: c, req: req, info: info, version: v, broker: broker, internal: internal,
		admitted: time.Now(), ctx: ctx, handle: true,
	}
	p.cond.L = &p.mu
	return p
}

// getPending returns a pooled record for a request sent within ctx (and
// its deadline field, when set), holding one reference (the caller's,
// dropped with unref after wait).
func (c *Client) getPending(ctx context.Context, req wire.Request, info wire.APIInfo, v int16, broker int32, internal bool) *pending {
	p, _ := c.pendings.Get().(*pending)
	if p == nil {
		p = &pending{sig: make(chan struct{}, 1)}
	}
	p.cl, p.req, p.info, p.version, p.broker, p.internal = c, req, info, v, broker, internal
	p.admitted, p.ctx = time.Now(), ctx
	p.refs.Store(1)
	return p
}

// ref adds a reference to a pooled record; the caller must hold one.
func (p *pending) ref() {
	if p.sig != nil {
		p.refs.Add(1)
	}
}

// unref drops a reference to a pooled record and recycles it when that was
// the last one. A handle is left to the garbage collector.
func (p *pending) unref() {
	if p.sig == nil || p.refs.Add(-1) != 0 {
		return
	}
	if len(p.sig) != 0 || p.state.Load() == 0 && p.inQueue {
		return // never reuse a record in an unexpected state; let the GC have it
	}
	c, sig, timer := p.cl, p.sig, p.timer
	*p = pending{sig: sig, timer: timer}
	c.pendings.Put(p)
}

// Done is closed when Result is available (handles only).
func (p *pending) Done() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.terminal {
		return p.cl.closedCh
	}
	if p.done == nil {
		p.done = make(chan struct{})
	}
	return p.done
}

// Result waits for the terminal and returns the response or the failure (a
// *RequestError carrying a Certainty). Handles only.
func (p *pending) Result() (wire.Response, error) {
	p.mu.Lock()
	for !p.terminal {
		p.cond.Wait()
	}
	p.mu.Unlock()
	return p.resp, p.err
}

// watchBy makes ws (a watcher's signal, capacity 1, empty) the handle's
// watcher signal: the terminal sends one value on it. It reports false when
// the terminal has already happened (nothing will be sent).
func (p *pending) watchBy(ws chan struct{}) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.terminal {
		return false
	}
	p.watching = ws
	return true
}

// unwatch detaches the watcher signal ws given to watchBy when the watcher
// stops before receiving on it. When the terminal has happened meanwhile,
// its value is on its way, and unwatch receives it, so ws is empty again
// and no later request's watch can be woken by this one's terminal.
func (p *pending) unwatch(ws chan struct{}) {
	p.mu.Lock()
	due := p.terminal
	p.watching = nil
	p.mu.Unlock()
	if due {
		<-ws
	}
}

// Version returns the API version the request was encoded with.
func (p *pending) Version() int16 { return p.version }

// wait blocks until the written pooled record p has its terminal; when its
// context or deadline ends first, p is abandoned (completed PossiblySent)
// and wait still receives its one signal. The caller then reads resp/err
// and calls unref. The deadline timer is the record's own, reused.
func (p *pending) wait() {
	var expired <-chan time.Time
	if d := timerDeadline(p.ctx, p.deadline); !d.IsZero() {
		expired = resetTimer(&p.timer, d)
		defer p.timer.Stop()
	}
	select {
	case <-p.sig:
	case <-p.ctx.Done():
		p.abandon(p.ctx.Err())
		<-p.sig
	case <-expired:
		p.abandon(context.DeadlineExceeded)
		<-p.sig
	}
}

// effDeadline is the request's effective deadline: its deadline field, or
// its context's, or zero for none.
func (p *pending) effDeadline() time.Time {
	if !p.deadline.IsZero() {
		return p.deadline
	}
	d, _ := p.ctx.Deadline()
	return d
}

// complete sets the terminal outcome once; later calls return false. The
// caller must hold a reference to a pooled record: the signal may let its
// waiter drop the waiter's reference at once.
func (p *pending) complete(resp wire.Response, err error) bool {
	if !p.state.CompareAndSwap(0, 1) {
		return false
	}
	p.finish(resp, err)
	return true
}

// finish records the terminal outcome claimed by the state CAS and signals
// it; whatever the outcome counts is counted before the signal.
func (p *pending) finish(resp wire.Response, err error) {
	p.resp, p.err = resp, err
	if p.counted { // before done, so a caller that saw the outcome sees it counted
		p.cl.m.terminal(err, p.admitted)
	}
	if !p.handle {
		p.sig <- struct{}{} // capacity 1, one send per use: never blocks
		return
	}
	p.mu.Lock()
	p.terminal = true
	done, ws := p.done, p.watching
	p.mu.Unlock()
	p.cond.Broadcast()
	if done != nil {
		close(done)
	}
	if ws != nil {
		ws <- struct{}{} // the watcher's own signal: empty, capacity 1
	}
}

// watch has one of the client's watcher goroutines abandon the handle p when
// its context ends before its terminal (see Client.watch).
func (p *pending) watch() { p.cl.watch(p) }

// abandon completes a written request whose deadline passed or whose caller
// cancelled: the bytes may have reached the broker, so it is PossiblySent.
// The request keeps its place on the connection until the response arrives
// (and is discarded); if none arrives within RequestTimeout of the write, the
// connection is closed as stalled. Requests not yet written are left to the
// send path, which reports them NotSent. The caller must hold a reference to
// a pooled record.
func (p *pending) abandon(cause error) {
	cn := p.cn
	if cn == nil {
		return
	}
	cn.mu.Lock()
	queued, answered := p.inQueue, p.answered
	cn.mu.Unlock()
	if !queued || answered {
		return
	}
	if !p.state.CompareAndSwap(0, 1) {
		return
	}
	if !p.internal { // counted before the terminal is signalled
		p.cl.m.abandoned.Add(1)
		if d := p.effDeadline(); !d.IsZero() && cause == context.DeadlineExceeded {
			p.cl.m.lat[stageDeadlineOverrun].observe(time.Since(d))
		}
	}
	p.finish(nil, reqErr(p.broker, p.info.Name, PossiblySent, ctxError(cause)))
	cn.watchStall(p)
}
