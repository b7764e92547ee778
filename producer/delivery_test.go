package producer

import (
	"sync"
	"testing"
)

// TestDeliveryDoneRacesFinish: whatever the interleaving of Done, Result and
// finish, every Done channel is closed and the terminal is set once.
func TestDeliveryDoneRacesFinish(t *testing.T) {
	for i := 0; i < 2000; i++ {
		d := &Delivery{}
		var wg sync.WaitGroup
		chans := make([]<-chan struct{}, 4)
		for j := range chans {
			wg.Add(1)
			go func() { defer wg.Done(); chans[j] = d.Done() }()
		}
		first := d.finish(Result{Offset: 7})
		second := d.finish(Result{Offset: 8})
		wg.Wait()
		if !first || second {
			t.Fatalf("finish reported %v then %v", first, second)
		}
		for _, c := range chans {
			<-c // hangs (test timeout) if a channel was never closed
		}
		if r, ok := d.Result(); !ok || r.Offset != 7 {
			t.Fatalf("result %+v %v", r, ok)
		}
		if CancelOutcome(0).String() != "unknown" || CancelledNotSent.String() != "cancelled_not_sent" || TooLate.String() != "too_late" || AlreadyTerminal.String() != "already_terminal" {
			t.Fatal("CancelOutcome strings")
		}
	}
}
