package protocol

import (
	"context"
	"crypto/tls"

	"github.com/gregor-kafka/gregor/client"
)

// The adapter reaches Kafka only through these small interfaces. The
// production implementation (gregor.go) is a thin layer over gregor's public
// packages; tests use fakes. No Kafka logic lives on this side.

// Backend creates clients.
type Backend interface {
	// NewClient builds (but does not connect) a client.
	NewClient(cfg ClientConfig) (KafkaClient, error)
}

// ClientConfig is what a client is built from: hello's endpoints and
// security, and (for create_configured_client) the producer policy that the
// client's producers use.
type ClientConfig struct {
	ClientID  ID
	Endpoints []string
	TLS       *tls.Config
	SASL      *client.SASL
	Producer  *ProducerConfiguration // nil: the defaults
}

// KafkaClient is one client and the handles it makes.
type KafkaClient interface {
	Ready(ctx context.Context) error
	Metrics() client.MetricsSnapshot
	NewProducer() (Producer, error)
	NewAssignedConsumer() (AssignedConsumer, error)
	// NewGroupConsumer starts a group member (create_group_consumer).
	NewGroupConsumer(cfg GroupConsumerConfig) (GroupConsumer, error)
	Admin() Admin
	Close() error
}

// RecordHeader is a header; a nil Value is a null value.
type RecordHeader struct {
	Name  string
	Value []byte
}

// ProducerRecord is a record to produce to an explicit partition. Nil Key
// or Value means null.
type ProducerRecord struct {
	Topic           string
	Partition       int32
	Key, Value      []byte
	Headers         []RecordHeader
	TimestampMillis *int64
}

// Producer is the public producer surface the adapter uses.
type Producer interface {
	// TrySend admits rec immediately or refuses it (no waiting).
	TrySend(rec *ProducerRecord) (Delivery, error)
	Flush(ctx context.Context) error
	Close(ctx context.Context) error
}

// Delivery observes one admitted record.
type Delivery interface {
	// Done is closed when the single terminal outcome is known.
	Done() <-chan struct{}
	// Outcome returns the terminal outcome; valid after Done.
	Outcome() DeliveryOutcome
	// Cancel asks to withdraw the record and returns one of
	// CancelledNotSent, TooLate or AlreadyTerminal. An error means the
	// request could not be made now (e.g. backpressure) and may be retried.
	Cancel() (string, error)
}

// DeliveryOutcome is a record's terminal outcome. Err nil means
// acknowledged at Offset; otherwise NotSent tells whether the client knows
// the broker cannot have the record.
type DeliveryOutcome struct {
	Offset  int64
	Err     error
	NotSent bool
}

// ReceivedRecord is a consumed record. Nil Key/Value mean null.
type ReceivedRecord struct {
	Topic           string
	Partition       int32
	Offset          int64
	TimestampMillis *int64
	Key, Value      []byte
	Headers         []RecordHeader
}

// AssignedConsumer is a directly assigned consumer.
type AssignedConsumer interface {
	// Assign replaces the whole assignment; Add extends it; Remove drops
	// partitions.
	Assign(ctx context.Context, parts []PartitionPosition) error
	Add(ctx context.Context, parts []PartitionPosition) error
	Remove(ctx context.Context, parts []TopicPartition) error
	Seek(ctx context.Context, tp TopicPartition, pos StartPosition) error
	Pause(ctx context.Context, tp TopicPartition) error
	Resume(ctx context.Context, tp TopicPartition) error
	// Receive returns the first available batch; it returns a context error
	// (or one wrapping it) when ctx ends first.
	Receive(ctx context.Context) ([]ReceivedRecord, error)
	Close() error
}

// BrokerError is one broker's error of list_consumer_groups.
type BrokerError struct {
	BrokerID int32
	Code     int16
}

// GroupOffset is one partition's committed offset (nil: none) or error.
type GroupOffset struct {
	Topic     string
	Partition int32
	Offset    *int64
	Err       error
}

// GroupOffsets is one group's offsets, or the group-wide error.
type GroupOffsets struct {
	GroupID string
	Err     error
	Offsets []GroupOffset
}

// ClassicGroup is one classic group's description or error.
type ClassicGroup struct {
	GroupID     string
	MemberCount uint32
	Err         error
}

// Admin is the admin surface. Every method's error is operation-wide;
// per-resource errors sit in the results, in request order.
type Admin interface {
	CreateTopics(ctx context.Context, topics []TopicSpec, validateOnly bool) ([]error, error)
	CreatePartitions(ctx context.Context, topic string, total int32, validateOnly bool) error
	DeleteTopic(ctx context.Context, topic string) error
	DescribeTopic(ctx context.Context, topic string) ([]int32, error)
	ListTopics(ctx context.Context, includeInternal bool) ([]string, error)
	ListOffset(ctx context.Context, topic string, partition int32, latest bool) (*int64, error)
	DeleteRecords(ctx context.Context, topic string, partition int32, before int64) (int64, error)
	DescribeTopicConfig(ctx context.Context, topic, name string) (*string, error)
	AlterTopicConfig(ctx context.Context, topic, name, value string, validateOnly bool) error
	DescribeCluster(ctx context.Context) (clusterID *string, brokers []int32, err error)
	ListConsumerGroups(ctx context.Context) (groups []string, brokerErrors []BrokerError, err error)
	DescribeConsumerGroup(ctx context.Context, group string) (uint32, error)
	ListGroupOffsets(ctx context.Context, groups []GroupPartitions, requireStable bool) ([]GroupOffsets, error)
	AlterGroupOffsets(ctx context.Context, group string, offsets []PartitionOffset) ([]error, error)
	DeleteGroupOffsets(ctx context.Context, group string, parts []TopicPartition) ([]error, error)
	DeleteConsumerGroup(ctx context.Context, group string) error
	DescribeClassicGroups(ctx context.Context, groups []string) ([]ClassicGroup, error)
}
