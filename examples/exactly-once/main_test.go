package main

import (
	"context"
	"fmt"
	"github.com/gregor-kafka/gregor"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
)

// TestExactlyOnce runs the copier twice: the first run copies the 30
// records it sent, the second only the 5 new ones (the group's offsets
// were committed with the transactions). The output read read_committed
// holds each input record once, upper-cased, and the group's committed
// offsets are the input's end offsets.
func TestExactlyOnce(t *testing.T) {
	c := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	in := kafkatest.UniqueName(t, "example-eos-in")
	out, group := in+"-out", in+"-g"
	boot := c.Bootstrap(kafkatest.Plaintext)
	for _, tc := range []struct{ n, want int }{{30, 30}, {5, 5}} {
		var w strings.Builder
		if err := run(ctx, boot, in, out, group, tc.n, &w); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(w.String(), fmt.Sprintf("copied %d records from %s to %s in ", tc.want, in, out)) {
			t.Fatalf("run with -n %d: %q", tc.n, w.String())
		}
	}

	cl, err := client.New(client.Config{Bootstrap: boot})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	ends := settledEnds(ctx, t, cl, out)
	cons, err := consumer.New(cl, consumer.Config{Isolation: consumer.ReadCommitted})
	if err != nil {
		t.Fatal(err)
	}
	defer cons.Close(context.Background())
	var pps []consumer.PartitionPosition
	for p := range ends {
		pps = append(pps, consumer.PartitionPosition{TopicPartition: gregor.TopicPartition{Topic: out, Partition: p}, Position: consumer.AtBeginning()})
	}
	if err := cons.Assign(ctx, pps); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for !reached(cons.Assignment(), ends) {
		recs, err := cons.Receive(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if r.Offset < ends[r.Partition] {
				seen[string(r.Key)+"="+string(r.Value)]++
			}
		}
	}
	// The second run sent order-0..order-4 again: those twice, the rest once.
	if len(seen) != 30 {
		t.Fatalf("%d distinct records in %s, want 30: %v", len(seen), out, seen)
	}
	for i := range 30 {
		want := 1
		if i < 5 {
			want = 2
		}
		if k := fmt.Sprintf("order-%d=ORDER %d", i, i); seen[k] != want {
			t.Fatalf("%s seen %d times, want %d", k, seen[k], want)
		}
	}

	inEnds, err := endOffsets(ctx, cl, in)
	if err != nil {
		t.Fatal(err)
	}
	res, err := admin.New(cl, admin.Config{}).FetchOffsets(ctx, []admin.GroupOffsetsQuery{{GroupID: group}}, admin.FetchOffsetsOptions{})
	if err != nil || res[0].Err != nil {
		t.Fatalf("FetchOffsets: %v %+v", err, res)
	}
	got := map[int32]int64{}
	for _, o := range res[0].Offsets {
		got[o.Partition] = o.Offset
	}
	if fmt.Sprint(got) != fmt.Sprint(inEnds) {
		t.Fatalf("committed %v, input ends %v", got, inEnds)
	}
}

// settledEnds returns topic's read_committed end offsets once they equal
// its high watermarks: Commit returns when the coordinator has logged the
// commit, and the markers reach the partitions after it, so right after a
// run the last stable offset can still be below the run's records (CI, under
// load: the second run's order-0 was not read).
func settledEnds(ctx context.Context, t *testing.T, cl *client.Client, topic string) map[int32]int64 {
	t.Helper()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		ends, err := endOffsets(ctx, cl, topic)
		if err != nil {
			t.Fatal(err)
		}
		qs := make([]admin.OffsetQuery, 0, len(ends))
		for p := range ends {
			qs = append(qs, admin.OffsetQuery{TopicPartition: gregor.TopicPartition{Topic: topic, Partition: p}, Spec: admin.OffsetLatest})
		}
		hws, err := admin.New(cl, admin.Config{}).ListOffsets(ctx, qs, admin.ListOffsetsOptions{})
		if err != nil {
			t.Fatal(err)
		}
		settled := true
		for _, r := range hws {
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			settled = settled && r.Offset == ends[r.Partition]
		}
		if settled {
			return ends
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s: read_committed ends %v never reached the high watermarks %+v", topic, ends, hws)
		case <-tick.C:
		}
	}
}
