package faultproxy

import (
	"errors"
	"fmt"
	"net"
	"syscall"
	"time"
)

// Cluster is what a Set needs of a test cluster (kafkatest.Cluster has it):
// the brokers, and per broker the Proxied listener's advertised front and
// bound backend.
type Cluster interface {
	BrokerIDs() []int32
	ProxyFront(id int32) string
	ProxyBackend(id int32) string
}

// Set is one proxy per broker of a cluster.
type Set struct {
	ids     []int32
	proxies map[int32]*Proxy
}

// StartSet starts a proxy on every broker's Proxied front, forwarding to its
// backend. A cluster without a Proxied listener is an error.
func StartSet(c Cluster, o Options) (*Set, error) {
	s := &Set{proxies: map[int32]*Proxy{}}
	for _, id := range c.BrokerIDs() {
		front, back := c.ProxyFront(id), c.ProxyBackend(id)
		if front == "" || back == "" {
			s.Close()
			return nil, fmt.Errorf("faultproxy: broker %d has no Proxied listener (a cluster started before it existed? restart it: make kafka-down kafka-up)", id)
		}
		p, err := Listen(front, back, o)
		for deadline := time.Now().Add(o.ListenWait); err != nil && errors.Is(err, syscall.EADDRINUSE) && time.Now().Before(deadline); {
			time.Sleep(50 * time.Millisecond) // polling a port another process holds; nothing to wait on
			p, err = Listen(front, back, o)
		}
		if err != nil {
			s.Close()
			return nil, err
		}
		s.ids = append(s.ids, id)
		s.proxies[id] = p
	}
	return s, nil
}

// Bootstrap returns every proxy's address, in broker order.
func (s *Set) Bootstrap() []string {
	var out []string
	for _, id := range s.ids {
		out = append(out, s.proxies[id].Addr())
	}
	return out
}

// Proxy returns broker id's proxy, or nil.
func (s *Set) Proxy(id int32) *Proxy { return s.proxies[id] }

// Group is one fault applied to several proxies.
type Group struct{ applied []*Applied }

// Apply applies f to the proxies of ids (none: every broker).
func (s *Set) Apply(f Fault, ids ...int32) (*Group, error) {
	if len(ids) == 0 {
		ids = s.ids
	}
	g := &Group{}
	for _, id := range ids {
		p := s.proxies[id]
		if p == nil {
			_, _ = g.Remove()
			return nil, fmt.Errorf("faultproxy: no proxy for broker %d", id)
		}
		a, err := p.Apply(f)
		if err != nil {
			_, _ = g.Remove()
			return nil, err
		}
		g.applied = append(g.applied, a)
	}
	return g, nil
}

// Remove removes the fault from every proxy it was applied to and returns
// their records.
func (g *Group) Remove() ([]Record, error) {
	var recs []Record
	var errs []error
	for _, a := range g.applied {
		r, err := a.Remove()
		recs = append(recs, r)
		errs = append(errs, err)
	}
	return recs, errors.Join(errs...)
}

// Records returns every proxy's records, in broker order.
func (s *Set) Records() []Record {
	var out []Record
	for _, id := range s.ids {
		out = append(out, s.proxies[id].Records()...)
	}
	return out
}

// Close closes every proxy and then checks that none is left behind: each
// front address refuses connections. It reports unpaired faults too.
func (s *Set) Close() error {
	var errs []error
	for _, id := range s.ids {
		errs = append(errs, s.proxies[id].Close())
	}
	for _, id := range s.ids {
		if c, err := net.DialTimeout("tcp", s.proxies[id].Addr(), time.Second); err == nil {
			c.Close()
			errs = append(errs, fmt.Errorf("faultproxy: %s still accepts after Close", s.proxies[id].Addr()))
		}
	}
	return errors.Join(errs...)
}

// Forwarded sums Proxy.Forwarded(api) over the set.
func (s *Set) Forwarded(api int16) int {
	n := 0
	for _, id := range s.ids {
		n += s.proxies[id].Forwarded(api)
	}
	return n
}
