package producer

import (
	"context"
	"testing"
	"time"
)

// fakeReal is a real clock the test moves by hand.
type fakeReal struct {
	cur   time.Time
	reads int
}

func (f *fakeReal) Now() time.Time                  { f.reads++; return f.cur }
func (f *fakeReal) Since(t time.Time) time.Duration { f.reads++; return f.cur.Sub(t) }
func (f *fakeReal) advance(d time.Duration)         { f.cur = f.cur.Add(d) }

// fakeTicker ticks when the test sends on c (unbuffered: a second send
// returns only once the goroutine has handled the first tick) and reports
// Stop and Reset on buffered channels.
type fakeTicker struct {
	c             chan time.Time
	stops, resets chan struct{}
}

func newFakeTicker() *fakeTicker {
	return &fakeTicker{c: make(chan time.Time), stops: make(chan struct{}, 8), resets: make(chan struct{}, 8)}
}

func (t *fakeTicker) C() <-chan time.Time   { return t.c }
func (t *fakeTicker) Stop()                 { t.stops <- struct{}{} }
func (t *fakeTicker) Reset(d time.Duration) { t.resets <- struct{}{} }

// testClock returns a cold clock on a fake real clock whose goroutine is
// never run (the test calls tick itself); started reports whether it was
// asked to start.
func testClock() (*admitClock, *fakeReal, *bool) {
	fr := &fakeReal{cur: time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)}
	started := new(bool)
	c := &admitClock{}
	c.init(fr, func() clockTicker { return newFakeTicker() }, func(func()) { *started = true })
	return c, fr, started
}

// heat makes a cold clock hot with hotReads reads within a tick.
func heat(t *testing.T, c *admitClock, fr *fakeReal) {
	t.Helper()
	for i := 0; i < hotReads+1 && c.state.Load() == clockCold; i++ {
		fr.advance(time.Microsecond)
		if got, _ := c.nowLocked(); !got.Equal(fr.cur) {
			t.Fatalf("cold read %d: %v, want the real time %v", i, got, fr.cur)
		}
	}
	if c.state.Load() != clockFresh {
		t.Fatalf("state %d after %d quick reads, want fresh (hot)", c.state.Load(), hotReads+1)
	}
}

func TestClockColdReadsRealTime(t *testing.T) {
	c, fr, started := testClock()
	for i := 0; i < 3*hotReads; i++ {
		fr.advance(tickPeriod) // reads a tick apart or more: the clock stays cold
		got, ms := c.nowLocked()
		if !got.Equal(fr.cur) || ms != fr.cur.UnixMilli() {
			t.Fatalf("read %d: %v (%d ms), want the real %v", i, got, ms, fr.cur)
		}
	}
	if *started || c.state.Load() != clockCold {
		t.Fatalf("slow reads made the clock hot (started %v, state %d)", *started, c.state.Load())
	}
}

func TestClockHotUsesCachedTimeUntilTick(t *testing.T) {
	c, fr, started := testClock()
	heat(t, c, fr)
	if !*started {
		t.Fatal("hot clock did not start its goroutine")
	}
	cached := fr.cur
	fr.advance(300 * time.Microsecond)
	reads := fr.reads
	for i := 0; i < coolReads; i++ {
		if got, ms := c.nowLocked(); !got.Equal(cached) || ms != cached.UnixMilli() {
			t.Fatalf("hot read %d: %v, want the cached %v", i, got, cached)
		}
	}
	if fr.reads != reads {
		t.Fatalf("hot reads read the real clock %d times", fr.reads-reads)
	}
	idle := 0
	if !c.tick(&idle) {
		t.Fatal("a tick after reads made the clock cold")
	}
	if got, _ := c.nowLocked(); !got.Equal(fr.cur) {
		t.Fatalf("first read after a tick: %v, want the real %v", got, fr.cur)
	}
	fr.advance(100 * time.Microsecond)
	if got, _ := c.nowLocked(); got.Equal(fr.cur) {
		t.Fatal("second read after a tick read the real clock")
	}
}

// cachedReads reads a hot clock n times without moving the real one.
func cachedReads(c *admitClock, n int) {
	for range n {
		c.nowLocked()
	}
}

// TestClockBurstStaysCold: a burst of fewer than hotReads reads (a small
// transaction's records), and reads at a steady rate below hotReads per
// tick, leave the clock cold with no goroutine; each read is real.
func TestClockBurstStaysCold(t *testing.T) {
	c, fr, started := testClock()
	for i := 0; i < hotReads-1; i++ {
		fr.advance(time.Microsecond)
		if got, _ := c.nowLocked(); !got.Equal(fr.cur) {
			t.Fatalf("burst read %d: %v, want the real %v", i, got, fr.cur)
		}
	}
	fr.advance(tickPeriod)
	for i := 0; i < 10*hotReads; i++ {
		fr.advance(tickPeriod / (hotReads / 2)) // half the rate that heats it
		if got, _ := c.nowLocked(); !got.Equal(fr.cur) {
			t.Fatalf("steady read %d: %v, want the real %v", i, got, fr.cur)
		}
	}
	if *started || c.state.Load() != clockCold {
		t.Fatalf("reads below hotReads per tick made the clock hot (started %v, state %d)", *started, c.state.Load())
	}
}

// TestClockSparseReadsMakeItCold: a hot clock whose reads thin out below
// coolReads per tick goes cold at the first read after a tick, and its
// goroutine's next tick stops the ticker. The boundary: coolReads reads
// between two ticks keep it hot, coolReads-1 make it cold.
func TestClockSparseReadsMakeItCold(t *testing.T) {
	c, fr, _ := testClock()
	heat(t, c, fr)
	idle := 0
	cachedReads(c, coolReads)
	if !c.tick(&idle) {
		t.Fatal("a tick after dense reads made the clock cold")
	}
	fr.advance(tickPeriod)
	c.nowLocked()
	if s := c.state.Load(); s != clockFresh {
		t.Fatalf("state %d after %d reads between ticks, want fresh", s, coolReads)
	}
	cachedReads(c, coolReads-2)
	if !c.tick(&idle) {
		t.Fatal("a tick after reads made the clock cold")
	}
	fr.advance(tickPeriod)
	if got, _ := c.nowLocked(); !got.Equal(fr.cur) {
		t.Fatalf("first read after a tick: %v, want the real %v", got, fr.cur)
	}
	if s := c.state.Load(); s != clockCold {
		t.Fatalf("state %d after %d reads between ticks (the first one real), want cold", s, coolReads-1)
	}
	if c.tick(&idle) {
		t.Fatal("the tick after the clock went cold kept the ticker running")
	}
	fr.advance(time.Microsecond)
	if got, _ := c.nowLocked(); !got.Equal(fr.cur) {
		t.Fatalf("cold read: %v, want the real %v", got, fr.cur)
	}
}

// TestClockBusyStaysHot: a real read forced by maxCachedReads in the middle
// of a tick does not make a busy clock look sparse at the next tick.
func TestClockBusyStaysHot(t *testing.T) {
	c, fr, _ := testClock()
	heat(t, c, fr)
	idle := 0
	cachedReads(c, maxCachedReads+coolReads/2) // a real read after maxCachedReads, then a few more
	if !c.tick(&idle) {
		t.Fatal("a tick after reads made the clock cold")
	}
	fr.advance(tickPeriod)
	c.nowLocked()
	if s := c.state.Load(); s != clockFresh {
		t.Fatalf("state %d after %d reads in a tick, want fresh (hot)", s, maxCachedReads+coolReads/2)
	}
}

// TestClockStalenessBounded: with no tick at all (a starved ticker), a hot
// clock hands out one real read at most maxCachedReads times; invalidate
// ends the cached value at once.
func TestClockStalenessBounded(t *testing.T) {
	c, fr, _ := testClock()
	heat(t, c, fr)
	cached := fr.cur
	fr.advance(time.Hour)
	for i := 0; i < maxCachedReads; i++ {
		if got, _ := c.nowLocked(); !got.Equal(cached) {
			t.Fatalf("cached read %d: %v, want %v", i, got, cached)
		}
	}
	if got, _ := c.nowLocked(); !got.Equal(fr.cur) {
		t.Fatalf("read %d: %v, want the real %v", maxCachedReads+1, got, fr.cur)
	}
	fr.advance(time.Millisecond)
	c.invalidate()
	if got, _ := c.nowLocked(); !got.Equal(fr.cur) {
		t.Fatalf("read after invalidate: %v, want the real %v", got, fr.cur)
	}
}

func TestClockIdleTicksMakeItCold(t *testing.T) {
	c, fr, _ := testClock()
	heat(t, c, fr)
	idle := 0
	hot := 0
	for c.tick(&idle) {
		if hot++; hot > idleTicks+1 {
			t.Fatalf("still hot after %d ticks without reads", hot)
		}
	}
	if hot != idleTicks || c.state.Load() != clockCold {
		t.Fatalf("cold after %d ticks (state %d), want after %d idle ones", hot+1, c.state.Load(), idleTicks+1)
	}
	fr.advance(time.Minute)
	if got, _ := c.nowLocked(); !got.Equal(fr.cur) {
		t.Fatalf("cold read: %v, want the real %v", got, fr.cur)
	}
	// Quick reads make it hot again: the waiting goroutine gets one wake-up.
	heat(t, c, fr)
	if len(c.start) != 1 {
		t.Fatalf("%d wake-ups pending, want 1", len(c.start))
	}
}

// TestClockGoroutine runs the real goroutine on a fake ticker: it stops the
// ticker when reads stop, resets it when they resume, and ends on stop.
func TestClockGoroutine(t *testing.T) {
	fr := &fakeReal{cur: time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)}
	tk := newFakeTicker()
	c := &admitClock{}
	c.init(fr, func() clockTicker { return tk }, nil)
	c.handled = make(chan struct{})
	heat(t, c, fr)
	tick := func() { tk.c <- fr.cur; <-c.handled }
	cachedReads(c, coolReads) // dense enough to stay hot
	tick()
	if s := c.state.Load(); s != clockStale {
		t.Fatalf("state %d after a tick, want stale", s)
	}
	c.nowLocked()
	if s := c.state.Load(); s != clockFresh {
		t.Fatalf("state %d after a read, want fresh", s)
	}
	tick() // fresh → stale
	for i := 0; i < idleTicks; i++ {
		tick()
	}
	<-tk.stops // the idle ticks stopped the ticker
	if s := c.state.Load(); s != clockCold {
		t.Fatalf("state %d after idle ticks, want cold", s)
	}
	heat(t, c, fr)
	<-tk.resets // woken: the ticker runs again
	tick()
	c.nowLocked() // no read cached since the last real one: too sparse
	if s := c.state.Load(); s != clockCold {
		t.Fatalf("state %d after a sparse tick, want cold", s)
	}
	tick()
	<-tk.stops // the tick after a read cooled it stopped the ticker
	heat(t, c, fr)
	<-tk.resets
	tick()
	if s := c.state.Load(); s != clockStale {
		t.Fatalf("state %d after ticks, want stale", s)
	}
	select {
	case <-c.stopLocked():
	case <-time.After(10 * time.Second):
		t.Fatal("the clock goroutine did not end") // failure guard, not synchronization
	}
	<-tk.stops
	fr.advance(time.Millisecond)
	for i := 0; i < 2*hotReads; i++ {
		fr.advance(time.Microsecond)
		if got, _ := c.nowLocked(); !got.Equal(fr.cur) {
			t.Fatalf("read after stop: %v, want the real %v", got, fr.cur)
		}
	}
	if s := c.state.Load(); s != clockOff {
		t.Fatalf("state %d after stop and quick reads, want off", s)
	}
}

// TestCloseStopsClock: a producer whose clock went hot ends its goroutine
// in Close.
func TestCloseStopsClock(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	p, err := newProducer(f, Config{Linger: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("v")})
	// hotReads reads within a tick: real reads of ~30 ns, far inside 1ms
	// even under -race on a loaded machine (back-to-back Sends were not).
	p.mu.Lock()
	for i := 0; i < 100*hotReads && !p.clk.started; i++ {
		p.clk.nowLocked()
	}
	started := p.clk.started
	p.mu.Unlock()
	if !started {
		t.Fatalf("%d back-to-back reads did not make the clock hot", 100*hotReads)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := p.Close(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.clk.done:
	default:
		t.Fatal("the clock goroutine still runs after Close")
	}
	if s := p.clk.state.Load(); s != clockOff {
		t.Fatalf("clock state %d after Close, want off", s)
	}
}
