package producer

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
)

// TestDeliveryDoneRacesFinish: whatever the interleaving of Done, Result and
// finish, every Done channel is closed and the terminal is set once.
func TestDeliveryDoneRacesFinish(t *testing.T) {
	for i := 0; i < 2000; i++ {
		p := &Producer{}
		d := &Delivery{p: p}
		var wg sync.WaitGroup
		chans := make([]<-chan struct{}, 4)
		for j := range chans {
			wg.Add(1)
			go func() { defer wg.Done(); chans[j] = d.Done() }()
		}
		p.activeRecords = 2
		p.finishRecordLocked(&rec{d: d}, &outcome{}, 7, -1)
		p.finishRecordLocked(&rec{d: d}, &outcome{}, 8, -1)
		wg.Wait()
		if p.activeRecords != 1 || p.backlog.Load() != 1 {
			t.Fatalf("two finishes of one record: %d active, backlog %d; want 1 and 1", p.activeRecords, p.backlog.Load())
		}
		for _, c := range chans {
			<-c // hangs (test timeout) if a channel was never closed
		}
		if r, ok := d.Result(); !ok || r.Offset != 7 {
			t.Fatalf("result %+v %v", r, ok)
		}
		if len(p.watch) != 0 {
			t.Fatalf("%d watch channels left", len(p.watch))
		}
		if CancelOutcome(0).String() != "unknown" || CancelledNotSent.String() != "cancelled_not_sent" || TooLate.String() != "too_late" || AlreadyTerminal.String() != "already_terminal" {
			t.Fatal("CancelOutcome strings")
		}
	}
}

// TestTerminalBacklog: the gauge counts terminals decided but not yet read
// through Result or Wait. Done (a wake-up) does not read; a second read or
// concurrent readers do not count twice; a cancelled record is a terminal too.
func TestTerminalBacklog(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	p := newTestProducer(t, f, Config{Linger: time.Hour})
	backlog := func() int {
		var m client.ProducerMetrics
		p.fillMetrics(&m)
		return m.UnreadResults
	}
	ds := sendN(t, p, "t", 0, 4, 0)
	if got := backlog(); got != 0 {
		t.Fatalf("backlog %d before any terminal", got)
	}
	if o := ds[3].Cancel(); o != CancelledNotSent {
		t.Fatalf("cancel: %v", o)
	}
	if got := backlog(); got != 1 {
		t.Fatalf("backlog %d after a cancellation, want 1", got)
	}
	if err := p.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		<-d.Done()
	}
	if got := backlog(); got != 4 {
		t.Fatalf("backlog %d with 4 unread terminals, want 4", got)
	}
	if _, ok := ds[0].Result(); !ok {
		t.Fatal("no terminal")
	}
	ds[0].Result()
	if _, err := ds[1].Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := backlog(); got != 2 {
		t.Fatalf("backlog %d after reading 2 terminals (one twice), want 2", got)
	}
	var wg sync.WaitGroup
	for range 8 {
		for _, d := range ds[2:] {
			wg.Add(1)
			go func() { defer wg.Done(); d.Result() }()
		}
	}
	wg.Wait()
	if got := backlog(); got != 0 {
		t.Fatalf("backlog %d after every terminal was read, want 0", got)
	}
}
