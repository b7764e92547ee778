package share

import (
	"context"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// javaRecord matches a record line of ConsoleShareConsumer with
// print.partition and print.offset.
var javaRecord = regexp.MustCompile(`Partition:(\d+)\s+Offset:(\d+)`)

// TestIntegrationMixedGroupWithJava: gregor and Apache's Java share consumer
// (kafka-console-share-consumer) in one share group on one topic: every
// record is accepted exactly once across the members, none is lost.
func TestIntegrationMixedGroupWithJava(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const n, parts = 400, 1 // one partition: both members read it
	b := newBed(ctx, t, parts)
	if !b.shareGroups(ctx, t) {
		return
	}
	g := b.newGroup(ctx, t)

	var javaOut string
	var javaErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		javaOut, javaErr = b.cluster.RunTool(ctx, "org.apache.kafka.tools.consumer.ConsoleShareConsumer",
			"--bootstrap-server", b.cluster.Bootstrap("PLAINTEXT")[0], "--topic", b.topic, "--group", g,
			"--timeout-ms", "5000", "--property", "print.partition=true", "--property", "print.offset=true",
			"--consumer-property", "max.poll.records=20", "--consumer-property", "share.acquire.mode=record_limit")
	}()
	c := b.consumer(t, Config{GroupID: g, MaxRecords: 20})
	waitMembers(ctx, t, b.cl, g, 2)
	b.produce(ctx, t, n, parts)

	ours := map[key]bool{}
	var results []AckResult
	for {
		rctx, rcancel := context.WithTimeout(ctx, 3*time.Second)
		recs, err := c.Receive(rctx)
		rcancel()
		if err != nil {
			break // idle for 3s: the topic is drained
		}
		for _, r := range recs {
			k := key{r.Partition, r.Offset}
			if ours[k] {
				t.Fatalf("gregor got %v twice", k)
			}
			ours[k] = true
		}
		results = append(results, c.TakeAckResults()...)
		time.Sleep(20 * time.Millisecond) // processing time, so both members get a share
	}
	if err := c.Close(ctx); err != nil {
		t.Fatal(err)
	}
	results = append(results, c.TakeAckResults()...)
	for _, r := range results {
		if r.Err != nil {
			t.Fatalf("gregor acknowledgement of %d/%d: %v", r.Partition, r.Offset, r.Err)
		}
	}
	if len(results) != len(ours) {
		t.Fatalf("%d acknowledgement results for %d records", len(results), len(ours))
	}
	wg.Wait()
	if javaErr != nil {
		t.Fatalf("ConsoleShareConsumer: %v", javaErr)
	}
	theirs := map[key]bool{}
	for _, m := range javaRecord.FindAllStringSubmatch(javaOut, -1) {
		p, _ := strconv.Atoi(m[1])
		off, _ := strconv.ParseInt(m[2], 10, 64)
		k := key{int32(p), off}
		if theirs[k] || ours[k] {
			t.Fatalf("record %v delivered to two members (or twice to Java)", k)
		}
		theirs[k] = true
	}
	t.Logf("gregor accepted %d records, Java %d", len(ours), len(theirs))
	if len(theirs) == 0 {
		t.Logf("Java output:\n%s", javaOut)
	}
	if len(ours)+len(theirs) != n {
		t.Fatalf("gregor %d + Java %d records, want %d in all", len(ours), len(theirs), n)
	}
	if len(ours) == 0 || len(theirs) == 0 {
		t.Fatalf("one member got nothing (gregor %d, Java %d): not a mixed group", len(ours), len(theirs))
	}
}

// waitMembers polls ShareGroupDescribe until group g has want members with
// partitions assigned.
func waitMembers(ctx context.Context, t *testing.T, cl *client.Client, g string, want int) {
	t.Helper()
	for {
		coord, err := cl.Coordinator(ctx, client.CoordinatorGroup, g)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := cl.Request(ctx, coord, &wire.ShareGroupDescribeRequest{GroupIDs: []string{g}})
		if err != nil {
			t.Fatal(err)
		}
		if gs := resp.(*wire.ShareGroupDescribeResponse).Groups; len(gs) == 1 && len(gs[0].Members) >= want {
			assigned := 0
			for _, m := range gs[0].Members {
				if len(m.Assignment.TopicPartitions) > 0 {
					assigned++
				}
			}
			if assigned >= want {
				return
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("group %s never had %d members", g, want)
		case <-time.After(100 * time.Millisecond):
		}
	}
}
