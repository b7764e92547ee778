package otel_test

import (
	"context"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	gotel "github.com/gregor-kafka/gregor/plugin/otel"
	"github.com/gregor-kafka/gregor/producer"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// TestRoundTripSpansAndMetrics: on the real broker, a record sent with
// Tracer.Send and consumed yields a consumer span whose parent is the
// producer span (the traceparent header carried it), a record for a
// missing topic yields a failed producer span carrying its certainty, and
// the Meter's metrics have the documented names and attributes.
func TestRoundTripSpansAndMetrics(t *testing.T) {
	cluster := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rec := tracetest.NewSpanRecorder()
	ended := make(chan struct{}, 16)
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec), sdktrace.WithSpanProcessor(endSignal(ended)))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	meter, err := gotel.NewMeter(mp)
	if err != nil {
		t.Fatal(err)
	}
	tr := gotel.NewTracer(tp)
	cl, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext), Hooks: []client.Hook{meter}})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	if err := meter.Attach(cl); err != nil {
		t.Fatal(err)
	}
	topic := kafkatest.UniqueName(t, "otel")
	res, err := admin.New(cl, admin.Config{}).CreateTopics(ctx, []admin.NewTopic{{Name: topic, Partitions: 1, ReplicationFactor: 1}}, admin.TopicOptions{WaitVisible: true})
	if err == nil {
		err = res[0].Err
	}
	if err != nil {
		t.Fatal(err)
	}
	p, err := producer.New(cl, producer.Config{UnknownTopicRetries: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(ctx)

	parentCtx, parent := tp.Tracer("test").Start(ctx, "app")
	d, err := tr.Send(parentCtx, p, &producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: []byte("traced")})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := d.Wait(ctx); err != nil || r.Err != nil {
		t.Fatalf("delivery: %v %v", err, r.Err)
	}
	d, err = tr.Send(ctx, p, &producer.Record{Topic: kafkatest.UniqueName(t, "missing"), Value: []byte("x")})
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := d.Wait(ctx); r.Err == nil {
		t.Fatal("a record for a missing topic was delivered")
	}
	parent.End()

	c, err := consumer.New(cl, consumer.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	if err := c.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: gregor.TopicPartition{Topic: topic}, Position: consumer.AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	recs, err := c.Receive(ctx)
	if err != nil || len(recs) != 1 {
		t.Fatalf("Receive: %d records, %v", len(recs), err)
	}
	_, span := tr.StartProcess(ctx, &recs[0])
	span.End()

	waitSpans := func() []sdktrace.ReadOnlySpan {
		for len(rec.Ended()) < 4 {
			select {
			case <-ended: // the failed span ends on its Delivery's goroutine
			case <-ctx.Done():
				t.Fatalf("%d spans ended", len(rec.Ended()))
			}
		}
		return rec.Ended()
	}
	var pub, failed, proc sdktrace.ReadOnlySpan
	for _, s := range waitSpans() {
		switch {
		case s.SpanKind() == trace.SpanKindProducer && s.Status().Code == codes.Error:
			failed = s
		case s.SpanKind() == trace.SpanKindProducer:
			pub = s
		case s.SpanKind() == trace.SpanKindConsumer:
			proc = s
		}
	}
	if pub == nil || failed == nil || proc == nil {
		t.Fatalf("spans: publish %v, failed %v, process %v", pub, failed, proc)
	}
	if proc.Parent().SpanID() != pub.SpanContext().SpanID() || proc.SpanContext().TraceID() != pub.SpanContext().TraceID() {
		t.Errorf("process span's parent %v, want the publish span %v", proc.Parent(), pub.SpanContext())
	}
	if pub.Parent().SpanID() != parent.SpanContext().SpanID() {
		t.Errorf("publish span's parent %v, want the app span", pub.Parent())
	}
	if !hasAttr(failed.Attributes(), "gregor.certainty", "not_sent") {
		t.Errorf("failed span attributes %v lack gregor.certainty=not_sent", failed.Attributes())
	}

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	got := map[string]metricdata.Aggregation{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			got[m.Name] = m.Data
		}
	}
	sent, ok := got[gotel.MetricSent].(metricdata.Sum[int64])
	if !ok {
		t.Fatalf("no %s: %v", gotel.MetricSent, got)
	}
	var delivered, notSent int64
	for _, dp := range sent.DataPoints {
		a := dp.Attributes.ToSlice()
		if hasAttr(a, "messaging.destination.name", topic) && hasAttr(a, "messaging.system", "kafka") && hasAttr(a, "messaging.destination.partition.id", "0") {
			delivered += dp.Value
		}
		if hasAttr(a, "gregor.certainty", "not_sent") {
			notSent += dp.Value
		}
	}
	if delivered != 1 || notSent != 1 {
		t.Errorf("%s: %d delivered to %s/0 and %d failed not_sent, want 1 and 1: %+v", gotel.MetricSent, delivered, topic, notSent, sent.DataPoints)
	}
	if c, ok := got[gotel.MetricConsumed].(metricdata.Sum[int64]); !ok || len(c.DataPoints) == 0 || c.DataPoints[0].Value != 1 {
		t.Errorf("%s: %+v, want 1", gotel.MetricConsumed, got[gotel.MetricConsumed])
	}
	h, ok := got[gotel.MetricDuration].(metricdata.Histogram[float64])
	if !ok {
		t.Fatalf("no %s", gotel.MetricDuration)
	}
	ops := map[string]bool{}
	for _, dp := range h.DataPoints {
		for _, kv := range dp.Attributes.ToSlice() {
			if kv.Key == "messaging.operation.name" {
				ops[kv.Value.AsString()] = dp.Count > 0
			}
		}
	}
	if !ops["Produce"] || !ops["Fetch"] {
		t.Errorf("%s operations %v, want Produce and Fetch", gotel.MetricDuration, ops)
	}
	// Observed from the client's snapshot: the partition's lag 0 after the
	// one record was received, high watermark 1, bytes both ways.
	for name, want := range map[string]func(int64) bool{
		gotel.MetricLag:              func(v int64) bool { return v == 0 },
		gotel.MetricHighWatermark:    func(v int64) bool { return v == 1 },
		gotel.MetricProducedBytes:    func(v int64) bool { return v > 0 },
		gotel.MetricFetchedBytes:     func(v int64) bool { return v > 0 },
		gotel.MetricConsumerBuffered: func(v int64) bool { return v == 0 },
	} {
		var dps []metricdata.DataPoint[int64]
		switch d := got[name].(type) {
		case metricdata.Gauge[int64]:
			dps = d.DataPoints
		case metricdata.Sum[int64]:
			dps = d.DataPoints
		}
		found := false
		for _, dp := range dps {
			a := dp.Attributes.ToSlice()
			if hasAttr(a, "messaging.destination.name", topic) && hasAttr(a, "messaging.destination.partition.id", "0") && hasAttr(a, "messaging.system", "kafka") {
				found = true
				if !want(dp.Value) {
					t.Errorf("%s of %s/0 = %d: implausible", name, topic, dp.Value)
				}
			}
		}
		if !found {
			t.Errorf("%s: no data point for %s/0: %+v", name, topic, got[name])
		}
	}
}

func hasAttr(attrs []attribute.KeyValue, k, v string) bool {
	for _, a := range attrs {
		if string(a.Key) == k && a.Value.AsString() == v {
			return true
		}
	}
	return false
}

// endSignal is a span processor that signals every span's end on a
// buffered channel (dropping signals when it is full).
type endSignal chan struct{}

func (e endSignal) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (e endSignal) OnEnd(sdktrace.ReadOnlySpan) {
	select {
	case e <- struct{}{}:
	default:
	}
}
func (e endSignal) Shutdown(context.Context) error   { return nil }
func (e endSignal) ForceFlush(context.Context) error { return nil }
