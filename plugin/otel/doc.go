// Package otel connects gregor to OpenTelemetry: producer and consumer
// spans, and the messaging metrics.
//
// # Quick start
//
//	meter, err := otel.NewMeter(mp) // mp: your metric.MeterProvider
//	cl, err := client.New(client.Config{Bootstrap: []string{"127.0.0.1:9092"}, Hooks: []client.Hook{meter}})
//	tr := otel.NewTracer(tp) // tp: your trace.TracerProvider
//	d, err := tr.Send(ctx, p, &producer.Record{Topic: "orders", Value: v}) // p: a *producer.Producer on cl
//	pctx, span := tr.StartProcess(ctx, &rec) // rec: a consumed consumer.Record
//	defer span.End()
//
// The package Example has the whole program. It is a nested module, so
// gregor's own module depends on no OpenTelemetry code.
//
// # Tracing
//
// Send starts a producer span ("publish TOPIC", kind Producer) as
// a child of its context's span, injects that span's context into the
// record's headers as W3C traceparent (and tracestate), sends the record
// and ends the span when the record's outcome is known; a failed record's
// span has status Error and the attribute gregor.certainty ("not_sent" or
// "possibly_sent": whether the record may have been written). Extract
// returns a context carrying the span context from a consumed record's
// headers; StartProcess starts a consumer span ("process TOPIC", kind
// Consumer) whose parent is the producer's span.
//
// # Metrics
//
// Metrics (OpenTelemetry messaging semantic conventions): a Meter is a
// client.Hook (pass it in client.Config.Hooks) that records
//
//	messaging.client.sent.messages      counter   records acknowledged or failed
//	messaging.client.consumed.messages  counter   records fetched
//	messaging.client.operation.duration histogram (s) request latency, per Kafka API
//
// and, once Meter.Attach is given the client, observes its Metrics snapshot:
//
//	messaging.kafka.consumer.lag        gauge     end offset minus position (records)
//	gregor.partition.high_watermark     gauge     from the last Fetch response
//	gregor.client.sent.bytes            counter   encoded batch bytes acknowledged (By)
//	gregor.client.consumed.bytes        counter   bytes fetched for delivery (By)
//	gregor.consumer.buffered.messages   gauge     fetched records waiting for Receive
//	gregor.producer.buffered.messages   gauge     records admitted, not yet terminal
//
// with attributes messaging.system="kafka", messaging.destination.name
// (topic), messaging.destination.partition.id (all but the last),
// messaging.operation.name ("send", "receive" or the Kafka API name),
// error.type and gregor.certainty on failures.
package otel
