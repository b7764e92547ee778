package consumer

import (
	"math"
	"slices"
	"testing"

	"github.com/gregor-kafka/gregor"
)

func sp(off int64) sessionPart {
	return sessionPart{FetchOffset: off, CurrentLeaderEpoch: 1, LastFetchedEpoch: -1, MaxBytes: 100}
}

func TestFetchSessionIncremental(t *testing.T) {
	a, b, c := gregor.TopicPartition{Topic: "t", Partition: 0}, gregor.TopicPartition{Topic: "t", Partition: 1}, gregor.TopicPartition{Topic: "u", Partition: 0}
	s := newFetchSession()

	p := s.build([]gregor.TopicPartition{a, b}, map[gregor.TopicPartition]sessionPart{a: sp(0), b: sp(5)})
	if !p.Full || p.SessionID != 0 || p.SessionEpoch != 0 || !slices.Equal(p.Parts, []gregor.TopicPartition{a, b}) {
		t.Fatalf("first plan %+v, want full with a, b", p)
	}
	s.succeeded(p, 42)

	// a advanced, b unchanged, c new.
	p = s.build([]gregor.TopicPartition{a, b, c}, map[gregor.TopicPartition]sessionPart{a: sp(3), b: sp(5), c: sp(0)})
	if p.Full || p.SessionID != 42 || p.SessionEpoch != 1 || !slices.Equal(p.Parts, []gregor.TopicPartition{a, c}) || len(p.Forgotten) != 0 {
		t.Fatalf("incremental plan %+v, want session 42 epoch 1 with a, c", p)
	}
	s.succeeded(p, 42)

	// b has buffered data (not wanted): forgotten; nothing else changed.
	p = s.build([]gregor.TopicPartition{a, c}, map[gregor.TopicPartition]sessionPart{a: sp(3), c: sp(0)})
	if p.SessionEpoch != 2 || len(p.Parts) != 0 || !slices.Equal(p.Forgotten, []gregor.TopicPartition{b}) {
		t.Fatalf("plan %+v, want epoch 2, no parts, b forgotten", p)
	}
	s.succeeded(p, 42)

	// A session error: the next request is full again and lists all.
	p = s.build([]gregor.TopicPartition{a, b, c}, map[gregor.TopicPartition]sessionPart{a: sp(3), b: sp(8), c: sp(0)})
	s.failed()
	p = s.build([]gregor.TopicPartition{a, b, c}, map[gregor.TopicPartition]sessionPart{a: sp(3), b: sp(8), c: sp(0)})
	if !p.Full || p.SessionID != 0 || p.SessionEpoch != 0 || len(p.Parts) != 3 {
		t.Fatalf("after failure %+v, want full", p)
	}
	// A broker that makes no session (ID 0) keeps every request full.
	s.succeeded(p, 0)
	p = s.build([]gregor.TopicPartition{a}, map[gregor.TopicPartition]sessionPart{a: sp(3)})
	if !p.Full || !slices.Equal(p.Parts, []gregor.TopicPartition{a}) {
		t.Fatalf("no-session plan %+v, want full", p)
	}
}

func TestFetchSessionEpochWraps(t *testing.T) {
	a := gregor.TopicPartition{Topic: "t", Partition: 0}
	s := newFetchSession()
	p := s.build([]gregor.TopicPartition{a}, map[gregor.TopicPartition]sessionPart{a: sp(0)})
	s.succeeded(p, 9)
	s.epoch = math.MaxInt32
	p = s.build([]gregor.TopicPartition{a}, map[gregor.TopicPartition]sessionPart{a: sp(0)})
	if p.SessionEpoch != math.MaxInt32 {
		t.Fatalf("epoch %d", p.SessionEpoch)
	}
	s.succeeded(p, 9)
	if s.epoch != 1 {
		t.Fatalf("epoch after MaxInt32 is %d, want 1", s.epoch)
	}
}
