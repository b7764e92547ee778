package client_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

// keyRecorder is a client hook that records the API keys written.
type keyRecorder struct {
	mu   sync.Mutex
	keys map[wire.APIKey]int
	errs int
}

func (k *keyRecorder) OnRequestWritten(ev client.RequestEvent) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.keys == nil {
		k.keys = map[wire.APIKey]int{}
	}
	k.keys[ev.Key]++
}

func (k *keyRecorder) OnResponseRead(ev client.RequestEvent) {
	if ev.Err != nil {
		k.mu.Lock()
		k.errs++
		k.mu.Unlock()
	}
}

func (k *keyRecorder) count(key wire.APIKey) int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.keys[key]
}

// readPushes reads the reporter's JSON lines.
func readPushes(t *testing.T, path string) []kafkatest.TelemetryPush {
	t.Helper()
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []kafkatest.TelemetryPush
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var p kafkatest.TelemetryPush
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			continue // a line being written
		}
		out = append(out, p)
	}
	return out
}

func pushesOf(all []kafkatest.TelemetryPush, id string) []kafkatest.TelemetryPush {
	var out []kafkatest.TelemetryPush
	for _, p := range all {
		if p.ClientInstanceID == id {
			out = append(out, p)
		}
	}
	return out
}

func waitUntil(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
		time.Sleep(50 * time.Millisecond) // polling a file another process writes
	}
}

// TestTelemetryRealBroker runs a producer and a consumer against a broker
// with the test bed's telemetry reporter and a client-metrics subscription
// made with kafka-configs: the reporter decodes (with Kafka's own OTLP
// classes) pushes from both client instances carrying the subscribed
// metrics only, at the subscribed interval, and a terminating push when
// each client closes. Then the shared broker, which has no reporter, is
// shown not to advertise the APIs and to receive no telemetry request.
func TestTelemetryRealBroker(t *testing.T) {
	const interval = time.Second
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	kc, err := kafkatest.Start(ctx, kafkatest.Options{TelemetryReporter: true, Log: t.Logf})
	if err != nil {
		t.Fatalf("cannot start a Kafka broker with the telemetry reporter: %v", err)
	}
	t.Cleanup(func() { _ = kc.Close() })
	boot := kc.Bootstrap(kafkatest.Plaintext)
	out, err := kc.RunTool(ctx, "org.apache.kafka.tools.ConfigCommand", "--bootstrap-server", boot[0],
		"--alter", "--entity-type", "client-metrics", "--entity-name", "gregor-telemetry",
		"--add-config", "metrics=[org.apache.kafka.producer.,org.apache.kafka.consumer.connection.],interval.ms=1000")
	if err != nil {
		t.Fatalf("kafka-configs: %v\n%s", err, out)
	}
	topic := kafkatest.UniqueName(t, "telemetry")
	if err := kc.CreateTopic(ctx, topic, 1, 1); err != nil {
		t.Fatal(err)
	}

	prodHooks, consHooks := &keyRecorder{}, &keyRecorder{}
	pc, err := client.New(client.Config{Bootstrap: boot, ClientID: "gregor-telemetry-producer", Hooks: []client.Hook{prodHooks}})
	if err != nil {
		t.Fatal(err)
	}
	cc, err := client.New(client.Config{Bootstrap: boot, ClientID: "gregor-telemetry-consumer", Hooks: []client.Hook{consHooks}})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := pc.BrokerVersions(ctx, client.AnyBroker)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []wire.APIKey{wire.KeyGetTelemetrySubscriptions, wire.KeyPushTelemetry} {
		if _, ok := vs[k]; !ok {
			t.Fatalf("the broker with a reporter does not advertise API %d", k)
		}
	}
	p, err := producer.New(pc, producer.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if _, err := p.Produce(ctx, producer.Record{Topic: topic, Value: []byte{byte(i)}}); err != nil {
			t.Fatal(err)
		}
	}
	cons, err := consumer.New(cc, consumer.Config{})
	if err != nil {
		t.Fatal(err)
	}
	tp := gregor.TopicPartition{Topic: topic, Partition: 0}
	if err := cons.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	if _, err := cons.Receive(ctx); err != nil {
		t.Fatal(err)
	}

	idOf := func(c *client.Client) string {
		var id wire.UUID
		waitUntil(t, "a client instance id", time.Minute, func() bool {
			var ok bool
			id, ok = c.ClientInstanceID()
			return ok
		})
		return id.String()
	}
	prodID, consID := idOf(pc), idOf(cc)
	const want = 6 // pushes per client to watch: about 6s at the interval
	waitUntil(t, "pushes from both clients", 2*time.Minute, func() bool {
		all := readPushes(t, kc.TelemetryLog())
		return len(pushesOf(all, prodID)) >= want && len(pushesOf(all, consID)) >= want
	})

	// Brokers before 4.3.1 hand the reporter a compressed push's payload
	// still compressed or mangled (apache/kafka#22327, "Fixed metrics
	// decompression"; the Java client of those releases pushes
	// uncompressed): there the reporter cannot read the metrics, only
	// that the pushes arrived, when and which was the last.
	decodes := kc.AtLeast(4, 4) || kc.AtLeast(4, 3) && kc.Version() != "4.3.0"
	if !decodes {
		t.Logf("Kafka %s: pushes not decodable by the broker's plugin (before 4.3.1), metric names not checked", kc.Version())
	}

	// A push after a Produce carries the producer's request latency.
	produced := time.Now().UnixMilli()
	if _, err := p.Produce(ctx, producer.Record{Topic: topic, Value: []byte("again")}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "a producer push with node.request.latency.avg", time.Minute, func() bool {
		if !decodes {
			return true
		}
		for _, ps := range pushesOf(readPushes(t, kc.TelemetryLog()), prodID) {
			if ps.TimeMs >= produced && slices.Contains(ps.Metrics, "org.apache.kafka.producer.node.request.latency.avg") &&
				slices.Contains(ps.Metrics, "org.apache.kafka.producer.node.request.latency.max") {
				return true
			}
		}
		return false
	})

	_ = p.Close(ctx)
	_ = cons.Close(ctx)
	_ = pc.Close(ctx)
	_ = cc.Close(ctx)
	all := readPushes(t, kc.TelemetryLog())
	check := func(role, id string, wantMetric, notSubscribed string) {
		ps := pushesOf(all, id)
		last := ps[len(ps)-1]
		if !last.Terminating {
			t.Errorf("%s: last push is not terminating (%d pushes)", role, len(ps))
		}
		for i, p := range ps {
			if !decodes {
				if p.Terminating != (i == len(ps)-1) {
					t.Errorf("%s push %d of %d: terminating %v", role, i, len(ps), p.Terminating)
				}
				continue
			}
			if p.Error != "" {
				t.Fatalf("%s push %d: the reporter could not decode it: %s", role, i, p.Error)
			}
			if p.Terminating != (i == len(ps)-1) {
				t.Errorf("%s push %d of %d: terminating %v", role, i, len(ps), p.Terminating)
			}
			if !slices.Contains(p.Metrics, wantMetric) {
				t.Errorf("%s push %d lacks %s: %v", role, i, wantMetric, p.Metrics)
			}
			for _, m := range p.Metrics {
				if strings.HasPrefix(m, notSubscribed) {
					t.Errorf("%s push %d carries %s, not subscribed", role, i, m)
				}
			}
		}
		// The interval: no two regular pushes closer than 0.8 intervals
		// (the broker would throttle them), and over the window at most
		// one push per interval plus one.
		regular := ps[:len(ps)-1]
		for i := 1; i < len(regular); i++ {
			if gap := time.Duration(regular[i].TimeMs-regular[i-1].TimeMs) * time.Millisecond; gap < interval*8/10 {
				t.Errorf("%s pushes %d and %d %v apart, interval %v", role, i-1, i, gap, interval)
			}
		}
		if n := len(regular); n >= 2 {
			span := time.Duration(regular[n-1].TimeMs-regular[0].TimeMs) * time.Millisecond
			if max := int(span/interval) + 1; n > max {
				t.Errorf("%s: %d pushes over %v, more than %d at the interval %v", role, n, span, max, interval)
			}
			t.Logf("%s: %d regular pushes over %v (interval %v), metrics %v", role, n, span, interval, regular[n-1].Metrics)
		}
		// Before Kafka 4.4 the broker's receiver API does not show the
		// interval (-1); the gaps between pushes above still do.
		if last.PushIntervalMs != -1 && last.PushIntervalMs != int(interval/time.Millisecond) {
			t.Errorf("%s: broker push interval %d ms", role, last.PushIntervalMs)
		}
	}
	check("producer", prodID, "org.apache.kafka.producer.connection.creation.total", "org.apache.kafka.consumer.")
	check("consumer", consID, "org.apache.kafka.consumer.connection.creation.total", "org.apache.kafka.consumer.fetch.")
	if prodHooks.errs+consHooks.errs != 0 {
		t.Errorf("%d failed responses", prodHooks.errs+consHooks.errs)
	}

	// A broker without a reporter: the shared one.
	shared := kafkatest.Shared(t)
	rec := &keyRecorder{}
	sc, err := client.New(client.Config{Bootstrap: shared.Bootstrap(kafkatest.Plaintext), Hooks: []client.Hook{rec}})
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close(context.Background())
	svs, err := sc.BrokerVersions(ctx, client.AnyBroker)
	if err != nil {
		t.Fatal(err)
	}
	_, a71 := svs[wire.KeyGetTelemetrySubscriptions]
	_, a72 := svs[wire.KeyPushTelemetry]
	if a71 || a72 {
		t.Fatalf("the shared broker (no reporter) advertises GetTelemetrySubscriptions %v, PushTelemetry %v", a71, a72)
	}
	if err := sc.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := sc.Request(ctx, client.AnyBroker, &wire.MetadataRequest{}); err != nil {
		t.Fatal(err)
	}
	_ = sc.Close(ctx)
	if n := rec.count(wire.KeyGetTelemetrySubscriptions) + rec.count(wire.KeyPushTelemetry); n != 0 || rec.errs != 0 {
		t.Fatalf("broker without a reporter: %d telemetry requests, %d failed responses", n, rec.errs)
	}
	if _, ok := sc.ClientInstanceID(); ok {
		t.Fatal("client instance id from a broker without a reporter")
	}
}
