package producer

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/txnhook"
	"github.com/gregor-kafka/gregor/wire"
)

func TestConfigValidation(t *testing.T) {
	no := false
	yes := true
	for _, tc := range []struct {
		name string
		cfg  Config
		ok   bool
	}{
		{"zero", Config{}, true},
		{"acks all", Config{Acks: -1, Idempotence: &yes}, true},
		{"acks 1", Config{Acks: 1}, false},
		{"acks 2", Config{Acks: 2}, false},
		{"idempotence off", Config{Idempotence: &no}, false},
		{"six in flight", Config{MaxInFlightPerBroker: 6}, false},
		{"batch records above in-flight", Config{BatchMaxRecords: 10, InFlightRecords: 5}, false},
		{"batch bytes above request", Config{BatchMaxBytes: 2000, RequestMaxBytes: 1000}, false},
		{"request above retained", Config{RequestMaxBytes: 2000, RetainedBytes: 1000, BatchMaxBytes: 100}, false},
		{"request of 2 GiB", Config{RequestMaxBytes: 1 << 31, RetainedBytes: 1 << 32, BatchMaxBytes: 100}, false},
		{"retained below the default request", Config{RetainedBytes: 2 << 20}, true},
		{"retained below a batch", Config{RetainedBytes: 512 << 10}, false},
		{"negative timeout", Config{DeliveryTimeout: -1}, false},
		{"bad codec", Config{Compression: 9}, false},
		{"bad zstd level", Config{Compression: wire.CompressionZstd, CompressionLevel: 99}, false},
		{"zero retries", Config{MaxRetries: new(0), RetryBackoff: 0}, true},
		{"negative retries", Config{MaxRetries: new(-1)}, false},
		{"resolve alone", Config{ResolvePossiblySent: true}, true},
		{"resolve in a transaction", Config{ResolvePossiblySent: true, Transactional: &txnhook.Hooks{}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeCluster(t, nil, 1)
			p, err := newProducer(f, tc.cfg)
			if tc.ok != (err == nil) {
				t.Fatalf("err = %v, want ok=%v", err, tc.ok)
			}
			if err != nil && !errors.Is(err, ErrConfig) {
				t.Fatalf("error %v does not wrap ErrConfig", err)
			}
			if p != nil {
				p.Close(context.Background())
			}
		})
	}
	s, _ := validate(Config{})
	if s.RequestMaxBytes != DefaultRequestMaxBytes || s.RetainedBytes != DefaultRetainedBytes {
		t.Fatalf("default RequestMaxBytes %d, RetainedBytes %d", s.RequestMaxBytes, s.RetainedBytes)
	}
	if s, _ := validate(Config{RetainedBytes: 2 << 20}); s.RequestMaxBytes != 2<<20 {
		t.Fatalf("RetainedBytes 2 MiB: default RequestMaxBytes %d, want 2 MiB", s.RequestMaxBytes)
	}
	if s.linger != DefaultLinger || s.backoff != DefaultRetryBackoff || s.MaxInFlightPerBroker != 5 || s.DeliveryTimeout != DefaultDeliveryTimeout ||
		s.retries != -1 || s.UnknownTopicRetries != DefaultUnknownTopicRetries {
		t.Fatalf("defaults %+v", s)
	}
	if s, _ := validate(Config{UnknownTopicRetries: -1}); s.UnknownTopicRetries != -1 {
		t.Fatalf("UnknownTopicRetries -1 must stay unbounded, got %d", s.UnknownTopicRetries)
	}
	if s, _ := validate(Config{MaxRetries: new(0)}); s.retries != 0 {
		t.Fatalf("MaxRetries &0 must be literal, got %d", s.retries)
	}
	s, _ = validate(Config{Linger: -1, RetryBackoff: -1})
	if s.linger != 0 || s.backoff != 0 {
		t.Fatalf("negative linger/backoff should mean none: %v %v", s.linger, s.backoff)
	}
}

func TestTrySendBackpressureLosesNothing(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	f.hold = make(chan struct{}) // nothing completes until released
	p := newTestProducer(t, f, Config{InFlightRecords: 3, BatchMaxRecords: 1, Linger: -1})
	var ds []*Delivery
	for i := 0; i < 3; i++ {
		ds = append(ds, mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte{byte(i)}}))
	}
	m := &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("x")}
	if _, err := p.TrySend(m); !errors.Is(err, client.ErrBackpressure) {
		t.Fatalf("fourth TrySend: %v, want backpressure", err)
	}
	if client.CertaintyOf(func() error { _, err := p.TrySend(m); return err }()) != client.NotSent {
		t.Fatal("backpressure must say NotSent")
	}
	f.mu.Lock()
	close(f.hold)
	f.hold = nil
	f.mu.Unlock()
	for _, d := range ds {
		if r := waitResult(t, d); r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	d, err := p.TrySend(m)
	if err != nil {
		t.Fatalf("after room freed: %v", err)
	}
	waitResult(t, d)
	if n := len(f.log("t", 0)); n != 4 {
		t.Fatalf("log has %d records, want 4", n)
	}
}

func TestRetainedBytesAndTooLarge(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	f.hold = make(chan struct{})
	defer func() { f.mu.Lock(); close(f.hold); f.hold = nil; f.mu.Unlock() }()
	p := newTestProducer(t, f, Config{RetainedBytes: 4096, RequestMaxBytes: 2048, BatchMaxBytes: 1024})
	if _, err := p.TrySend(&Record{Topic: "t", Partition: ToPartition(0), Value: make([]byte, 3000)}); !errors.Is(err, ErrRecordTooLarge) {
		t.Fatalf("oversized record: %v", err)
	}
	if _, err := p.TrySend(&Record{Topic: "", Value: nil}); !errors.Is(err, ErrInvalidRecord) {
		t.Fatalf("empty topic: %v", err)
	}
	n := 0
	for ; n < 10; n++ {
		if _, err := p.TrySend(&Record{Topic: "t", Partition: ToPartition(0), Value: make([]byte, 1000)}); err != nil {
			if !errors.Is(err, client.ErrBackpressure) {
				t.Fatal(err)
			}
			break
		}
	}
	if n != 4 {
		t.Fatalf("admitted %d records of ~1 KB into 4096 retained bytes, want 4", n)
	}
}

func TestSendWaitsFIFO(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	f.hold = make(chan struct{})
	p := newTestProducer(t, f, Config{InFlightRecords: 1, BatchMaxRecords: 1, Linger: -1, WaitingRecords: 3})
	first := mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("0")})

	// A Send whose context ends while waiting is not admitted.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	_, err := p.Send(ctx, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("gone")})
	cancel()
	if !errors.Is(err, client.ErrBackpressure) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("abandoned Send: %v", err)
	}

	var mu sync.Mutex
	var order []string
	var wg sync.WaitGroup
	results := make([]*Delivery, 3)
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			v := string(rune('a' + i))
			d, err := p.Send(context.Background(), &Record{Topic: "t", Partition: ToPartition(0), Value: []byte(v)})
			if err != nil {
				t.Errorf("Send %s: %v", v, err)
				return
			}
			mu.Lock()
			order = append(order, v)
			mu.Unlock()
			results[i] = d
		}(i)
		waitFor(t, "waiter queued", func() bool { p.mu.Lock(); defer p.mu.Unlock(); return p.waiting.count() == i+1 })
	}
	// The waiting queue is full (3): the next Send fails at once.
	if _, err := p.Send(context.Background(), &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("x")}); !errors.Is(err, client.ErrBackpressure) {
		t.Fatalf("Send beyond WaitingRecords: %v", err)
	}
	// TrySend may not overtake waiters.
	if _, err := p.TrySend(&Record{Topic: "t", Partition: ToPartition(0), Value: []byte("x")}); !errors.Is(err, client.ErrBackpressure) {
		t.Fatalf("TrySend with waiters: %v", err)
	}
	f.mu.Lock()
	close(f.hold)
	f.hold = nil
	f.mu.Unlock()
	wg.Wait()
	waitResult(t, first)
	for _, d := range results {
		waitResult(t, d)
	}
	log := f.log("t", 0)
	got := ""
	for _, r := range log {
		got += string(r.value)
	}
	if got != "0abc" {
		t.Fatalf("log order %q, want 0abc (FIFO admission)", got)
	}
	// The three admitted waiters are kept for reuse, emptied (a waiting
	// Send allocates nothing once warm); the abandoned one is not.
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.waiting.free) != 3 {
		t.Fatalf("%d waiters recycled, want 3", len(p.waiting.free))
	}
	for _, w := range p.waiting.free {
		if w.m != nil || w.d != nil || w.err != nil || w.gone || len(w.ready) != 0 || cap(w.ready) != 1 {
			t.Fatalf("recycled waiter not reset: %+v", w)
		}
	}
}

func TestCancelBeforeSend(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	p := newTestProducer(t, f, Config{Linger: time.Hour})
	ds := sendN(t, p, "t", 0, 5, 0)
	if o := ds[2].Cancel(); o != CancelledNotSent {
		t.Fatalf("cancel: %v", o)
	}
	if o := ds[2].Cancel(); o != AlreadyTerminal {
		t.Fatalf("second cancel: %v", o)
	}
	r, ok := ds[2].Result()
	if !ok || !errors.Is(r.Err, ErrRecordCancelled) || !errors.Is(r.Err, client.ErrCancelled) || r.Certainty != client.NotSent {
		t.Fatalf("cancelled result %+v %v", r, ok)
	}
	if err := p.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	log := f.log("t", 0)
	want := []string{"v0", "v1", "v3", "v4"}
	if len(log) != len(want) {
		t.Fatalf("log %d records", len(log))
	}
	for i, w := range want {
		if string(log[i].value) != w || log[i].seq != int32(i) {
			t.Fatalf("log[%d] = %s seq %d, want %s seq %d (no sequence consumed by the cancelled record)", i, log[i].value, log[i].seq, w, i)
		}
	}
	for i, d := range ds {
		if i == 2 {
			continue
		}
		if r := waitResult(t, d); r.Err != nil || r.Offset != int64(map[int]int{0: 0, 1: 1, 3: 2, 4: 3}[i]) {
			t.Fatalf("sibling %d: %+v", i, r)
		}
	}
	if o := ds[0].Cancel(); o != AlreadyTerminal {
		t.Fatalf("cancel after ack: %v", o)
	}
}

func TestCancelAfterSendIsTooLate(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	f.hold = make(chan struct{})
	p := newTestProducer(t, f, Config{Linger: -1})
	d := mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("v")})
	waitFor(t, "request sent", func() bool { f.mu.Lock(); defer f.mu.Unlock(); return f.requests == 1 })
	if o := d.Cancel(); o != TooLate {
		t.Fatalf("cancel in flight: %v", o)
	}
	if o := d.Cancel(); o != TooLate {
		t.Fatalf("second cancel in flight: %v", o)
	}
	f.mu.Lock()
	close(f.hold)
	f.hold = nil
	f.mu.Unlock()
	if r := waitResult(t, d); r.Err != nil || r.Offset != 0 {
		t.Fatalf("result %+v", r)
	}
	if o := d.Cancel(); o != AlreadyTerminal {
		t.Fatalf("cancel after terminal: %v", o)
	}
}

func TestCancelWholeBatchAndConcurrentCancel(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	p := newTestProducer(t, f, Config{Linger: 50 * time.Millisecond})
	ds := sendN(t, p, "t", 0, 20, 0)
	var wg sync.WaitGroup
	outcomes := make([]CancelOutcome, len(ds))
	for i := range ds {
		wg.Add(1)
		go func(i int) { defer wg.Done(); outcomes[i] = ds[i].Cancel() }(i)
	}
	wg.Wait()
	if err := p.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	sent := 0
	for i, d := range ds {
		r := waitResult(t, d)
		switch outcomes[i] {
		case CancelledNotSent:
			if !errors.Is(r.Err, ErrRecordCancelled) || r.Certainty != client.NotSent {
				t.Fatalf("record %d cancelled but terminal %+v", i, r)
			}
		case TooLate:
			if errors.Is(r.Err, ErrRecordCancelled) {
				t.Fatalf("record %d TooLate but terminal cancelled", i)
			}
			if r.Err == nil {
				sent++
			}
		default:
			t.Fatalf("record %d outcome %v", i, outcomes[i])
		}
	}
	if n := len(f.log("t", 0)); n != sent {
		t.Fatalf("log has %d records, %d reported sent", n, sent)
	}
	if p.activeRecords != 0 || p.activeBytes != 0 {
		t.Fatalf("accounting leak: %d records %d bytes", p.activeRecords, p.activeBytes)
	}
}

func TestDeliveryTimeoutWithoutLeader(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, -1)
	p := newTestProducer(t, f, Config{DeliveryTimeout: 100 * time.Millisecond})
	d := mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("v")})
	r := waitResult(t, d)
	if !errors.Is(r.Err, ErrDeliveryTimeout) || !errors.Is(r.Err, client.ErrTimeout) || r.Certainty != client.NotSent {
		t.Fatalf("result %+v", r)
	}
}

func TestCloseWithDeadBrokerFailsTruthfully(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 2}, 1)
	f.dead = true
	f.leaders["t"][1] = -1
	f.rebuildMetadata()
	p := newTestProducer(t, f, Config{Linger: -1})
	inflight := mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("a")})
	waitFor(t, "request sent", func() bool { f.mu.Lock(); defer f.mu.Unlock(); return f.requests == 1 })
	unsent := mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(1), Value: []byte("b")})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := p.Close(ctx); !errors.Is(err, client.ErrTimeout) {
		t.Fatalf("Close: %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("Close hung")
	}
	r1, ok1 := inflight.Result()
	r2, ok2 := unsent.Result()
	if !ok1 || !ok2 {
		t.Fatal("records left without terminal after Close")
	}
	if !errors.Is(r1.Err, ErrProducerClosed) || r1.Certainty != client.PossiblySent {
		t.Fatalf("in-flight record: %+v", r1)
	}
	if !errors.Is(r2.Err, ErrProducerClosed) || r2.Certainty != client.NotSent {
		t.Fatalf("unsent record: %+v", r2)
	}
	if _, err := p.TrySend(&Record{Topic: "t", Value: nil}); !errors.Is(err, ErrProducerClosed) || !errors.Is(err, client.ErrClosed) {
		t.Fatalf("TrySend after Close: %v", err)
	}
	if err := p.Close(context.Background()); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestPartitionerBeforeMetadataAndKeyed(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 12}, 1)
	p := newTestProducer(t, f, Config{})
	f.mu.Lock()
	saved := f.md
	f.md = nil // nothing cached yet: records wait in the unassigned batch
	f.mu.Unlock()
	_ = saved
	var ds []*Delivery
	keys := []string{"", "a", "key-42", "日本語キー", "kafka"}
	for i, k := range keys {
		ds = append(ds, mustSend(t, p, &Record{Topic: "t", Key: []byte(k), Value: []byte(k), Timestamp: time.UnixMilli(int64(5000 - 10*i))}))
	}
	var unkeyed []*Delivery
	for i := 0; i < 5; i++ {
		unkeyed = append(unkeyed, mustSend(t, p, &Record{Topic: "t", Value: []byte("u")}))
	}
	for i, d := range ds {
		r := waitResult(t, d)
		if want := KeyPartition([]byte(keys[i]), 12); r.Err != nil || r.Partition != want {
			t.Fatalf("key %q: %+v, want partition %d", keys[i], r, want)
		}
		lr := f.log("t", r.Partition)[r.Offset]
		if string(lr.value) != keys[i] || lr.ts != int64(5000-10*i) || lr.key == nil {
			t.Fatalf("key %q landed as %+v", keys[i], lr)
		}
	}
	first := waitResult(t, unkeyed[0]).Partition
	for _, d := range unkeyed {
		if r := waitResult(t, d); r.Err != nil || r.Partition != first {
			t.Fatalf("unkeyed records should stick to one partition: %+v vs %d", r, first)
		}
	}
}

func TestMetricsSnapshot(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	p := newTestProducer(t, f, Config{Linger: time.Hour})
	sendN(t, p, "t", 0, 3, 0)
	var m client.ProducerMetrics
	p.fillMetrics(&m)
	if m.BufferedRecords != 3 || m.BufferedBytes == 0 || !m.Accepting || !m.Healthy {
		t.Fatalf("metrics before flush %+v", m)
	}
	if err := p.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	m = client.ProducerMetrics{}
	p.fillMetrics(&m)
	if m.BufferedRecords != 0 || m.BufferedBytes != 0 || m.Records != 3 || m.Requests != 1 || m.Batches != 1 ||
		m.Bytes == 0 || m.PeakInFlight != 1 || m.PeakInFlightPerBroker != 1 {
		t.Fatalf("metrics after flush %+v", m)
	}
}

func TestFatalConditionsFailFast(t *testing.T) {
	t.Run("topic authorization", func(t *testing.T) {
		f := newFakeCluster(t, map[string]int{"t": 1}, 1)
		f.topicErr = map[string]error{"denied": wire.ErrTopicAuthorizationFailed}
		f.rebuildMetadata()
		p := newTestProducer(t, f, Config{})
		for _, part := range []int32{-1, 0} {
			d := mustSend(t, p, &Record{Topic: "denied", Partition: choice(part), Value: []byte("x")})
			r := waitResult(t, d)
			if !errors.Is(r.Err, wire.ErrTopicAuthorizationFailed) || r.Certainty != client.NotSent {
				t.Fatalf("partition %d: %+v", part, r)
			}
		}
	})
	t.Run("cluster authorization on InitProducerId", func(t *testing.T) {
		f := newFakeCluster(t, map[string]int{"t": 1}, 1)
		f.initErr = wire.ErrClusterAuthorizationFailed.Code
		p := newTestProducer(t, f, Config{})
		r := waitResult(t, mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("x")}))
		if !errors.Is(r.Err, wire.ErrClusterAuthorizationFailed) || r.Certainty != client.NotSent {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("partition out of range", func(t *testing.T) {
		f := newFakeCluster(t, map[string]int{"t": 2}, 1)
		p := newTestProducer(t, f, Config{})
		r := waitResult(t, mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(5), Value: []byte("x")}))
		if !errors.Is(r.Err, wire.ErrUnknownTopicOrPartition) || r.Certainty != client.NotSent {
			t.Fatalf("%+v", r)
		}
		if r := waitResult(t, mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(1), Value: []byte("x")})); r.Err != nil {
			t.Fatalf("valid partition: %v", r.Err)
		}
	})
}

func TestCloseFailsWaitersAndFlushHonoursContext(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	f.hold = make(chan struct{})
	defer func() { f.mu.Lock(); close(f.hold); f.hold = nil; f.mu.Unlock() }()
	p := newTestProducer(t, f, Config{InFlightRecords: 1, BatchMaxRecords: 1, Linger: -1})
	d := mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("a")})

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := p.Flush(ctx); !errors.Is(err, client.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Flush with a held response: %v", err)
	}
	if _, ok := d.Result(); ok {
		t.Fatal("record terminal although its response is held")
	}

	errc := make(chan error, 1)
	go func() {
		_, err := p.Send(context.Background(), &Record{Topic: "t", Partition: ToPartition(0), Value: []byte("b")})
		errc <- err
	}()
	waitFor(t, "Send waiting", func() bool { p.mu.Lock(); defer p.mu.Unlock(); return p.waiting.count() == 1 })
	cctx, ccancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer ccancel()
	if err := p.Close(cctx); !errors.Is(err, client.ErrTimeout) {
		t.Fatalf("Close: %v", err)
	}
	if err := <-errc; !errors.Is(err, ErrProducerClosed) {
		t.Fatalf("waiting Send after Close: %v", err)
	}
	r, ok := d.Result()
	if !ok || !errors.Is(r.Err, ErrProducerClosed) || r.Certainty != client.PossiblySent {
		t.Fatalf("in-flight record after Close: %+v %v", r, ok)
	}
}

func TestCancelFirstAndLastRebasesBatch(t *testing.T) {
	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	p := newTestProducer(t, f, Config{Linger: time.Hour, Compression: wire.CompressionLZ4})
	var ds []*Delivery
	for i := 0; i < 6; i++ {
		ts := time.UnixMilli(int64(1000 * (i + 1)))
		ds = append(ds, mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(0), Timestamp: ts, Key: []byte{byte(i)}, Value: []byte{byte(i)},
			Headers: []wire.Header{{Key: "i", Value: []byte{byte(i)}}}}))
	}
	for _, i := range []int{0, 2, 5} {
		if o := ds[i].Cancel(); o != CancelledNotSent {
			t.Fatalf("cancel %d: %v", i, o)
		}
	}
	if err := p.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	log := f.log("t", 0)
	want := []int{1, 3, 4}
	if len(log) != len(want) {
		t.Fatalf("log has %d records", len(log))
	}
	for j, i := range want {
		r := log[j]
		if r.value[0] != byte(i) || r.key[0] != byte(i) || r.headers[0].Value[0] != byte(i) || r.ts != int64(1000*(i+1)) || r.seq != int32(j) {
			t.Fatalf("log[%d] = %+v, want record %d at ts %d seq %d", j, r, i, 1000*(i+1), j)
		}
		if res := waitResult(t, ds[i]); res.Err != nil || res.Offset != int64(j) || res.Timestamp.UnixMilli() != int64(1000*(i+1)) {
			t.Fatalf("record %d: %+v", i, res)
		}
	}
}
