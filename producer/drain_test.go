package producer

import (
	"slices"
	"testing"
	"time"
)

// requestParts returns the partitions of topic "t" in each ProduceRequest
// the fake saw, in order (index 0: the first request).
func requestParts(f *fakeCluster) [][]int32 {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out [][]int32
	for _, s := range f.seen {
		for len(out) < s.req {
			out = append(out, nil)
		}
		out[s.req-1] = append(out[s.req-1], s.partition)
	}
	return out
}

// TestReadyBrokerDrainsAllPartitions: when one partition's batch is due (here
// full), the request to its broker also carries every other partition's
// open batch of that broker, lingering or not (as the Java client's
// RecordAccumulator drains a ready node), instead of leaving them for their
// own linger.
func TestReadyBrokerDrainsAllPartitions(t *testing.T) {
	const parts = 8
	f := newFakeCluster(t, map[string]int{"t": parts}, 1)
	p := newTestProducer(t, f, Config{BatchMaxRecords: 2, Linger: time.Hour})
	var ds []*Delivery
	for i := int32(parts - 1); i >= 0; i-- {
		ds = append(ds, mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(i), Value: []byte("v")}))
	}
	ds = append(ds, mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("full")})) // partition 0 is due
	for _, d := range ds {
		if r := waitResult(t, d); r.Err != nil {
			t.Fatalf("record failed: %v", r.Err)
		}
	}
	got := requestParts(f)
	if len(got) != 1 || len(got[0]) != parts {
		t.Fatalf("partitions per request %v: want one request carrying all %d partitions", got, parts)
	}
}

// TestDrainRotatesWhenRequestIsFull: when RequestMaxBytes holds only some of
// a broker's sendable batches, the next request starts where the last one
// stopped, so partitions listed late are sent even while the early ones
// keep getting new batches (no partition starves).
func TestDrainRotatesWhenRequestIsFull(t *testing.T) {
	const parts, perReq = 16, 4
	f := newFakeCluster(t, map[string]int{"t": parts}, 1)
	p := newTestProducer(t, f, Config{BatchMaxRecords: 1, Linger: time.Hour, MaxInFlightPerBroker: 1})
	// admit admits one record to each of partitions [from, to) at once (p.mu
	// held: the sender sees all of them or none).
	var ds []*Delivery
	admit := func(from, to int32) {
		p.mu.Lock()
		defer p.mu.Unlock()
		for i := from; i < to; i++ {
			m := &Record{Topic: "t", Partition: ToPartition(i), Value: []byte("v")}
			size, err := p.check(m)
			if err != nil {
				t.Fatal(err)
			}
			ds = append(ds, p.admitLocked(m, size))
		}
		if from == 0 && to == parts { // room for perReq one-record batches
			b := p.topics["t"].parts[0].batches[0]
			p.cfg.RequestMaxBytes = perReq*(b.est+batchOverhead+64) + 1
		}
		p.wakeup()
	}
	hold := make(chan struct{})
	f.mu.Lock()
	f.hold = hold
	f.mu.Unlock()
	admit(0, parts)
	for n := 1; n <= parts/perReq; n++ {
		waitFor(t, "request", func() bool { f.mu.Lock(); defer f.mu.Unlock(); return f.requests == n })
		admit(0, perReq) // the first partitions always have a new batch
		next := make(chan struct{})
		f.mu.Lock()
		f.hold = next
		f.mu.Unlock()
		close(hold)
		hold = next
	}
	close(hold)
	for _, d := range ds {
		if r := waitResult(t, d); r.Err != nil {
			t.Fatalf("record failed: %v", r.Err)
		}
	}
	got := requestParts(f)
	var first []int32
	for _, ps := range got[:parts/perReq] {
		if len(ps) != perReq {
			t.Fatalf("partitions per request %v: want %d per request", got, perReq)
		}
		first = append(first, ps...)
	}
	slices.Sort(first)
	first = slices.Compact(first)
	if len(first) != parts {
		t.Fatalf("partitions per request %v: the first %d requests left partitions out (sent: %v)", got, parts/perReq, first)
	}
}

// TestNewBatchBehindLingerDoesNotWake: a batch opened while an older one
// of the same broker lingers is due no sooner than the sender's next look,
// so admitting it does not wake the sender. Each wake-up was a pass over
// every partition; with records spread round-robin over many partitions
// there was one per record.
func TestNewBatchBehindLingerDoesNotWake(t *testing.T) {
	const parts = 256
	f := newFakeCluster(t, map[string]int{"t": parts}, 1)
	p, err := buildProducer(f, Config{Linger: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		p.mu.Lock()
		done := p.clk.stopLocked() // buildProducer's producer is never closed
		p.mu.Unlock()
		<-done
	}()
	p.ident.set(1, 0)
	p.collect(time.Now(), nil) // metadata: every partition's leader is known
	mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("v")})
	if _, reqs, _ := p.collect(time.Now(), nil); len(reqs) != 0 {
		t.Fatalf("%d requests: want none while the batch lingers", len(reqs))
	}
	wakes := 0
	for i := int32(1); i < parts; i++ {
		select {
		case <-p.wake:
		default:
		}
		mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(i), Value: []byte("v")})
		select {
		case <-p.wake:
			wakes++
		default:
		}
	}
	if wakes != 0 {
		t.Fatalf("%d wake-ups for %d batches opened behind a lingering one: want 0", wakes, parts-1)
	}
	// Flush makes them due: the next pass drains all of them in one request.
	p.mu.Lock()
	p.flushing++
	p.mu.Unlock()
	_, reqs, _ := p.collect(time.Now(), nil)
	if len(reqs) != 1 || len(reqs[0].batches) != parts {
		t.Fatalf("%d requests: want one carrying all %d batches", len(reqs), parts)
	}
}
