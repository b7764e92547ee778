package protocol

import (
	"context"
	"errors"
	"fmt"
	"github.com/gregor-kafka/gregor"
	"testing"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

func TestNormalize(t *testing.T) {
	wrapped := &client.RequestError{Broker: 1, API: "CreateTopics", Certainty: client.NotSent, Err: wire.ErrorForCode(36)}
	cases := []struct {
		err  error
		fam  family
		want string
	}{
		{wrapped, familyAdmin, "broker:broker_36"},
		{fmt.Errorf("ctx: %w", wire.ErrorForCode(3)), familyAdmin, "broker:broker_3"},
		{wire.ErrorForCode(29), familyAdmin, "broker:broker_29"},
		{wire.ErrorForCode(30), familyAdmin, "broker:broker_30"},
		{fmt.Errorf("group stopped: %w", wire.ErrorForCode(30)), familyConsumer, "broker:broker_30"},
		{&consumer.PartitionError{TopicPartition: gregor.TopicPartition{Topic: "t"}, Err: wire.ErrorForCode(29)}, familyConsumer, "access:broker_29"},
		{&producer.BatchError{Topic: "t", Err: wire.ErrorForCode(29)}, familyProducer, "access:broker_29"},
		{wire.ErrorForCode(90), familyProducer, "fenced:broker_90"},
		{wire.ErrorForCode(10), familyProducer, "invalid_record:broker_10"},
		{wire.ErrorForCode(6), familyProducer, "broker:broker_6"},
		{producer.ErrRecordCancelled, familyProducer, "cancelled"},
		{producer.ErrDeliveryTimeout, familyProducer, "timeout"},
		{producer.ErrProducerClosed, familyProducer, "state"},
		{producer.ErrRecordTooLarge, familyProducer, "invalid_record"},
		{fmt.Errorf("%w: x", producer.ErrConfig), familyProducer, "configuration"},
		{fmt.Errorf("full: %w", client.ErrBackpressure), familyProducer, "backpressure"},
		{context.DeadlineExceeded, familyConsumer, "timeout"},
		{errors.Join(client.ErrTimeout, context.DeadlineExceeded), familyConsumer, "timeout"},
		{consumer.ErrNotAssigned, familyConsumer, "state"},
		{&consumer.TopicIDChangedError{Topic: "t", Partitions: []int32{0}, OldID: wire.UUID{1}}, familyConsumer, "broker:broker_3"},
		{&consumer.TopicIDChangedError{Topic: "t", Partitions: []int32{0}, OldID: wire.UUID{1}, NewID: wire.UUID{2}}, familyConsumer, "broker:broker_100"},
		{client.ErrAuthentication, familyAdmin, "access"},
		{fmt.Errorf("%w: %w", client.ErrAuthentication, wire.ErrorForCode(58)), familyAdmin, "access:broker_58"},
		{&client.RequestError{Err: client.ErrTransport}, familyAdmin, "transport"},
		{client.ErrUnsupportedVersion, familyAdmin, "compatibility"},
		{&gregor.UnsupportedFeatureError{Feature: "f", Err: wire.ErrorForCode(35)}, familyConsumer, "compatibility"},
		{client.ErrClusterIdentity, familyAdmin, "identity"},
		{errors.New("mystery"), familyAdmin, "internal"},
	}
	for _, tc := range cases {
		if got := normalize(tc.err, tc.fam); got != tc.want {
			t.Errorf("normalize(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

func TestProducerConfigMapping(t *testing.T) {
	pc := &ProducerConfiguration{DeliveryTimeoutMs: 1500, Compression: "snappy", MaxRetries: 0, RetryBackoffMs: 0,
		Limits: ProducerLimits{RetainedBytes: 1 << 20, InFlightRecords: 64, WaitingRecords: 8, WaitingBytes: 4096,
			BatchRecords: 16, BatchBytes: 2048, RequestBytes: 8192, MaxInFlightRequestsPerBroker: 1, LingerMs: 0}}
	got := producerConfig(pc)
	if got.MaxRetries == nil || *got.MaxRetries != 0 {
		t.Fatalf("max_retries 0 must map to a literal zero (MaxRetries &0), got %v", got.MaxRetries)
	}
	got.MaxRetries = nil // compared above; fmt.Sprint would print the pointer
	want := producer.Config{DeliveryTimeout: 1500e6, Compression: wire.CompressionSnappy, RetryBackoff: -1, Linger: -1,
		BatchMaxRecords: 16, BatchMaxBytes: 2048, RequestMaxBytes: 8192, MaxInFlightPerBroker: 1, RetainedBytes: 1 << 20,
		InFlightRecords: 64, WaitingRecords: 8, WaitingBytes: 4096}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	if d := producerConfig(nil); d.MaxRetries != nil || d.DeliveryTimeout != DefaultDeliveryTimeout {
		t.Fatalf("create_client without a configuration must retry within the delivery timeout (MaxRetries nil): %+v", d)
	}
	if r := producerConfig(&ProducerConfiguration{MaxRetries: 7}).MaxRetries; r == nil || *r != 7 {
		t.Fatalf("max_retries 7 mapped to %v", r)
	}
	for _, c := range []string{"none", "gzip", "snappy", "lz4", "zstd"} {
		if compressionOf(Compression(c)).String() == "" {
			t.Errorf("%s", c)
		}
	}
}
