package faultproxy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// fakeBroker answers every request frame with a response frame carrying the
// request's correlation ID and then the request's bytes after its header.
// Each connection's received bytes are reported on got when it ends.
type fakeBroker struct {
	ln  net.Listener
	got chan []byte
	wg  sync.WaitGroup
}

func newFakeBroker(t *testing.T) *fakeBroker {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b := &fakeBroker{ln: ln, got: make(chan []byte, 16)}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			b.wg.Add(1)
			go b.serve(c)
		}
	}()
	t.Cleanup(func() { ln.Close(); b.wg.Wait() })
	return b
}

func (b *fakeBroker) serve(c net.Conn) {
	defer b.wg.Done()
	defer c.Close()
	var all bytes.Buffer
	defer func() {
		select {
		case b.got <- all.Bytes():
		default:
		}
	}()
	for {
		var pre [4]byte
		n, err := io.ReadFull(c, pre[:])
		all.Write(pre[:n])
		if err != nil {
			return
		}
		body := make([]byte, binary.BigEndian.Uint32(pre[:]))
		n, err = io.ReadFull(c, body)
		all.Write(body[:n])
		if err != nil {
			return
		}
		resp := respFrame(int32(binary.BigEndian.Uint32(body[4:])), body[8:])
		if _, err := c.Write(resp); err != nil {
			return
		}
	}
}

func reqFrame(api, version int16, corr int32, payload string) []byte {
	f := make([]byte, 12, 12+len(payload))
	binary.BigEndian.PutUint32(f, uint32(8+len(payload)))
	binary.BigEndian.PutUint16(f[4:], uint16(api))
	binary.BigEndian.PutUint16(f[6:], uint16(version))
	binary.BigEndian.PutUint32(f[8:], uint32(corr))
	return append(f, payload...)
}

func respFrame(corr int32, payload []byte) []byte {
	f := make([]byte, 8, 8+len(payload))
	binary.BigEndian.PutUint32(f, uint32(4+len(payload)))
	binary.BigEndian.PutUint32(f[4:], uint32(corr))
	return append(f, payload...)
}

// setup starts a fake broker and a proxy in front of it.
func setup(t *testing.T) (*fakeBroker, *Proxy) {
	t.Helper()
	b := newFakeBroker(t)
	p, err := Listen("127.0.0.1:0", b.ln.Addr().String(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Error(err)
		}
	})
	return b, p
}

func dial(t *testing.T, p *Proxy) net.Conn {
	t.Helper()
	c, err := net.DialTimeout("tcp", p.Addr(), 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// roundTrip writes a request and reads one response frame within d.
func roundTrip(c net.Conn, api int16, corr int32, payload string, d time.Duration) ([]byte, error) {
	if _, err := c.Write(reqFrame(api, 1, corr, payload)); err != nil {
		return nil, err
	}
	return readResp(c, d)
}

func readResp(c net.Conn, d time.Duration) ([]byte, error) {
	_ = c.SetReadDeadline(time.Now().Add(d))
	return readFrame(c, 1<<20)
}

func apply(t *testing.T, p *Proxy, f Fault) *Applied {
	t.Helper()
	a, err := p.Apply(f)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func remove(t *testing.T, a *Applied) Record {
	t.Helper()
	r, err := a.Remove()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestForward(t *testing.T) {
	_, p := setup(t)
	c := dial(t, p)
	for corr := int32(1); corr <= 3; corr++ {
		resp, err := roundTrip(c, 18, corr, "hello", 2*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(resp, respFrame(corr, []byte("hello"))) {
			t.Fatalf("response %x", resp)
		}
	}
	if p.Conns() != 1 || p.Accepted() != 1 {
		t.Fatalf("conns %d accepted %d, want 1 1", p.Conns(), p.Accepted())
	}
}

func TestDelay(t *testing.T) {
	_, p := setup(t)
	c := dial(t, p)
	a := apply(t, p, Fault{Kind: Delay, Dir: ToClient, Delay: 150 * time.Millisecond})
	t0 := time.Now()
	if _, err := roundTrip(c, 3, 1, "x", 5*time.Second); err != nil {
		t.Fatal(err)
	}
	took := time.Since(t0)
	r := remove(t, a)
	if took < 150*time.Millisecond || r.MaxHold < 150*time.Millisecond || r.Frames != 1 || r.Fired != 1 {
		t.Fatalf("took %v, record %+v", took, r)
	}
	if r.Removed.Before(r.Applied) || r.Removed.IsZero() {
		t.Fatalf("applied %v removed %v", r.Applied, r.Removed)
	}
	if _, err := roundTrip(c, 3, 2, "x", 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if got := p.Records()[0]; got.Frames != 1 {
		t.Fatalf("frames after removal %d, want 1", got.Frames)
	}
}

func TestBlackhole(t *testing.T) {
	_, p := setup(t)
	c := dial(t, p)
	a := apply(t, p, Fault{Kind: Blackhole})
	if _, err := roundTrip(c, 0, 1, "lost", 300*time.Millisecond); !isTimeout(err) {
		t.Fatalf("blackholed request answered: %v", err)
	}
	r := remove(t, a)
	if r.Frames != 1 || r.Bytes != int64(len(reqFrame(0, 1, 1, "lost"))) {
		t.Fatalf("record %+v", r)
	}
	// The dropped request's answer never comes; a new request is answered.
	c2 := dial(t, p)
	if _, err := roundTrip(c2, 0, 2, "ok", 2*time.Second); err != nil {
		t.Fatal(err)
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func TestCutAll(t *testing.T) {
	_, p := setup(t)
	c1, c2 := dial(t, p), dial(t, p)
	for i, c := range []net.Conn{c1, c2} {
		if _, err := roundTrip(c, 3, int32(i), "", 2*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	a := apply(t, p, Fault{Kind: CutAll})
	for _, c := range []net.Conn{c1, c2} {
		if _, err := readResp(c, 2*time.Second); err == nil || isTimeout(err) {
			t.Fatalf("connection not cut: %v", err)
		}
	}
	if r := remove(t, a); r.Conns != 2 {
		t.Fatalf("record %+v, want 2 conns", r)
	}
	if _, err := roundTrip(dial(t, p), 3, 9, "", 2*time.Second); err != nil {
		t.Fatal(err)
	}
}

func TestCutRequestPartial(t *testing.T) {
	b, p := setup(t)
	c := dial(t, p)
	a := apply(t, p, Fault{Kind: CutFrame, Dir: ToBroker, API: 0, Bytes: 10})
	// A Metadata request (API 3) passes; the Produce request (API 0) is cut
	// after 10 of its bytes.
	if _, err := roundTrip(c, 3, 1, "md", 2*time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := roundTrip(c, 0, 2, "produce", 2*time.Second); err == nil || isTimeout(err) {
		t.Fatalf("cut request answered: %v", err)
	}
	got := <-b.got
	if p.Forwarded(0) != 1 || p.Forwarded(3) != 1 || p.Forwarded(AnyAPI) != 2 {
		t.Fatalf("forwarded produce %d metadata %d", p.Forwarded(0), p.Forwarded(3))
	}
	want := append(reqFrame(3, 1, 1, "md"), reqFrame(0, 1, 2, "produce")[:10]...)
	if !bytes.Equal(got, want) {
		t.Fatalf("broker got %x, want %x", got, want)
	}
	r := remove(t, a)
	if r.Conns != 1 || r.Fired != 1 || len(r.Around) < 2 || r.Around[len(r.Around)-1].Fault == "" {
		t.Fatalf("record %+v", r)
	}
	if r.Around[len(r.Around)-1].API != 0 || r.Around[len(r.Around)-1].Corr != 2 {
		t.Fatalf("evidence frame %+v", r.Around[len(r.Around)-1])
	}
}

func TestCutRequestBeforeAndAfter(t *testing.T) {
	for _, n := range []int{0, -1} {
		b, p := setup(t)
		c := dial(t, p)
		a := apply(t, p, Fault{Kind: CutFrame, Dir: ToBroker, API: AnyAPI, Bytes: n})
		if _, err := roundTrip(c, 0, 1, "produce", 2*time.Second); err == nil || isTimeout(err) {
			t.Fatalf("bytes=%d: cut request answered: %v", n, err)
		}
		got := <-b.got
		want := reqFrame(0, 1, 1, "produce")
		if n == 0 {
			want = nil
		}
		wantFw := 1
		if n == 0 {
			wantFw = 0
		}
		if fw := p.Forwarded(0); fw != wantFw {
			t.Fatalf("bytes=%d: forwarded %d produce frames", n, fw)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("bytes=%d: broker got %x, want %x", n, got, want)
		}
		remove(t, a)
	}
}

func TestCutResponsePartial(t *testing.T) {
	_, p := setup(t)
	c := dial(t, p)
	a := apply(t, p, Fault{Kind: CutFrame, Dir: ToClient, API: 3, Bytes: 6})
	if _, err := c.Write(reqFrame(3, 1, 7, "payload")); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
	got, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	if want := respFrame(7, []byte("payload"))[:6]; !bytes.Equal(got, want) {
		t.Fatalf("client got %x, want %x then EOF", got, want)
	}
	remove(t, a)
}

func TestRefuse(t *testing.T) {
	_, p := setup(t)
	a := apply(t, p, Fault{Kind: Refuse})
	// The kernel completes the handshake; the proxy then resets the
	// connection, which the dial or the first read reports.
	if c, err := net.DialTimeout("tcp", p.Addr(), 2*time.Second); err == nil {
		defer c.Close()
		if _, err := roundTrip(c, 3, 1, "", 2*time.Second); err == nil || isTimeout(err) {
			t.Fatalf("refused connection answered: %v", err)
		}
	}
	if r := remove(t, a); r.Conns != 1 {
		t.Fatalf("record %+v", r)
	}
	if _, err := roundTrip(dial(t, p), 3, 2, "", 2*time.Second); err != nil {
		t.Fatal(err)
	}
}

func TestWrongCorrelation(t *testing.T) {
	_, p := setup(t)
	c1, c2 := dial(t, p), dial(t, p)
	a := apply(t, p, Fault{Kind: WrongCorrelation, API: 1})
	resp, err := roundTrip(c1, 1, 5, "fetch", 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if got := responseCorr(resp); got != 1_000_005 {
		t.Fatalf("correlation id %d, want 1000005", got)
	}
	resp, err = roundTrip(c2, 1, 6, "fetch", 2*time.Second)
	if err != nil || responseCorr(resp) != 6 {
		t.Fatalf("second connection (fault fired once): corr %d %v", responseCorr(resp), err)
	}
	if r := remove(t, a); r.Fired != 1 || len(r.Notes) != 1 {
		t.Fatalf("record %+v", r)
	}
}

// TestSkipClientIDPrefixes: a fault with SkipClientIDPrefixes spares the
// connection whose first request names such a client ID, and fires on
// another's.
func TestSkipClientIDPrefixes(t *testing.T) {
	_, p := setup(t)
	java, other := dial(t, p), dial(t, p)
	a := apply(t, p, Fault{Kind: WrongCorrelation, API: 1, SkipClientIDPrefixes: []string{"java-"}})
	withID := func(id string) string { return string([]byte{0, byte(len(id))}) + id + "fetch" }
	for corr := int32(1); corr <= 3; corr++ {
		resp, err := roundTrip(java, 1, corr, withID("java-j0"), 2*time.Second)
		if err != nil || responseCorr(resp) != corr {
			t.Fatalf("spared connection: corr %d, want %d (%v)", responseCorr(resp), corr, err)
		}
	}
	resp, err := roundTrip(other, 1, 7, withID("g3"), 2*time.Second)
	if err != nil || responseCorr(resp) != 1_000_007 {
		t.Fatalf("other connection: corr %d, want 1000007 (%v)", responseCorr(resp), err)
	}
	if r := remove(t, a); r.Fired != 1 {
		t.Fatalf("record %+v, want fired once", r)
	}
	if requestClientID(reqFrame(1, 1, 1, "\xff\xff")) != "" || requestClientID(reqFrame(1, 1, 1, "\x00\x09short")) != "" {
		t.Fatal("a null or truncated client_id was parsed")
	}
}

func TestReplay(t *testing.T) {
	_, p := setup(t)
	c := dial(t, p)
	first, err := roundTrip(c, 0, 1, "one", 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	a := apply(t, p, Fault{Kind: Replay, API: 0})
	again, err := roundTrip(c, 0, 2, "two", 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, first) {
		t.Fatalf("got %x, want the replayed %x", again, first)
	}
	second, err := readResp(c, 2*time.Second)
	if err != nil || responseCorr(second) != 2 {
		t.Fatalf("real response: corr %d %v", responseCorr(second), err)
	}
	remove(t, a)
}

func TestStall(t *testing.T) {
	_, p := setup(t)
	c := dial(t, p)
	a := apply(t, p, Fault{Kind: Stall, Dir: ToClient, API: 0, Delay: 200 * time.Millisecond})
	if _, err := roundTrip(c, 0, 1, "", 100*time.Millisecond); !isTimeout(err) {
		t.Fatalf("stalled response arrived early: %v", err)
	}
	if _, err := readResp(c, 2*time.Second); err != nil {
		t.Fatalf("stall not bounded: %v", err)
	}
	t0 := time.Now()
	if _, err := roundTrip(c, 0, 2, "", 2*time.Second); err != nil {
		t.Fatal(err)
	}
	r := remove(t, a)
	if r.MaxHold < 200*time.Millisecond || r.Fired != 1 {
		t.Fatalf("record %+v (second response took %v)", r, time.Since(t0))
	}
}

func TestUnpaired(t *testing.T) {
	b := newFakeBroker(t)
	p, err := Listen("127.0.0.1:0", b.ln.Addr().String(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := apply(t, p, Fault{Kind: Refuse})
	apply(t, p, Fault{Kind: Blackhole})
	if _, err := a.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Remove(); !errors.Is(err, ErrUnpaired) {
		t.Fatalf("second Remove: %v", err)
	}
	if err := p.Close(); !errors.Is(err, ErrUnpaired) {
		t.Fatalf("Close with a fault applied: %v", err)
	}
	if _, err := p.Apply(Fault{Kind: Refuse}); err == nil {
		t.Fatal("Apply after Close succeeded")
	}
}

func TestInvalidFaults(t *testing.T) {
	_, p := setup(t)
	for _, f := range []Fault{
		{Kind: "nope"},
		{Kind: Delay, Delay: time.Second},
		{Kind: Stall, Dir: ToClient},
		{Kind: Stall, Dir: ToClient, Delay: MaxStall + 1},
		{Kind: CutFrame, Dir: ToBroker, Bytes: -2},
		{Kind: WrongCorrelation, Dir: ToBroker},
		{Kind: Blackhole, SkipClientIDPrefixes: []string{"java-"}},
	} {
		if _, err := p.Apply(f); err == nil {
			t.Errorf("%v applied", f)
		}
	}
}

func TestOversizedFrameCuts(t *testing.T) {
	b := newFakeBroker(t)
	p, err := Listen("127.0.0.1:0", b.ln.Addr().String(), Options{MaxFrameBytes: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c := dial(t, p)
	if _, err := roundTrip(c, 0, 1, "far more than sixteen bytes", 2*time.Second); err == nil || isTimeout(err) {
		t.Fatalf("oversized frame forwarded: %v", err)
	}
}

type fakeCluster map[int32][2]string

func (f fakeCluster) BrokerIDs() []int32 { return []int32{1, 2} }

func (f fakeCluster) ProxyFront(id int32) string   { return f[id][0] }
func (f fakeCluster) ProxyBackend(id int32) string { return f[id][1] }

func TestSet(t *testing.T) {
	b1, b2 := newFakeBroker(t), newFakeBroker(t)
	s, err := StartSet(fakeCluster{1: {"127.0.0.1:0", b1.ln.Addr().String()}, 2: {"127.0.0.1:0", b2.ln.Addr().String()}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	boot := s.Bootstrap()
	if len(boot) != 2 {
		t.Fatalf("bootstrap %v", boot)
	}
	g, err := s.Apply(Fault{Kind: Refuse}, 2)
	if err != nil {
		t.Fatal(err)
	}
	c1, err := net.Dial("tcp", boot[0])
	if err != nil {
		t.Fatal(err)
	}
	defer c1.Close()
	if _, err := roundTrip(c1, 3, 1, "", 2*time.Second); err != nil {
		t.Fatalf("broker 1 unaffected: %v", err)
	}
	recs, err := g.Remove()
	if err != nil || len(recs) != 1 {
		t.Fatalf("%v %v", recs, err)
	}
	if _, err := s.Apply(Fault{Kind: Refuse}, 9); err == nil {
		t.Fatal("applied to a broker without proxy")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if len(s.Records()) != 1 {
		t.Fatalf("records %v", s.Records())
	}
	if _, err := StartSet(fakeCluster{1: {"", ""}}, Options{}); err == nil {
		t.Fatal("a cluster without Proxied listeners accepted")
	}
}

func TestSetListenWait(t *testing.T) {
	b := newFakeBroker(t)
	holder, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fc := fakeCluster{1: {holder.Addr().String(), b.ln.Addr().String()}, 2: {"127.0.0.1:0", b.ln.Addr().String()}}
	if _, err := StartSet(fc, Options{}); err == nil {
		t.Fatal("StartSet on a front in use succeeded")
	}
	done := make(chan error, 1)
	go func() {
		s, err := StartSet(fc, Options{ListenWait: 10 * time.Second})
		if err == nil {
			err = s.Close()
		}
		done <- err
	}()
	holder.Close() // the other holder lets go; StartSet gets the port
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
