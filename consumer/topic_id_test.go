package consumer

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// idFake is a fakeBroker whose metadata can give topic "t" another topic
// ID (recreated) or leave it out (deleted), and counts Metadata calls.
type idFake struct {
	*fakeBroker
	mu    sync.Mutex
	id    wire.UUID // non-zero: topic t's ID
	gone  bool      // topic t is not listed
	calls int
}

func (f *idFake) Metadata(ctx context.Context, topics []string) (*client.Metadata, error) {
	md, err := f.fakeBroker.Metadata(ctx, topics)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if tm := md.Topics[tp0.Topic]; tm != nil {
		if !f.id.IsZero() {
			tm.ID = f.id
		}
		if f.gone {
			delete(md.Topics, tp0.Topic)
		}
	}
	return md, err
}

func (f *idFake) set(id wire.UUID, gone bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.id, f.gone = id, gone
}

func (f *idFake) metadataCalls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

// expectTopicChange receives until an error and checks it is the topic
// change matching kind for tp0's topic and partitions [0].
func expectTopicChange(t *testing.T, c *Consumer, kind error) *TopicIDChangedError {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rs, err := c.Receive(ctx)
	var tc *TopicIDChangedError
	if len(rs) > 0 || !errors.As(err, &tc) || !errors.Is(err, kind) || tc.Topic != tp0.Topic || !slices.Equal(tc.Partitions, []int32{0}) {
		t.Fatalf("Receive = %v, %v; want a *TopicIDChangedError matching %v for %s", offsetsOf(rs), err, kind, tp0)
	}
	return tc
}

// TestTopicRecreatedRestartsPosition: a partition read to offset 10 whose
// topic metadata then shows under a new ID restarts under OffsetReset in
// the new topic (all its 15 records), after one notice; it does not go on
// at offset 10 of the new log.
func TestTopicRecreatedRestartsPosition(t *testing.T) {
	f := &idFake{fakeBroker: newFakeBroker(t)}
	f.append(tp0, dataBatch(0, 10))
	c := newTestConsumer(t, f, Config{})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 10), tp0, 0, 10)
	// Paused, nothing is fetched while the log is swapped for the new
	// topic's.
	if err := c.Pause(tp0); err != nil {
		t.Fatal(err)
	}
	old := c.Assignment()
	// A follower the old incarnation's leader chose (KIP-392) must not be
	// where the new topic's partition is read.
	c.mu.Lock()
	c.parts[tp0].replica.update(2, time.Now(), time.Hour)
	c.mu.Unlock()
	f.set(wire.UUID{0xee}, false)
	f.fakeBroker.mu.Lock()
	f.logs[tp0] = &fakeLog{batches: []tBatch{dataBatch(0, 15)}}
	// A Fetch still naming the old topic ID (sent before metadata shows
	// the new one) is refused, as Kafka refuses it (Fetch v13+): the fake
	// keeps no IDs of its own, so the answer is queued.
	f.partErr[tp0] = append(f.partErr[tp0], wire.ErrUnknownTopicID)
	f.fakeBroker.mu.Unlock()
	if err := c.Resume(tp0); err != nil {
		t.Fatal(err)
	}
	tc := expectTopicChange(t, c, ErrTopicRecreated)
	if tc.NewID != (wire.UUID{0xee}) || tc.OldID.IsZero() || tc.Stopped {
		t.Fatalf("notice %+v", tc)
	}
	c.mu.Lock()
	_, kept := c.parts[tp0].replica.get(time.Now())
	c.mu.Unlock()
	if kept {
		t.Fatal("the recreated topic's partition kept the old incarnation's preferred read replica")
	}
	wantOffsets(t, receiveN(t, c, 15), tp0, 0, 15)
	if old[0].Position != AtOffset(10) {
		t.Fatalf("position before the change %v", old[0].Position)
	}
}

// TestTopicDeletedNoticeNoLoop: a partition whose topic metadata no
// longer lists is reported once, at once, and metadata is then asked
// about once a second, not in a loop.
func TestTopicDeletedNoticeNoLoop(t *testing.T) {
	f := &idFake{fakeBroker: newFakeBroker(t)}
	f.append(tp0, dataBatch(0, 3))
	c := newTestConsumer(t, f, Config{})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	receiveN(t, c, 3)
	f.set(wire.UUID{}, true)
	if tc := expectTopicChange(t, c, ErrTopicDeleted); !tc.NewID.IsZero() || tc.OldID.IsZero() {
		t.Fatalf("notice %+v", tc)
	}
	before := f.metadataCalls()
	expectNothing(t, c, 1500*time.Millisecond)
	if n := f.metadataCalls() - before; n > 3 {
		t.Fatalf("%d metadata looks in 1.5s while the topic is gone, want about one a second", n)
	}
}

// TestTopicIDChangedIgnoresRetiredID: after a partition restarted in a
// recreated topic (ID B, having left A), metadata from a broker that has
// not seen the recreation still names A: that is stale, not a change back
// (which would reset the position again and, under ResetLatest, skip the
// records written to B meanwhile). Another new ID is a change.
func TestTopicIDChangedIgnoresRetiredID(t *testing.T) {
	a, b, c := wire.UUID{0xa}, wire.UUID{0xb}, wire.UUID{0xc}
	cd := candidate{known: b, retired: a}
	for _, tc := range []struct {
		id   wire.UUID
		want bool
	}{{a, false}, {b, false}, {c, true}} {
		if got := topicIDChanged(cd, &client.TopicMetadata{ID: tc.id}); got != tc.want {
			t.Errorf("metadata naming %v for a partition at %v (left %v): changed %v, want %v", tc.id, b, a, got, tc.want)
		}
	}
}
