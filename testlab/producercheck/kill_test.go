package producercheck

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/testlab/internal/labtest"
)

// TestKillLeaderWhileProducing starts its own 1+3 cluster, produces
// continuously (acks=all, idempotent) to three replicated partitions, kills
// (SIGKILL) the broker leading partition 0 and restarts it. Then franz-go
// reads everything back: every acknowledged record is present exactly once
// at its acknowledged offset, in admission order per partition; a record
// reported NotSent is absent; PossiblySent records appear at most once.
func TestKillLeaderWhileProducing(t *testing.T) {
	ctx, cluster, lb := labtest.ThreeBrokers(t, 10*time.Minute)
	b := &bed{lb}
	minISR := "2"
	topic := b.Topic(ctx, "pc-kill", 3, 3, map[string]*string{"min.insync.replicas": &minISR})

	gcl := b.Client(ctx, client.Config{RetryBackoff: 50 * time.Millisecond, RetryBackoffMax: 500 * time.Millisecond, RequestTimeout: 10 * time.Second})
	p, err := producer.New(gcl, producer.Config{DeliveryTimeout: 60 * time.Second, RequestTimeout: 5 * time.Second, RetryBackoff: 100 * time.Millisecond, Linger: 2 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(context.Background())

	type sent struct {
		partition int32
		value     string
		d         *producer.Delivery
	}
	var (
		mu    sync.Mutex
		all   []sent
		acked atomic.Int64
		stop  = make(chan struct{})
		done  = make(chan struct{})
	)
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Millisecond) // pacing of the load, not synchronization
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			part := int32(i % 3)
			v := fmt.Sprintf("p%d-%d", part, i)
			d, err := p.Send(ctx, &producer.Record{Topic: topic, Partition: producer.ToPartition(part), Value: []byte(v)})
			if err != nil {
				t.Errorf("Send: %v", err)
				return
			}
			go func() {
				if r, err := d.Wait(ctx); err == nil && r.Err == nil {
					acked.Add(1)
				}
			}()
			mu.Lock()
			all = append(all, sent{part, v, d})
			mu.Unlock()
		}
	}()
	waitAcked := func(n int64, what string) {
		t.Helper()
		deadline := time.Now().Add(2 * time.Minute)
		for acked.Load() < n {
			if time.Now().After(deadline) {
				t.Fatalf("%s: only %d records acknowledged", what, acked.Load())
			}
			time.Sleep(20 * time.Millisecond) // polling interval of a condition with a deadline
		}
	}
	waitAcked(300, "before the kill")
	leader, _, err := gcl.Leader(ctx, topic, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("killing broker %d (leader of partition 0) after %d acknowledgements", leader, acked.Load())
	if err := cluster.KillBroker(ctx, leader); err != nil {
		t.Fatal(err)
	}
	waitAcked(acked.Load()+300, "after the kill")
	t.Logf("restarting broker %d", leader)
	if err := cluster.RestartBroker(ctx, leader); err != nil {
		t.Fatal(err)
	}
	waitAcked(acked.Load()+300, "after the restart")
	close(stop)
	<-done
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("Flush: %v", err)
	}

	mu.Lock()
	defer mu.Unlock()
	nAcked, nNotSent, nPossibly := 0, 0, 0
	errs := map[string]int{}
	for _, s := range all {
		r, ok := s.d.Result()
		if !ok {
			t.Fatalf("%s has no terminal after Flush", s.value)
		}
		if r.Err != nil {
			errs[fmt.Sprintf("%v: %v", r.Certainty, r.Err)]++
		}
		switch {
		case r.Err == nil:
			nAcked++
		case r.Certainty == client.NotSent:
			nNotSent++
		default:
			nPossibly++
		}
	}
	t.Logf("%d records: %d acknowledged, %d failed not sent, %d failed possibly sent", len(all), nAcked, nNotSent, nPossibly)
	for e, n := range errs {
		t.Logf("%6d × %s", n, e)
	}
	got := b.readAll(topic, nAcked)
	count := map[string]int{}
	pos := map[string]string{}
	for _, r := range got {
		count[string(r.Value)]++
		pos[string(r.Value)] = key(r)
	}
	last := map[int32]int64{}
	for _, s := range all {
		r, _ := s.d.Result()
		c := count[s.value]
		if c > 1 {
			t.Fatalf("%s written %d times", s.value, c)
		}
		switch {
		case r.Err == nil:
			if c != 1 || pos[s.value] != fmt.Sprintf("%d@%d", r.Partition, r.Offset) {
				t.Fatalf("%s acknowledged at %d@%d, read %d times at %s", s.value, r.Partition, r.Offset, c, pos[s.value])
			}
			if prev, ok := last[r.Partition]; ok && r.Offset <= prev {
				t.Fatalf("%s at offset %d after %d: order broken", s.value, r.Offset, prev)
			}
			last[r.Partition] = r.Offset
		case r.Certainty == client.NotSent:
			if c != 0 {
				t.Fatalf("%s reported not sent (%v) but read back", s.value, r.Err)
			}
		}
	}
}
