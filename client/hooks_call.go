package client

import (
	"errors"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// hookWritten reports p's write (n bytes, err) to the RequestWrittenHooks.
// Called only when some request hook is registered.
func (cn *conn) hookWritten(p *pending, n int64, err error) {
	cn.cl.hooks.RequestWritten(RequestEvent{Broker: cn.broker, Lane: cn.lane, Key: p.info.Key, Version: p.version, Bytes: int(n), Latency: time.Since(p.written), Err: err})
}

// hookRead reports p's decoded response resp (a frame of size bytes) to
// the ResponseReadHooks, and its throttle to the ThrottleHooks. Called only
// when some request hook is registered.
func (cn *conn) hookRead(p *pending, resp wire.Response, size int) {
	h := cn.cl.hooks
	h.ResponseRead(RequestEvent{Broker: cn.broker, Lane: cn.lane, Key: p.info.Key, Version: p.version, Bytes: size, Latency: time.Since(p.written)})
	if len(h.throttle) > 0 {
		if ms := throttleMs(resp); ms > 0 {
			h.Throttle(cn.broker, p.info.Key, time.Duration(ms)*time.Millisecond)
		}
	}
}

// throttleMs returns the throttle_time_ms of the responses whose throttling
// matters to a client's throughput (Produce, Fetch, the share and group
// calls), 0 for others.
func throttleMs(resp wire.Response) int32 {
	switch r := resp.(type) {
	case *wire.ProduceResponse:
		return r.ThrottleTimeMs
	case *wire.FetchResponse:
		return r.ThrottleTimeMs
	case *wire.MetadataResponse:
		return r.ThrottleTimeMs
	case *wire.OffsetCommitResponse:
		return r.ThrottleTimeMs
	case *wire.HeartbeatResponse:
		return r.ThrottleTimeMs
	}
	return 0
}

// closeCause is the Err of a ConnClosedHook event: nil for a close the
// client chose (Close), else cause.
func closeCause(cause error) error {
	if errors.Is(cause, ErrClosed) {
		return nil
	}
	return cause
}
