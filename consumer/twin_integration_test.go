package consumer

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/wire"
)

// fetchFlight counts the Fetches a client has in flight (written, response
// not read), and the most at once.
type fetchFlight struct {
	mu       sync.Mutex
	now, max int
}

func (f *fetchFlight) OnRequestWritten(ev client.RequestEvent) {
	if ev.Key == wire.KeyFetch && ev.Err == nil {
		f.mu.Lock()
		f.now++
		f.max = max(f.max, f.now)
		f.mu.Unlock()
	}
}

func (f *fetchFlight) OnResponseRead(ev client.RequestEvent) {
	if ev.Key == wire.KeyFetch {
		f.mu.Lock()
		f.now--
		f.mu.Unlock()
	}
}

// TestTwinSessionsIntegrationDelayedLink: on the real broker, through a
// link of 20 ms each way, a consumer catching up on 8 partitions splits
// them between two fetch sessions from its first Fetch (its client's setup
// round trip, 40 ms, is long against decoding a 32 KiB response): two
// Fetches are in flight to the broker at once, on two fetch-lane
// connections, and every record arrives once, in order.
func TestTwinSessionsIntegrationDelayedLink(t *testing.T) {
	const parts, perPart = 8, 500
	e := newGroupEnv(t, parts)
	e.produce("twin", parts*perPart, parts)
	stop, err := e.cluster.StartDelayProxies(20 * time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	flight := &fetchFlight{}
	cl, err := client.New(client.Config{Bootstrap: e.cluster.Bootstrap(kafkatest.Proxied), Hooks: []client.Hook{flight}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close(context.Background()) })
	if err := cl.Ready(e.ctx); err != nil {
		t.Fatal(err)
	}
	c, err := New(cl, Config{MaxBufferedBytes: 256 << 10})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	var ps []PartitionPosition
	for p := range int32(parts) {
		ps = append(ps, PartitionPosition{gregor.TopicPartition{Topic: e.topic, Partition: p}, AtBeginning()})
	}
	if err := c.Assign(e.ctx, ps); err != nil {
		t.Fatal(err)
	}
	var recs []Record
	for len(recs) < parts*perPart {
		rs, err := c.Receive(e.ctx)
		if err != nil {
			t.Fatalf("Receive after %d records: %v", len(recs), err)
		}
		recs = append(recs, rs...)
	}
	for _, r := range recs {
		if want := fmt.Sprintf("twin-%d", int(r.Offset)*parts+int(r.Partition)); string(r.Value) != want {
			t.Fatalf("%s/%d@%d = %q, want %q", r.Topic, r.Partition, r.Offset, r.Value, want)
		}
	}
	for _, p := range ps {
		wantOffsets(t, recs, p.TopicPartition, 0, perPart)
	}
	flight.mu.Lock()
	most := flight.max
	flight.mu.Unlock()
	if most < 2 {
		t.Errorf("at most %d Fetch in flight at once, want 2", most)
	}
	if m := c.Metrics(); m.TwinFetches == 0 || m.MovedFetches != 0 {
		t.Errorf("TwinFetches %d, MovedFetches %d: want some second-session Fetches and no sessionless ones", m.TwinFetches, m.MovedFetches)
	}
	if opened := cl.Metrics().Lanes[client.LaneFetch].Opened; opened < 2 {
		t.Errorf("%d fetch-lane connections opened, want 2", opened)
	}
}
