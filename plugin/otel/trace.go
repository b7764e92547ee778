package otel

import (
	"context"
	"strconv"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// Tracer creates gregor's producer and consumer spans.
type Tracer struct {
	tr   trace.Tracer
	prop propagation.TextMapPropagator
}

// NewTracer returns a Tracer using tp and the W3C trace context propagator.
func NewTracer(tp trace.TracerProvider) *Tracer {
	return &Tracer{tr: tp.Tracer("github.com/gregor-kafka/gregor/plugin/otel"), prop: propagation.TraceContext{}}
}

// headerCarrier adapts record headers to propagation.TextMapCarrier.
type headerCarrier struct{ h *[]wire.Header }

func (c headerCarrier) Get(key string) string {
	for _, h := range *c.h {
		if h.Key == key {
			return string(h.Value)
		}
	}
	return ""
}

func (c headerCarrier) Set(key, value string) {
	for i, h := range *c.h {
		if h.Key == key {
			(*c.h)[i].Value = []byte(value)
			return
		}
	}
	*c.h = append(*c.h, wire.Header{Key: key, Value: []byte(value)})
}

func (c headerCarrier) Keys() []string {
	out := make([]string, len(*c.h))
	for i, h := range *c.h {
		out[i] = h.Key
	}
	return out
}

// Send starts a producer span under ctx, injects it into m.Headers
// (traceparent), sends m with p.Send and ends the span when the record's
// outcome is known (in a goroutine waiting for the Delivery, bounded by
// ctx). Errors are p.Send's; the span then ends at once with them.
func (t *Tracer) Send(ctx context.Context, p *producer.Producer, m *producer.Record) (*producer.Delivery, error) {
	ctx, span := t.tr.Start(ctx, "publish "+m.Topic, trace.WithSpanKind(trace.SpanKindProducer),
		trace.WithAttributes(attribute.String("messaging.system", "kafka"), attribute.String("messaging.destination.name", m.Topic),
			attribute.String("messaging.operation.name", "send")))
	t.prop.Inject(ctx, headerCarrier{&m.Headers})
	d, err := p.Send(ctx, m)
	if err != nil {
		endFailed(span, err, client.CertaintyOf(err))
		return nil, err
	}
	go func() {
		r, err := d.Wait(ctx)
		switch {
		case r.Err != nil: // the record failed (err is its *producer.RecordError)
			endFailed(span, r.Err, r.Certainty)
		case err != nil: // ctx ended first
			endFailed(span, err, client.PossiblySent)
		default:
			span.SetAttributes(attribute.String("messaging.destination.partition.id", strconv.Itoa(int(r.Partition))),
				attribute.Int64("messaging.kafka.offset", r.Offset))
			span.End()
		}
	}()
	return d, nil
}

func endFailed(span trace.Span, err error, cert client.Certainty) {
	span.RecordError(err)
	span.SetStatus(codes.Error, err.Error())
	span.SetAttributes(attribute.String("gregor.certainty", cert.String()), attribute.String("error.type", "gregor"))
	span.End()
}

// Extract returns ctx with the span context a producer injected into rec's
// headers (unchanged when there is none).
func (t *Tracer) Extract(ctx context.Context, rec *consumer.Record) context.Context {
	return t.prop.Extract(ctx, headerCarrier{&rec.Headers})
}

// StartProcess starts a consumer span for rec whose parent is the producer
// span in rec's headers; the caller ends it.
func (t *Tracer) StartProcess(ctx context.Context, rec *consumer.Record) (context.Context, trace.Span) {
	return t.tr.Start(t.Extract(ctx, rec), "process "+rec.Topic, trace.WithSpanKind(trace.SpanKindConsumer),
		trace.WithAttributes(attribute.String("messaging.system", "kafka"), attribute.String("messaging.destination.name", rec.Topic),
			attribute.String("messaging.operation.name", "process"),
			attribute.String("messaging.destination.partition.id", strconv.Itoa(int(rec.Partition))),
			attribute.Int64("messaging.kafka.offset", rec.Offset)))
}
