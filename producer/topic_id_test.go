package producer

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
)

// recreateTopic gives topic a new ID in the fake's metadata, as deleting
// and creating it again does.
func recreateTopic(f *fakeCluster, topic string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.incarnation == nil {
		f.incarnation = map[string]byte{}
	}
	f.incarnation[topic]++
	f.rebuildMetadata()
}

// TestPinTopicIDs: with PinTopicIDs, records batched while the topic had
// one ID fail with ErrTopicIDChanged (NotSent) once metadata shows a new
// ID, and records admitted after the change are written; without it,
// every record follows the topic name.
func TestPinTopicIDs(t *testing.T) {
	for _, pin := range []bool{true, false} {
		t.Run(fmt.Sprint("pin=", pin), func(t *testing.T) {
			f := newFakeCluster(t, map[string]int{"t": 1}, 1)
			p := newTestProducer(t, f, Config{Linger: time.Hour, PinTopicIDs: pin})
			before := sendN(t, p, "t", 0, 3, 0)
			waitFor(t, "records batched under the first topic ID", func() bool {
				p.mu.Lock()
				defer p.mu.Unlock()
				tp := p.topics["t"]
				return tp.id[0] != 0 && tp.unassigned == nil
			})
			recreateTopic(f, "t")
			p.wakeup() // the sender applies the new metadata
			waitFor(t, "new topic ID applied", func() bool {
				p.mu.Lock()
				defer p.mu.Unlock()
				return p.topics["t"].id[1] == 1
			})
			after := sendN(t, p, "t", 0, 2, 3)
			if err := p.Flush(context.Background()); err != nil {
				t.Fatal(err)
			}
			for i, d := range before {
				r := waitResult(t, d)
				if pin {
					if !errors.Is(r.Err, ErrTopicIDChanged) || r.Certainty != client.NotSent {
						t.Fatalf("record %d: %v (%v), want ErrTopicIDChanged, NotSent", i, r.Err, r.Certainty)
					}
				} else if r.Err != nil {
					t.Fatalf("record %d: %v", i, r.Err)
				}
			}
			for i, d := range after {
				if r := waitResult(t, d); r.Err != nil {
					t.Fatalf("record %d admitted after the change: %v", 3+i, r.Err)
				}
			}
			var got []string
			for _, r := range f.log("t", 0) {
				got = append(got, string(r.value))
			}
			want := "[v0 v1 v2 v3 v4]"
			if pin {
				want = "[v3 v4]"
			}
			if fmt.Sprint(got) != want {
				t.Fatalf("log %v, want %s", got, want)
			}
		})
	}
}

// TestPinTopicIDsAdmitLeavesPlacingToSender: with PinTopicIDs, a record
// admitted after its topic's metadata arrived applies that metadata (its
// pin) but does not place the records still waiting for the topic: it joins
// them, behind the earlier ones, and placing them (and scheduling the
// sender's next look) stays the sender's (syncMetadataLocked), which then
// keeps their order.
func TestPinTopicIDsAdmitLeavesPlacingToSender(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	f.md = nil
	p, err := buildProducer(f, Config{PinTopicIDs: true})
	if err != nil {
		t.Fatal(err)
	}
	p.ident.set(7, 3)
	send := func(key string) {
		if _, err := p.TrySend(&Record{Topic: "t", Key: []byte(key), Value: []byte("v")}); err != nil {
			t.Fatal(err)
		}
	}
	send("a")
	f.mu.Lock()
	f.rebuildMetadata()
	f.mu.Unlock()
	select { // the wakeup of the first record's admit
	case <-p.wake:
	default:
	}
	send("b")
	p.mu.Lock()
	defer p.mu.Unlock()
	tp := p.topics["t"]
	if tp.id == ([16]byte{}) || tp.numParts != 1 {
		t.Fatalf("admit did not apply the metadata: id %v, %d partitions", tp.id, tp.numParts)
	}
	if tp.unassigned == nil || tp.unassigned.live != 2 {
		t.Fatalf("admit placed the waiting records (unassigned %v): placing is the sender's", tp.unassigned)
	}
	select { // the sender is told to place them now, not at their deadline
	case <-p.wake:
	default:
		t.Fatal("admit left the sender asleep while placeable records wait")
	}
	p.syncMetadataLocked(time.Now())
	if tp.unassigned != nil {
		t.Fatal("records still unassigned after the sender's sync")
	}
	var keys []string
	for _, part := range p.parts {
		for _, b := range part.batches {
			for i := range b.recs {
				keys = append(keys, string(b.key(i)))
			}
		}
	}
	if fmt.Sprint(keys) != "[a b]" {
		t.Fatalf("records in partition batches: %v, want [a b]", keys)
	}
}
