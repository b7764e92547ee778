package backoff

import (
	"context"
	"math/rand/v2"
	"time"
)

// maxShift caps the doubling so that first<<try cannot overflow.
const maxShift = 20

// Delay returns the wait before retry try+1 (try counts from 0): first
// doubled try times, capped at max (also when the shift overflows), then
// scaled by a uniform factor in [0.8, 1.2).
func Delay(first, max time.Duration, try int) time.Duration {
	d := first << min(try, maxShift)
	if d > max || d <= 0 {
		d = max
	}
	return time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
}

// Sleep waits d. It reports false at once when deadline is set (non-zero)
// and closer than d, and false when ctx ends or stop (nil: never) closes
// before d passes.
func Sleep(ctx context.Context, deadline time.Time, d time.Duration, stop <-chan struct{}) bool {
	if !deadline.IsZero() && time.Until(deadline) < d {
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-stop:
		return false
	}
}
