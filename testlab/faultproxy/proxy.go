package faultproxy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"
)

// Options configure Listen. Zero values take the defaults.
type Options struct {
	// MaxFrameBytes bounds one frame; a larger one cuts the connection.
	// Default DefaultMaxFrameBytes.
	MaxFrameBytes int
	// DialTimeout bounds the dial to the backend. Default 5s.
	DialTimeout time.Duration
	// ListenWait is how long StartSet keeps retrying a front address that
	// is in use (another test process holding the shared cluster's
	// proxies), every 50ms. Default 0: fail at once.
	ListenWait time.Duration
}

// Proxy forwards connections accepted on its front address to its backend
// and applies faults to them. Safe for concurrent use.
type Proxy struct {
	front, backend string
	opts           Options
	ln             net.Listener
	wg             sync.WaitGroup // accept loop and pumps

	mu       sync.Mutex
	closed   bool          // guarded by mu
	links    map[int]*link // open connections, guarded by mu
	nextConn int           // guarded by mu
	active   []*active     // applied faults, guarded by mu
	records  []*Record     // every fault ever applied, guarded by mu
	accepted int           // connections accepted (refused included), guarded by mu
	sent     map[int16]int // request frames forwarded per API, guarded by mu
}

// active is an applied fault; its fields are guarded by Proxy.mu.
type active struct {
	f       Fault
	rec     *Record
	spent   bool // a once-only fault fired
	removed bool
}

// Listen starts a proxy accepting on front ("127.0.0.1:port"; port 0 picks
// one, see Addr) that forwards to backend. Close it when done.
func Listen(front, backend string, o Options) (*Proxy, error) {
	if o.MaxFrameBytes <= 0 {
		o.MaxFrameBytes = DefaultMaxFrameBytes
	}
	if o.DialTimeout <= 0 {
		o.DialTimeout = 5 * time.Second
	}
	ln, err := net.Listen("tcp", front)
	if err != nil {
		return nil, fmt.Errorf("faultproxy: listen %s: %w", front, err)
	}
	p := &Proxy{front: ln.Addr().String(), backend: backend, opts: o, ln: ln, links: map[int]*link{}, sent: map[int16]int{}}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Addr returns the address the proxy accepts on.
func (p *Proxy) Addr() string { return p.front }

// Backend returns the address the proxy forwards to.
func (p *Proxy) Backend() string { return p.backend }

// Conns returns the number of open proxied connections.
func (p *Proxy) Conns() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.links)
}

// Accepted returns how many connections the proxy has accepted (refused
// ones included).
func (p *Proxy) Accepted() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.accepted
}

// ErrUnpaired is returned (wrapped) by Close when a fault was applied but
// never removed, and by Applied.Remove on a second call.
var ErrUnpaired = errors.New("faultproxy: fault not applied and removed exactly once")

// Close stops accepting, cuts every connection, waits for the proxy's
// goroutines and reports faults still applied (ErrUnpaired).
func (p *Proxy) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	links := p.linksLocked()
	var open []string
	for _, a := range p.active {
		if !a.removed {
			open = append(open, a.f.String())
		}
	}
	p.mu.Unlock()
	err := p.ln.Close()
	for _, l := range links {
		l.cut()
	}
	p.wg.Wait()
	if len(open) > 0 {
		return errors.Join(err, fmt.Errorf("%w: %s still applied at Close: %v", ErrUnpaired, p.front, open))
	}
	return err
}

func (p *Proxy) linksLocked() []*link {
	out := make([]*link, 0, len(p.links))
	for _, l := range p.links {
		out = append(out, l)
	}
	return out
}

// Records returns a copy of the evidence of every fault applied so far, in
// the order applied.
func (p *Proxy) Records() []Record {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]Record, len(p.records))
	for i, r := range p.records {
		out[i] = copyRecord(r)
	}
	return out
}

func copyRecord(r *Record) Record {
	c := *r
	c.Notes = append([]string(nil), r.Notes...)
	c.Around = append([]FrameNote(nil), r.Around...)
	return c
}

// Applied is a fault in force; Remove ends it.
type Applied struct {
	p *Proxy
	a *active
}

// Apply puts f in force and returns its handle. CutAll cuts every open
// connection before Apply returns.
func (p *Proxy) Apply(f Fault) (*Applied, error) {
	if err := f.validate(); err != nil {
		return nil, err
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, fmt.Errorf("faultproxy: %s is closed", p.front)
	}
	rec := &Record{ID: len(p.records) + 1, Proxy: p.front, Fault: f, Applied: time.Now()}
	a := &active{f: f, rec: rec}
	p.records = append(p.records, rec)
	p.active = append(p.active, a)
	var cut []*link
	if f.Kind == CutAll {
		cut = p.linksLocked()
		rec.Fired, rec.Conns = len(cut), len(cut)
		rec.note(fmt.Sprintf("cut %d connection(s)", len(cut)))
	}
	p.mu.Unlock()
	for _, l := range cut {
		l.cut()
	}
	return &Applied{p: p, a: a}, nil
}

// Remove ends the fault and returns its evidence. A second Remove returns
// ErrUnpaired.
func (ap *Applied) Remove() (Record, error) {
	p := ap.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if ap.a.removed {
		return copyRecord(ap.a.rec), fmt.Errorf("%w: %s removed twice", ErrUnpaired, ap.a.f)
	}
	ap.a.removed = true
	ap.a.rec.Removed = time.Now()
	for i, a := range p.active {
		if a == ap.a {
			p.active = append(p.active[:i:i], p.active[i+1:]...)
			break
		}
	}
	return copyRecord(ap.a.rec), nil
}

// Record returns the fault's evidence so far.
func (ap *Applied) Record() Record {
	ap.p.mu.Lock()
	defer ap.p.mu.Unlock()
	return copyRecord(ap.a.rec)
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		p.accepted++
		var refuse *active
		for _, a := range p.active {
			if a.f.Kind == Refuse {
				refuse = a
			}
		}
		if refuse != nil || p.closed {
			if refuse != nil {
				refuse.rec.Fired++
				refuse.rec.Conns++
			}
			p.mu.Unlock()
			if tc, ok := c.(*net.TCPConn); ok {
				_ = tc.SetLinger(0)
			}
			c.Close()
			continue
		}
		p.nextConn++
		id := p.nextConn
		p.wg.Add(1)
		p.mu.Unlock()
		go p.serve(id, c)
	}
}

// serve dials the backend for client connection c and runs its two pumps.
func (p *Proxy) serve(id int, c net.Conn) {
	defer p.wg.Done()
	ctx, cancel := context.WithTimeout(context.Background(), p.opts.DialTimeout)
	b, err := (&net.Dialer{}).DialContext(ctx, "tcp", p.backend)
	cancel()
	if err != nil {
		c.Close()
		return
	}
	l := &link{id: id, client: c, broker: b, done: make(chan struct{})}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		l.cut()
		return
	}
	p.links[id] = l
	p.wg.Add(2)
	p.mu.Unlock()
	go p.pump(l, ToBroker, c, b)
	go p.pump(l, ToClient, b, c)
	<-l.done
	p.mu.Lock()
	delete(p.links, id)
	p.mu.Unlock()
}
