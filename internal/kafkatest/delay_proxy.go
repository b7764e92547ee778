package kafkatest

import (
	"fmt"
	"net"
	"sync"
	"time"
)

// DelayProxy is a TCP proxy that delays every byte by a fixed one-way
// latency in each direction, as a long link does: bytes are forwarded in
// arrival order once they are Delay old, with no bandwidth limit and no
// head-of-line wait (several requests may be on the wire at once).
// (testlab/faultproxy's Delay holds each frame in turn, which serializes a
// connection's frames.) The bench runs it in a process of its own so its
// CPU is not counted; tests run it in theirs.
type DelayProxy struct {
	ln    net.Listener
	delay time.Duration
	back  string
	wg    sync.WaitGroup
	mu    sync.Mutex
	conns []net.Conn // mu
}

// StartDelayProxy listens on front and forwards every connection to back,
// each direction delayed by delay. Close stops it.
func StartDelayProxy(front, back string, delay time.Duration) (*DelayProxy, error) {
	ln, err := net.Listen("tcp", front)
	if err != nil {
		return nil, fmt.Errorf("delay proxy: %w", err)
	}
	p := &DelayProxy{ln: ln, delay: delay, back: back}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// StartDelayProxies puts a DelayProxy of one-way delay in front of every
// broker's Proxied listener (ProxyFront to ProxyBackend), so a client
// bootstrapped from Bootstrap(Proxied) reaches every broker through the
// link. The returned function stops them. Only one set of proxies can
// listen on a cluster's fronts at a time.
func (c *Cluster) StartDelayProxies(delay time.Duration) (stop func(), err error) {
	var ps []*DelayProxy
	stop = func() {
		for _, p := range ps {
			p.Close()
		}
	}
	for _, id := range c.BrokerIDs() {
		front, back := c.ProxyFront(id), c.ProxyBackend(id)
		if front == "" || back == "" {
			stop()
			return nil, fmt.Errorf("delay proxy: broker %d has no Proxied listener", id)
		}
		p, err := StartDelayProxy(front, back, delay)
		if err != nil {
			stop()
			return nil, err
		}
		ps = append(ps, p)
	}
	return stop, nil
}

func (p *DelayProxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.back)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		p.wg.Add(4)
		go p.pipe(c, s)
		go p.pipe(s, c)
	}
}

// delayed is a run of bytes and when it may be forwarded.
type delayed struct {
	due time.Time
	b   []byte
}

// pipe forwards src to dst, each read delay later; it ends both
// connections when either side ends.
func (p *DelayProxy) pipe(src, dst net.Conn) {
	q := make(chan delayed, 4096)
	go func() {
		defer p.wg.Done()
		defer close(q)
		for {
			buf := make([]byte, 256<<10)
			n, err := src.Read(buf)
			if n > 0 {
				q <- delayed{time.Now().Add(p.delay), buf[:n]}
			}
			if err != nil {
				return
			}
		}
	}()
	defer p.wg.Done()
	defer src.Close()
	defer dst.Close()
	broken := false
	for d := range q { // drained to the end, so the reader never blocks
		if broken {
			continue
		}
		time.Sleep(time.Until(d.due)) // the link's latency, not synchronization
		if _, err := dst.Write(d.b); err != nil {
			broken = true
			src.Close()
		}
	}
}

// Close stops listening, ends every proxied connection and waits for the
// proxy's goroutines.
func (p *DelayProxy) Close() {
	_ = p.ln.Close() // a second Close finds it closed
	p.mu.Lock()
	for _, c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}
