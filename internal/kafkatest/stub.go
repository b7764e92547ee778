package kafkatest

import (
	"context"
	"errors"
	"testing"
)

// Cluster is a running test cluster. STUB: replaced by the implementation.
type Cluster struct{}

func Shared(t testing.TB) *Cluster { t.Fatal("kafkatest: not implemented"); return nil }
func Start(ctx context.Context, o Options) (*Cluster, error) {
	return nil, errors.New("not implemented")
}
func (c *Cluster) Bootstrap(l Listener) []string                                      { return nil }
func (c *Cluster) CAFile() string                                                     { return "" }
func (c *Cluster) CAPEM() []byte                                                      { return nil }
func (c *Cluster) ClusterID() string                                                  { return "" }
func (c *Cluster) BrokerIDs() []int32                                                 { return nil }
func (c *Cluster) StopBroker(ctx context.Context, id int32) error                     { return nil }
func (c *Cluster) KillBroker(ctx context.Context, id int32) error                     { return nil }
func (c *Cluster) RestartBroker(ctx context.Context, id int32) error                  { return nil }
func (c *Cluster) RunTool(ctx context.Context, m string, a ...string) (string, error) { return "", nil }
func (c *Cluster) Close() error                                                       { return nil }
