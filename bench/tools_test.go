package bench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kgo"
)

// The Java perf tools' case: toolRecords records of toolValueSize bytes,
// unkeyed, to and from a topic of one partition.
const (
	toolRecords   = 1_000_000
	toolValueSize = 100
)

// javaPerfFlags are the JVM options Kafka's kafka-producer-perf-test.sh and
// kafka-consumer-perf-test.sh run the tools with (KAFKA_HEAP_OPTS=-Xmx512M
// and kafka-run-class.sh's KAFKA_JVM_PERFORMANCE_OPTS): what an operator
// quoting their figures ran.
var javaPerfFlags = []string{"-Xmx512M", "-server", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20",
	"-XX:InitiatingHeapOccupancyPercent=35", "-XX:+ExplicitGCInvokesConcurrent", "-XX:MaxInlineLevel=15",
	"-Djava.awt.headless=true"}

// BenchmarkPerfTools puts gregor and franz-go beside Apache Kafka's own
// perf tools, org.apache.kafka.tools.ProducerPerformance and
// ConsumerPerformance (the test bed's jars, in a JVM per op started as
// their scripts start it), at the same settings: op=produce sends
// toolRecords records of toolValueSize bytes, acks=all, idempotent,
// batch.size benchBatchMaxBytes, linger benchLinger, 5 in flight, 32 MiB
// buffer and request size, no compression; op=consume reads toolRecords
// records from the beginning as the only member of a new group (classic
// protocol, fetch.max.wait 500ms, the Java defaults' fetch sizes), the
// topic filled once per process by ProducerPerformance (a child process,
// so this process's memory is the Go clients' own). One op is one full
// run with a new client (or JVM).
//
// records/s: Java's as the tool reports it (ProducerPerformance's
// records/sec, from its first send to the last acknowledgement;
// ConsumerPerformance's nMsg.sec, from before it subscribes to the last
// record, the join included); gregor's and franz-go's over the same span
// (produce: first Send to Flush; consume: group creation to the last
// record). cpu-s (per op) and cpu-ns/rec: user+sys CPU of the whole run,
// for Java the child JVM's getrusage (start-up, JIT and GC threads
// included), for the Go clients this process's getrusage delta over the op
// (client creation and close included). peak-RSS-MiB: for Java the child's
// ru_maxrss; for the Go clients this process's VmHWM, reset before the op
// (/proc/self/clear_refs), so it is the op's peak.
//
// Compare with: benchstat -col /client
func BenchmarkPerfTools(b *testing.B) {
	owner := b
	consumeTopic := func(b *testing.B) string {
		topic := topicFor(b, owner, "tools/consume", 1)
		if _, done := filled.Load(topic); !done {
			if _, _, err := javaProducerPerformance(b, topic); err != nil {
				b.Fatalf("filling %s: %v", topic, err)
			}
			filled.Store(topic, true)
		}
		return topic
	}
	produceTopic := func(b *testing.B, client string) string {
		return topicFor(b, owner, "tools/produce/"+client, 1)
	}
	b.Run("client=java/op=produce", func(b *testing.B) {
		topic := produceTopic(b, "java")
		benchJava(b, func() (float64, *syscall.Rusage, error) { return javaProducerPerformance(b, topic) })
	})
	b.Run("client=java/op=consume", func(b *testing.B) {
		topic := consumeTopic(b)
		benchJava(b, func() (float64, *syscall.Rusage, error) { return javaConsumerPerformance(b, topic) })
	})
	b.Run("client=gregor/op=produce", func(b *testing.B) {
		topic := produceTopic(b, "gregor")
		benchGo(b, func() time.Duration { return gregorToolProduce(b, topic) })
	})
	b.Run("client=gregor/op=consume", func(b *testing.B) {
		topic := consumeTopic(b)
		benchGo(b, func() time.Duration { return goToolConsume(b, topic, gregorGroupReadN) })
	})
	b.Run("client=franz/op=produce", func(b *testing.B) {
		topic := produceTopic(b, "franz")
		benchGo(b, func() time.Duration { return franzToolProduce(b, topic) })
	})
	b.Run("client=franz/op=consume", func(b *testing.B) {
		topic := consumeTopic(b)
		benchGo(b, func() time.Duration { return goToolConsume(b, topic, franzGroupReadN) })
	})
}

// benchJava runs one JVM per op: run returns the tool's records/s and the
// child's resource usage.
func benchJava(b *testing.B, run func() (float64, *syscall.Rusage, error)) {
	var rate, cpu, rss float64
	for i := 0; i < b.N; i++ {
		r, ru, err := run()
		if err != nil {
			b.Fatal(err)
		}
		rate += r
		cpu += time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
		rss = max(rss, float64(ru.Maxrss)/1024) // KiB on Linux
	}
	reportTool(b, rate/float64(b.N), cpu, rss)
}

// benchGo runs a Go client's op b.N times: run returns the span its
// records/s is measured over.
func benchGo(b *testing.B, run func() time.Duration) {
	var rate, cpu, rss float64
	for i := 0; i < b.N; i++ {
		resetPeakRSS(b)
		start := readUsage()
		span := run()
		end := readUsage()
		rate += toolRecords / span.Seconds()
		cpu += (end.cpu - start.cpu).Seconds()
		rss = max(rss, peakRSSMiB(b))
	}
	reportTool(b, rate/float64(b.N), cpu, rss)
}

func reportTool(b *testing.B, rate, cpu, rss float64) {
	b.ReportMetric(rate, "records/s")
	b.ReportMetric(cpu/float64(b.N), "cpu-s")
	b.ReportMetric(cpu*1e9/float64(b.N*toolRecords), "cpu-ns/rec")
	b.ReportMetric(rss, "peak-RSS-MiB")
}

// resetPeakRSS resets this process's VmHWM to its current RSS.
func resetPeakRSS(b *testing.B) {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Fatalf("resetting the peak RSS: %v", err)
	}
}

var vmHWM = regexp.MustCompile(`(?m)^VmHWM:\s+(\d+) kB`)

// peakRSSMiB returns this process's VmHWM.
func peakRSSMiB(b *testing.B) float64 {
	st, err := os.ReadFile("/proc/self/status")
	m := vmHWM.FindSubmatch(st)
	if err != nil || m == nil {
		b.Fatalf("no VmHWM in /proc/self/status: %v", err)
	}
	kb, _ := strconv.ParseFloat(string(m[1]), 64)
	return kb / 1024
}

// runJavaTool runs one of Kafka's perf tools with javaPerfFlags and
// returns its output and resource usage.
func runJavaTool(b *testing.B, mainClass string, args ...string) (string, *syscall.Rusage, error) {
	ctx := ctxFor(b, 10*time.Minute)
	cmd, err := kafkatest.Shared(b).ToolCommand(ctx, mainClass, javaPerfFlags, args...)
	if err != nil {
		return "", nil, err
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", nil, fmt.Errorf("%s: %w\n%s", mainClass, err, out.String())
	}
	return out.String(), cmd.ProcessState.SysUsage().(*syscall.Rusage), nil
}

var producerPerfRE = regexp.MustCompile(`(\d+) records sent, ([\d.]+) records/sec`)

// javaProducerPerformance runs ProducerPerformance at the case's settings.
func javaProducerPerformance(b *testing.B, topic string) (float64, *syscall.Rusage, error) {
	out, ru, err := runJavaTool(b, "org.apache.kafka.tools.ProducerPerformance",
		"--topic", topic, "--num-records", strconv.Itoa(toolRecords), "--record-size", strconv.Itoa(toolValueSize),
		"--throughput", "-1", "--producer-props",
		"bootstrap.servers="+strings.Join(bootstrap(b), ","), "client.id=java-bench",
		"acks=all", "enable.idempotence=true", "compression.type=none",
		"batch.size="+strconv.Itoa(benchBatchMaxBytes), "linger.ms="+strconv.Itoa(int(benchLinger/time.Millisecond)),
		"max.in.flight.requests.per.connection="+strconv.Itoa(benchInFlight),
		"buffer.memory="+strconv.Itoa(benchBufferBytes), "max.request.size="+strconv.Itoa(benchRequestMaxBytes))
	if err != nil {
		return 0, nil, err
	}
	all := producerPerfRE.FindAllStringSubmatch(out, -1)
	if len(all) == 0 || all[len(all)-1][1] != strconv.Itoa(toolRecords) {
		return 0, nil, fmt.Errorf("ProducerPerformance: no summary of %d records in:\n%s", toolRecords, out)
	}
	rate, err := strconv.ParseFloat(all[len(all)-1][2], 64)
	return rate, ru, err
}

// javaConsumerPerformance runs ConsumerPerformance in a new group and
// returns its nMsg.sec.
func javaConsumerPerformance(b *testing.B, topic string) (float64, *syscall.Rusage, error) {
	out, ru, err := runJavaTool(b, "org.apache.kafka.tools.ConsumerPerformance",
		"--bootstrap-server", strings.Join(bootstrap(b), ","), "--topic", topic,
		"--messages", strconv.Itoa(toolRecords), "--group", kafkatest.UniqueName(b, "bench-tools"),
		"--timeout", "60000", "--hide-header")
	if err != nil {
		return 0, nil, err
	}
	// start.time, end.time, data.consumed.in.MB, MB.sec,
	// data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, ...
	for _, line := range strings.Split(out, "\n") {
		f := strings.Split(line, ",")
		if len(f) < 10 {
			continue
		}
		if n, err := strconv.Atoi(strings.TrimSpace(f[4])); err == nil {
			if n != toolRecords {
				return 0, nil, fmt.Errorf("ConsumerPerformance read %d records, want %d:\n%s", n, toolRecords, out)
			}
			rate, err := strconv.ParseFloat(strings.TrimSpace(f[5]), 64)
			return rate, ru, err
		}
	}
	return 0, nil, fmt.Errorf("ConsumerPerformance: no result line in:\n%s", out)
}

// gregorToolProduce sends the case's records with a new gregor client and
// producer and returns the span from the first Send to Flush.
func gregorToolProduce(b *testing.B, topic string) time.Duration {
	cl := newGregorClient(b)
	defer cl.Close(context.Background())
	p := newGregorProducer(b, cl, wire.CompressionNone, false)
	ctx := ctxFor(b, 5*time.Minute)
	defer p.Close(ctx)
	m := &producer.Record{Topic: topic, Value: payload(toolValueSize)}
	start := time.Now()
	var last *producer.Delivery
	for range toolRecords {
		d, err := p.Send(ctx, m)
		if err != nil {
			b.Fatalf("Send: %v", err)
		}
		last = d
	}
	if err := p.Flush(ctx); err != nil {
		b.Fatalf("Flush: %v", err)
	}
	span := time.Since(start)
	if r, ok := last.Result(); !ok || r.Err != nil {
		b.Fatalf("last record: %v (terminal %v)", r.Err, ok)
	}
	return span
}

// franzToolProduce is gregorToolProduce with franz-go.
func franzToolProduce(b *testing.B, topic string) time.Duration {
	cl := newFranzProducer(b, topic, wire.CompressionNone)
	defer cl.Close()
	ctx := ctxFor(b, 5*time.Minute)
	value := payload(toolValueSize)
	var failed error
	promise := func(_ *kgo.Record, err error) {
		if err != nil && failed == nil { // promises run one at a time
			failed = err
		}
	}
	start := time.Now()
	for range toolRecords {
		cl.Produce(ctx, &kgo.Record{Value: value}, promise)
	}
	if err := cl.Flush(ctx); err != nil {
		b.Fatalf("Flush: %v", err)
	}
	span := time.Since(start)
	if failed != nil {
		b.Fatalf("record failed: %v", failed)
	}
	return span
}

// goToolConsume reads the topic with read in a new group and returns the
// span from the group's creation to the last record.
func goToolConsume(b *testing.B, topic string, read func(b *testing.B, boot []string, topic, group string, want int) time.Time) time.Duration {
	start := time.Now()
	return read(b, bootstrap(b), topic, kafkatest.UniqueName(b, "bench-tools"), toolRecords).Sub(start)
}
