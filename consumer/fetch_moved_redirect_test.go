package consumer

import (
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// A moved partition's side-lane answer that sends it elsewhere (a leader
// naming a follower, or the follower it is read from out of range) keeps
// it moved, so it is not left waiting behind that broker's held session
// Fetch; an answer from where it stays ends the move.
func TestRedirectsLocked(t *testing.T) {
	now := time.Now()
	st := &partState{tp: tp0}
	part := func(err error, preferred int32) *fetchRespPart {
		p := fetchRespPart{Err: err}
		p.TopicPartition = tp0
		if preferred >= 0 {
			p.Preferred.set, p.Preferred.node = true, preferred
		}
		return &p
	}
	if !redirectsLocked(st, part(nil, 2), 1, now) {
		t.Error("the leader named follower 2: not redirected")
	}
	if redirectsLocked(st, part(nil, 1), 1, now) || redirectsLocked(st, part(nil, -1), 1, now) {
		t.Error("an answer naming the broker asked, or none: redirected")
	}
	st.replica.update(2, now, time.Hour)
	if !redirectsLocked(st, part(wire.ErrOffsetOutOfRange, -1), 2, now) {
		t.Error("out of range on the follower read from: not redirected")
	}
	if redirectsLocked(st, part(wire.ErrOffsetOutOfRange, -1), 1, now) || redirectsLocked(st, part(wire.ErrNotLeaderOrFollower, -1), 2, now) {
		t.Error("out of range on the leader, or another error: redirected")
	}
}
