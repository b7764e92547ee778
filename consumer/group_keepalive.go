package consumer

import (
	"context"
	"time"
)

// beatResult is what one background heartbeat found.
type beatResult int

const (
	beatOK     beatResult = iota // the coordinator knows the member; or an error the run goroutine handles
	beatMoved                    // no answer or the coordinator moved: it is looked up again
	beatFenced                   // the coordinator no longer knows the member at its generation or epoch
)

// keepAliveLoop heartbeats with beat every interval() (at once when wake
// fires) while the run goroutine or Close is busy in an assignment
// callback or a commit, which may take up to RebalanceTimeout, longer than
// the session timeout: Java's heartbeat thread does the same. A
// coordinator that stops answering or moved is looked up again (beat
// forgets it), so the member stays alive across a coordinator failover.
// A fence ends the loop at once and pauses every owned partition: they may
// be another member's already, so nothing more of them is delivered; stop
// then returns the fence's error and the caller loses them (Lost) when its
// callback has returned. stop ends the loop and waits for it.
func (g *Group) keepAliveLoop(ctx context.Context, interval func() time.Duration, wake <-chan struct{}, beat func(context.Context) (beatResult, error)) (stop func() (fenced error)) {
	kctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	var fence error // written by the loop before done closes, read after
	go func() {
		defer close(done)
		t := time.NewTimer(interval())
		defer t.Stop()
		for {
			select {
			case <-kctx.Done():
				return
			case <-wake:
			case <-t.C:
			}
			if r, err := beat(kctx); r == beatFenced && kctx.Err() == nil {
				fence = err
				g.pauseOwned()
				return
			}
			t.Reset(interval())
		}
	}()
	return func() error { cancel(); <-done; return fence }
}

// pauseOwned stops delivering every owned partition (they stay owned until
// revoked or lost).
func (g *Group) pauseOwned() {
	for _, tp := range g.ownedList() {
		_ = g.c.Pause(tp)
	}
}

// noKeepAlive is the stop of a keep-alive that did not start.
func noKeepAlive() error { return nil }
