package bench

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kgo"
)

// delaySuiteDelays are BenchmarkDelay's one-way delays; 0 is loopback (the
// PLAINTEXT listener, no proxy).
var delaySuiteDelays = []time.Duration{0, time.Millisecond, 10 * time.Millisecond, 40 * time.Millisecond}

// delaySuitePartitions are BenchmarkDelay's partition counts.
var delaySuitePartitions = []int32{1, 16, 256}

// wireRecordBytes is what one 100-byte value without key or headers takes in
// a v2 record batch (length, attributes, timestamp and offset deltas, key
// and value lengths, header count: 8–12 bytes of varints), used for the
// bounds.
const wireRecordBytes = consumeValueSize + 10

// produceRecordEstimate is what gregor's producer counts for such a record
// against batch.size and max.request.size (its framing estimate, 21 bytes,
// plus the value).
const produceRecordEstimate = scaleValueSize + 21

// BenchmarkDelay is the round-trip suite (issue 38): produce and consume
// through a link of 0 (loopback), 1, 10 and 40 ms each way (delayProxy, in
// a child process so its CPU is not counted) at 1, 16 and 256 partitions,
// gregor beside franz-go v1.22, both at their DEFAULT configurations, in
// one process, the two clients' order alternating from cell to cell and
// from run to run (GREGOR_BENCH_RUN, set by run.sh).
//
//   - op=produce: BenchmarkScaleProduce's op (100,000 records of 100 B
//     round-robin over the partitions, idempotent acks=all, warmed first),
//     franz-go with its manual partitioner.
//   - op=consume: 300,000 records of 100 B pre-filled over the partitions
//     (BenchmarkScaleConsume's topics), read from offset 0 by a new
//     consumer per op on a client already connected (not timed), gregor's
//     assigned consumer recycling, franz-go's direct consumer
//     (AddConsumePartitions). The timed part starts with the Metadata
//     request that finds the leader.
//
// Every cell reports rtt-ms, the median of 5 ApiVersions round trips
// through the link, and gregor's cells bound-rec/s and of-bound: the
// records/s its default limits allow at that round trip (see
// produceBound, consumeBound) and the fraction of it achieved. A link
// does not make a client faster than it is on loopback, where the CPU
// (client and broker) binds; so delayed cells also report of-min-bound,
// the fraction of min(bound, gregor's loopback records/s of the same run
// and cell). gregor's consume cells report early/op, the Fetch responses
// per op after which the next Fetch went out before the response was
// decoded (consumer.Metrics.EarlyAnswers), and twin/op, the Fetches per op
// in a broker's second fetch session (consumer.Metrics.TwinFetches).
//
// Compare with: benchstat -col /client
func BenchmarkDelay(b *testing.B) {
	owner := b
	run, _ := strconv.Atoi(os.Getenv("GREGOR_BENCH_RUN"))
	cell := run
	loopback := map[string]float64{} // gregor's records/s at delay 0 by op/parts
	for _, delay := range delaySuiteDelays {
		b.Run("delay="+delay.String(), func(b *testing.B) {
			boot := bootstrap(b)
			if delay > 0 {
				boot = startDelayProxies(b, delay)
			}
			rtt := roundTrip(b, boot)
			for _, parts := range delaySuitePartitions {
				for _, op := range []string{"produce", "consume"} {
					clients := []string{"gregor", "franz"}
					if cell%2 == 1 {
						slices.Reverse(clients)
					}
					cell++
					for _, cl := range clients {
						name := fmt.Sprintf("op=%s/parts=%d/client=%s", op, parts, cl)
						b.Run(name, func(b *testing.B) {
							rate, bound := delayCase(b, owner, boot, op, cl, parts, rtt)
							b.ReportMetric(float64(rtt)/1e6, "rtt-ms") // after the case's ResetTimer
							if cl != "gregor" {
								return
							}
							b.ReportMetric(bound, "bound-rec/s")
							b.ReportMetric(rate/bound, "of-bound")
							key := fmt.Sprintf("%s/%d", op, parts)
							if delay == 0 {
								loopback[key] = rate
							} else if lr := loopback[key]; lr > 0 {
								b.ReportMetric(rate/min(bound, lr), "of-min-bound")
							}
						})
					}
				}
			}
		})
	}
}

// delayCase runs one cell of BenchmarkDelay and returns its records/s and,
// for gregor, its bound.
func delayCase(b *testing.B, owner *testing.B, boot []string, op, cl string, parts int32, rtt time.Duration) (rate, bound float64) {
	c := consumeCase{partitions: parts, codec: wire.CompressionNone}
	switch op + "/" + cl {
	case "produce/gregor":
		topic := warmedTopic(b, owner, fmt.Sprintf("delay-produce/parts=%d", parts), parts)
		return benchScaleGregorProduce(b, boot, topic, parts, false), produceBound(scaleRecords, parts, rtt)
	case "produce/franz":
		topic := warmedTopic(b, owner, fmt.Sprintf("delay-produce/parts=%d", parts), parts)
		return benchScaleFranzProduce(b, boot, topic, parts, false), 0
	case "consume/gregor":
		b.ReportMetric(float64(consumeBoundFetches(consumeRecords, parts)), "bound-fetches")
		return delayGregorConsume(b, boot, scaleTopic(b, owner, c), c), consumeBound(consumeRecords, parts, rtt)
	default:
		return delayFranzConsume(b, boot, scaleTopic(b, owner, c), c), 0
	}
}

// produceBound is the records/s gregor's default producer limits allow for
// one op of records 100-byte records over parts partitions at round trip
// rtt: a ProduceRequest carries at most DefaultRequestMaxBytes
// (max.request.size) of batches, one batch per partition of at most
// DefaultBatchMaxBytes (batch.size) and DefaultBatchMaxRecords records,
// and at most DefaultMaxInFlightPerBroker
// (max.in.flight.requests.per.connection) requests are outstanding on the
// one broker, so the op takes at least ⌈⌈records/perReq⌉/inFlight⌉ round
// trips (perReq: produceRecordEstimate each). (The warm-up before the timer has the producer ID and metadata.)
func produceBound(records int, parts int32, rtt time.Duration) float64 {
	perBatch := min(producer.DefaultBatchMaxBytes/produceRecordEstimate, producer.DefaultBatchMaxRecords)
	perReq := min(producer.DefaultRequestMaxBytes/produceRecordEstimate, int(parts)*perBatch) // one batch per partition
	reqs := ceilDiv(records, perReq)
	trips := ceilDiv(reqs, producer.DefaultMaxInFlightPerBroker)
	return float64(records) / (float64(trips) * rtt.Seconds())
}

// consumeBound is the records/s gregor's default consumer limits allow for
// reading records 100-byte records from parts partitions of one leader at
// round trip rtt: one Fetch in flight per fetch session, and a leader's
// partitions in at most two sessions (one with a single partition; see
// consumer/fetch_twin.go), each Fetch answered with at most
// min(DefaultMaxBytes (fetch.max.bytes), parts × DefaultPartitionMaxBytes
// (max.partition.fetch.bytes), the decode budget DefaultMaxBufferedBytes/4
// of buffer charge ÷ the charge per wire byte (wireRecordBytes + 112 per
// record)), plus the Metadata round trip that finds the leader and the
// ApiVersions round trip that opens the consumer's fetch connection (a new
// client per op; franz-go pays both too). It leaves out the time a
// response takes to transfer and, at 1 partition, the test bed's 16 MiB
// log segments (log.segment.bytes): a Fetch reads one segment of a
// partition, so each boundary costs one short response more.
func consumeBound(records int, parts int32, rtt time.Duration) float64 {
	sessions := min(int(parts), 2)
	return float64(records) / (float64(2+ceilDiv(consumeBoundFetches(records, parts), sessions)) * rtt.Seconds())
}

// consumeBoundFetches is the fewest Fetches consumeBound's limits allow.
func consumeBoundFetches(records int, parts int32) int {
	charge := float64(wireRecordBytes+112) / wireRecordBytes
	perFetch := math.Min(float64(consumer.DefaultMaxBytes), float64(parts)*float64(consumer.DefaultPartitionMaxBytes))
	perFetch = math.Min(perFetch, float64(consumer.DefaultMaxBufferedBytes)/4/charge)
	return ceilDiv(records, int(perFetch)/wireRecordBytes)
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// roundTrip is the median of 5 ApiVersions round trips to the first broker
// through boot.
func roundTrip(b *testing.B, boot []string) time.Duration {
	b.Helper()
	cl := newGregorClientAt(b, boot)
	defer cl.Close(context.Background())
	ctx := ctxFor(b, time.Minute)
	var ts []time.Duration
	for range 6 {
		start := time.Now()
		if _, err := cl.Request(ctx, client.AnyBroker, &wire.ApiVersionsRequest{ClientSoftwareName: "gregor-bench", ClientSoftwareVersion: "0", NodeID: -1}); err != nil {
			b.Fatalf("ApiVersions: %v", err)
		}
		ts = append(ts, time.Since(start))
	}
	ts = ts[1:] // the first may include the connection
	slices.Sort(ts)
	return ts[len(ts)/2]
}

// delayGregorConsume reads the topic with a new gregor consumer (default
// Config, recycling) per op on a client that is ready before the timer, and
// returns the records/s.
func delayGregorConsume(b *testing.B, boot []string, topic string, c consumeCase) float64 {
	ctx := ctxFor(b, 5*time.Minute)
	ps := gregorPositions(topic, c, consumer.AtOffset(0))
	b.ReportAllocs()
	b.SetBytes(consumeRecords * consumeValueSize)
	var spent usageSum
	fetches := requestWriteCounter{key: int16(wire.KeyFetch)}
	var early uint64 // Fetch responses after which the next Fetch overlapped decoding
	var twins uint64 // Fetches in a broker's second session (fetch_twin.go)
	for i := 0; i < b.N; i++ {
		cl := newGregorClientAt(b, boot, &fetches)
		start := readUsage()
		cons, err := consumer.New(cl, consumer.Config{})
		if err != nil {
			b.Fatal(err)
		}
		if err := cons.Assign(ctx, ps); err != nil {
			b.Fatalf("Assign: %v", err)
		}
		gregorReadAll(b, ctx, cons, true)
		spent.add(start, readUsage())
		m := cons.Metrics()
		early += m.EarlyAnswers
		twins += m.TwinFetches
		cons.Close(context.Background())
		cl.Close(context.Background())
	}
	b.ReportMetric(float64(fetches.n.Load())/float64(b.N), "fetches/op")
	b.ReportMetric(float64(early)/float64(b.N), "early/op")
	b.ReportMetric(float64(twins)/float64(b.N), "twin/op")
	return spent.report(b, b.N*consumeRecords)
}

// delayFranzConsume is delayGregorConsume for franz-go at its default fetch
// options: the client is connected (Ping) before the timer, and the
// partitions are added at offset 0 under it.
func delayFranzConsume(b *testing.B, boot []string, topic string, c consumeCase) float64 {
	ctx := ctxFor(b, 5*time.Minute)
	b.ReportAllocs()
	b.SetBytes(consumeRecords * consumeValueSize)
	var spent usageSum
	fetches := requestWriteCounter{key: int16(wire.KeyFetch)}
	for i := 0; i < b.N; i++ {
		cl, err := kgo.NewClient(kgo.SeedBrokers(boot...), kgo.ClientID("franz-bench"), kgo.WithHooks(&fetches))
		if err != nil {
			b.Fatal(err)
		}
		if err := cl.Ping(ctx); err != nil {
			b.Fatalf("Ping: %v", err)
		}
		offsets := make(map[int32]kgo.Offset, c.partitions)
		for p := int32(0); p < c.partitions; p++ {
			offsets[p] = kgo.NewOffset().At(0)
		}
		start := readUsage()
		cl.AddConsumePartitions(map[string]map[int32]kgo.Offset{topic: offsets})
		franzReadAll(b, ctx, cl)
		spent.add(start, readUsage())
		cl.Close()
	}
	b.ReportMetric(float64(fetches.n.Load())/float64(b.N), "fetches/op")
	return spent.report(b, b.N*consumeRecords)
}
