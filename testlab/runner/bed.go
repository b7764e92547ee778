package runner

import (
	"context"
	"fmt"
	"sync"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
)

// Bed provides the clusters scenarios run against: the single-node cluster
// (shared, usually from kafkatest state) and, on first demand, a 1+3 cluster
// the Bed starts and owns.
type Bed struct {
	Single *kafkatest.Cluster
	Log    func(string, ...any)

	mu    sync.Mutex
	three *kafkatest.Cluster
}

// Cluster returns the cluster for shape ("" or "single", "1+3").
func (b *Bed) Cluster(ctx context.Context, shape string) (*kafkatest.Cluster, error) {
	switch shape {
	case "", "single":
		if b.Single == nil {
			return nil, fmt.Errorf("no single-node cluster")
		}
		return b.Single, nil
	case "1+3":
		b.mu.Lock()
		defer b.mu.Unlock()
		if b.three == nil {
			c, err := kafkatest.Start(ctx, kafkatest.Options{Shape: kafkatest.ThreeBrokers, Log: b.Log})
			if err != nil {
				return nil, err
			}
			b.three = c
		}
		return b.three, nil
	}
	return nil, fmt.Errorf("unknown shape %q", shape)
}

// Heal restarts any broker of the 1+3 cluster that a scenario left stopped.
func (b *Bed) Heal(ctx context.Context) error {
	b.mu.Lock()
	c := b.three
	b.mu.Unlock()
	if c == nil {
		return nil
	}
	for _, id := range c.BrokerIDs() {
		_ = c.ResumeBroker(ctx, id) // SIGCONT is harmless on a running JVM
	}
	live := map[string]bool{}
	for _, a := range c.Bootstrap(kafkatest.Plaintext) {
		live[a] = true
	}
	for _, id := range c.BrokerIDs() {
		if !live[c.BrokerAddr(id, kafkatest.Plaintext)] {
			if err := c.RestartBroker(ctx, id); err != nil {
				return err
			}
		}
	}
	return nil
}

// Close stops the clusters the Bed started.
func (b *Bed) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.three != nil {
		err := b.three.Close()
		b.three = nil
		return err
	}
	return nil
}
