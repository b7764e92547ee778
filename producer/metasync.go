package producer

import (
	"time"

	"github.com/gregor-kafka/gregor/client"
)

// metaSync is the producer's view of the client's metadata: the snapshot
// it applied last, one it set aside as stale, and its one background
// refresh at a time. Guarded by Producer.mu (the refresh goroutine takes
// the lock to finish).
type metaSync struct {
	last  *client.Metadata // applied by syncMetadataLocked; nil after a stale one is set aside
	stale *client.Metadata // invalidated by a broker error: not applied again
	// fetching: a refresh is running (needMetadataLocked); backoff: no refresh
	// starts before it.
	fetching bool
	backoff  time.Time
}

// changed reports whether md (the client's cached snapshot) is one the
// producer has neither applied nor set aside as stale.
func (s *metaSync) changed(md *client.Metadata) bool {
	return md != nil && md != s.last && md != s.stale
}

// invalidate sets the applied snapshot aside as stale: a broker answered
// that it is out of date, so it is not applied again.
func (s *metaSync) invalidate() {
	if s.last != nil {
		s.stale = s.last
	}
	s.last = nil
}

// fetchedAfter reports whether the applied snapshot was fetched after t.
func (s *metaSync) fetchedAfter(t time.Time) bool {
	return s.last != nil && s.last.Fetched.After(t)
}

// start reports whether a refresh may start now (none running, backoff
// passed) and marks it running; else it returns the time to look again
// (zero: when the running refresh ends).
func (s *metaSync) start(now time.Time) (bool, time.Time) {
	if s.fetching {
		return false, time.Time{}
	}
	if now.Before(s.backoff) {
		return false, s.backoff
	}
	s.fetching = true
	return true, time.Time{}
}

// finished ends the running refresh: a fresh snapshot (md, err nil) clears
// the stale mark unless it is the stale one again; the next refresh waits
// wait.
func (s *metaSync) finished(md *client.Metadata, err error, now time.Time, wait time.Duration) {
	s.fetching = false
	if err == nil && md != s.stale {
		s.stale = nil // a fresh snapshot: apply it
	}
	s.backoff = now.Add(wait)
}
