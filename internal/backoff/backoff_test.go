package backoff

import (
	"context"
	"testing"
	"time"
)

func TestDelayDoublesCapsAndJitters(t *testing.T) {
	first, max := 100*time.Millisecond, time.Second
	for try, want := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
		want *= time.Millisecond
		for range 50 {
			d := Delay(first, max, try)
			if lo, hi := want*8/10, want*12/10; d < lo || d >= hi {
				t.Fatalf("try %d: delay %v outside [%v, %v)", try, d, lo, hi)
			}
		}
	}
	if d := Delay(time.Hour, 2*time.Hour, 1000); d < 96*time.Minute || d >= 144*time.Minute {
		t.Fatalf("huge try: delay %v not capped at max", d)
	}
}

func TestSleepStopsEarly(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if Sleep(ctx, time.Time{}, time.Hour, nil) {
		t.Fatal("Sleep reported true after ctx ended")
	}
	if Sleep(context.Background(), time.Now().Add(time.Millisecond), time.Hour, nil) {
		t.Fatal("Sleep reported true with the deadline closer than the wait")
	}
	stop := make(chan struct{})
	close(stop)
	if Sleep(context.Background(), time.Time{}, time.Hour, stop) {
		t.Fatal("Sleep reported true after stop closed")
	}
	if !Sleep(context.Background(), time.Time{}, time.Microsecond, nil) {
		t.Fatal("Sleep reported false for a short wait with nothing ending")
	}
}
