package producer

import (
	"testing"
	"time"
)

// TestIdleBrokerSendsPartitionQueuedLater: a broker whose last drain found
// nothing sendable is idle until a partition it holds changes; a
// partition queued there later without being looked at (its new batch did
// not wake the sender) must end that, or the broker's queue is never
// checked again and the batch expires unsent, Flush and Close included.
// Found in review: a record cancelled on the partition that made the
// broker idle left the other partition's record to its delivery timeout.
func TestIdleBrokerSendsPartitionQueuedLater(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 2}, 1)
	p, err := buildProducer(f, Config{Linger: 10 * time.Millisecond})
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
	p.collect(time.Now(), nil) // metadata: both partitions' leader is known
	mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("a1")})
	_, first, _ := p.collect(time.Now().Add(20*time.Millisecond), nil)
	if len(first) != 1 {
		t.Fatalf("%d requests: want a1's", len(first))
	}
	first = append([]*inflightReq(nil), first...)
	// a2 waits behind a1 (not yet confirmed): the drain finds nothing.
	a2 := mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("a2")})
	if _, reqs, _ := p.collect(time.Now().Add(40*time.Millisecond), nil); len(reqs) != 0 {
		t.Fatalf("%d requests: want none while a1 is unconfirmed", len(reqs))
	}
	p.mu.Lock()
	p.next = time.Now().Add(time.Millisecond) // the sender looks again soon (as for another broker)
	p.mu.Unlock()
	b1 := mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(1), Value: []byte("b1")})
	a2.Cancel()
	r := first[0]
	r.results = make([]batchResult, len(r.batches))
	for i := range r.results {
		r.results[i].leader = -1
	}
	p.complete(r)
	_, reqs, _ := p.collect(time.Now().Add(time.Second), nil)
	if len(reqs) != 1 || len(reqs[0].batches) != 1 || reqs[0].batches[0].part.partition != 1 {
		t.Fatalf("%d requests after a1's answer: want one with b1 (terminal: %v)", len(reqs), b1.isTerminal())
	}
}
