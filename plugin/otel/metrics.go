package otel

import (
	"context"
	"strconv"

	"github.com/gregor-kafka/gregor/client"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// The metric names (OpenTelemetry messaging semantic conventions).
const (
	MetricSent     = "messaging.client.sent.messages"
	MetricConsumed = "messaging.client.consumed.messages"
	MetricDuration = "messaging.client.operation.duration"
	// The instruments below are observed from an attached client's
	// Metrics snapshot (Meter.Attach).
	MetricLag              = "messaging.kafka.consumer.lag"
	MetricHighWatermark    = "gregor.partition.high_watermark"
	MetricProducedBytes    = "gregor.client.sent.bytes"
	MetricFetchedBytes     = "gregor.client.consumed.bytes"
	MetricConsumerBuffered = "gregor.consumer.buffered.messages"
	MetricProducerBuffered = "gregor.producer.buffered.messages"
)

// Meter records gregor's hook events as OpenTelemetry metrics; it is a
// client.Hook.
type Meter struct {
	meter          metric.Meter
	sent, consumed metric.Int64Counter
	duration       metric.Float64Histogram
}

// NewMeter creates the instruments on mp's meter.
func NewMeter(mp metric.MeterProvider) (*Meter, error) {
	m := mp.Meter("github.com/gregor-kafka/gregor/plugin/otel")
	out := &Meter{meter: m}
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

// Attach registers instruments observed from cl's Metrics snapshot at each
// collection: per partition (attributes messaging.system,
// messaging.destination.name, messaging.destination.partition.id) the
// consumer lag, the high watermark, the bytes acknowledged to the producer
// and fetched by the consumer, and the consumer's buffered records; and the
// producers' buffered records. Call it once per client.
func (m *Meter) Attach(cl *client.Client) error {
	lag, err := m.meter.Int64ObservableGauge(MetricLag, metric.WithUnit("{message}"), metric.WithDescription("End offset (high watermark, or last stable offset under read_committed) minus the consumer's position."))
	if err != nil {
		return err
	}
	hwm, err := m.meter.Int64ObservableGauge(MetricHighWatermark, metric.WithUnit("{offset}"), metric.WithDescription("High watermark the last Fetch response reported."))
	if err != nil {
		return err
	}
	sentBytes, err := m.meter.Int64ObservableCounter(MetricProducedBytes, metric.WithUnit("By"), metric.WithDescription("Encoded record batch bytes the broker acknowledged."))
	if err != nil {
		return err
	}
	fetchedBytes, err := m.meter.Int64ObservableCounter(MetricFetchedBytes, metric.WithUnit("By"), metric.WithDescription("Bytes fetched for delivery (compressed batches plus decompressed records)."))
	if err != nil {
		return err
	}
	consBuf, err := m.meter.Int64ObservableGauge(MetricConsumerBuffered, metric.WithUnit("{message}"), metric.WithDescription("Fetched records waiting for Receive."))
	if err != nil {
		return err
	}
	prodBuf, err := m.meter.Int64ObservableGauge(MetricProducerBuffered, metric.WithUnit("{message}"), metric.WithDescription("Records admitted by the producers and not yet terminal."))
	if err != nil {
		return err
	}
	_, err = m.meter.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		snap := cl.Metrics()
		for _, pm := range snap.Partitions {
			attrs := metric.WithAttributes(kafka, attribute.String("messaging.destination.name", pm.Topic),
				attribute.String("messaging.destination.partition.id", strconv.Itoa(int(pm.Partition))))
			if pm.Lag >= 0 {
				o.ObserveInt64(lag, pm.Lag, attrs)
			}
			if pm.HighWatermark >= 0 {
				o.ObserveInt64(hwm, pm.HighWatermark, attrs)
			}
			if pm.ProducedRecords > 0 {
				o.ObserveInt64(sentBytes, int64(pm.ProducedBytes), attrs)
			}
			if pm.FetchedRecords > 0 {
				o.ObserveInt64(fetchedBytes, int64(pm.FetchedBytes), attrs)
			}
			if pm.Position >= 0 {
				o.ObserveInt64(consBuf, int64(pm.BufferedRecords), attrs)
			}
		}
		o.ObserveInt64(prodBuf, int64(snap.Producer.BufferedRecords), metric.WithAttributes(kafka))
		return nil
	}, lag, hwm, sentBytes, fetchedBytes, consBuf, prodBuf)
	return err
}
