package client

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gregor-kafka/gregor/internal/backoff"
	"github.com/gregor-kafka/gregor/wire"
)

// Client is a connection to one Kafka cluster, safe for concurrent use. It
// holds up to one connection per broker and workload lane (Lane), a
// metadata cache and a coordinator cache; see the package documentation.
type Client struct {
	// Ownership: the Client has no lock of its own. Fields marked "set in New"
	// are read-only afterwards; the others are atomics or values that guard
	// themselves (their own mutex, documented on their types).
	cfg    Config                                                            // set in New
	dialer func(ctx context.Context, network, addr string) (net.Conn, error) // set in New

	m     counters   // atomics (counters.prodMu for the producer sources)
	pool  pool       // pool.mu
	hooks *Hooks     // set in New, read-only after
	hists histograms // histograms.mu

	// pendings recycles the request records of Request and connection
	// setup (see pending); watchIn hands Enqueue'd requests to an idle
	// watcher goroutine (see watch).
	pendings sync.Pool
	watchIn  chan *pending // set in New
	closedCh chan struct{} // set in New, closed at once: Done of a handle after its terminal

	watchMu     sync.Mutex
	watchClosed bool           // watchMu: Close has begun, start no watcher
	watchers    sync.WaitGroup // running watcher goroutines

	meta  metaCache        // atomic snapshot; refreshes single-flight (see metaCache)
	rtts  roundTrips       // roundTrips.mu
	coord coordCache       // coordCache.mu
	rb    rebootstrapState // rebootstrapState.mu

	// apiVersionsCap, when not 0, is the highest ApiVersions version sent
	// (1+ the version): set to v3 after a broker hung up on a newer one
	// (see dialHangupFallback).
	apiVersionsCap atomic.Int32

	closed    atomic.Bool
	closeOnce sync.Once
	stop      chan struct{}  // set in New; closed by Close: background work and backoffs end
	bg        sync.WaitGroup // the reaper and telemetry goroutines
	tel       *telemetry     // set in New; nil when EnableMetricsPush is false
}

// New validates cfg, fills in defaults and returns a Client. It does not
// connect; Ready (or the first request) does. An invalid cfg yields an error
// wrapping ErrInvalidConfig that names the field.
func New(cfg Config) (*Client, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	c := &Client{cfg: cfg, stop: make(chan struct{}), watchIn: make(chan *pending), closedCh: make(chan struct{})}
	close(c.closedCh)
	c.hooks = newHooks(cfg.Hooks)
	c.pool.cl = c
	c.meta.cl = c
	c.coord.cl = c
	c.dialer = cfg.Dialer
	if c.dialer == nil {
		d := &net.Dialer{KeepAlive: 30 * time.Second}
		c.dialer = d.DialContext
	}
	c.bg.Add(1)
	go c.reaper()
	if cfg.EnableMetricsPush == nil || *cfg.EnableMetricsPush {
		c.tel = newTelemetry(c)
		c.bg.Add(1)
		go c.tel.run()
	}
	return c, nil
}

// reaper closes idle connections until Close.
func (c *Client) reaper() {
	defer c.bg.Done()
	every := min(c.cfg.ConnIdleTimeout/2, time.Minute)
	t := time.NewTicker(max(every, 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case now := <-t.C:
			c.pool.reapIdle(now.Add(-c.cfg.ConnIdleTimeout))
		}
	}
}

// Close stops background work, fails outstanding requests with ErrClosed
// (PossiblySent for written ones) and closes every connection. Later calls
// fail with ErrClosed, NotSent. Safe to call more than once; it returns nil.
// It does not wait on the network, except for the terminating
// PushTelemetry when the client pushes metrics (KIP-714), which it waits
// for at most 2s and never past ctx. Close producers and
// consumers first, they leave the client open; closed first, the client
// makes every object built on it fail its pending and later calls with
// errors matching ErrClosed (see Closed).
func (c *Client) Close(ctx context.Context) error {
	c.closeOnce.Do(func() {
		c.tel.terminate(ctx)
		c.closed.Store(true)
		close(c.stop)
		c.watchMu.Lock()
		c.watchClosed = true
		c.watchMu.Unlock()
		c.pool.close() // completes every watched request
		c.bg.Wait()
		c.watchers.Wait()
	})
	return nil
}

// Closed returns a channel that is closed when Close begins. Producers and
// consumers built on the client watch it: closed before them, they fail
// what is pending with an error matching ErrClosed (with its true
// certainty) at once instead of retrying until their deadlines.
func (c *Client) Closed() <-chan struct{} { return c.stop }

// Ready connects to a bootstrap broker, negotiates versions, authenticates,
// loads metadata (brokers, controller, cluster ID) and checks ExpectedClusterID, all within ctx.
// It returns the first failure (e.g. ErrAuthentication, ErrClusterIdentity,
// or ErrTransport when no bootstrap broker answers).
func (c *Client) Ready(ctx context.Context) error {
	ctx, cancel := c.opContext(ctx)
	defer cancel()
	_, err := c.meta.get(ctx, []string{}, true)
	return err
}

// opContext bounds an operation: the caller's deadline, or RequestTimeout
// from now when that is earlier (or the caller has none).
func (c *Client) opContext(ctx context.Context) (context.Context, context.CancelFunc) {
	d := time.Now().Add(c.cfg.RequestTimeout)
	if cd, ok := ctx.Deadline(); ok && cd.Before(d) {
		return ctx, func() {}
	}
	return context.WithDeadline(ctx, d)
}

// Request sends req to broker (a node ID, or AnyBroker) at the highest
// version both sides support and waits for the response within ctx (bounded
// by RequestTimeout when ctx has no earlier deadline). A response is returned
// whatever error codes it carries. Requests that fail before any byte is
// written (connect failure, connection lost while queued) are retried with
// backoff within the deadline; read-only requests (Metadata, FindCoordinator,
// ApiVersions, DescribeCluster and other describes/lists) are also retried
// after a transport failure. Failures are *RequestError values.
func (c *Client) Request(ctx context.Context, broker int32, req wire.Request) (wire.Response, error) {
	return c.do(ctx, broker, req, -1)
}

// RequestVersion is Request pinned to version v; it fails with
// ErrUnsupportedVersion (NotSent) when either side lacks v.
func (c *Client) RequestVersion(ctx context.Context, broker int32, req wire.Request, v int16) (wire.Response, error) {
	if v < 0 {
		return nil, reqErr(broker, apiName(req.Key()), NotSent, fmt.Errorf("%w: negative version %d", ErrUnsupportedVersion, v))
	}
	return c.do(ctx, broker, req, v)
}

// RequestController sends req to the controller metadata names (in KRaft,
// a broker that forwards to the active controller) and waits for the
// response, like Request.
func (c *Client) RequestController(ctx context.Context, req wire.Request) (wire.Response, error) {
	ctx, cancel := c.opContext(ctx)
	defer cancel()
	md, err := c.Metadata(ctx, []string{})
	if err != nil {
		return nil, err
	}
	id := md.ControllerID
	if id < 0 {
		id = AnyBroker
	}
	return c.do(ctx, id, req, -1)
}

// Enqueue queues req on broker's connection and returns once it is written,
// without waiting for the response; the Pending then completes with the
// response or a failure. Calls from one goroutine to one broker are written
// in call order (correlation IDs ascend). ctx bounds the wait for a
// connection and an in-flight slot and, with RequestTimeout when ctx has no
// earlier deadline, the response. An error return means nothing was written:
// it is a *RequestError with Certainty NotSent. Enqueue does not retry.
func (c *Client) Enqueue(ctx context.Context, broker int32, req wire.Request) (Pending, error) {
	admitted := time.Now()
	c.m.admitted.Add(1)
	ob := opBound{parent: ctx, deadline: c.effectiveDeadline(ctx, admitted)}
	p, err := c.attempt(&ob, broker, req, -1, admitted, handle)
	ob.release() // a derived context bounds only routing's slow path
	if err != nil {
		c.m.terminal(err, admitted)
		return nil, err
	}
	return p, nil
}

// StartCall is Enqueue for a caller that waits for the outcome itself and
// then hands the call back: the Call's Wait returns the response or the
// failure once, and Release (exactly once, after Wait) lets the client
// reuse the call's record, so a steady stream of calls allocates nothing
// (Enqueue's Pending, which its caller may keep, is one allocation per
// call). Written in call order per broker like Enqueue, never retried; ctx
// (with RequestTimeout when it has no earlier deadline) bounds the wait for
// a connection, the write and Wait. An error return means nothing was
// written: a *RequestError with Certainty NotSent, and no Call to release.
func (c *Client) StartCall(ctx context.Context, broker int32, req wire.Request) (Call, error) {
	admitted := time.Now()
	c.m.admitted.Add(1)
	ob := opBound{parent: ctx, deadline: c.effectiveDeadline(ctx, admitted)}
	p, err := c.attempt(&ob, broker, req, -1, admitted, pooledCall)
	ob.release()
	if err != nil {
		c.m.terminal(err, admitted)
		return nil, err
	}
	return (*call)(p), nil
}

// do runs one call: route, send, wait, retrying what is safe to retry
// within the operation's deadline. The call's outcome is counted once.
func (c *Client) do(ctx context.Context, broker int32, req wire.Request, pinned int16) (wire.Response, error) {
	admitted := time.Now()
	c.m.admitted.Add(1)
	ob := opBound{parent: ctx, deadline: c.effectiveDeadline(ctx, admitted)}
	defer ob.release()
	var (
		worst   = NotSent // certainty never improves across tries
		prev    error     // the last failure other than the deadline
		refused int       // tries in a row every bootstrap address refused
	)
	for try := 0; ; try++ {
		p, err := c.attempt(&ob, broker, req, pinned, admitted, pooled)
		if err == nil {
			p.wait()
			resp, perr := p.resp, p.err
			p.unref()
			if perr == nil {
				c.m.terminal(nil, admitted)
				return resp, nil
			}
			err = perr
		}
		if CertaintyOf(err) == PossiblySent {
			worst = PossiblySent
		}
		ctxFail := errors.Is(err, ErrTimeout) || errors.Is(err, ErrCancelled)
		if !ctxFail {
			prev = err
		}
		if errors.As(err, new(refusedEverywhere)) {
			if refused++; refused > bootstrapRefusedRetries {
				err = reqErr(broker, apiName(req.Key()), worst, fmt.Errorf("%w (every bootstrap address refused the connection, %d tries)", unwrapReq(err), refused))
				c.m.terminal(err, admitted)
				return nil, err
			}
		} else {
			refused = 0
		}
		if !ctxFail && c.retriable(err, req.Key()) {
			c.logRetry(apiName(req.Key()), broker, try, err)
			if c.backoff(ctx, ob.deadline, try) {
				continue
			}
		}
		switch {
		case ctxFail && prev != nil:
			// The deadline ended the retries: say so, with the last
			// real failure as the cause.
			err = reqErr(broker, apiName(req.Key()), worst, fmt.Errorf("%w; last failure: %w", unwrapReq(err), unwrapReq(prev)))
		case CertaintyOf(err) != worst:
			err = reqErr(broker, apiName(req.Key()), worst, unwrapReq(err))
		}
		c.m.terminal(err, admitted)
		return nil, err
	}
}

func unwrapReq(err error) error {
	var re *RequestError
	if errors.As(err, &re) {
		return re.Err
	}
	return err
}

// pendingKind is what attempt makes of a request.
type pendingKind uint8

const (
	// pooled: a pooled record the caller (do) waits for (wait) and then
	// drops (unref); do counts the call's outcome.
	pooled pendingKind = iota
	// handle (Enqueue): a handle whose completion counts the call's
	// outcome and which a watcher abandons when its context or deadline
	// ends.
	handle
	// pooledCall (StartCall): a pooled record whose completion counts the
	// call's outcome; the caller waits (Call.Wait) and drops it
	// (Call.Release).
	pooledCall
)

// attempt routes one try of req and sends it within the operation ob. It
// returns the written pending request (of the given kind), or a NotSent
// *RequestError. A live connection is used without deriving a context;
// dialing or refreshing metadata uses ob's bounded context.
func (c *Client) attempt(ob *opBound, broker int32, req wire.Request, pinned int16, admitted time.Time, kind pendingKind) (*pending, error) {
	ctx := ob.parent
	name := apiName(req.Key())
	if c.closed.Load() {
		c.m.closedRejections.Add(1)
		return nil, reqErr(broker, name, NotSent, ErrClosed)
	}
	t0 := time.Now()
	var err error
	lane := LaneOf(req.Key())
	dedicated := ""
	switch lane {
	case LaneGroup:
		dedicated = groupConnName(ctx)
	case LaneFetch:
		dedicated = fetchConnName(ctx)
	}
	cn := c.routeLive(broker, lane, dedicated)
	if cn == nil {
		cn, err = c.route(ob.get(), broker, lane, dedicated)
	}
	c.m.lat[stageRoute].observe(time.Since(t0))
	if err != nil {
		return nil, reqErr(broker, name, NotSent, err)
	}
	var (
		info wire.APIInfo
		v    = pinned
	)
	if pinned >= 0 {
		info, err = cn.checkVersion(req.Key(), pinned)
	} else if info, v, err = cn.pickVersion(req.Key()); err == nil {
		if vc, ok := req.(wire.VersionCapper); ok {
			if c := vc.CapVersion(); c >= 0 && c < v {
				info, err = cn.checkVersion(req.Key(), c)
				v = c
			}
		}
	}
	if err == nil {
		err = checkFloor(req, info, v, cn.addr)
	}
	if err != nil {
		return nil, reqErr(broker, name, NotSent, err)
	}
	var p *pending
	if kind == handle {
		p = c.newPending(ctx, req, info, v, broker, false)
	} else {
		p = c.getPending(ctx, req, info, v, broker, false)
	}
	p.cn = cn
	p.counted = kind != pooled
	p.admitted = admitted
	p.deadline = ob.deadline
	if err := cn.send(p); err != nil {
		p.unref()
		return nil, err
	}
	if kind == handle { // Enqueue: nobody waits for it, so watch it; do and Call.Wait wait themselves
		p.watch()
	}
	return p, nil
}

// retriable reports whether a failed try of a request with key may be
// retried: always when nothing was sent over a failed or failing
// connection; after bytes may have left only for read-only requests.
// Exception to Classify, named: the client's own resend loop resends only
// what the connection lost (ErrTransport, ErrDNS, and ErrProtocol for a
// read-only request, on a fresh connection); an unknown broker or a Kafka
// code is the caller's to refresh and retry, and the deadline (ErrTimeout)
// ends the loop.
func (c *Client) retriable(err error, key wire.APIKey) bool {
	if c.closed.Load() || errors.Is(err, ErrClosed) || errors.Is(err, ErrTimeout) || errors.Is(err, ErrCancelled) {
		return false
	}
	if !errors.Is(err, ErrTransport) && !errors.Is(err, ErrDNS) && !(errors.Is(err, ErrProtocol) && readOnly(key)) {
		return false
	}
	return CertaintyOf(err) == NotSent || readOnly(key)
}

// readOnly lists the APIs that change nothing on the broker, so a retry
// after a possibly delivered try is harmless.
func readOnly(k wire.APIKey) bool {
	switch k {
	case wire.KeyMetadata, wire.KeyApiVersions, wire.KeyFindCoordinator, wire.KeyDescribeCluster,
		wire.KeyListOffsets, wire.KeyFetch, wire.KeyOffsetFetch, wire.KeyDescribeGroups,
		wire.KeyListGroups, wire.KeyDescribeConfigs, wire.KeyOffsetForLeaderEpoch, wire.KeyConsumerGroupDescribe:
		return true
	}
	return false
}

// backoff sleeps before retry try+1: RetryBackoff doubling per try up to
// RetryBackoffMax, with ±20% jitter (internal/backoff). It reports false
// when ctx or the deadline ends first or the client closes.
func (c *Client) backoff(ctx context.Context, deadline time.Time, try int) bool {
	if deadline.IsZero() { // every client operation has one; none means no time to wait
		return false
	}
	d := backoff.Delay(c.cfg.RetryBackoff, c.cfg.RetryBackoffMax, try)
	return backoff.Sleep(ctx, deadline, d, c.stop)
}

// apiName is Kafka's name for an API key, for errors and logs.
func apiName(k wire.APIKey) string {
	if info, ok := wire.LookupAPI(k); ok {
		return info.Name
	}
	return fmt.Sprintf("ApiKey(%d)", k)
}

// BrokerVersions returns the API version ranges broker (a node ID, or
// AnyBroker) advertised in ApiVersions, connecting first when needed. The
// map is the caller's to keep.
func (c *Client) BrokerVersions(ctx context.Context, broker int32) (map[wire.APIKey][2]int16, error) {
	ctx, cancel := c.opContext(ctx)
	defer cancel()
	if c.closed.Load() {
		return nil, reqErr(broker, "ApiVersions", NotSent, ErrClosed)
	}
	cn, err := c.route(ctx, broker, LaneControl, "")
	if err != nil {
		return nil, reqErr(broker, "ApiVersions", NotSent, err)
	}
	return cn.versions.asMap(), nil
}
