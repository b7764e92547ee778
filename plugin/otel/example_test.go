package otel_test

import (
	"context"
	"github.com/gregor-kafka/gregor"
	"log"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/plugin/otel"
	"github.com/gregor-kafka/gregor/producer"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Example traces a record from producer to consumer: Send starts a
// "publish" span and carries its context in the record's traceparent
// header; on the consuming side StartProcess starts a "process" span whose
// parent is that publish span. The Meter, given as a client hook, records
// the messaging metrics. It needs a running Kafka, so it has no Output
// comment: go test compiles it but does not run it (otel_test.go runs the
// same against the real broker).
func Example() {
	ctx := context.Background()
	tp := sdktrace.NewTracerProvider() // with your exporter: sdktrace.WithBatcher(exp)
	defer tp.Shutdown(ctx)
	mp := sdkmetric.NewMeterProvider() // with your reader: sdkmetric.WithReader(r)
	defer mp.Shutdown(ctx)
	meter, err := otel.NewMeter(mp)
	if err != nil {
		log.Fatal(err)
	}
	cl, err := client.New(client.Config{Bootstrap: []string{"127.0.0.1:9092"}, Hooks: []client.Hook{meter}})
	if err != nil {
		log.Fatal(err)
	}
	defer cl.Close(context.Background())
	tr := otel.NewTracer(tp)

	p, err := producer.New(cl, producer.Config{})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close(ctx)
	d, err := tr.Send(ctx, p, &producer.Record{Topic: "orders", Value: []byte("order 1")})
	if err != nil {
		log.Fatal(err)
	}
	r, err := d.Wait(ctx)
	if err != nil || r.Err != nil {
		log.Fatal(err, r.Err)
	}

	c, err := consumer.New(cl, consumer.Config{})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close(context.Background())
	tp0 := gregor.TopicPartition{Topic: r.Topic, Partition: r.Partition}
	if err := c.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp0, Position: consumer.AtOffset(r.Offset)}}); err != nil {
		log.Fatal(err)
	}
	recs, err := c.Receive(ctx)
	if err != nil {
		log.Fatal(err)
	}
	pctx, span := tr.StartProcess(ctx, &recs[0])
	handle(pctx, recs[0].Value) // work done under the process span
	span.End()
}

func handle(context.Context, []byte) {}
