package producer

import (
	"context"
	"encoding/binary"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// sinkCluster is fakeCluster (metadata, InitProducerId) with a Produce path
// that costs next to nothing: each ProduceRequest is answered success for
// every partition, in call order, by one goroutine standing in for the
// broker, without decoding a byte. The sender's own cost per record is
// what remains (BenchmarkSenderScale).
type sinkCluster struct {
	*fakeCluster
	calls chan *sinkCall

	mu       sync.Mutex // guards the fields below
	next     map[string][]int64
	requests int
	batches  int
}

// sinkCall is one ProduceRequest's call: answered by the sink's goroutine.
type sinkCall struct {
	req  *wire.ProduceRequest
	done chan struct{}
	resp *wire.ProduceResponse
}

func (c *sinkCall) Wait() (wire.Response, error) { <-c.done; return c.resp, nil }
func (c *sinkCall) Release()                     {}

func newSinkCluster(topic string, parts int) *sinkCluster {
	s := &sinkCluster{
		fakeCluster: newFakeCluster(nil, map[string]int{topic: parts}, 1),
		calls:       make(chan *sinkCall, 64),
		next:        map[string][]int64{topic: make([]int64, parts)},
	}
	go s.answer()
	return s
}

func (s *sinkCluster) StartCall(ctx context.Context, broker int32, req wire.Request) (client.Call, error) {
	pr, ok := req.(*wire.ProduceRequest)
	if !ok {
		return nil, fmt.Errorf("sink: unexpected %T", req)
	}
	c := &sinkCall{req: pr, done: make(chan struct{})}
	s.calls <- c
	return c, nil
}

// answer is the sink's broker: success for every batch, offsets per
// partition, into the request's reused response (SetResponseInto).
func (s *sinkCluster) answer() {
	for c := range s.calls {
		resp := c.req.ResponseFor().(*wire.ProduceResponse)
		resp.Responses = resp.Responses[:0]
		s.mu.Lock()
		s.requests++
		for _, td := range c.req.TopicData {
			offs := s.next[td.Name]
			n := len(resp.Responses)
			if n < cap(resp.Responses) {
				resp.Responses = resp.Responses[:n+1]
				resp.Responses[n].Name = td.Name
				resp.Responses[n].PartitionResponses = resp.Responses[n].PartitionResponses[:0]
			} else {
				resp.Responses = append(resp.Responses, wire.ProduceResponseTopic{Name: td.Name})
			}
			rt := &resp.Responses[n]
			for _, pd := range td.PartitionData {
				s.batches++
				rt.PartitionResponses = append(rt.PartitionResponses, wire.ProduceResponsePartition{
					Index: pd.Index, BaseOffset: offs[pd.Index], LogAppendTimeMs: -1, LogStartOffset: 0})
				offs[pd.Index] += int64(binary.BigEndian.Uint32(pd.Records[57:61])) // the batch's record count
			}
		}
		s.mu.Unlock()
		c.resp = resp
		close(c.done)
	}
}

// BenchmarkSenderScale is the sender's cost per record against partition
// count, offline (sinkCluster: no decoding, no network): a producer at its
// defaults sends b.N records of 100 B round-robin to explicit partitions
// of one topic, then flushes. Before the timer every partition gets one
// record (flushed), so each is known, led and confirmed. One op is one
// record; cpu-ns/op is the process's CPU (getrusage) per record, which
// the machine's load inflates less than wall time. recs/batch shows how
// full the batches were: the cost per batch (opening, sealing, encoding,
// acknowledging) is spread over fewer records as parts grows at one rate.
//
// order=burst sends senderBurst records to each partition in turn instead
// (records still spread over every partition, batches as full at every
// count): the sender's cost per record apart from how full batches are.
func BenchmarkSenderScale(b *testing.B) {
	for _, burst := range []int{1, senderBurst} {
		order := "roundrobin"
		if burst > 1 {
			order = "burst"
		}
		for _, parts := range []int{16, 256, 1024, 4096} {
			b.Run(fmt.Sprintf("order=%s/parts=%d", order, parts), func(b *testing.B) { benchSenderScale(b, parts, burst) })
		}
	}
}

// senderBurst is BenchmarkSenderScale's records in a row per partition
// (order=burst).
const senderBurst = 64

func benchSenderScale(b *testing.B, parts, burst int) {
	s := newSinkCluster("t", parts)
	defer close(s.calls)
	p, err := newProducer(s, Config{})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	defer p.Close(ctx)
	m := &Record{Topic: "t", Value: make([]byte, 100)}
	send := func(n int) {
		for i := 0; i < n; i++ {
			m.Partition = ToPartition(int32(i / burst % parts))
			if _, err := p.Send(ctx, m); err != nil {
				b.Fatal(err)
			}
		}
		if err := p.Flush(ctx); err != nil {
			b.Fatal(err)
		}
	}
	send(parts * burst)
	s.mu.Lock()
	reqs0, batches0 := s.requests, s.batches
	s.mu.Unlock()
	b.ReportAllocs()
	b.SetBytes(100)
	b.ResetTimer()
	cpu0 := cpuTime()
	send(b.N)
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	s.mu.Lock()
	if reqs := s.requests - reqs0; reqs > 0 {
		b.ReportMetric(float64(b.N)/float64(reqs), "recs/req")
		b.ReportMetric(float64(b.N)/float64(s.batches-batches0), "recs/batch")
	}
	s.mu.Unlock()
	p.mu.Lock()
	left := p.activeRecords
	p.mu.Unlock()
	if left != 0 {
		b.Fatalf("%d records not acknowledged after Flush", left)
	}
}

// BenchmarkSenderPass is one sender pass (collect) that finds nothing to
// send, against the number of partitions holding a lingering batch: the
// cost of a wake-up with many partitions. Every partition of the topic
// holds an open batch (Linger one hour, nothing full); one op is one
// pass. Readiness from the broker queues makes it independent of parts;
// a pass that walked every partition grew with them.
func BenchmarkSenderPass(b *testing.B) {
	for _, parts := range []int{16, 256, 1024, 4096} {
		b.Run(fmt.Sprintf("parts=%d", parts), func(b *testing.B) {
			f := newFakeCluster(nil, map[string]int{"t": parts}, 1)
			p, err := buildProducer(f, Config{Linger: time.Hour})
			if err != nil {
				b.Fatal(err)
			}
			p.ident.set(1, 0)
			m := &Record{Topic: "t", Value: make([]byte, 100)}
			for i := 0; i < parts; i++ {
				m.Partition = ToPartition(int32(i))
				if _, err := p.TrySend(m); err != nil {
					b.Fatal(err)
				}
			}
			var reqs []*inflightReq
			now := time.Now()
			_, reqs, _ = p.collect(now, reqs[:0]) // the first pass after metadata
			if len(reqs) != 0 {
				b.Fatalf("%d requests: want none (every batch lingers)", len(reqs))
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_, reqs, _ = p.collect(now, reqs[:0])
			}
			b.StopTimer()
			if len(reqs) != 0 {
				b.Fatalf("%d requests: want none", len(reqs))
			}
			p.mu.Lock()
			clockDone := p.clk.stopLocked() // buildProducer's producer is never closed
			p.mu.Unlock()
			<-clockDone
		})
	}
}
