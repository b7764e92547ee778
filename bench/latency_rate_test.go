package bench

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/twmb/franz-go/pkg/kgo"
)

// rateCase is one case of the paced latency benchmarks: an offered rate,
// the partitions written and a linger setting. linger "default" is each
// client's own default (gregor 5ms, franz-go 10ms: what an application gets
// without setting it), "0" is no linger for both (gregor Linger -1,
// franz-go ProducerLinger(0)), "10ms" is franz-go's default for both (the
// same requests per second: CPU per record compared like for like). With more than one partition, record i goes
// to partition i mod parts (as keyed records spread), for both clients.
type rateCase struct {
	rate   int // offered records/s
	parts  int32
	linger string
}

func (c rateCase) name() string {
	return fmt.Sprintf("rate=%d/parts=%d/linger=%s", c.rate, c.parts, c.linger)
}

func rateCases(rates []int, parts ...int32) []rateCase {
	var cs []rateCase
	for _, r := range rates {
		for _, p := range parts {
			for _, l := range []string{"default", "0", "10ms"} {
				cs = append(cs, rateCase{r, p, l})
			}
		}
	}
	return cs
}

// latencyRun is how long one paced case offers records under measurement
// (after a warm-up of latencyRateWarmup at the same rate);
// GREGOR_BENCH_LATENCY_RUN (a Go duration) overrides it.
const (
	latencyRunDefault = 3 * time.Second
	latencyRateWarmup = time.Second
)

func latencyRun(b *testing.B) time.Duration {
	if s := os.Getenv("GREGOR_BENCH_LATENCY_RUN"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			b.Fatalf("GREGOR_BENCH_LATENCY_RUN=%q: want a positive duration", s)
		}
		return d
	}
	return latencyRunDefault
}

// pacedRun is the measured part of one paced case: the schedule, the
// histogram and what the sender saw.
type pacedRun struct {
	sched schedule
	lat   *latencyHist // due time → acknowledgement (or receipt)
	late  *latencyHist // due time → the send call (the sender's own lag)
	lastN atomic.Int64 // ns since epoch of the last acknowledgement or receipt
	// warmup marks the warm-up run: its figures are not reported, and
	// BenchmarkEndToEndLatency waits only for its first record to arrive.
	warmup bool
}

func newPacedRun(rate int, d time.Duration) *pacedRun {
	n := max(1, int(float64(rate)*d.Seconds()))
	return &pacedRun{sched: schedule{rate: float64(rate), n: n}, lat: newLatencyHist(), late: newLatencyHist()}
}

// done records one record's latency (now − due) and its completion time.
func (r *pacedRun) done(due time.Time) {
	now := time.Now()
	r.lat.record(now.Sub(due))
	r.lastN.Store(int64(now.Sub(epoch)))
}

// report adds the case's metrics: the latency percentiles (p50-us, p99-us,
// p99.9-us), late-p99-us (the sender's lag behind the schedule: pacing
// overshoot, load and time blocked in earlier sends), records/s achieved (records over
// the time from the schedule's start to the last completion) and the
// client process's cpu-ns/rec over that time.
func (r *pacedRun) report(b *testing.B, start usage) {
	end := readUsage()
	n := r.lat.count()
	if n != int64(r.sched.n) {
		b.Fatalf("%d latencies recorded, want %d", n, r.sched.n)
	}
	r.lat.report(b, "")
	_, p99, _ := r.late.percentiles()
	b.ReportMetric(p99, "late-p99-us")
	wall := time.Duration(r.lastN.Load()) - r.sched.start.Sub(epoch)
	b.ReportMetric(float64(n)/wall.Seconds(), "records/s")
	b.ReportMetric(float64(end.cpu-start.cpu)/float64(n), "cpu-ns/rec")
}

// epoch is this process's reference for the monotonic send timestamps that
// BenchmarkEndToEndLatency carries in its records (ns since epoch).
var epoch = time.Now()

// BenchmarkProduceLatencyAtRate measures produce acknowledgement latency at
// fixed offered rates (1k, 10k and 100k records/s of 100 B, idempotent
// acks=all) to one partition and spread over 12 (record i to partition
// i mod 12), gregor beside franz-go, at each client's default linger and
// with none. Records are offered on an open-loop schedule
// (record i due at start + i/rate, see schedule) and each one's latency is
// taken from its due time to its acknowledgement, into an HdrHistogram.
// One op is one paced run of latencyRun (3s; GREGOR_BENCH_LATENCY_RUN)
// after 1s of warm-up at the same rate: run with -benchtime=1x. Metrics:
// p50-us, p99-us, p99.9-us, late-p99-us, records/s (achieved), cpu-ns/rec.
//
// Compare with: benchstat -col /client
func BenchmarkProduceLatencyAtRate(b *testing.B) {
	owner := b
	for _, c := range rateCases([]int{1_000, 10_000, 100_000}, 1, 12) {
		b.Run("client=gregor/"+c.name(), func(b *testing.B) {
			benchGregorAckRate(b, topicFor(b, owner, "ackrate/gregor/"+c.name(), c.parts), c)
		})
		b.Run("client=franz/"+c.name(), func(b *testing.B) {
			benchFranzAckRate(b, topicFor(b, owner, "ackrate/franz/"+c.name(), c.parts), c)
		})
	}
}

// gregorLinger and franzLinger map a rateCase's linger to each client's
// setting.
func gregorLinger(c rateCase) time.Duration {
	switch c.linger {
	case "0":
		return -1
	case "10ms":
		return 10 * time.Millisecond
	}
	return 0 // producer.Config's default, 5ms
}

func franzLinger(c rateCase) []kgo.Opt {
	switch c.linger {
	case "0":
		return []kgo.Opt{kgo.ProducerLinger(0)}
	case "10ms":
		return []kgo.Opt{kgo.ProducerLinger(10 * time.Millisecond)}
	}
	return nil // franz-go's default, 10ms
}

// gregorPending is a record sent by gregor's producer whose acknowledgement
// is awaited.
type gregorPending struct {
	d   *producer.Delivery
	due time.Time
}

func benchGregorAckRate(b *testing.B, topic string, c rateCase) {
	cl := newGregorClient(b)
	defer cl.Close(context.Background())
	p, err := producer.New(cl, producer.Config{Linger: gregorLinger(c)})
	if err != nil {
		b.Fatal(err)
	}
	ctx := ctxFor(b, 5*time.Minute)
	defer p.Close(ctx)
	m := &producer.Record{Topic: topic, Value: payload(100)}
	// A partition's acknowledgements arrive in send order, so one collector
	// per partition, waiting on each Delivery in turn, sees each when it
	// lands.
	paced := func(r *pacedRun) {
		pends := make([]chan gregorPending, c.parts)
		var wg sync.WaitGroup
		for i := range pends {
			pends[i] = make(chan gregorPending, r.sched.n/int(c.parts)+1)
			wg.Add(1)
			go func(pend <-chan gregorPending) {
				defer wg.Done()
				for pd := range pend {
					<-pd.d.Done()
					r.done(pd.due)
					if res, _ := pd.d.Result(); res.Err != nil {
						b.Errorf("record: %v", res.Err)
					}
				}
			}(pends[i])
		}
		r.sched.start = time.Now()
		r.sched.run(func(i int, due time.Time) {
			r.late.record(time.Since(due))
			part := int32(i) % c.parts
			m.Partition = producer.ToPartition(part)
			d, err := p.Send(ctx, m)
			if err != nil {
				b.Fatalf("Send: %v", err)
			}
			pends[part] <- gregorPending{d, due}
		})
		for _, pend := range pends {
			close(pend)
		}
		wg.Wait()
	}
	runPaced(b, c, paced)
}

func benchFranzAckRate(b *testing.B, topic string, c rateCase) {
	cl, err := kgo.NewClient(append([]kgo.Opt{
		kgo.SeedBrokers(bootstrap(b)...),
		kgo.ClientID("franz-bench"),
		kgo.DefaultProduceTopic(topic),
		kgo.RequiredAcks(kgo.AllISRAcks()), // idempotence is franz-go's default
		kgo.RecordPartitioner(kgo.ManualPartitioner()),
	}, franzLinger(c)...)...)
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	ctx := ctxFor(b, 5*time.Minute)
	value := payload(100)
	paced := func(r *pacedRun) {
		r.sched.start = time.Now()
		r.sched.run(func(i int, due time.Time) {
			r.late.record(time.Since(due))
			cl.Produce(ctx, &kgo.Record{Value: value, Partition: int32(i) % c.parts}, func(_ *kgo.Record, err error) {
				r.done(due)
				if err != nil {
					b.Errorf("record: %v", err)
				}
			})
		})
		if err := cl.Flush(ctx); err != nil {
			b.Fatalf("Flush: %v", err)
		}
	}
	runPaced(b, c, paced)
}

// runPaced runs paced once as warm-up (latencyRateWarmup at c's rate) and
// then b.N times under the timer, each a run of latencyRun at c's rate;
// the metrics are those of the last run.
func runPaced(b *testing.B, c rateCase, paced func(*pacedRun)) {
	w := newPacedRun(c.rate, latencyRateWarmup)
	w.warmup = true
	paced(w)
	if b.Failed() {
		return
	}
	d := latencyRun(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := newPacedRun(c.rate, d)
		start := readUsage()
		paced(r)
		if i == b.N-1 {
			b.StopTimer()
			r.report(b, start)
		}
	}
}

// BenchmarkEndToEndLatency measures produce → consume latency at fixed
// offered rates (1k and 10k records/s of 100 B, one partition), gregor →
// gregor and franz-go → franz-go, at each client's default linger and with
// none: a producer client and a separate consumer client in this process,
// the consumer assigned to the partition at its end before anything is
// produced (and seen receiving the warm-up's records before the measured
// run starts). Records are offered on the open-loop schedule of
// BenchmarkProduceLatencyAtRate; each carries its run's id and its due time
// (monotonic ns since this process's epoch) in the first 12 bytes of its
// value, and its latency is the consumer application's receipt (after
// Receive / PollFetches returns it) minus that due time. One op is one run
// of latencyRun after 1s of warm-up; metrics as
// BenchmarkProduceLatencyAtRate (records/s: records over the time from the
// schedule's start to the last receipt; cpu-ns/rec: both clients).
//
// Compare with: benchstat -col /client
func BenchmarkEndToEndLatency(b *testing.B) {
	owner := b
	for _, c := range rateCases([]int{1_000, 10_000}, 1) {
		b.Run("client=gregor/"+c.name(), func(b *testing.B) {
			benchGregorE2E(b, topicFor(b, owner, "e2e/gregor/"+c.name(), 1), c)
		})
		b.Run("client=franz/"+c.name(), func(b *testing.B) {
			benchFranzE2E(b, topicFor(b, owner, "e2e/franz/"+c.name(), 1), c)
		})
	}
}

// e2eSink takes the consumer's records and records the latency of those
// of the current run.
type e2eSink struct {
	mu    sync.Mutex
	cur   *pacedRun     // guarded by mu
	id    uint32        // cur's id, guarded by mu
	got   int           // cur's records received, guarded by mu
	first chan struct{} // closed at cur's first record
	all   chan struct{} // closed when all of cur's records were received
}

// start makes r, with id, the current run.
func (s *e2eSink) start(r *pacedRun, id uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cur, s.id, s.got = r, id, 0
	s.first, s.all = make(chan struct{}), make(chan struct{})
}

// receive handles one consumed value.
func (s *e2eSink) receive(v []byte) {
	if len(v) < 12 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil || binary.BigEndian.Uint32(v) != s.id {
		return // a record of an earlier run
	}
	s.cur.done(epoch.Add(time.Duration(binary.BigEndian.Uint64(v[4:]))))
	s.got++
	if s.got == 1 {
		close(s.first)
	}
	if s.got == s.cur.sched.n {
		close(s.all)
	}
}

// e2eValues returns the values of r's records, each 100 B stamped with id
// and its due time: built before the run, so that neither client's run
// includes building them, and distinct, as franz-go keeps a record's value
// until it is acknowledged.
func e2eValues(r *pacedRun, id uint32) [][]byte {
	p := payload(100)
	buf := make([]byte, 100*r.sched.n)
	vs := make([][]byte, r.sched.n)
	for i := range vs {
		v := buf[i*100 : (i+1)*100 : (i+1)*100]
		copy(v, p)
		binary.BigEndian.PutUint32(v, id)
		vs[i] = v
	}
	return vs
}

// stampDue writes due (ns since epoch) into v.
func stampDue(v []byte, due time.Time) {
	binary.BigEndian.PutUint64(v[4:], uint64(due.Sub(epoch)))
}

// e2ePaced returns the paced function of an end-to-end case: it stamps
// and sends every record of the run through send, then waits until the
// sink has seen all of them (the warm-up: the first).
func e2ePaced(b *testing.B, sink *e2eSink, send func(v []byte)) func(*pacedRun) {
	var ids uint32
	return func(r *pacedRun) {
		ids++
		vs := e2eValues(r, ids)
		sink.start(r, ids)
		sink.mu.Lock()
		first, all := sink.first, sink.all
		sink.mu.Unlock()
		r.sched.start = time.Now()
		r.sched.run(func(i int, due time.Time) {
			r.late.record(time.Since(due))
			stampDue(vs[i], due)
			send(vs[i])
		})
		wait := all
		if r.warmup {
			wait = first
		}
		select {
		case <-wait:
		case <-time.After(60 * time.Second):
			sink.mu.Lock()
			got := sink.got
			sink.mu.Unlock()
			b.Fatalf("consumer received %d of %d records within 60s of the last send", got, r.sched.n)
		}
	}
}

func benchGregorE2E(b *testing.B, topic string, c rateCase) {
	ctx := ctxFor(b, 5*time.Minute)
	pcl, ccl := newGregorClient(b), newGregorClient(b)
	defer pcl.Close(context.Background())
	defer ccl.Close(context.Background())
	cons, err := consumer.New(ccl, consumer.Config{})
	if err != nil {
		b.Fatal(err)
	}
	defer cons.Close(context.Background())
	tp := gregor.TopicPartition{Topic: topic, Partition: 0}
	if err := cons.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtEnd()}}); err != nil {
		b.Fatal(err)
	}
	var sink e2eSink
	rctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			rs, err := cons.Receive(rctx)
			if err != nil {
				if rctx.Err() == nil {
					b.Errorf("Receive: %v", err)
				}
				return
			}
			for i := range rs {
				sink.receive(rs[i].Value)
			}
			cons.Recycle(rs)
		}
	}()
	defer wg.Wait()
	defer stop()
	p, err := producer.New(pcl, producer.Config{Linger: gregorLinger(c)})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close(ctx)
	m := &producer.Record{Topic: topic, Partition: producer.ToPartition(0)}
	var failed atomic.Int64
	runPaced(b, c, e2ePaced(b, &sink, func(v []byte) {
		m.Value = v
		if _, err := p.Send(ctx, m); err != nil && failed.Add(1) == 1 {
			b.Errorf("Send: %v", err)
		}
	}))
}

func benchFranzE2E(b *testing.B, topic string, c rateCase) {
	ctx := ctxFor(b, 5*time.Minute)
	ccl, err := kgo.NewClient(kgo.SeedBrokers(bootstrap(b)...), kgo.ClientID("franz-bench"),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {0: kgo.NewOffset().AtEnd()}}))
	if err != nil {
		b.Fatal(err)
	}
	defer ccl.Close()
	var sink e2eSink
	rctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for rctx.Err() == nil {
			fs := ccl.PollFetches(rctx)
			fs.EachError(func(_ string, _ int32, err error) {
				if rctx.Err() == nil {
					b.Errorf("fetch: %v", err)
				}
			})
			fs.EachRecord(func(r *kgo.Record) { sink.receive(r.Value) })
		}
	}()
	defer wg.Wait()
	defer stop()
	pcl, err := kgo.NewClient(append([]kgo.Opt{
		kgo.SeedBrokers(bootstrap(b)...),
		kgo.ClientID("franz-bench"),
		kgo.DefaultProduceTopic(topic),
		kgo.RequiredAcks(kgo.AllISRAcks()),
		kgo.RecordPartitioner(kgo.ManualPartitioner()),
	}, franzLinger(c)...)...)
	if err != nil {
		b.Fatal(err)
	}
	defer pcl.Close()
	var failed atomic.Int64
	promise := func(_ *kgo.Record, err error) {
		if err != nil && failed.Add(1) == 1 {
			b.Errorf("record: %v", err)
		}
	}
	runPaced(b, c, e2ePaced(b, &sink, func(v []byte) {
		pcl.Produce(ctx, &kgo.Record{Value: v, Partition: 0}, promise)
	}))
}
