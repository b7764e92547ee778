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
