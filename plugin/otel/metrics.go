package otel

import (
	"context"
	"strconv"
	"sync"

	"github.com/gregor-kafka/gregor/client"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// The metric names (OpenTelemetry messaging semantic conventions).
const (
	MetricSent     = "messaging.client.sent.messages"
	MetricConsumed = "messaging.client.consumed.messages"
	MetricDuration = "messaging.client.operation.duration"
	MetricLag      = "messaging.kafka.consumer.lag"
)

// Meter records gregor's hook events as OpenTelemetry metrics; it is a
// client.Hook.
type Meter struct {
	sent, consumed metric.Int64Counter
	duration       metric.Float64Histogram
	lag            metric.Int64UpDownCounter

	mu      sync.Mutex
	lastLag map[string]int64 // guarded by mu: last lag per "topic/partition"
}

// NewMeter creates the instruments on mp's meter.
func NewMeter(mp metric.MeterProvider) (*Meter, error) {
	m := mp.Meter("github.com/gregor-kafka/gregor/plugin/otel")
	out := &Meter{lastLag: map[string]int64{}}
	var err error
	if out.sent, err = m.Int64Counter(MetricSent, metric.WithUnit("{message}"), metric.WithDescription("Records the producer sent (acknowledged or failed).")); err != nil {
		return nil, err
	}
	if out.consumed, err = m.Int64Counter(MetricConsumed, metric.WithUnit("{message}"), metric.WithDescription("Records the consumer received.")); err != nil {
		return nil, err
	}
	if out.duration, err = m.Float64Histogram(MetricDuration, metric.WithUnit("s"), metric.WithDescription("Kafka request latency, write to response.")); err != nil {
		return nil, err
	}
	if out.lag, err = m.Int64UpDownCounter(MetricLag, metric.WithUnit("{message}"), metric.WithDescription("High watermark of the last Fetch minus the next offset.")); err != nil {
		return nil, err
	}
	return out, nil
}

var kafka = attribute.String("messaging.system", "kafka")

// OnRecordOutcome implements client.RecordOutcomeHook.
func (m *Meter) OnRecordOutcome(ev client.RecordEvent) {
	attrs := []attribute.KeyValue{kafka, attribute.String("messaging.operation.name", "send"),
		attribute.String("messaging.destination.name", ev.Topic), attribute.String("messaging.destination.partition.id", strconv.Itoa(int(ev.Partition)))}
	if ev.Err != nil {
		attrs = append(attrs, attribute.String("error.type", "gregor"), attribute.String("gregor.certainty", ev.Certainty.String()))
	}
	m.sent.Add(context.Background(), 1, metric.WithAttributes(attrs...))
}

// OnFetchBatch implements client.FetchBatchHook.
func (m *Meter) OnFetchBatch(ev client.BatchEvent) {
	p := strconv.Itoa(int(ev.Partition))
	attrs := metric.WithAttributes(kafka, attribute.String("messaging.operation.name", "receive"),
		attribute.String("messaging.destination.name", ev.Topic), attribute.String("messaging.destination.partition.id", p))
	m.consumed.Add(context.Background(), int64(ev.Records), attrs)
	if ev.HighWatermark >= 0 && ev.LastOffset >= 0 {
		lag := max(ev.HighWatermark-ev.LastOffset-1, 0)
		k := ev.Topic + "/" + p
		m.mu.Lock()
		delta := lag - m.lastLag[k]
		m.lastLag[k] = lag
		m.mu.Unlock()
		m.lag.Add(context.Background(), delta, metric.WithAttributes(kafka,
			attribute.String("messaging.destination.name", ev.Topic), attribute.String("messaging.destination.partition.id", p)))
	}
}

// OnResponseRead implements client.ResponseReadHook.
func (m *Meter) OnResponseRead(ev client.RequestEvent) {
	attrs := []attribute.KeyValue{kafka, attribute.String("messaging.operation.name", apiName(ev)),
		attribute.String("server.broker", strconv.Itoa(int(ev.Broker))), attribute.String("gregor.lane", ev.Lane.String())}
	if ev.Err != nil {
		attrs = append(attrs, attribute.String("error.type", "gregor"))
	}
	m.duration.Record(context.Background(), ev.Latency.Seconds(), metric.WithAttributes(attrs...))
}

var (
	_ client.RecordOutcomeHook = (*Meter)(nil)
	_ client.FetchBatchHook    = (*Meter)(nil)
	_ client.ResponseReadHook  = (*Meter)(nil)
)
