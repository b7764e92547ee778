package protocol

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

// DefaultDeliveryTimeout is the delivery timeout of producers on a client
// made by create_client (no producer configuration): short enough that a
// scenario's deadline still sees the terminal outcome.
const DefaultDeliveryTimeout = 20 * time.Second

// Gregor is the production Backend: gregor's public client, producer,
// consumer and admin packages, called one-to-one.
type Gregor struct{}

// NewClient builds a client.Client (no I/O) and remembers the producer
// policy its producers get.
func (Gregor) NewClient(cfg ClientConfig) (KafkaClient, error) {
	c, err := client.New(client.Config{
		Bootstrap: cfg.Endpoints,
		ClientID:  string(cfg.ClientID),
		TLS:       cfg.TLS,
		SASL:      cfg.SASL,
	})
	if err != nil {
		return nil, err
	}
	return &gregorClient{c: c, pcfg: producerConfig(cfg.Producer), admin: newGregorAdmin(c), cfg: cfg}, nil
}

// producerConfig maps the protocol's ProducerConfiguration (§4.1) onto
// producer.Config field by field. Protocol zeros are literal: a retry
// backoff or linger of 0 means none (negative in producer.Config), and
// max_retries 0 means no resend (MaxRetries &0, not nil).
func producerConfig(pc *ProducerConfiguration) producer.Config {
	if pc == nil {
		// No policy given: retry retriable failures (a leader move, a
		// restarting broker) for as long as the delivery timeout allows, as
		// a Kafka producer does by default (retries=MAX_INT): MaxRetries nil.
		return producer.Config{DeliveryTimeout: DefaultDeliveryTimeout}
	}
	ms := func(v uint64) time.Duration { return time.Duration(v) * time.Millisecond }
	literal := func(v uint64) time.Duration {
		if v == 0 {
			return -1
		}
		return ms(v)
	}
	l := pc.Limits
	return producer.Config{
		DeliveryTimeout:      ms(pc.DeliveryTimeoutMs),
		Compression:          compressionOf(pc.Compression),
		MaxRetries:           new(int(pc.MaxRetries)),
		RetryBackoff:         literal(pc.RetryBackoffMs),
		Linger:               literal(l.LingerMs),
		BatchMaxRecords:      int(l.BatchRecords),
		BatchMaxBytes:        int(l.BatchBytes),
		RequestMaxBytes:      int(l.RequestBytes),
		MaxInFlightPerBroker: int(l.MaxInFlightRequestsPerBroker),
		RetainedBytes:        int64(l.RetainedBytes),
		InFlightRecords:      int(l.InFlightRecords),
		WaitingRecords:       int(l.WaitingRecords),
		WaitingBytes:         int64(l.WaitingBytes),
	}
}

func compressionOf(c Compression) wire.Compression {
	switch c {
	case "gzip":
		return wire.CompressionGzip
	case "snappy":
		return wire.CompressionSnappy
	case "lz4":
		return wire.CompressionLZ4
	case "zstd":
		return wire.CompressionZstd
	}
	return wire.CompressionNone
}

type gregorClient struct {
	c     *client.Client
	pcfg  producer.Config
	admin Admin
	cfg   ClientConfig // for the group consumers' own clients
}

func (g *gregorClient) Ready(ctx context.Context) error { return g.c.Ready(ctx) }
func (g *gregorClient) Metrics() client.MetricsSnapshot { return g.c.Metrics() }
func (g *gregorClient) Close() error                    { return g.c.Close(context.Background()) }
func (g *gregorClient) Admin() Admin                    { return g.admin }

func (g *gregorClient) NewProducer() (Producer, error) {
	p, err := producer.New(g.c, g.pcfg)
	if err != nil {
		return nil, err
	}
	return gregorProducer{p}, nil
}

func (g *gregorClient) NewAssignedConsumer() (AssignedConsumer, error) {
	c, err := consumer.New(g.c, consumer.Config{})
	if err != nil {
		return nil, err
	}
	return gregorConsumer{c}, nil
}

type gregorProducer struct{ p *producer.Producer }

// messageOf converts a ProducerRecord to the producer's Record. A negative
// partition is rejected: §3.3 says partition >= 0, and the library's -1
// (let the partitioner choose) is not part of the protocol.
func messageOf(r *ProducerRecord) (*producer.Record, error) {
	if r.Partition < 0 {
		return nil, fmt.Errorf("%w: partition %d (a RecordSpec's partition is >= 0)", producer.ErrInvalidRecord, r.Partition)
	}
	m := &producer.Record{Topic: r.Topic, Partition: producer.ToPartition(r.Partition), Key: r.Key, Value: r.Value}
	if len(r.Headers) > 0 {
		m.Headers = make([]wire.Header, len(r.Headers))
		for i, h := range r.Headers {
			m.Headers[i] = wire.Header{Key: h.Name, Value: h.Value}
		}
	}
	if r.TimestampMillis != nil {
		m.Timestamp = time.UnixMilli(*r.TimestampMillis)
	}
	return m, nil
}

func (g gregorProducer) TrySend(r *ProducerRecord) (Delivery, error) { return trySend(g.p.TrySend, r) }
func (g gregorProducer) Flush(ctx context.Context) error             { return g.p.Flush(ctx) }
func (g gregorProducer) Close(ctx context.Context) error             { return g.p.Close(ctx) }

// trySend converts r (messageOf) and admits it through send, the TrySend of
// a producer.Producer or a txn.Producer.
func trySend(send func(*producer.Record) (*producer.Delivery, error), r *ProducerRecord) (Delivery, error) {
	m, err := messageOf(r)
	if err != nil {
		return nil, err
	}
	d, err := send(m)
	if err != nil {
		return nil, err
	}
	return gregorDelivery{d}, nil
}

type gregorDelivery struct{ d *producer.Delivery }

func (g gregorDelivery) Done() <-chan struct{} { return g.d.Done() }
func (g gregorDelivery) Cancel() (string, error) {
	switch g.d.Cancel() {
	case producer.CancelledNotSent:
		return CancelledNotSent, nil
	case producer.TooLate:
		return TooLate, nil
	case producer.AlreadyTerminal:
		return AlreadyTerminal, nil
	}
	return "", errors.New("producer: unknown cancel outcome")
}
func (g gregorDelivery) Outcome() DeliveryOutcome {
	r, ok := g.d.Result()
	if !ok {
		return DeliveryOutcome{Err: errors.New("delivery has no terminal outcome yet")}
	}
	return DeliveryOutcome{Offset: r.Offset, Err: r.Err, NotSent: r.Err != nil && r.Certainty == client.NotSent}
}

type gregorConsumer struct{ c *consumer.Consumer }

func tpOf(tp TopicPartition) gregor.TopicPartition {
	return gregor.TopicPartition{Topic: tp.Topic, Partition: tp.Partition}
}

func positionOf(p StartPosition) consumer.Position {
	switch p.Kind {
	case PositionEnd:
		return consumer.AtEnd()
	case PositionOffset:
		return consumer.AtOffset(p.Offset)
	}
	return consumer.AtBeginning()
}

func positionsOf(ps []PartitionPosition) []consumer.PartitionPosition {
	out := make([]consumer.PartitionPosition, len(ps))
	for i, p := range ps {
		out[i] = consumer.PartitionPosition{TopicPartition: gregor.TopicPartition{Topic: p.Topic, Partition: p.Partition}, Position: positionOf(p.Position)}
	}
	return out
}

func (g gregorConsumer) Assign(ctx context.Context, ps []PartitionPosition) error {
	return g.c.Assign(ctx, positionsOf(ps))
}
func (g gregorConsumer) Add(ctx context.Context, ps []PartitionPosition) error {
	return g.c.Add(ctx, positionsOf(ps))
}
func (g gregorConsumer) Remove(ctx context.Context, tps []TopicPartition) error {
	out := make([]gregor.TopicPartition, len(tps))
	for i, tp := range tps {
		out[i] = tpOf(tp)
	}
	return g.c.Remove(ctx, out)
}
func (g gregorConsumer) Seek(ctx context.Context, tp TopicPartition, p StartPosition) error {
	return g.c.Seek(ctx, tpOf(tp), positionOf(p))
}
func (g gregorConsumer) Pause(_ context.Context, tp TopicPartition) error { return g.c.Pause(tpOf(tp)) }
func (g gregorConsumer) Resume(_ context.Context, tp TopicPartition) error {
	return g.c.Resume(tpOf(tp))
}
func (g gregorConsumer) Close() error { return g.c.Close(context.Background()) }
func (g gregorConsumer) Receive(ctx context.Context) ([]ReceivedRecord, error) {
	recs, err := g.c.Receive(ctx)
	if err != nil {
		return nil, err
	}
	return receivedOf(recs), nil
}

// receivedOf converts consumed records to the adapter's records.
func receivedOf(recs []consumer.Record) []ReceivedRecord {
	out := make([]ReceivedRecord, len(recs))
	for i, r := range recs {
		ts := wire.MillisOf(r.Timestamp)
		out[i] = ReceivedRecord{Topic: r.Topic, Partition: r.Partition, Offset: r.Offset, TimestampMillis: &ts, Key: r.Key, Value: r.Value}
		if len(r.Headers) > 0 {
			out[i].Headers = make([]RecordHeader, len(r.Headers))
			for j, h := range r.Headers {
				out[i].Headers[j] = RecordHeader{Name: h.Key, Value: h.Value}
			}
		}
	}
	return out
}
