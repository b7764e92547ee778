package bench

import (
	"context"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Settings shared by gregor and franz-go in every benchmark, so the two run
// with the same broker-facing behaviour.
const (
	benchLinger        = 5 * time.Millisecond // linger.ms
	benchBatchMaxBytes = 1_000_000            // batch.size (franz-go ProducerBatchMaxBytes)
	benchInFlight      = 5                    // max.in.flight.requests.per.connection
	benchBufferBytes   = 32 << 20             // buffer.memory
	benchBufferRecords = 1_000_000            // buffered (active) records
	// benchRequestMaxBytes bounds one ProduceRequest, set explicitly for
	// both: franz-go's default (BrokerMaxWriteBytes 100 MiB) lets it send
	// several 1 MB batches per request, gregor's default (the Java client's
	// max.request.size, 1 MiB) one; 32 MiB is the most gregor accepts with
	// 32 MiB RetainedBytes.
	benchRequestMaxBytes = benchBufferBytes
)

// bootstrap returns the PLAINTEXT bootstrap addresses of the shared test bed
// (kafkatest.Shared: $GREGOR_KAFKA_STATE or <repo>/.kafka/state.json).
func bootstrap(b *testing.B) []string {
	b.Helper()
	return kafkatest.Shared(b).Bootstrap(kafkatest.Plaintext)
}

// ctxFor returns a context bounded by d, cancelled when b ends.
func ctxFor(b *testing.B, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	b.Cleanup(cancel)
	return ctx
}

// topics caches the topics created for a benchmark name: the testing package
// calls a benchmark function several times while it grows b.N, and creating
// a topic each time would dominate. Topics are deleted by deleteTopics at
// the end of the top-level benchmark.
var topics struct {
	sync.Mutex
	byKey map[string]string
	// warmed are the topics warmedTopic has warmed.
	warmed map[string]bool
}

// topicFor returns the topic for key (created on first use with partitions
// partitions, replication factor 1) and registers its deletion at the end of
// the benchmark that owns it (owner, a top-level *testing.B).
func topicFor(b *testing.B, owner *testing.B, key string, partitions int32) string {
	b.Helper()
	return topicWith(b, owner, key, partitions, nil)
}

// topicWith is topicFor with topic configs (nil: the broker's defaults) for
// the topic when it is created.
func topicWith(b *testing.B, owner *testing.B, key string, partitions int32, configs map[string]*string) string {
	b.Helper()
	topics.Lock()
	defer topics.Unlock()
	if topics.byKey == nil {
		topics.byKey = map[string]string{}
	}
	if t, ok := topics.byKey[key]; ok {
		return t
	}
	name := kafkatest.UniqueName(b, "bench")
	adm := newAdmin(b)
	defer adm.Close()
	ctx := ctxFor(b, 60*time.Second)
	resp, err := adm.CreateTopic(ctx, partitions, 1, configs, name)
	if err == nil {
		err = resp.Err
	}
	if err != nil {
		b.Fatalf("create topic %s: %v", name, err)
	}
	waitTopic(b, name, partitions)
	topics.byKey[key] = name
	owner.Cleanup(func() {
		topics.Lock()
		delete(topics.byKey, key)
		topics.Unlock()
		adm := newAdminOrNil()
		if adm == nil {
			return
		}
		defer adm.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, _ = adm.DeleteTopics(ctx, name)
	})
	return name
}

var bootAddrs []string

func newAdmin(b *testing.B) *kadm.Client {
	b.Helper()
	bootAddrs = bootstrap(b)
	cl, err := kgo.NewClient(kgo.SeedBrokers(bootAddrs...))
	if err != nil {
		b.Fatal(err)
	}
	return kadm.NewClient(cl)
}

func newAdminOrNil() *kadm.Client {
	cl, err := kgo.NewClient(kgo.SeedBrokers(bootAddrs...))
	if err != nil {
		return nil
	}
	return kadm.NewClient(cl)
}

// waitTopic waits (bounded) until gregor's client sees every partition of
// topic with a leader, so the first produce does not race topic creation.
func waitTopic(b *testing.B, topic string, partitions int32) {
	b.Helper()
	cl := newGregorClient(b)
	defer cl.Close(context.Background())
	ctx := ctxFor(b, 30*time.Second)
	for {
		md, err := cl.Metadata(ctx, []string{topic})
		if err == nil {
			ok := 0
			if t := md.Topics[topic]; t != nil && t.Err == nil {
				for _, p := range t.Partitions {
					if p.Leader >= 0 && p.Err == nil {
						ok++
					}
				}
			}
			if ok == int(partitions) {
				return
			}
		}
		select {
		case <-ctx.Done():
			b.Fatalf("topic %s: partitions not ready: %v", topic, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// newGregorClient returns a ready gregor client on the shared test bed.
func newGregorClient(b *testing.B) *client.Client {
	b.Helper()
	return newGregorClientAt(b, bootstrap(b))
}

// newGregorClientAt returns a ready gregor client on boot with hooks.
func newGregorClientAt(b *testing.B, boot []string, hooks ...client.Hook) *client.Client {
	b.Helper()
	cl, err := client.New(client.Config{Bootstrap: boot, ClientID: "gregor-bench", Hooks: hooks})
	if err != nil {
		b.Fatal(err)
	}
	if err := cl.Ready(ctxFor(b, 30*time.Second)); err != nil {
		cl.Close(context.Background())
		b.Fatalf("client ready: %v", err)
	}
	return cl
}

// usage is a snapshot of the process's CPU time (user+sys, getrusage
// RUSAGE_SELF: every goroutine of this process; the broker's JVM is another
// process and is not counted), heap allocation counters and the wall clock.
type usage struct {
	cpu     time.Duration
	sys     time.Duration // the kernel's part of cpu
	faults  int64         // minor page faults (first touches of fresh memory)
	mallocs uint64
	bytes   uint64
	wall    time.Time
}

func readUsage() usage {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return usage{
		cpu:     time.Duration(ru.Utime.Nano() + ru.Stime.Nano()),
		sys:     time.Duration(ru.Stime.Nano()),
		faults:  ru.Minflt,
		mallocs: ms.Mallocs,
		bytes:   ms.TotalAlloc,
		wall:    time.Now(),
	}
}

// report adds per-record metrics for the interval from start to now, over
// records records: records/s, client CPU ns/record (and its kernel part,
// sys-ns/rec), minor page faults per 1000 records, heap B/record and allocs/record (fractional, unlike
// -benchmem's integer allocs/op); it returns the records/s.
func report(b *testing.B, start usage, records int) float64 {
	var spent usageSum
	spent.add(start, readUsage())
	return spent.report(b, records)
}

// usageSum adds up the usage of several timed intervals.
type usageSum struct {
	cpu, sys       time.Duration
	wall           time.Duration
	faults         int64
	mallocs, bytes uint64
}

// add adds the interval from start to end.
func (s *usageSum) add(start, end usage) {
	s.cpu += end.cpu - start.cpu
	s.sys += end.sys - start.sys
	s.wall += end.wall.Sub(start.wall)
	s.faults += end.faults - start.faults
	s.mallocs += end.mallocs - start.mallocs
	s.bytes += end.bytes - start.bytes
}

// report reports the per-record metrics of report over records records
// and returns the records/s.
func (s *usageSum) report(b *testing.B, records int) float64 {
	n := float64(records)
	rate := n / s.wall.Seconds()
	b.ReportMetric(rate, "records/s")
	b.ReportMetric(float64(s.cpu)/n, "cpu-ns/rec")
	b.ReportMetric(float64(s.sys)/n, "sys-ns/rec")
	b.ReportMetric(float64(s.faults)*1000/n, "faults/krec")
	b.ReportMetric(float64(s.bytes)/n, "B/rec")
	b.ReportMetric(float64(s.mallocs)/n, "allocs/rec")
	reportPeakRSS(b)
	return rate
}

// payload returns a value of n bytes of varied (compressible like typical
// text, not all zeros) content.
func payload(n int) []byte {
	v := make([]byte, n)
	for i := range v {
		v[i] = "abcdefghijklmnopqrstuvwxyz0123456789"[(i*7+i/13)%36]
	}
	return v
}
