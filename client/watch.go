package client

import (
	"context"
	"time"
)

// watcherIdle is how long a watcher goroutine waits for its next request
// before it exits.
const watcherIdle = 30 * time.Second

// watch has a watcher goroutine abandon the handle p (an Enqueue'd request)
// when its context or effective deadline ends before its terminal, so Done
// closes promptly on the deadline or the caller's cancellation. An idle
// watcher takes p over; only when every watcher is busy is a new one
// started, so a steady stream of requests is watched without allocating
// (context.AfterFunc would allocate its registration and two closures per
// request). Once Close has begun no watcher is started: Close fails every
// connection, which completes p.
func (c *Client) watch(p *pending) {
	select {
	case c.watchIn <- p:
		return
	default:
	}
	c.watchMu.Lock()
	if c.watchClosed {
		c.watchMu.Unlock()
		return
	}
	c.watchers.Add(1)
	c.watchMu.Unlock()
	go c.watcher(p)
}

// watcher watches p, then each request handed to it, until it has been idle
// for watcherIdle or the client is closed. It is done with a request at its
// terminal or when its context or deadline ends, whichever comes first (a
// request with neither is watched until its terminal). Its timers are
// reused from request to request.
func (c *Client) watcher(p *pending) {
	defer c.watchers.Done()
	idle := time.NewTimer(watcherIdle)
	defer idle.Stop()
	var dl *time.Timer
	defer func() {
		if dl != nil {
			dl.Stop()
		}
	}()
	ws := make(chan struct{}, 1) // signalled by the terminal of the request watched
	for {
		if p.watchBy(ws) {
			var expired <-chan time.Time
			if d := timerDeadline(p.ctx, p.deadline); !d.IsZero() {
				expired = resetTimer(&dl, d)
			}
			select {
			case <-ws:
			case <-p.ctx.Done():
				p.abandon(p.ctx.Err())
				p.unwatch(ws)
			case <-expired:
				p.abandon(context.DeadlineExceeded)
				p.unwatch(ws)
			}
			if expired != nil {
				dl.Stop()
			}
		}
		p = nil
		idle.Reset(watcherIdle)
		select {
		case p = <-c.watchIn:
		case <-idle.C:
			return
		case <-c.stop:
			return
		}
	}
}
