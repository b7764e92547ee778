package client

import (
	"context"

	"github.com/gregor-kafka/gregor/wire"
)

// Client is a connection to one Kafka cluster, safe for concurrent use.
type Client struct {
	cfg Config
}

// New validates cfg and returns a Client. It does not connect; Ready (or the
// first request) does.
func New(cfg Config) (*Client, error) { return &Client{cfg: cfg}, nil }

// STUB: replaced by the implementation.
func (c *Client) Ready(ctx context.Context) error { return ErrClosed }
func (c *Client) Request(ctx context.Context, broker int32, req wire.Request) (wire.Response, error) {
	return nil, ErrClosed
}
func (c *Client) RequestVersion(ctx context.Context, broker int32, req wire.Request, v int16) (wire.Response, error) {
	return nil, ErrClosed
}
func (c *Client) Enqueue(ctx context.Context, broker int32, req wire.Request) (Pending, error) {
	return nil, ErrClosed
}
func (c *Client) RequestController(ctx context.Context, req wire.Request) (wire.Response, error) {
	return nil, ErrClosed
}
func (c *Client) Metadata(ctx context.Context, topics []string) (*Metadata, error) {
	return nil, ErrClosed
}
func (c *Client) CachedMetadata() *Metadata { return nil }
func (c *Client) InvalidateMetadata()       {}
func (c *Client) Leader(ctx context.Context, topic string, partition int32) (int32, int32, error) {
	return 0, 0, ErrClosed
}
func (c *Client) Coordinator(ctx context.Context, kind CoordinatorType, key string) (int32, error) {
	return 0, ErrClosed
}
func (c *Client) InvalidateCoordinator(kind CoordinatorType, key string) {}
func (c *Client) BrokerVersions(ctx context.Context, broker int32) (map[wire.APIKey][2]int16, error) {
	return nil, ErrClosed
}
func (c *Client) Metrics() MetricsSnapshot { return MetricsSnapshot{} }
func (c *Client) RegisterProducerMetrics(src func(*ProducerMetrics)) (unregister func()) {
	return func() {}
}
func (c *Client) Close() error { return nil }
