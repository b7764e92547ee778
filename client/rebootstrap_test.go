package client

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// bootstrapName is a bootstrap address no broker advertises: the test
// dialer sends it to broker 1, as a DNS alias or load balancer would.
const bootstrapName = "bootstrap.test:9092"

// rebootstrapClient returns a client bootstrapping from bootstrapName, whose
// dialer refuses the brokers' advertised addresses while down holds, and
// counts the dials to bootstrapName.
func rebootstrapClient(t *testing.T, fc *fakeCluster, cfg Config, down *atomic.Bool, bootDials *atomic.Int32) *Client {
	cfg.Bootstrap = []string{bootstrapName}
	cfg.Dialer = func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		if addr == bootstrapName {
			bootDials.Add(1)
			return d.DialContext(ctx, network, fc.brokers[0].addr)
		}
		if down.Load() {
			return nil, &net.OpError{Op: "dial", Net: network, Err: errors.New("connection refused (test: the known brokers are gone)")}
		}
		return d.DialContext(ctx, network, addr)
	}
	c := newTestClient(t, cfg)
	if err := c.Ready(testCtx(t, 5*time.Second)); err != nil {
		t.Fatal(err)
	}
	// A connection to the advertised address, then none to the bootstrap
	// alias: the client now knows the cluster only by its metadata.
	if _, err := c.Request(testCtx(t, 5*time.Second), 1, createTopics("known")); err != nil {
		t.Fatal(err)
	}
	for _, cn := range c.pool.live() {
		if cn.addr == bootstrapName {
			cn.fail(fmt.Errorf("%w: test", ErrTransport))
		}
	}
	return c
}

// TestRebootstrapAfterTrigger (KIP-899, KIP-1102): when no known broker can
// be reached for RebootstrapTrigger, metadata is fetched from the bootstrap
// addresses again; not before the trigger, and never with RecoveryNone.
func TestRebootstrapAfterTrigger(t *testing.T) {
	const trigger = 300 * time.Millisecond
	for _, strategy := range []MetadataRecoveryStrategy{RecoveryRebootstrap, RecoveryNone} {
		t.Run(string(strategy), func(t *testing.T) {
			fc := newFakeCluster(t, 1)
			var down atomic.Bool
			var bootDials atomic.Int32
			cfg := fc.config()
			cfg.RebootstrapTrigger, cfg.MetadataRecoveryStrategy = trigger, strategy
			c := rebootstrapClient(t, fc, cfg, &down, &bootDials)
			down.Store(true)
			for _, cn := range c.pool.live() {
				cn.fail(fmt.Errorf("%w: test: the known broker went away", ErrTransport))
			}
			c.InvalidateMetadata()
			start := time.Now()
			_, err := c.Metadata(testCtx(t, 2*time.Second), []string{})
			elapsed := time.Since(start)
			if strategy == RecoveryNone {
				expectFailure(t, "Metadata without rebootstrap", err, ErrTransport, NotSent)
				if n := bootDials.Load(); n != 1 {
					t.Fatalf("%d dials to the bootstrap address, want only the first", n)
				}
				return
			}
			if err != nil {
				t.Fatalf("Metadata with every known broker gone: %v", err)
			}
			if elapsed < trigger {
				t.Fatalf("rebootstrapped after %v, before RebootstrapTrigger %v", elapsed, trigger)
			}
			if n := bootDials.Load(); n != 2 {
				t.Fatalf("%d dials to the bootstrap address, want 2", n)
			}
			if got := c.Metrics().Conns.Rebootstraps; got != 1 {
				t.Fatalf("Rebootstraps %d, want 1", got)
			}
			// A second episode is counted again.
			c.InvalidateMetadata()
			for _, cn := range c.pool.live() {
				cn.fail(fmt.Errorf("%w: test", ErrTransport))
			}
			if _, err := c.Metadata(testCtx(t, 2*time.Second), []string{}); err != nil {
				t.Fatal(err)
			}
			if got := c.Metrics().Conns.Rebootstraps; got != 2 {
				t.Fatalf("Rebootstraps %d after a second episode, want 2", got)
			}
		})
	}
}

// TestRebootstrapRequired (KIP-1102): a Metadata answer with top-level
// REBOOTSTRAP_REQUIRED makes the client ask the bootstrap addresses at once
// (no RebootstrapTrigger wait), and the caller gets the fresh metadata.
func TestRebootstrapRequired(t *testing.T) {
	fc := newFakeCluster(t, 1)
	var required atomic.Bool
	fc.setHandle(func(c *fakeConn, r *fakeReq) bool {
		if r.hdr.Key == wire.KeyMetadata && required.CompareAndSwap(true, false) {
			c.respond(r, &wire.MetadataResponse{ErrorCode: wire.ErrRebootstrapRequired.Code, ControllerID: -1})
			return true
		}
		return false
	})
	var down atomic.Bool
	var bootDials atomic.Int32
	c := rebootstrapClient(t, fc, fc.config(), &down, &bootDials)
	required.Store(true)
	c.InvalidateMetadata()
	md, err := c.Metadata(testCtx(t, 5*time.Second), []string{})
	if err != nil {
		t.Fatalf("Metadata after REBOOTSTRAP_REQUIRED: %v", err)
	}
	if len(md.Brokers) != 1 {
		t.Fatalf("metadata %+v", md)
	}
	if n := bootDials.Load(); n != 2 {
		t.Fatalf("%d dials to the bootstrap address, want 2", n)
	}
	if got := c.Metrics().Conns.Rebootstraps; got != 1 {
		t.Fatalf("Rebootstraps %d, want 1", got)
	}
}

// TestClusterIdentityKept: without ExpectedClusterID, the first cluster ID
// seen is expected from then on: metadata from another cluster (as a
// rebootstrap behind a reused address could reach) fails ErrClusterIdentity.
func TestClusterIdentityKept(t *testing.T) {
	fc := newFakeCluster(t, 1)
	c := newTestClient(t, fc.config())
	if err := c.Ready(testCtx(t, 5*time.Second)); err != nil {
		t.Fatal(err)
	}
	fc.mu.Lock()
	fc.clusterID = "another-cluster"
	fc.mu.Unlock()
	c.InvalidateMetadata()
	_, err := c.Metadata(testCtx(t, 5*time.Second), []string{})
	if !errors.Is(err, ErrClusterIdentity) {
		t.Fatalf("metadata from another cluster: %v, want ErrClusterIdentity", err)
	}
	if md := c.CachedMetadata(); md == nil || *md.ClusterID != "fake-cluster-id" {
		t.Fatalf("cached metadata replaced by another cluster's")
	}
}
