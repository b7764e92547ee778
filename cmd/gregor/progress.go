package main

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// startProgress prints "progress: <line>" every interval until stopped.
// line gets the time since the previous line and the count it returned
// then, and returns the text and the current count (for records/s).
func startProgress(w io.Writer, start time.Time, interval time.Duration, line func(d time.Duration, last int64) (string, int64)) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(interval)
		defer t.Stop()
		var lastN int64
		last := start
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				text, n := line(now.Sub(last), lastN)
				fmt.Fprintf(w, "progress: %s\n", text)
				lastN, last = n, now
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}
