package consumer

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// assertKIP848Unsupported checks that the group stopped within a second
// with the typed error after exactly attempts ConsumerGroupHeartbeats.
func assertKIP848Unsupported(t *testing.T, m *member, fc *fakeCoord, attempts int) {
	t.Helper()
	start := time.Now()
	waitFor(t, "the member to stop", func() bool { return m.fatalErr() != nil })
	ctx, cancel := context.WithTimeout(bg(), time.Second)
	defer cancel()
	_, err := m.Receive(ctx)
	var ue *gregor.UnsupportedFeatureError
	if !errors.Is(err, gregor.ErrUnsupportedFeature) || !errors.As(err, &ue) || ue.Feature != kip848Feature || !strings.Contains(ue.Remedy, "classic") {
		t.Fatalf("Receive: %v, want a KIP-848 UnsupportedFeatureError naming the classic protocol", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("failed after %v", d)
	}
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if len(fc.cghbs) != attempts {
		t.Fatalf("%d ConsumerGroupHeartbeat attempts, want %d (no retry)", len(fc.cghbs), attempts)
	}
}

// TestGroupConsumerNoHeartbeatAPI: a coordinator that does not advertise
// ConsumerGroupHeartbeat (WarpStream, Kafka before 3.7) ends a
// ProtocolConsumer member with gregor.ErrUnsupportedFeature before any
// heartbeat; it was retried forever before.
func TestGroupConsumerNoHeartbeatAPI(t *testing.T) {
	m, fc, _ := startFakeGroup(t, consumerProtocol, func(fc *fakeCoord) {
		fc.noCGHB = fmt.Errorf("%w: broker at b does not support ConsumerGroupHeartbeat", client.ErrUnsupportedVersion)
	})
	assertKIP848Unsupported(t, m, fc, 0)
}

// TestGroupConsumerNoGroupVersion: Kafka 3.7 to 3.9 advertise
// ConsumerGroupHeartbeat v0 without finalizing group.version and answer it
// UNSUPPORTED_VERSION; the member decides from ApiVersions and fails with
// gregor.ErrUnsupportedFeature, naming the level, before sending one (it
// sent one before).
func TestGroupConsumerNoGroupVersion(t *testing.T) {
	m, fc, _ := startFakeGroup(t, consumerProtocol, func(fc *fakeCoord) {
		fc.groupVersion = 0
		fc.queue(wire.KeyConsumerGroupHeartbeat, wire.ErrUnsupportedVersion.Code)
	})
	assertKIP848Unsupported(t, m, fc, 0)
	if !strings.Contains(m.fatalErr().Error(), "group.version finalized at level 0") {
		t.Fatalf("%v: the level is not named", m.fatalErr())
	}
}

// TestGroupConsumerHeartbeatUnsupportedVersion: a coordinator answering
// ConsumerGroupHeartbeat UNSUPPORTED_VERSION ends the member with
// gregor.ErrUnsupportedFeature, the broker's code kept in the chain.
func TestGroupConsumerHeartbeatUnsupportedVersion(t *testing.T) {
	m, fc, _ := startFakeGroup(t, consumerProtocol, func(fc *fakeCoord) {
		fc.queue(wire.KeyConsumerGroupHeartbeat, wire.ErrUnsupportedVersion.Code)
	})
	assertKIP848Unsupported(t, m, fc, 1)
	if !errors.Is(m.fatalErr(), wire.ErrUnsupportedVersion) {
		t.Fatalf("%v: UNSUPPORTED_VERSION not in the chain", m.fatalErr())
	}
}

// TestGroupProtocolDefaultWithoutHeartbeatAPI: with Protocol unset, a
// finalized group.version 1 on a coordinator that does not advertise
// ConsumerGroupHeartbeat picks the classic protocol.
func TestGroupProtocolDefaultWithoutHeartbeatAPI(t *testing.T) {
	m, fc, _ := newFakeGroupWith(t, func(c *GroupConfig) { c.Protocol = "" }, func(fc *fakeCoord) {
		fc.groupVersion = 1
		fc.noCGHB = client.ErrUnsupportedVersion
	})
	if got := m.m.protocol(); got != ProtocolClassic {
		t.Fatalf("protocol %q, want classic", got)
	}
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if len(fc.cghbs) != 0 {
		t.Fatalf("%d ConsumerGroupHeartbeats sent", len(fc.cghbs))
	}
}
