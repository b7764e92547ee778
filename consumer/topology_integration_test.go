package consumer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/internal/topotest"
)

// The topology-change suite (issue 36): topics deleted, deleted and
// recreated with more or fewer partitions, and partitions added, under the
// assigned consumer and both group protocols, on the shared broker. The
// outcomes are the table in INTERNALS.md ("Topology changes").

// topoEnv is a groupEnv with an admin client for the topology changes.
type topoEnv struct {
	*groupEnv
	adm  *admin.Admin
	topo topotest.Topic
}

// newTopoEnv is newGroupEnv with the topic created through admin and
// visible on every broker before the test goes on.
func newTopoEnv(t *testing.T, partitions int32) *topoEnv {
	t.Helper()
	cluster := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cl := newTestClient(t, cluster)
	e := &topoEnv{groupEnv: &groupEnv{t: t, ctx: ctx, cluster: cluster, cl: cl, topic: kafkatest.UniqueName(t, "topo")},
		adm: admin.New(cl, admin.Config{})}
	e.topo = topotest.Topic{Admin: e.adm, Name: e.topic}
	e.create(partitions)
	return e
}

// remove deletes the topic and waits until every broker's metadata lost it.
func (e *topoEnv) remove() { e.t.Helper(); e.topo.Remove(e.ctx, e.t) }

// waitOffsetsGone waits until group has no committed offset left for the
// deleted topic's partitions: the coordinator drops a deleted topic's
// offsets asynchronously, and a classic group assigned the recreated
// topic before that would resume at the old topic's committed offset
// (offsets are kept by topic name; the Java client reads them the same
// way). A gregor commit cannot land meanwhile: the topic does not exist.
func (e *topoEnv) waitOffsetsGone(group string, partitions int32) {
	e.t.Helper()
	var tps []gregor.TopicPartition
	for p := range partitions {
		tps = append(tps, gregor.TopicPartition{Topic: e.topic, Partition: p})
	}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		res, err := e.adm.FetchOffsets(e.ctx, []admin.GroupOffsetsQuery{{GroupID: group, Partitions: tps}}, admin.FetchOffsetsOptions{})
		if err == nil && len(res) == 1 && res[0].Err == nil {
			left := false
			for _, o := range res[0].Offsets {
				left = left || o.Committed
			}
			if !left {
				return
			}
		}
		select {
		case <-e.ctx.Done():
			e.t.Fatalf("group %s still has committed offsets of deleted topic %s: %v %v", group, e.topic, res, err)
		case <-tick.C:
		}
	}
}

// create creates the topic (again) with partitions.
func (e *topoEnv) create(partitions int32) { e.t.Helper(); e.topo.Create(e.ctx, e.t, partitions) }

// grow raises the topic's partition count to total.
func (e *topoEnv) grow(total int32) {
	e.t.Helper()
	res, err := e.adm.CreatePartitions(e.ctx, []admin.PartitionsIncrease{{Topic: e.topic, TotalCount: total}}, admin.TopicOptions{WaitVisible: true})
	if err == nil {
		err = res[0].Err
	}
	if err != nil {
		e.t.Fatalf("CreatePartitions %s: %v", e.topic, err)
	}
}

// receiver is what the suite needs of a Consumer or a Group.
type receiver interface {
	Receive(ctx context.Context) ([]Record, error)
}

// expectChange receives from r until it returns an error, within 15s (a
// change noticed "at once" takes a metadata look or two), and checks that
// the error is a *TopicIDChangedError for the env's topic matching kind.
// Records received meanwhile are returned.
func (e *topoEnv) expectChange(r receiver, kind error) (*TopicIDChangedError, []Record) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(e.ctx, 15*time.Second)
	defer cancel()
	var recs []Record
	for {
		got, err := r.Receive(ctx)
		recs = append(recs, got...)
		if err == nil {
			continue
		}
		var tc *TopicIDChangedError
		if !errors.As(err, &tc) || !errors.Is(err, kind) || tc.Topic != e.topic {
			e.t.Fatalf("Receive: %v (after %d records), want a *TopicIDChangedError matching %v for %s", err, len(recs), kind, e.topic)
		}
		return tc, recs
	}
}

// collectNew receives from r until want records with values "new-..." were
// collected, skipping topic-change notices (a group may see the deletion
// before the recreation), and returns their "partition/offset/value"
// strings, sorted.
func (e *topoEnv) collectNew(r receiver, want int) []string {
	e.t.Helper()
	var out []string
	for len(out) < want {
		ctx, cancel := context.WithTimeout(e.ctx, 15*time.Second)
		recs, err := r.Receive(ctx)
		cancel()
		var tc *TopicIDChangedError
		if errors.As(err, &tc) {
			continue
		}
		if err != nil {
			e.t.Fatalf("Receive after %d of %d new records (%v): %v", len(out), want, out, err)
		}
		for _, rec := range recs {
			if strings.HasPrefix(string(rec.Value), "new-") {
				out = append(out, fmt.Sprintf("%d/%d/%s", rec.Partition, rec.Offset, rec.Value))
			}
		}
	}
	slices.Sort(out)
	return out
}

// wantNew is what collectNew returns for produce("new", n, parts): record
// i at partition i%parts, offset i/parts.
func wantNew(n int, parts int32) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("%d/%d/new-%d", int32(i)%parts, i/int(parts), i))
	}
	slices.Sort(out)
	return out
}

// TestTopologyAssigned: the assigned consumer, positions at 10 of each of
// two partitions.
func TestTopologyAssigned(t *testing.T) {
	setup := func(t *testing.T, policy ResetPolicy) (*topoEnv, *Consumer) {
		e := newTopoEnv(t, 2)
		e.produce("old", 20, 2)
		c, err := New(e.cl, Config{MaxWait: 100 * time.Millisecond, OffsetReset: policy})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(context.Background()) })
		if err := c.Assign(e.ctx, []PartitionPosition{{gregor.TopicPartition{Topic: e.topic, Partition: 0}, AtBeginning()}, {gregor.TopicPartition{Topic: e.topic, Partition: 1}, AtBeginning()}}); err != nil {
			t.Fatal(err)
		}
		n := 0
		for n < 20 {
			recs, err := c.Receive(e.ctx)
			if err != nil {
				t.Fatal(err)
			}
			n += len(recs)
		}
		return e, c
	}
	tps := func(e *topoEnv) []gregor.TopicPartition {
		return []gregor.TopicPartition{{Topic: e.topic, Partition: 0}, {Topic: e.topic, Partition: 1}}
	}

	// Deleted: Receive reports ErrTopicDeleted at once; then the partitions
	// wait for the topic to come back, one metadata look a second (no loop
	// on UNKNOWN_TOPIC_ID).
	t.Run("deleted", func(t *testing.T) {
		t.Parallel()
		e, c := setup(t, ResetEarliest)
		e.remove()
		tc, _ := e.expectChange(c, ErrTopicDeleted)
		if !slices.Equal(tc.Partitions, []int32{0, 1}) || tc.OldID.IsZero() {
			t.Fatalf("notice %+v, want partitions [0 1] and the old ID", tc)
		}
		before := c.Metrics()
		ctx, cancel := context.WithTimeout(e.ctx, 3*time.Second)
		_, err := c.Receive(ctx)
		cancel()
		if err == nil || ctx.Err() == nil {
			t.Fatalf("Receive while the topic is gone: %v, want the deadline", err)
		}
		after := c.Metrics()
		if d := after.MetadataRefreshes - before.MetadataRefreshes; d > 8 {
			t.Fatalf("%d metadata refreshes in 3s while the topic is gone, want at most ~1/s", d)
		}
		if d := after.FetchRequests - before.FetchRequests; d > 8 {
			t.Fatalf("%d Fetch requests in 3s while the topic is gone", d)
		}
	})

	// Recreated: Receive reports ErrTopicRecreated, then every record of
	// the new topic from offset 0 (OffsetReset earliest), not from the old
	// position 10; with fewer partitions the missing one stops.
	for _, parts := range []int32{3, 1} {
		t.Run(fmt.Sprintf("recreated-%d-partitions", parts), func(t *testing.T) {
			t.Parallel()
			e, c := setup(t, ResetEarliest)
			for _, tp := range tps(e) {
				_ = c.Pause(tp) // no fetch between the deletion and the new records
			}
			e.remove()
			e.create(parts)
			have := min(parts, 2) // the partitions assigned that exist again
			e.produce("new", 15*int(have), have)
			for _, tp := range tps(e) {
				_ = c.Resume(tp)
			}
			var notices []*TopicIDChangedError
			tc, recs := e.expectChange(c, ErrTopicRecreated)
			notices = append(notices, tc)
			if len(recs) > 0 {
				t.Fatalf("%d records before the notice, first %s/%d/%d", len(recs), recs[0].Topic, recs[0].Partition, recs[0].Offset)
			}
			if parts == 1 {
				tc, _ = e.expectChange(c, ErrTopicRecreated)
				notices = append(notices, tc)
			}
			var restarted, stopped []int32
			for _, n := range notices {
				if n.NewID.IsZero() || n.NewID == n.OldID {
					t.Fatalf("notice %+v: want the new ID", n)
				}
				if n.Stopped {
					stopped = append(stopped, n.Partitions...)
				} else {
					restarted = append(restarted, n.Partitions...)
				}
			}
			if parts == 3 && (!slices.Equal(restarted, []int32{0, 1}) || len(stopped) > 0) ||
				parts == 1 && (!slices.Equal(restarted, []int32{0}) || !slices.Equal(stopped, []int32{1})) {
				t.Fatalf("restarted %v, stopped %v", restarted, stopped)
			}
			if got, want := e.collectNew(c, 15*int(have)), wantNew(15*int(have), have); !slices.Equal(got, want) {
				t.Fatalf("new topic's records %v, want %v", got, want)
			}
		})
	}

	// Recreated under ResetNone: the partitions stop, reported by the
	// notice; nothing of the new topic is read at the old position; a Seek
	// restarts one in the new topic.
	t.Run("recreated-reset-none", func(t *testing.T) {
		t.Parallel()
		e, c := setup(t, ResetNone)
		for _, tp := range tps(e) {
			_ = c.Pause(tp)
		}
		e.remove()
		e.create(2)
		e.produce("new", 30, 2)
		for _, tp := range tps(e) {
			_ = c.Resume(tp)
		}
		tc, _ := e.expectChange(c, ErrTopicRecreated)
		if !tc.Stopped || !slices.Equal(tc.Partitions, []int32{0, 1}) {
			t.Fatalf("notice %+v, want partitions [0 1] stopped", tc)
		}
		ctx, cancel := context.WithTimeout(e.ctx, time.Second)
		recs, err := c.Receive(ctx)
		cancel()
		if len(recs) > 0 || ctx.Err() == nil {
			t.Fatalf("Receive after the stop: %d records, %v; want nothing until a Seek", len(recs), err)
		}
		// A Seek restarts a partition in the new topic.
		if err := c.Seek(e.ctx, tps(e)[0], AtBeginning()); err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, s := range wantNew(30, 2) {
			if strings.HasPrefix(s, "0/") {
				want = append(want, s)
			}
		}
		if got := e.collectNew(c, 15); !slices.Equal(got, want) {
			t.Fatalf("after the Seek: %v, want %v", got, want)
		}
	})

	// Partitions added: the assigned partitions go on undisturbed (the new
	// partition is not assigned; Assign or Add it).
	t.Run("partitions-added", func(t *testing.T) {
		t.Parallel()
		e, c := setup(t, ResetEarliest)
		e.grow(3)
		e.produce("new", 2, 2)
		if got, want := e.collectNew(c, 2), []string{"0/10/new-0", "1/10/new-1"}; !slices.Equal(got, want) {
			t.Fatalf("records %v, want %v", got, want)
		}
	})
}

// TestTopologyGroup: a group member of each protocol, positions at 10 of
// each of two partitions.
func TestTopologyGroup(t *testing.T) {
	protocols := map[string]func(*GroupConfig){
		"classic":  nil,
		"consumer": withConsumerProtocol("uniform"),
	}
	for name, mod := range protocols {
		// setup joins a member through a client of its own, with
		// MetadataMaxAge maxAge (0: the default).
		setup := func(t *testing.T, maxAge time.Duration) (*topoEnv, *member) {
			e := newTopoEnv(t, 2)
			e.produce("old", 20, 2)
			cl, err := client.New(client.Config{Bootstrap: e.cluster.Bootstrap(kafkatest.Plaintext), MetadataMaxAge: maxAge, Logger: testLogger(t)})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cl.Close(context.Background()) })
			m := e.joinOn(cl, e.topic+"-g", mod)
			e.drain(m, 20)
			return e, m
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if mod != nil && !newTopoEnv(t, 1).kip848() {
				return // the consumer protocol on Kafka 3.x: ErrUnsupportedFeature asserted
			}

			// Deleted: the partitions are revoked and Receive reports
			// ErrTopicDeleted at once instead of blocking to its deadline.
			t.Run("deleted", func(t *testing.T) {
				t.Parallel()
				e, m := setup(t, 0)
				e.remove()
				tc, _ := e.expectChange(m, ErrTopicDeleted)
				if !slices.Equal(tc.Partitions, []int32{0, 1}) {
					t.Fatalf("notice %+v, want partitions [0 1]", tc)
				}
			})

			// Recreated (same, more, fewer partitions): every record of the
			// new topic is delivered from offset 0, and the group's
			// commits are those of the new topic (never the old position
			// 10 under the new ID).
			for _, parts := range []int32{2, 3, 1} {
				t.Run(fmt.Sprintf("recreated-%d-partitions", parts), func(t *testing.T) {
					t.Parallel()
					e, m := setup(t, 0)
					// Paused, the member fetches nothing between the
					// deletion and the new topic's 15 records a partition,
					// so a position carried over (10) would skip 10 of them.
					owned := m.Assignment()
					for _, p := range owned {
						_ = m.Pause(p.TopicPartition)
					}
					e.remove()
					e.waitOffsetsGone(e.topic+"-g", 2)
					e.create(parts)
					e.produce("new", 15*int(parts), parts)
					for _, p := range owned {
						_ = m.Resume(p.TopicPartition) // ErrNotAssigned if revoked meanwhile
					}
					if got, want := e.collectNew(m, 15*int(parts)), wantNew(15*int(parts), parts); !slices.Equal(got, want) {
						t.Fatalf("new topic's records %v, want %v", got, want)
					}
					if err := m.CommitDelivered(e.ctx); err != nil {
						t.Fatalf("CommitDelivered: %v", err)
					}
					var tps []gregor.TopicPartition
					for p := range parts {
						tps = append(tps, gregor.TopicPartition{Topic: e.topic, Partition: p})
					}
					offs, err := m.fetchCommitted(e.ctx, tps)
					if err != nil {
						t.Fatal(err)
					}
					for _, tp := range tps {
						if offs[tp] != 15 {
							t.Fatalf("committed %v, want 15 for every partition of the new topic", offs)
						}
					}
				})
			}

			// Partitions added: the member is assigned the new partition
			// and reads it (classic: once its metadata shows it, within
			// MetadataMaxAge, as Java's metadata.max.age.ms).
			t.Run("partitions-added", func(t *testing.T) {
				t.Parallel()
				e, m := setup(t, 500*time.Millisecond)
				e.grow(3)
				e.produce("new", 3, 3)
				if got, want := e.collectNew(m, 3), []string{"0/10/new-0", "1/10/new-1", "2/0/new-2"}; !slices.Equal(got, want) {
					t.Fatalf("records %v, want %v", got, want)
				}
			})
		})
	}
}

// testLogger logs the client's Info lines through t (shown when a case
// fails).
func testLogger(t *testing.T) *slog.Logger {
	w := &testWriter{t: t}
	t.Cleanup(func() { w.done.Store(true) }) // runs after the client's cleanup
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// testWriter writes to t's log until the test ends.
type testWriter struct {
	t    *testing.T
	done atomic.Bool
}

func (w *testWriter) Write(b []byte) (int, error) {
	if !w.done.Load() {
		w.t.Log(strings.TrimSpace(string(b)))
	}
	return len(b), nil
}
