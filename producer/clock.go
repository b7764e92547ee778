package producer

import (
	"sync/atomic"
	"time"
)

// admitClock is the producer's clock for admission: a record's CreateTime
// (Unix ms) and its batch's linger, delivery-deadline and last-admission
// times. Reading the real clock costs tens of nanoseconds on a virtual
// machine, a tenth of a small record's admission, so a busy producer reads
// it once per tick instead of once per record.
//
// The clock is cold (every read is a real one) until hotReads reads come
// within one tick. It then starts its ticker goroutine (the first time;
// later it wakes it) and is hot: a read returns the time of the last real
// read, and the first read after each tick, after maxCachedReads cached
// reads or after invalidate takes a real one again. A tick wakes a thread,
// which on an idle process costs about as much as a thousand real reads
// (on a busy one far less: its threads are awake), so the clock is hot
// only while reads are dense: the first read after a
// tick makes it cold when fewer than coolReads reads (cached or real) came
// since the first read after the tick before, and when a tick finds no read
// since the tick before, idleTicks times in a row, the goroutine makes it
// cold. A cold
// clock's goroutine stops its ticker and waits: an idle or slow producer
// spends nothing on ticks and gets exact times, and a burst of a few
// hundred records (a small transaction) does not start the ticker.
//
// Staleness bound: a hot read returns a time older than the real time by
// at most one tick (tickPeriod, 1ms) plus the ticker goroutine's
// scheduling delay, and by at most maxCachedReads reads, whichever comes
// first; a cold read is exact. As before, a real read is the wall time of
// a base (time.Now, taken again once a second old) plus the monotonic time
// since it, so times follow the monotonic clock and a wall-clock step shows
// within a second. Kafka timestamps are milliseconds, and Java's
// System.currentTimeMillis is as coarse on some platforms.
//
// Reads (nowLocked, readLocked, invalidate) run under the producer's lock;
// the ticker goroutine touches state only, atomically.
type admitClock struct {
	real      realClock          // set by init
	newTicker func() clockTicker // set by init: a running ticker of the tick period
	goFn      func(func())       // set by init: starts the goroutine
	state     atomic.Uint32      // clockCold, clockFresh, clockStale or clockOff
	start     chan struct{}      // set by init; capacity 1: wakes the cold goroutine
	quit      chan struct{}      // set by init; closed by stopLocked
	done      chan struct{}      // set by init; closed when the goroutine ends
	handled   chan struct{}      // tests: receives after each tick is handled (nil: not used)

	started bool      // lock: the goroutine was started
	base    time.Time // lock: the wall and monotonic reading real reads derive from
	t       time.Time // lock: the last real read
	ms      int64     // lock: t in Unix milliseconds
	reads   int       // lock: cached reads of t
	recent  int       // lock: reads since the first read after the last tick (or since heating)
	window  time.Time // lock: the first cold read of the current tick-long window
	near    int       // lock: cold reads since window
}

// Clock states (admitClock.state).
const (
	clockCold  uint32 = iota // every read is real; the goroutine waits (or was never started)
	clockFresh               // hot: t was read since the last tick
	clockStale               // hot: a tick came; the next read is real
	clockOff                 // stopped (Close): every read is real, forever
)

const (
	tickPeriod     = time.Millisecond
	hotReads       = 256  // cold reads within one tick that make the clock hot
	coolReads      = 128  // fewer reads between two ticks' first reads make a hot clock cold
	idleTicks      = 2    // ticks in a row without a read that make it cold
	maxCachedReads = 1024 // cached reads of one real read at most
	rebaseAfter    = time.Second
)

// realClock is the real time: time.Now and time.Since (a monotonic read
// only); tests substitute a fake.
type realClock interface {
	Now() time.Time
	Since(time.Time) time.Duration
}

// clockTicker is a running ticker: time.Ticker, or a test's fake.
type clockTicker interface {
	C() <-chan time.Time
	Stop()
	Reset(time.Duration)
}

type sysClock struct{}

func (sysClock) Now() time.Time                  { return time.Now() }
func (sysClock) Since(t time.Time) time.Duration { return time.Since(t) }

type sysTicker struct{ *time.Ticker }

func (t sysTicker) C() <-chan time.Time { return t.Ticker.C }

// init makes c a cold clock reading rc, whose goroutine uses tickers from
// newTicker and is started by goFn (nil: the real ones).
func (c *admitClock) init(rc realClock, newTicker func() clockTicker, goFn func(func())) {
	if rc == nil {
		rc = sysClock{}
	}
	if newTicker == nil {
		newTicker = func() clockTicker { return sysTicker{time.NewTicker(tickPeriod)} }
	}
	if goFn == nil {
		goFn = func(f func()) { go f() }
	}
	c.real, c.newTicker, c.goFn = rc, newTicker, goFn
	c.start, c.quit, c.done = make(chan struct{}, 1), make(chan struct{}), make(chan struct{})
}

// nowLocked returns the admission time and its Unix milliseconds: the last
// real read while the clock is hot and fresh, else a real read.
func (c *admitClock) nowLocked() (time.Time, int64) {
	if c.state.Load() == clockFresh && c.reads < maxCachedReads {
		c.reads++
		c.recent++
		return c.t, c.ms
	}
	return c.readLocked()
}

// readLocked reads the real clock: the monotonic time since the base, the
// base taken again (time.Now) when it is a second old. It makes a stale
// clock fresh (cold when reads have thinned out), and a cold one hot when
// reads come densely.
func (c *admitClock) readLocked() (time.Time, int64) {
	recent := c.recent
	c.recent++
	if el := c.real.Since(c.base); el >= rebaseAfter || el < 0 || c.base.IsZero() {
		c.base = c.real.Now()
		c.t = c.base
	} else {
		c.t = c.base.Add(el)
	}
	c.ms, c.reads = c.t.UnixMilli(), 0
	switch c.state.Load() {
	case clockStale:
		// The goroutine may make it cold meanwhile: the next read sees that.
		// Going cold here, the goroutine stops its ticker at the next tick.
		c.recent = 1
		if recent < coolReads {
			c.state.CompareAndSwap(clockStale, clockCold)
		} else {
			c.state.CompareAndSwap(clockStale, clockFresh)
		}
	case clockCold:
		if c.window.IsZero() || c.t.Sub(c.window) >= tickPeriod || c.t.Before(c.window) {
			c.window, c.near = c.t, 0
		}
		if c.near++; c.near >= hotReads {
			c.window = time.Time{}
			c.near, c.recent = 0, 0
			c.heatLocked()
		}
	}
	return c.t, c.ms
}

// heatLocked makes a cold clock hot: fresh (t was just read), its goroutine
// started or woken. The wake-up channel holds one, so at most one wake-up
// is ever pending; one sent while the goroutine still ticks (a read made
// the clock cold and a burst made it hot again before the next tick) is
// taken when it next waits, and costs one extra tick.
func (c *admitClock) heatLocked() {
	c.state.Store(clockFresh)
	if !c.started {
		c.started = true
		c.goFn(c.run)
		return
	}
	select {
	case c.start <- struct{}{}:
	default:
	}
}

// invalidate makes the next read a real one (the producer observed
// something, an error or metadata, that admission times are compared with:
// a record admitted afterwards must be dated afterwards).
func (c *admitClock) invalidate() { c.state.CompareAndSwap(clockFresh, clockStale) }

// stopLocked turns the clock off (every later read is real) and stops its
// goroutine; the returned channel is closed once it has ended.
func (c *admitClock) stopLocked() <-chan struct{} {
	if c.state.Swap(clockOff) == clockOff {
		return c.done
	}
	close(c.quit)
	if !c.started {
		close(c.done)
	}
	return c.done
}

// run is the ticker goroutine: it marks the clock stale at each tick while
// reads come, and makes it cold (ticker stopped) when they stop.
func (c *admitClock) run() {
	defer close(c.done)
	tk := c.newTicker()
	idle := 0
	for {
		select {
		case <-tk.C():
			hot := c.tick(&idle)
			if !hot {
				tk.Stop()
			}
			if c.handled != nil {
				c.handled <- struct{}{}
			}
			if hot {
				continue
			}
			select {
			case <-c.start:
				tk.Reset(tickPeriod)
			case <-c.quit:
				return
			}
		case <-c.quit:
			tk.Stop()
			return
		}
	}
}

// tick handles one tick and reports whether the clock stays hot; idle
// counts the ticks in a row that found no read.
func (c *admitClock) tick(idle *int) bool {
	if c.state.CompareAndSwap(clockFresh, clockStale) {
		*idle = 0
		return true
	}
	if c.state.Load() != clockStale {
		*idle = 0
		return false // cold (a read found reads too sparse) or off (quit is closed)
	}
	if *idle++; *idle < idleTicks {
		return true
	}
	*idle = 0
	// A read may have made it fresh meanwhile: then it stays hot.
	return !c.state.CompareAndSwap(clockStale, clockCold)
}
