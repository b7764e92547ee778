package bench

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sort"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/consumer/assign"
	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kgo"
)

// benchRange is a plain range assignor for the one-member groups of
// BenchmarkGroupConsume (package assign's assignors are not used here, so
// the benchmark does not depend on them).
type benchRange struct{}

func (benchRange) Name() string                       { return "range" }
func (benchRange) Protocol() assign.RebalanceProtocol { return assign.Eager }
func (benchRange) Assign(ms []assign.Member, topics map[string][]assign.Partition) (map[string][]assign.TopicPartitions, error) {
	out := map[string][]assign.TopicPartitions{}
	ids := make([]string, 0, len(ms))
	for _, m := range ms {
		ids = append(ids, m.MemberID)
		out[m.MemberID] = nil
	}
	sort.Strings(ids)
	for t, ps := range topics {
		for i, p := range ps {
			m := ids[i*len(ids)/len(ps)]
			out[m] = append(out[m], assign.TopicPartitions{Topic: t, Partitions: []int32{p.ID}})
		}
	}
	return out, nil
}

var groupSeq atomic.Int64

// BenchmarkGroupConsume is BenchmarkConsume through a consumer group: one
// op joins a new group (one member, range, auto-commit every 5s as both
// clients default) and reads every record of the topic from the beginning:
// gregor's consumer.Group beside franz-go's group consumer
// (kgo.ConsumerGroup), same fetch limits. Includes the join; neither
// client recycles, except client=gregor-recycle, which hands every slice
// back with Group.Recycle once counted. peak-RSS-MiB is the
// ops' peak resident set (VmHWM), not the process's. Compare with:
// benchstat -col /client
func BenchmarkGroupConsume(b *testing.B) {
	owner := b
	for _, c := range []consumeCase{{1, wire.CompressionNone}, {4, wire.CompressionNone}} {
		topicFn := func(b *testing.B) string {
			topic := topicFor(b, owner, "consume/"+c.name(), c.partitions)
			if _, done := filled.Load(topic); !done {
				prefill(b, topic, c)
				filled.Store(topic, true)
			}
			return topic
		}
		b.Run("client=gregor/"+c.name(), func(b *testing.B) { benchGroup(b, topicFn(b), gregorGroupRead) })
		b.Run("client=gregor-recycle/"+c.name(), func(b *testing.B) { benchGroup(b, topicFn(b), gregorGroupRecycleRead) })
		b.Run("client=franz/"+c.name(), func(b *testing.B) { benchGroup(b, topicFn(b), franzGroupRead) })
	}
}

func benchGroup(b *testing.B, topic string, read func(b *testing.B, boot []string, topic, group string)) {
	boot := bootstrap(b)
	next := func() string { return fmt.Sprintf("bench-group-%d-%d", time.Now().UnixNano(), groupSeq.Add(1)) }
	read(b, boot, topic, next()) // warm up
	// peak-RSS-MiB is the ops' own peak (VmHWM reset after the prefill and
	// the warm-up were collected and returned to the OS), not the
	// process's: the prefill's producer and earlier cases would otherwise
	// set it.
	runtime.GC()
	debug.FreeOSMemory()
	resetPeakRSS(b)
	b.ReportAllocs()
	b.SetBytes(consumeRecords * consumeValueSize)
	b.ResetTimer()
	start := readUsage()
	for i := 0; i < b.N; i++ {
		read(b, boot, topic, next())
	}
	b.StopTimer()
	report(b, start, b.N*consumeRecords)
	b.ReportMetric(peakRSSMiB(b), "peak-RSS-MiB")
}

func gregorGroupRead(b *testing.B, boot []string, topic, group string) {
	gregorGroupReadN(b, boot, topic, group, consumeRecords)
}

func gregorGroupRecycleRead(b *testing.B, boot []string, topic, group string) {
	gregorGroupReadRecycling(b, boot, topic, group, consumeRecords, true)
}

// gregorGroupReadN reads want records of topic as the only member of a new
// group (classic protocol, range) with gregor's consumer.Group and returns
// when the last arrived (before the group and client are closed).
func gregorGroupReadN(b *testing.B, boot []string, topic, group string, want int) time.Time {
	return gregorGroupReadRecycling(b, boot, topic, group, want, false)
}

// gregorGroupReadRecycling is gregorGroupReadN, handing every slice back
// (Group.Recycle) once counted when recycle is set.
func gregorGroupReadRecycling(b *testing.B, boot []string, topic, group string, want int, recycle bool) time.Time {
	ctx := ctxFor(b, 5*time.Minute)
	cl, err := client.New(client.Config{Bootstrap: boot, ClientID: "gregor-bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close(context.Background())
	g, err := consumer.NewGroup(cl, consumer.GroupConfig{GroupID: group, Topics: []string{topic}, Protocol: consumer.ProtocolClassic,
		Assignors: []assign.Assignor{benchRange{}}, Config: consumer.Config{MaxWait: consumeMaxWait}})
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close(ctx)
	n := 0
	for n < want {
		rs, err := g.Receive(ctx)
		if err != nil {
			b.Fatalf("Receive after %d records: %v", n, err)
		}
		n += len(rs)
		if recycle {
			g.Recycle(rs)
		}
	}
	if n != want {
		b.Fatalf("read %d records, want %d", n, want)
	}
	return time.Now()
}

func franzGroupRead(b *testing.B, boot []string, topic, group string) {
	franzGroupReadN(b, boot, topic, group, consumeRecords)
}

// franzGroupReadN is gregorGroupReadN with franz-go's group consumer.
func franzGroupReadN(b *testing.B, boot []string, topic, group string, want int) time.Time {
	ctx := ctxFor(b, 5*time.Minute)
	cl, err := kgo.NewClient(kgo.SeedBrokers(boot...), kgo.ClientID("franz-bench"),
		kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic), kgo.Balancers(kgo.RangeBalancer()),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchMaxWait(consumeMaxWait), kgo.FetchMinBytes(consumer.DefaultMinBytes),
		kgo.FetchMaxBytes(consumer.DefaultMaxBytes), kgo.FetchMaxPartitionBytes(consumer.DefaultPartitionMaxBytes))
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	n := 0
	for n < want {
		fs := cl.PollFetches(ctx)
		if errs := fs.Errors(); len(errs) > 0 {
			b.Fatalf("PollFetches after %d records: %v", n, errs[0].Err)
		}
		n += fs.NumRecords()
	}
	if n != want {
		b.Fatalf("read %d records, want %d", n, want)
	}
	return time.Now()
}
