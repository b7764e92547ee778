package faultproxy

import (
	"encoding/binary"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"
)

// link is one proxied connection: the client's socket and the proxy's own
// connection to the backend. pending, lastResp, ring and trail are guarded
// by Proxy.mu.
type link struct {
	id             int
	clientID       string // the client_id of the link's first request
	client, broker net.Conn
	done           chan struct{} // closed by cut
	once           sync.Once

	pending  []meta      // requests forwarded or dropped, not yet answered, oldest first
	lastResp []byte      // the previous response frame read from the backend
	ring     []FrameNote // the last ringSize frames
	trail    []*trailing // records that want the next frames
}

type trailing struct {
	rec *Record
	n   int
}

const (
	ringSize  = 8
	trailSize = 4
)

// cut closes both sockets once; the pumps then end.
func (l *link) cut() {
	l.once.Do(func() {
		close(l.done)
		l.client.Close()
		l.broker.Close()
	})
}

// plan is what a pump does with one frame.
type plan struct {
	frame   []byte
	drop    bool
	hold    time.Duration
	holders []*active
	inject  []byte // written before frame
	cutAt   int    // ≥ 0: write this many bytes of frame, then cut
}

// pump forwards frames from src to dst in direction dir until either side
// fails or a fault cuts the connection.
func (p *Proxy) pump(l *link, dir Direction, src, dst net.Conn) {
	defer p.wg.Done()
	defer l.cut()
	for {
		f, err := readFrame(src, p.opts.MaxFrameBytes)
		if err != nil {
			return
		}
		pl := p.plan(l, dir, f)
		if pl.hold > 0 {
			t0 := time.Now()
			t := time.NewTimer(pl.hold)
			select {
			case <-t.C:
			case <-l.done:
				t.Stop()
				return
			}
			p.held(pl.holders, time.Since(t0))
		}
		if pl.drop {
			continue
		}
		if pl.inject != nil {
			if _, err := dst.Write(pl.inject); err != nil {
				return
			}
		}
		if pl.cutAt >= 0 {
			// Close the source first, so that nothing the other pump
			// forwards (an answer to this very request) slips past the cut.
			src.Close()
			if pl.cutAt > 0 {
				_, _ = dst.Write(pl.frame[:pl.cutAt])
			}
			return
		}
		if _, err := dst.Write(pl.frame); err != nil {
			return
		}
	}
}

func (p *Proxy) held(holders []*active, d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, a := range holders {
		if d > a.rec.MaxHold {
			a.rec.MaxHold = d
		}
	}
}

// skips reports whether a spares l: its client ID has one of the fault's
// SkipClientIDPrefixes.
func (a *active) skips(l *link) bool {
	for _, p := range a.f.SkipClientIDPrefixes {
		if strings.HasPrefix(l.clientID, p) {
			return true
		}
	}
	return false
}

func (a *active) matches(dir Direction, m meta) bool {
	if a.f.Dir != 0 && a.f.Dir != dir {
		return false
	}
	return a.f.API == AnyAPI || a.f.API == m.api
}

// plan decides, under p.mu, what happens to frame f and records it.
func (p *Proxy) plan(l *link, dir Direction, f []byte) plan {
	p.mu.Lock()
	defer p.mu.Unlock()
	var m meta
	if dir == ToBroker {
		m = requestMeta(f)
		l.pending = append(l.pending, m)
		if len(l.pending) == 1 && l.clientID == "" {
			l.clientID = requestClientID(f)
		}
	} else {
		m = meta{api: -1, version: -1, corr: responseCorr(f)}
		if len(l.pending) > 0 {
			m.api, m.version = l.pending[0].api, l.pending[0].version
			l.pending = l.pending[1:]
		}
	}
	pl := plan{frame: f, cutAt: -1}
	var did []string
	var fired []*active
	fire := func(a *active, what string) {
		a.rec.Fired++
		a.rec.Frames++
		a.rec.Bytes += int64(len(f))
		if !a.f.Every && a.f.frameTargeted() {
			a.spent = true
		}
		did = append(did, what)
		fired = append(fired, a)
	}
	for _, a := range p.active {
		if a.spent || a.skips(l) {
			continue
		}
		switch a.f.Kind {
		case Blackhole:
			pl.drop = true
			fire(a, "blackholed")
		case Delay:
			if a.f.Dir == dir {
				pl.hold += a.f.Delay
				pl.holders = append(pl.holders, a)
				fire(a, "delayed "+a.f.Delay.String())
			}
		case Stall:
			if a.matches(dir, m) {
				pl.hold += a.f.Delay
				pl.holders = append(pl.holders, a)
				fire(a, "stalled "+a.f.Delay.String())
			}
		case CutFrame:
			if a.matches(dir, m) && pl.cutAt < 0 {
				n := a.f.Bytes
				if n < 0 || n > len(f) {
					n = len(f)
				}
				pl.cutAt = n
				a.rec.Conns++
				fire(a, fmt.Sprintf("cut after %d of %d bytes", n, len(f)))
			}
		case WrongCorrelation:
			if dir == ToClient && a.matches(dir, m) && len(pl.frame) >= 8 {
				g := append([]byte(nil), pl.frame...)
				wrong := m.corr + 1_000_000
				binary.BigEndian.PutUint32(g[4:], uint32(wrong))
				pl.frame = g
				fire(a, fmt.Sprintf("correlation id %d rewritten to %d", m.corr, wrong))
			}
		case Replay:
			if dir == ToClient && a.matches(dir, m) && l.lastResp != nil {
				pl.inject = l.lastResp
				fire(a, fmt.Sprintf("replayed the previous response (correlation id %d, %d bytes) before correlation id %d", responseCorr(l.lastResp), len(l.lastResp), m.corr))
			}
		}
	}
	if dir == ToClient {
		l.lastResp = f
	} else if !pl.drop && pl.cutAt != 0 {
		p.sent[m.api]++ // counted before the write, so a cut cannot race the count
	}
	note := noteOf(l.id, dir, m, f)
	note.Fault = strings.Join(did, "; ")
	for _, t := range l.trail {
		if t.n > 0 && len(t.rec.Around) < maxAround {
			t.rec.Around = append(t.rec.Around, note)
		}
		t.n--
	}
	live := l.trail[:0]
	for _, t := range l.trail {
		if t.n > 0 {
			live = append(live, t)
		}
	}
	l.trail = live
	for i, a := range fired {
		a.rec.note(fmt.Sprintf("conn %d %s api %d v%d corr %d: %s", l.id, dir, m.api, m.version, m.corr, did[i]))
		if a.rec.Fired == 1 {
			for _, r := range l.ring {
				if len(a.rec.Around) < maxAround {
					a.rec.Around = append(a.rec.Around, r)
				}
			}
			if len(a.rec.Around) < maxAround {
				a.rec.Around = append(a.rec.Around, note)
			}
			l.trail = append(l.trail, &trailing{rec: a.rec, n: trailSize})
		}
	}
	l.ring = append(l.ring, note)
	if len(l.ring) > ringSize {
		l.ring = l.ring[len(l.ring)-ringSize:]
	}
	return pl
}

// Forwarded returns how many request frames of API api (AnyAPI: all) the
// proxy has decided to write to the backend, in whole or in part, since it
// started (counted before the write).
func (p *Proxy) Forwarded(api int16) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if api != AnyAPI {
		return p.sent[api]
	}
	n := 0
	for _, v := range p.sent {
		n += v
	}
	return n
}
