package bench

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer/share"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// shareRecords is how many 100-byte records one share benchmark op reads
// (over 3 partitions); share groups acknowledge every record, so ops are
// smaller than BenchmarkConsume's.
const (
	shareRecords    = 30_000
	sharePartitions = 3
	shareMaxRecords = 500 // max.poll.records, both clients
)

// BenchmarkShareConsume measures a share group (KIP-932) reading a
// pre-filled topic with 1 and 3 members in this process: gregor's
// share.Consumer beside franz-go's share consumer (kgo.ShareGroup), both
// accepting implicitly, 500 records per fetch (gregor's member takes its
// acknowledgement results and recycles what it received). One op is a fresh group
// (share.auto.offset.reset=earliest) whose members together receive
// shareRecords records; records/s and cpu-ns/rec as BenchmarkProduce.
//
// Compare with: benchstat -col /client
func BenchmarkShareConsume(b *testing.B) {
	owner := b
	c := consumeCase{partitions: sharePartitions, codec: wire.CompressionNone}
	topicFn := func(b *testing.B) string {
		topic := topicFor(b, owner, "share/"+c.name(), c.partitions)
		if _, done := filled.Load(topic); !done {
			prefill(b, topic, c)
			filled.Store(topic, true)
		}
		return topic
	}
	for _, members := range []int{1, 3} {
		b.Run(fmt.Sprintf("client=gregor/members=%d", members), func(b *testing.B) {
			benchShare(b, topicFn(b), members, gregorShareMember)
		})
		b.Run(fmt.Sprintf("client=franz/members=%d", members), func(b *testing.B) {
			benchShare(b, topicFn(b), members, franzShareMember)
		})
	}
}

// shareMember reads from group until ctx ends, adding to n.
type shareMember func(ctx context.Context, b *testing.B, group, topic string, n *atomic.Int64)

func benchShare(b *testing.B, topic string, members int, member shareMember) {
	readAll := func() {
		group := kafkatest.UniqueName(b, "bench-share")
		setEarliest(b, group)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		var n atomic.Int64
		var wg sync.WaitGroup
		for range members {
			wg.Add(1)
			go func() {
				defer wg.Done()
				member(ctx, b, group, topic, &n)
			}()
		}
		for n.Load() < shareRecords && ctx.Err() == nil {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
		wg.Wait()
		if got := n.Load(); got < shareRecords {
			b.Fatalf("read %d records, want %d", got, shareRecords)
		}
	}
	readAll() // warm the broker's page cache and the process
	b.ReportAllocs()
	b.ResetTimer()
	start := readUsage()
	for i := 0; i < b.N; i++ {
		readAll()
	}
	b.StopTimer()
	report(b, start, b.N*shareRecords)
}

// setEarliest sets the group's share.auto.offset.reset to earliest.
func setEarliest(b *testing.B, group string) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(bootstrap(b)...))
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	req := kmsg.NewPtrIncrementalAlterConfigsRequest()
	res := kmsg.NewIncrementalAlterConfigsRequestResource()
	res.ResourceType, res.ResourceName = kmsg.ConfigResourceType(32), group // GROUP
	cfg := kmsg.NewIncrementalAlterConfigsRequestResourceConfig()
	v := "earliest"
	cfg.Name, cfg.Value = "share.auto.offset.reset", &v
	res.Configs = append(res.Configs, cfg)
	req.Resources = append(req.Resources, res)
	ctx := ctxFor(b, 30*time.Second)
	resp, err := req.RequestWith(ctx, cl)
	if err != nil || resp.Resources[0].ErrorCode != 0 {
		b.Fatalf("share.auto.offset.reset: %v %+v", err, resp)
	}
}

func gregorShareMember(ctx context.Context, b *testing.B, group, topic string, n *atomic.Int64) {
	cl, err := client.New(client.Config{Bootstrap: bootstrap(b), ClientID: "gregor-bench"})
	if err != nil {
		b.Error(err)
		return
	}
	defer cl.Close(context.Background())
	c, err := share.New(cl, share.Config{GroupID: group, Topics: []string{topic}, MaxRecords: shareMaxRecords, MaxWait: consumeMaxWait})
	if err != nil {
		b.Error(err)
		return
	}
	var results []share.AckResult
	for ctx.Err() == nil {
		recs, err := c.Receive(ctx)
		if err != nil {
			break
		}
		n.Add(int64(len(recs)))
		results = c.AppendAckResults(results[:0]) // what an application checks
		c.Recycle(recs)
	}
	cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = c.Close(cctx)
}

func franzShareMember(ctx context.Context, b *testing.B, group, topic string, n *atomic.Int64) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(bootstrap(b)...), kgo.ClientID("franz-bench"),
		kgo.ShareGroup(group), kgo.ConsumeTopics(topic), kgo.ShareMaxRecords(shareMaxRecords), kgo.ShareMaxRecordsStrict(),
		kgo.FetchMaxWait(consumeMaxWait))
	if err != nil {
		b.Error(err)
		return
	}
	defer cl.Close()
	for ctx.Err() == nil {
		fs := cl.PollRecords(ctx, 0)
		n.Add(int64(len(fs.Records())))
	}
	cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = cl.FlushAcks(cctx)
}
