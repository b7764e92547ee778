package client

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// pending is one request on its way through a connection. It reaches exactly
// one terminal outcome: complete is the only way to set resp/err, guarded by
// the state CAS, and closes done.
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

	ctx    context.Context    // carries the request's effective deadline
	cancel context.CancelFunc // releases ctx; called on completion
	stop   func() bool        // stops the ctx watcher

	cn       *conn
	inQueue  bool // guarded by cn.mu: in cn.queue (written or being written)
	answered bool // guarded by cn.mu: removed from the queue by the reader or fail

	state atomic.Uint32 // 0 open, 1 terminal
	done  chan struct{}
	resp  wire.Response
	err   error
}

var _ Pending = (*pending)(nil)

// Done is closed when Result is available.
func (p *pending) Done() <-chan struct{} { return p.done }

// Result waits for Done and returns the response or the failure (a
// *RequestError carrying a Certainty).
func (p *pending) Result() (wire.Response, error) {
	<-p.done
	return p.resp, p.err
}

// Version returns the API version the request was encoded with.
func (p *pending) Version() int16 { return p.version }

// complete sets the terminal outcome once; later calls return false.
func (p *pending) complete(resp wire.Response, err error) bool {
	if !p.state.CompareAndSwap(0, 1) {
		return false
	}
	p.resp, p.err = resp, err
	p.release()
	if p.counted { // before done, so a caller that saw the outcome sees it counted
		p.cl.m.terminal(err, p.admitted)
	}
	close(p.done)
	return true
}

// release stops the deadline watcher and frees the request's context.
func (p *pending) release() {
	if p.stop != nil {
		p.stop()
	}
	if p.cancel != nil {
		p.cancel()
	}
}

// watch arranges for the request to be abandoned when its context ends.
func (p *pending) watch() {
	p.stop = context.AfterFunc(p.ctx, func() { p.abandon(p.ctx.Err()) })
}

// abandon completes a written request whose deadline passed or whose caller
// cancelled: the bytes may have reached the broker, so it is PossiblySent.
// The request keeps its place on the connection until the response arrives
// (and is discarded); if none arrives within RequestTimeout of the write, the
// connection is closed as stalled. Requests not yet written are left to the
// send path, which reports them NotSent.
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
	err := reqErr(p.broker, p.info.Name, PossiblySent, ctxError(cause))
	if !p.complete(nil, err) {
		return
	}
	if !p.internal {
		p.cl.m.abandoned.Add(1)
		if d, ok := p.ctx.Deadline(); ok && cause == context.DeadlineExceeded {
			p.cl.m.lat[stageDeadlineLateness].observe(time.Since(d))
		}
	}
	cn.watchStall(p)
}
