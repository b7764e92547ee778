package share

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// TestIntegrationAcceptAll: one implicit-mode member receives every record
// once with delivery count 1; after Close accepted them, a new member of
// the group receives nothing.
func TestIntegrationAcceptAll(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b := newBed(ctx, t, 2)
	if !b.shareGroups(ctx, t) {
		return
	}
	b.produce(ctx, t, 40, 2)
	g := b.newGroup(ctx, t)
	c := b.consumer(t, Config{GroupID: g, MaxRecords: 7})
	seen := map[key]bool{}
	for len(seen) < 40 {
		recs, err := c.Receive(ctx)
		if err != nil {
			t.Fatalf("after %d records: %v", len(seen), err)
		}
		if len(recs) == 0 || len(recs) > 7 {
			t.Fatalf("Receive returned %d records, want 1..7", len(recs))
		}
		for _, r := range recs {
			k := key{r.Partition, r.Offset}
			if seen[k] || r.DeliveryCount != 1 {
				t.Fatalf("record %v delivered again or with delivery count %d", k, r.DeliveryCount)
			}
			seen[k] = true
		}
	}
	if err := c.Close(ctx); err != nil {
		t.Fatal(err)
	}
	rs := c.TakeAckResults() // every outcome Close produced
	// everything before the last Receive was accepted (and reported)
	// piggy-backed; Close accepts the rest.
	for _, r := range rs {
		if r.Err != nil || r.Type != Accept {
			t.Fatalf("close acknowledgement %+v", r)
		}
	}
	c2 := b.consumer(t, Config{GroupID: g})
	expectNothing(t, c2, 3*time.Second)
}

// TestIntegrationReleaseRedelivers: released records come back with
// delivery count 2; rejected records never come back.
func TestIntegrationReleaseRedelivers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b := newBed(ctx, t, 1)
	if !b.shareGroups(ctx, t) {
		return
	}
	b.produce(ctx, t, 10, 1)
	g := b.newGroup(ctx, t)
	c := b.consumer(t, Config{GroupID: g, AckMode: AckExplicit, MaxRecords: 10})
	first := receiveN(ctx, t, c, 10)
	for i := range first {
		if err := c.Acknowledge(&first[i], Release); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := c.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	allOK(t, rs, 10, Release)
	again := receiveN(ctx, t, c, 10)
	for i := range again {
		if again[i].DeliveryCount != 2 {
			t.Fatalf("offset %d redelivered with delivery count %d, want 2", again[i].Offset, again[i].DeliveryCount)
		}
		if err := c.Acknowledge(&again[i], Reject); err != nil {
			t.Fatal(err)
		}
	}
	if rs, err = c.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	allOK(t, rs, 10, Reject)
	expectNothing(t, c, 3*time.Second)
	if err := c.Acknowledge(&again[0], Accept); !errors.Is(err, ErrNotDelivered) {
		t.Fatalf("acknowledging a rejected record again: %v", err)
	}
}

// TestIntegrationLockExpiry: a member holding records past the lock
// duration loses them to another member, which gets them with delivery
// count 2; the late acknowledgement fails with INVALID_RECORD_STATE.
func TestIntegrationLockExpiry(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b := newBed(ctx, t, 1)
	if !b.shareGroups(ctx, t) {
		return
	}
	b.produce(ctx, t, 5, 1)
	g := b.newGroup(ctx, t, "share.record.lock.duration.ms", "2000")
	slow := b.consumer(t, Config{GroupID: g, AckMode: AckExplicit})
	held := receiveN(ctx, t, slow, 5)
	fast := b.consumer(t, Config{GroupID: g, AckMode: AckExplicit})
	got := receiveN(ctx, t, fast, 5) // only after the locks expired
	for i := range got {
		if got[i].DeliveryCount != 2 {
			t.Fatalf("offset %d delivery count %d, want 2", got[i].Offset, got[i].DeliveryCount)
		}
	}
	// The slow member's acknowledgement comes while fast holds the
	// records. (Once fast's acceptance archived them, the broker would
	// ignore a late acknowledgement below the share-partition start
	// offset and answer success.)
	for i := range held {
		if err := slow.Acknowledge(&held[i], Accept); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := slow.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 5 {
		t.Fatalf("%d late results, want 5", len(rs))
	}
	for _, r := range rs {
		if !errors.Is(r.Err, wire.ErrInvalidRecordState) {
			t.Fatalf("late acknowledgement of offset %d: %v, want INVALID_RECORD_STATE", r.Offset, r.Err)
		}
	}
	for i := range got {
		if err := fast.Acknowledge(&got[i], Accept); err != nil {
			t.Fatal(err)
		}
	}
	if rs, err = fast.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	allOK(t, rs, 5, Accept)
}

// TestIntegrationCloseReleasesHeld: records a member holds unacknowledged
// (explicit mode) when it closes go back to the group at once: the next
// member gets them with delivery count 2, long before the lock expires.
func TestIntegrationCloseReleasesHeld(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b := newBed(ctx, t, 1)
	if !b.shareGroups(ctx, t) {
		return
	}
	b.produce(ctx, t, 3, 1)
	g := b.newGroup(ctx, t) // lock duration: the default 30s
	first := b.consumer(t, Config{GroupID: g, AckMode: AckExplicit})
	receiveN(ctx, t, first, 3)
	if err := first.Close(ctx); err != nil || len(first.TakeAckResults()) != 0 {
		t.Fatalf("Close: %v", err)
	}
	second := b.consumer(t, Config{GroupID: g, AckMode: AckExplicit})
	rctx, rcancel := context.WithTimeout(ctx, 10*time.Second)
	defer rcancel()
	got := receiveN(rctx, t, second, 3)
	for _, r := range got {
		if r.DeliveryCount != 2 {
			t.Fatalf("offset %d delivery count %d, want 2", r.Offset, r.DeliveryCount)
		}
	}
}

// TestIntegrationRenewKeepsLock: renewing (KIP-1222) a held record past
// several lock durations keeps it from other members; the final accept
// succeeds.
func TestIntegrationRenewKeepsLock(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b := newBed(ctx, t, 1)
	if !b.shareGroups(ctx, t) {
		return
	}
	b.produce(ctx, t, 2, 1)
	g := b.newGroup(ctx, t, "share.record.lock.duration.ms", "1500")
	holder := b.consumer(t, Config{GroupID: g, AckMode: AckExplicit})
	held := receiveN(ctx, t, holder, 2)
	other := b.consumer(t, Config{GroupID: g, AckMode: AckExplicit, MaxWait: 200 * time.Millisecond})
	if err := other.AwaitJoined(ctx); err != nil {
		t.Fatal(err)
	}
	// For 4.5s (three lock durations) renew every 500ms while the other
	// member keeps asking for records.
	for range 9 {
		for i := range held {
			if err := holder.Acknowledge(&held[i], Renew); err != nil {
				t.Fatal(err)
			}
		}
		rs, err := holder.Commit(ctx)
		if err != nil {
			t.Fatal(err)
		}
		allOK(t, rs, 2, Renew)
		rctx, rcancel := context.WithTimeout(ctx, 500*time.Millisecond)
		recs, _ := other.Receive(rctx)
		rcancel()
		if len(recs) > 0 {
			t.Fatalf("the other member got offset %d (delivery count %d) while its lock was being renewed", recs[0].Offset, recs[0].DeliveryCount)
		}
	}
	for i := range held {
		if err := holder.Acknowledge(&held[i], Accept); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := holder.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	allOK(t, rs, 2, Accept)
}
