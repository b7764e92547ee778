package client

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// maxKeptWriteBuffer is the largest encoding buffer a connection keeps for
// reuse after a write; bigger ones are dropped. Produce requests splice
// their record batches out of the frame (wire.SplicedAppender, written with
// writev), so their frames stay small whatever the request size.
const maxKeptWriteBuffer = 1 << 20

// initialWriteBuffer is the capacity of a connection's first encoding
// buffer: most requests (ApiVersions, Metadata, ListOffsets, a Fetch of a
// few dozen partitions, a Produce frame without its spliced batches) fit,
// so the buffer is not regrown from nothing by append on every new
// connection.
const initialWriteBuffer = 512

// maxKeptReadBuffer is the largest response frame a connection's reader
// reads into its reused buffer (responses that keep nothing of their frame,
// wire.FrameFreeResponder); bigger ones get a buffer of their own.
const maxKeptReadBuffer = 64 << 10

// maxKeptSplices bounds the splice and write-vector lists a connection keeps
// for reuse (one entry per spliced record batch).
const maxKeptSplices = 1024

// conn is one connection to a broker. Requests are written by one writer
// path (the wlock holder encodes into wbuf and writes) in correlation-ID
// order, at most MaxInFlightPerBroker at a time, and answered by a single
// reader goroutine that matches each response to the oldest outstanding
// request. Any violation closes the connection and fails every request on it.
type conn struct {
	cl     *Client
	nc     net.Conn
	addr   string
	broker int32 // node ID dialed for, or -1 for a bootstrap address
	lane   Lane  // the workload lane it serves

	// versions is what the broker advertised in ApiVersions; written once
	// during negotiation, before the connection is shared.
	versions apiVersions

	slots  chan struct{} // in-flight semaphore
	wlock  chan struct{} // the writer path; guards wbuf and corrID
	wbuf   []byte
	corrID int32
	// splices and wvec are the writer path's reusable lists for a frame
	// whose record batches are spliced in (see writeFrame).
	splices []wire.Splice
	wvec    [][]byte
	wbufs   net.Buffers

	// mu guards queue, closed, closeErr, idle and opened (lock order:
	// wlock, then mu).
	mu       sync.Mutex
	queue    pendingQueue // written (or being written), oldest first
	closed   bool
	closeErr error
	idle     chan struct{} // made by awaitIdle, closed when the queue empties

	// reauthAt is when the connection re-authenticates (KIP-368), in unix
	// nanoseconds; 0 for never. Set during negotiation, before the
	// connection is shared, and afterwards only under the writer path.
	reauthAt int64

	dead       chan struct{} // closed when the connection fails or closes
	readerDone chan struct{}
	lastUsed   atomic.Int64 // unix nanoseconds of the last write or read
	opened     bool         // guarded by mu: negotiation finished (counted in ConnMetrics.Opened)
	openedAt   time.Time    // when the socket connected; set in newConn (ConnClosedHook's Dur)
	hist       *histogram   // this broker's lane's latency histogram; set in newConn
}

func newConn(cl *Client, nc net.Conn, addr string, broker int32, lane Lane) *conn {
	cn := &conn{
		cl:         cl,
		nc:         nc,
		addr:       addr,
		broker:     broker,
		lane:       lane,
		slots:      make(chan struct{}, cl.cfg.MaxInFlightPerBroker),
		queue:      newPendingQueue(cl.cfg.MaxInFlightPerBroker),
		wlock:      make(chan struct{}, 1),
		dead:       make(chan struct{}),
		readerDone: make(chan struct{}),
	}
	cn.hist = cl.hists.get(broker, lane)
	cn.openedAt = time.Now()
	cn.lastUsed.Store(cn.openedAt.UnixNano())
	go cn.readLoop()
	return cn
}

// isDead reports whether the connection has failed or been closed.
func (cn *conn) isDead() bool {
	select {
	case <-cn.dead:
		return true
	default:
		return false
	}
}

// inFlight returns how many requests are outstanding (a load estimate).
func (cn *conn) inFlight() int { return len(cn.slots) }

// deadErr returns the error that closed the connection, for requests that
// were never written on it.
func (cn *conn) deadErr() error {
	cn.mu.Lock()
	defer cn.mu.Unlock()
	if cn.closeErr != nil {
		return cn.closeErr
	}
	return fmt.Errorf("%w: connection to %s closed", ErrTransport, cn.addr)
}

// send writes p on the connection. It returns nil when p is written (p then
// reaches its terminal through the reader, fail or abandon), or a NotSent
// *RequestError when no byte of p was written; p is then not completed.
// Waits for an in-flight slot or the writer path end with p's context or
// its deadline (a timer made only when a wait blocks).
func (cn *conn) send(p *pending) error {
	m := &p.cl.m
	ctx := p.ctx
	t0 := time.Now()
	exp := expiry{d: timerDeadline(ctx, p.deadline)}
	defer exp.stop()

	select {
	case cn.slots <- struct{}{}:
	default:
		m.workFull.Add(1)
		m.queuedWork.Add(1)
		select {
		case cn.slots <- struct{}{}:
		case <-ctx.Done():
			m.queuedWork.Add(-1)
			return p.notSent(ctxError(ctx.Err()))
		case <-exp.C():
			m.queuedWork.Add(-1)
			return p.notSent(ctxError(context.DeadlineExceeded))
		case <-cn.dead:
			m.queuedWork.Add(-1)
			return p.notSent(cn.deadErr())
		}
		m.queuedWork.Add(-1)
	}
	m.lat[stageSlotWait].observe(time.Since(t0))
	select {
	case cn.wlock <- struct{}{}:
	default:
		select {
		case cn.wlock <- struct{}{}:
		case <-ctx.Done():
			<-cn.slots
			return p.notSent(ctxError(ctx.Err()))
		case <-exp.C():
			<-cn.slots
			return p.notSent(ctxError(context.DeadlineExceeded))
		case <-cn.dead:
			<-cn.slots
			return p.notSent(cn.deadErr())
		}
	}
	defer func() { <-cn.wlock }()
	t1 := time.Now()
	m.lat[stageWriterWait].observe(t1.Sub(t0))
	if cn.reauthAt != 0 && t1.UnixNano() >= cn.reauthAt {
		if err := cn.reauthenticate(p); err != nil {
			<-cn.slots
			return p.notSent(err)
		}
	}
	return cn.write(p, t1)
}

// write encodes p, queues it and writes it. The caller holds the writer
// path (wlock) and, unless p.noSlot, an in-flight slot, which write gives
// back when p is not written. t1 is when the writer path was taken.
func (cn *conn) write(p *pending, t1 time.Time) error {
	m := &p.cl.m
	ctx := p.ctx
	if cn.corrID == math.MaxInt32 {
		cn.corrID = 0
	}
	cn.corrID++
	p.corrID = cn.corrID
	if cn.wbuf == nil {
		cn.wbuf = make([]byte, 0, initialWriteBuffer)
	}
	buf, splices := appendRequestSpliced(cn.wbuf[:0], cn.splices[:0], p.info, p.version, p.corrID, &cn.cl.cfg.ClientID, p.req)
	if cap(buf) <= maxKeptWriteBuffer {
		cn.wbuf = buf[:0]
	} else {
		cn.wbuf = nil
	}
	defer cn.keepSplices(splices)
	m.lat[stageEncode].observe(time.Since(t1))

	cn.mu.Lock()
	if cn.closed {
		err := cn.closeErr
		cn.mu.Unlock()
		cn.releaseSlot(p)
		return p.notSent(err)
	}
	p.inQueue = true
	p.written = time.Now() // the moment bytes may start to leave
	p.ref()                // the connection's, dropped once the reader, fail or withdraw is done with p
	cn.queue.push(p)
	cn.mu.Unlock()
	d := p.effDeadline()
	hasDeadline := !d.IsZero()
	err := ctx.Err()
	if err == nil && hasDeadline && !time.Now().Before(d) {
		err = context.DeadlineExceeded
	}
	if err != nil {
		// The context ended (a watcher that fired before p was queued
		// ignored it): nothing is written yet, so withdraw p and keep the
		// connection, rather than have the write fail on its deadline.
		if cn.withdraw(p) {
			cn.releaseSlot(p)
			return p.notSent(ctxError(err))
		}
	}
	if hasDeadline {
		_ = cn.nc.SetWriteDeadline(d)
	} else {
		_ = cn.nc.SetWriteDeadline(time.Time{})
	}
	n, err := cn.writeFrame(buf, splices)
	cn.hist.bytesWritten.Add(uint64(n))
	if h := cn.cl.hooks; h.requestAny {
		cn.hookWritten(p, n, err)
	}
	if err != nil {
		cause := fmt.Errorf("%w: write to %s: %w", ErrTransport, cn.addr, err)
		if isTimeout(err) {
			ctxErr := ctx.Err()
			if ctxErr == nil && hasDeadline && !time.Now().Before(d) {
				ctxErr = context.DeadlineExceeded
			}
			if ctxErr != nil {
				cause = fmt.Errorf("%w: write to %s: %w", ctxError(ctxErr), cn.addr, err)
			}
		}
		if n == 0 && cn.withdraw(p) {
			cn.releaseSlot(p)
			cn.fail(fmt.Errorf("%w: write to %s: %w", ErrTransport, cn.addr, err))
			return p.notSent(cause)
		}
		cn.fail(cause)
		return nil
	}
	cn.lastUsed.Store(time.Now().UnixNano())
	return nil
}

// releaseSlot gives back p's in-flight slot (none for a re-authentication
// request, which is written while the connection is otherwise idle).
func (cn *conn) releaseSlot(p *pending) {
	if !p.noSlot {
		<-cn.slots
	}
}

// writeFrame writes the frame buf with splices inserted (one writev when the
// connection supports it) and returns how many bytes were written.
func (cn *conn) writeFrame(buf []byte, splices []wire.Splice) (int64, error) {
	if len(splices) == 0 {
		n, err := cn.nc.Write(buf)
		return int64(n), err
	}
	vec := cn.wvec[:0]
	prev := 0
	for _, s := range splices {
		if s.At > prev {
			vec = append(vec, buf[prev:s.At])
		}
		vec = append(vec, s.Bytes)
		prev = s.At
	}
	if prev < len(buf) {
		vec = append(vec, buf[prev:])
	}
	cn.wbufs = vec // WriteTo consumes cn.wbufs, not vec's backing array
	n, err := cn.wbufs.WriteTo(cn.nc)
	clear(vec) // do not keep the producer's batches reachable
	if cap(vec) <= 2*maxKeptSplices+1 {
		cn.wvec = vec[:0]
	} else {
		cn.wvec = nil
	}
	cn.wbufs = nil
	return n, err
}

// keepSplices keeps the splice list for the next frame, without its Bytes.
// Writer path only.
func (cn *conn) keepSplices(splices []wire.Splice) {
	clear(splices)
	if cap(splices) <= maxKeptSplices {
		cn.splices = splices[:0]
	} else {
		cn.splices = nil
	}
}

// appendRequestSpliced is appendRequest for a request that can leave its
// large byte fields out of the frame (wire.SplicedAppender): they are
// appended to splices (At counted from dst's start) and the size prefix
// counts them. Other requests are encoded whole, with no splices.
func appendRequestSpliced(dst []byte, splices []wire.Splice, info wire.APIInfo, v int16, corrID int32, clientID *string, req wire.Request) ([]byte, []wire.Splice) {
	sa, ok := req.(wire.SplicedAppender)
	if !ok {
		return appendRequest(dst, info, v, corrID, clientID, req), splices
	}
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	dst = wire.AppendRequestHeader(dst, info, v, corrID, clientID)
	first := len(splices)
	dst, splices = sa.AppendSplicedTo(dst, v, splices)
	size := len(dst) - start - 4
	for _, s := range splices[first:] {
		size += len(s.Bytes)
	}
	binary.BigEndian.PutUint32(dst[start:], uint32(size))
	return dst, splices
}

// appendRequest appends one size-prefixed request frame (size, header v1/v2,
// body at version v) to dst.
func appendRequest(dst []byte, info wire.APIInfo, v int16, corrID int32, clientID *string, req wire.Request) []byte {
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	dst = wire.AppendRequestHeader(dst, info, v, corrID, clientID)
	dst = req.AppendTo(dst, v)
	binary.BigEndian.PutUint32(dst[start:], uint32(len(dst)-start-4))
	return dst
}

// notSent is the failure of p when none of its bytes were written.
func (p *pending) notSent(err error) error { return reqErr(p.broker, p.info.Name, NotSent, err) }

// withdraw removes p, which must not have been written, from the queue. It
// reports false when p is no longer there or already has its terminal. The
// caller (send) holds its own reference to p, so dropping the connection's
// here never recycles p.
func (cn *conn) withdraw(p *pending) bool {
	cn.mu.Lock()
	if !p.inQueue || cn.queue.back() != p || p.state.Load() != 0 {
		cn.mu.Unlock()
		return false
	}
	cn.queue.popBack()
	p.inQueue = false
	cn.mu.Unlock()
	p.unref()
	return true
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// readLoop is the connection's single reader. It reads one size-prefixed
// frame at a time, checks the size against MaxResponseBytes before
// allocating, matches the correlation ID against the oldest outstanding
// request and decodes the response for it. Any failure closes the
// connection through fail.
func (cn *conn) readLoop() {
	defer close(cn.readerDone)
	br := bufio.NewReaderSize(cn.nc, 16<<10)
	var hdr [4]byte
	var rd wire.Reader // reused for every frame: one allocation per connection
	var scratch []byte // frames of responses that keep none of it (wire.FrameFreeResponder)
	maxBytes := cn.cl.cfg.MaxResponseBytes
	for {
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			cn.failRead(err)
			return
		}
		size := int32(binary.BigEndian.Uint32(hdr[:]))
		if size > maxBytes {
			cn.fail(withClass(classResponseTooLarge, fmt.Errorf("%w: response frame of %d bytes from %s exceeds MaxResponseBytes %d", ErrProtocol, size, cn.addr, maxBytes)))
			return
		}
		if size < 4 {
			cn.fail(fmt.Errorf("%w: response frame of %d bytes from %s is too short for a header", ErrProtocol, size, cn.addr))
			return
		}
		cn.mu.Lock()
		empty := cn.queue.len() == 0
		var frameFree bool
		var bufferer wire.FrameBufferer
		if !empty {
			front := cn.queue.front().req
			_, frameFree = front.(wire.FrameFreeResponder)
			bufferer, _ = front.(wire.FrameBufferer)
		}
		cn.mu.Unlock()
		if empty {
			cn.fail(fmt.Errorf("%w: unsolicited response frame from %s", ErrProtocol, cn.addr))
			return
		}
		var buf []byte
		if frameFree && size <= maxKeptReadBuffer {
			// The response will keep nothing of its frame (the oldest
			// request is the one it answers, or the frame fails the
			// connection): read it into the reader's own buffer.
			if cap(scratch) < int(size) {
				scratch = make([]byte, size)
			}
			buf = scratch[:size]
		} else if bufferer != nil {
			// The request supplies the frame's memory (a consumer
			// reusing its record blocks); it may alias the response.
			if buf = bufferer.FrameBuffer(int(size)); len(buf) != int(size) {
				buf = make([]byte, size)
			}
		} else {
			buf = make([]byte, size)
		}
		if _, err := io.ReadFull(br, buf); err != nil {
			cn.failRead(err)
			return
		}
		corr := int32(binary.BigEndian.Uint32(buf))
		cn.mu.Lock()
		if cn.closed {
			// Failed while the frame was read (a stall check, Close):
			// every request on it already has its terminal.
			cn.mu.Unlock()
			return
		}
		if cn.queue.len() == 0 {
			// The only request queued when the frame began was withdrawn
			// unwritten: nothing this frame can answer.
			cn.mu.Unlock()
			cn.fail(fmt.Errorf("%w: unsolicited response frame from %s", ErrProtocol, cn.addr))
			return
		}
		p := cn.queue.front()
		if p.corrID != corr {
			name, want := p.info.Name, p.corrID
			cn.mu.Unlock()
			cn.fail(fmt.Errorf("%w: response correlation ID %d from %s, but the oldest outstanding request (%s) has %d", ErrProtocol, corr, cn.addr, name, want))
			return
		}
		cn.queue.popFront()
		p.inQueue, p.answered = false, true
		stopped := cn.stopStallLocked(p)
		if cn.idle != nil && cn.queue.len() == 0 {
			close(cn.idle) // a re-authentication waits for this
			cn.idle = nil
		}
		cn.mu.Unlock()
		if stopped {
			p.unref() // the stall check's reference; the reader still holds one
		}
		cn.releaseSlot(p)
		cn.lastUsed.Store(time.Now().UnixNano())

		// The reader now holds the connection's reference to p: it
		// drops it after p's terminal and touches p no more.
		resp, err := decodeResponse(p, buf, &rd)
		if err != nil {
			err = fmt.Errorf("%w: decoding %s v%d response from %s: %w", ErrProtocol, p.info.Name, p.version, cn.addr, err)
			if h := cn.cl.hooks; h.requestAny {
				h.ResponseRead(RequestEvent{Broker: cn.broker, Lane: cn.lane, Key: p.info.Key, Version: p.version, Bytes: int(size) + 4, Latency: time.Since(p.written), Err: err})
			}
			p.complete(nil, reqErr(p.broker, p.info.Name, PossiblySent, err))
			p.unref()
			cn.fail(err)
			return
		}
		inFlight := time.Since(p.written)
		cn.hist.observe(inFlight, int(size)+4)
		if !p.internal {
			cn.cl.m.lat[stageInFlight].observe(inFlight)
		}
		if h := cn.cl.hooks; h.requestAny {
			cn.hookRead(p, resp, int(size)+4)
		}
		p.complete(resp, nil) // false when the caller abandoned it: discarded
		p.unref()
	}
}

// decodeResponse decodes a whole response frame (header and body) for p with
// r (reset to frame) and requires the body to be consumed exactly. (An
// ApiVersions UNSUPPORTED_VERSION answer in the v0 body format is handled by
// wire.ApiVersionsResponse.)
func decodeResponse(p *pending, frame []byte, r *wire.Reader) (wire.Response, error) {
	r.Reset(frame)
	wire.ReadResponseHeader(r, p.info, p.version)
	resp := p.req.ResponseFor()
	if err := resp.DecodeFrom(r, p.version); err != nil {
		return nil, err
	}
	if err := r.Complete(); err != nil {
		return nil, err
	}
	return resp, nil
}

// failRead closes the connection after a read error: a short read or reset
// is ErrTransport; a read on a connection we closed keeps the close cause.
func (cn *conn) failRead(err error) {
	if cn.isDead() {
		return
	}
	what := "read"
	if errors.Is(err, io.ErrUnexpectedEOF) {
		what = "short read (connection closed mid-frame)"
	} else if errors.Is(err, io.EOF) {
		what = "connection closed by broker"
	}
	cn.fail(fmt.Errorf("%w: %s from %s: %w", ErrTransport, what, cn.addr, err))
}

// fail closes the connection with cause and fails every outstanding request
// on it as PossiblySent. It is idempotent: the first cause wins.
func (cn *conn) fail(cause error) {
	cn.mu.Lock()
	if cn.closed {
		cn.mu.Unlock()
		return
	}
	cn.closed = true
	cn.closeErr = cause
	wasOpen, openedAt := cn.opened, cn.openedAt
	q := cn.queue.drain()
	var stopped []*pending // their stall checks stopped: drop those references
	for _, p := range q {
		p.inQueue, p.answered = false, true
		if cn.stopStallLocked(p) {
			stopped = append(stopped, p)
		}
	}
	cn.mu.Unlock()
	for _, p := range stopped {
		p.unref() // fail still holds the connection's reference to p
	}
	close(cn.dead)
	_ = cn.nc.Close()
	if wasOpen {
		cn.cl.m.connsClosed.Add(1)
		cn.cl.m.laneClosed[cn.lane].Add(1)
		cn.cl.hooks.ConnClosed(ConnEvent{Addr: cn.addr, Broker: cn.broker, Lane: cn.lane, Dur: time.Since(openedAt), Err: closeCause(cause)})
	}
	cn.logConnClosed(cause, len(q))
	for _, p := range q { // fail holds the connection's references to q
		p.complete(nil, reqErr(p.broker, p.info.Name, PossiblySent, cause))
		p.unref()
	}
	cn.cl.pool.forget(cn)
}

// watchStall closes the connection if p, abandoned by its caller, is still
// unanswered RequestTimeout after it was written: Kafka answers in order, so
// every later request on the connection waits behind it. The check holds its
// own reference to p (abandoned requests only: not the hot path). Its timer
// is p.stall until it fires: the answer or the connection's failure stops
// it (stopStallLocked), so that an abandoned request (a consumer's held
// Fetch at Close, with the record memory its response was to be read into)
// is not kept alive for RequestTimeout by a pending timer.
func (cn *conn) watchStall(p *pending) {
	p.ref()
	check := func() {
		defer p.unref()
		cn.mu.Lock()
		stalled := !p.answered && !cn.closed
		p.stall = nil
		cn.mu.Unlock()
		if stalled {
			cn.fail(fmt.Errorf("%w: no response from %s to %s (correlation ID %d) within RequestTimeout %v", ErrTransport, cn.addr, p.info.Name, p.corrID, cn.cl.cfg.RequestTimeout))
		}
	}
	wait := time.Until(p.written.Add(cn.cl.cfg.RequestTimeout))
	if wait <= 0 {
		check()
		return
	}
	cn.mu.Lock()
	if p.answered || cn.closed {
		cn.mu.Unlock()
		p.unref()
		return
	}
	p.stall = time.AfterFunc(wait, check)
	cn.mu.Unlock()
}

// stopStallLocked stops p's stall check (watchStall) when p is answered or
// its connection fails, and reports whether it did so before the check ran:
// the caller then drops the check's reference to p (unref, after cn.mu).
// Called with cn.mu held.
func (cn *conn) stopStallLocked(p *pending) bool {
	t := p.stall
	if t == nil {
		return false // the usual case: no pointer store on the reader's path
	}
	p.stall = nil
	return t.Stop()
}

// roundTrip sends req at version v as a connection-setup request (not a
// counted call) and waits for its response within ctx.
func (cn *conn) roundTrip(ctx context.Context, req wire.Request, info wire.APIInfo, v int16) (wire.Response, error) {
	return cn.setupCall(ctx, req, info, v, false)
}

// lockedRoundTrip is roundTrip for a caller that holds the writer path
// (re-authentication): the request is written at once, without an
// in-flight slot, since nothing else is in flight.
func (cn *conn) lockedRoundTrip(ctx context.Context, req wire.Request, info wire.APIInfo, v int16) (wire.Response, error) {
	return cn.setupCall(ctx, req, info, v, true)
}

// setupCall is roundTrip (locked false) and lockedRoundTrip (true).
func (cn *conn) setupCall(ctx context.Context, req wire.Request, info wire.APIInfo, v int16, locked bool) (wire.Response, error) {
	p := cn.cl.getPending(ctx, req, info, v, cn.broker, true)
	p.cn, p.noSlot = cn, locked
	var err error
	if locked {
		err = cn.write(p, time.Now())
	} else {
		err = cn.send(p)
	}
	if err != nil {
		p.unref()
		return nil, err
	}
	p.wait()
	resp, err := p.resp, p.err
	p.unref()
	return resp, err
}
