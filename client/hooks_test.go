package client

import (
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// recorder keeps every event it is given.
type recorder struct {
	mu       sync.Mutex
	opened   []ConnEvent
	closed   []ConnEvent
	written  []RequestEvent
	read     []RequestEvent
	throttle []time.Duration
}

func (r *recorder) OnConnOpened(ev ConnEvent) {
	r.mu.Lock()
	r.opened = append(r.opened, ev)
	r.mu.Unlock()
}
func (r *recorder) OnConnClosed(ev ConnEvent) {
	r.mu.Lock()
	r.closed = append(r.closed, ev)
	r.mu.Unlock()
}
func (r *recorder) OnRequestWritten(ev RequestEvent) {
	r.mu.Lock()
	r.written = append(r.written, ev)
	r.mu.Unlock()
}
func (r *recorder) OnResponseRead(ev RequestEvent) {
	r.mu.Lock()
	r.read = append(r.read, ev)
	r.mu.Unlock()
}
func (r *recorder) OnThrottle(broker int32, key wire.APIKey, d time.Duration) {
	r.mu.Lock()
	r.throttle = append(r.throttle, d)
	r.mu.Unlock()
}

// TestHooksSortedByInterface: a hook is called for exactly the interfaces
// it implements; values implementing none are ignored.
func TestHooksSortedByInterface(t *testing.T) {
	h := newHooks([]Hook{&recorder{}, &recorder{}, 42, nil})
	if len(h.reqWritten) != 2 || len(h.respRead) != 2 || len(h.connOpened) != 2 || len(h.throttle) != 2 || len(h.fetchBatch) != 0 {
		t.Fatalf("hooks sorted wrongly: %+v", h)
	}
	if h.Produce() || h.Fetch() || h.Assignments() || !h.requestAny {
		t.Fatal("wrong presence flags")
	}
	var none *Hooks
	none.ConnOpened(ConnEvent{}) // a nil *Hooks is a no-op
	if none.Produce() || none.Fetch() {
		t.Fatal("nil hooks report presence")
	}
}
