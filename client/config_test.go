package client

import (
	"bytes"
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

func TestNewValidatesConfig(t *testing.T) {
	ok := Config{Bootstrap: []string{"127.0.0.1:9092"}}
	cases := []struct {
		field string
		mod   func(*Config)
	}{
		{"Bootstrap", func(c *Config) { c.Bootstrap = nil }},
		{"Bootstrap", func(c *Config) { c.Bootstrap = []string{"localhost"} }},
		{"Bootstrap", func(c *Config) { c.Bootstrap = []string{"localhost:0"} }},
		{"Bootstrap", func(c *Config) { c.Bootstrap = []string{":9092"} }},
		{"SASL.Mechanism", func(c *Config) { c.SASL = &SASL{Mechanism: "GSSAPI", Username: "u"} }},
		{"SASL.Username", func(c *Config) { c.SASL = &SASL{Mechanism: SASLPlain} }},
		{"RequestTimeout", func(c *Config) { c.RequestTimeout = -time.Second }},
		{"RetryBackoffMax", func(c *Config) { c.RetryBackoff, c.RetryBackoffMax = time.Second, time.Millisecond }},
		{"MaxInFlightPerBroker", func(c *Config) { c.MaxInFlightPerBroker = -1 }},
		{"MaxResponseBytes", func(c *Config) { c.MaxResponseBytes = 100 }},
		{"MetadataRecoveryStrategy", func(c *Config) { c.MetadataRecoveryStrategy = "rebootstrapp" }},
		{"RebootstrapTrigger", func(c *Config) { c.RebootstrapTrigger = -time.Second }},
	}
	for _, tc := range cases {
		cfg := ok
		tc.mod(&cfg)
		_, err := New(cfg)
		if !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: New error %v", tc.field, err)
		}
	}
	c, err := New(ok)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	want := Config{ClientID: DefaultClientID, DialTimeout: DefaultDialTimeout, RequestTimeout: DefaultRequestTimeout,
		RetryBackoff: DefaultRetryBackoff, RetryBackoffMax: DefaultRetryBackoffMax, MetadataMaxAge: DefaultMetadataMaxAge,
		ConnIdleTimeout: DefaultConnIdleTimeout, MaxInFlightPerBroker: DefaultMaxInFlightPerBroker, MaxResponseBytes: DefaultMaxResponseBytes}
	got := c.cfg
	got.Bootstrap, got.Logger = nil, nil
	if got.ClientID != want.ClientID || got.DialTimeout != want.DialTimeout || got.RequestTimeout != want.RequestTimeout ||
		got.RetryBackoff != want.RetryBackoff || got.RetryBackoffMax != want.RetryBackoffMax || got.MetadataMaxAge != want.MetadataMaxAge ||
		got.ConnIdleTimeout != want.ConnIdleTimeout || got.MaxInFlightPerBroker != want.MaxInFlightPerBroker || got.MaxResponseBytes != want.MaxResponseBytes {
		t.Fatalf("defaults %+v", got)
	}
	if got.MetadataRecoveryStrategy != RecoveryRebootstrap || got.RebootstrapTrigger != DefaultRebootstrapTrigger {
		t.Fatalf("rebootstrap defaults: %q, %v", got.MetadataRecoveryStrategy, got.RebootstrapTrigger)
	}
}

func TestClientIDSentInHeader(t *testing.T) {
	fc := newFakeCluster(t, 1)
	cfg := fc.config()
	cfg.ClientID = "my-app"
	c := newTestClient(t, cfg)
	if _, err := c.Request(testCtx(t, 5*time.Second), AnyBroker, createTopics("x")); err != nil {
		t.Fatal(err)
	}
	for _, r := range fc.requests(wire.KeyCreateTopics) {
		if r.hdr.ClientID == nil || *r.hdr.ClientID != "my-app" {
			t.Fatalf("client ID %v", r.hdr.ClientID)
		}
	}
}

func TestDNSFailureClassified(t *testing.T) {
	c := newTestClient(t, Config{Bootstrap: []string{"broker.invalid:9092"}, RetryBackoff: time.Millisecond, RetryBackoffMax: time.Millisecond,
		Dialer: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return nil, &net.OpError{Op: "dial", Net: network, Err: &net.DNSError{Err: "no such host", Name: "broker.invalid", IsNotFound: true}}
		}})
	_, err := c.Request(testCtx(t, 100*time.Millisecond), AnyBroker, createTopics("x"))
	if !errors.Is(err, ErrDNS) || CertaintyOf(err) != NotSent {
		t.Fatalf("%v", err)
	}
	if m := c.Metrics(); m.Failures.DNS+m.Failures.Deadline != 1 || m.Calls.NotSent != 1 {
		t.Fatalf("failures %+v calls %+v", m.Failures, m.Calls)
	}
}

func TestIdleConnectionsClosed(t *testing.T) {
	fc := newFakeCluster(t, 1)
	cfg := fc.config()
	cfg.ConnIdleTimeout = 30 * time.Millisecond
	c := newTestClient(t, cfg)
	if _, err := c.Request(testCtx(t, 5*time.Second), 1, createTopics("x")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "idle connection to close", 5*time.Second, func() bool { return len(c.pool.live()) == 0 })
	if _, err := c.Request(testCtx(t, 5*time.Second), 1, createTopics("y")); err != nil {
		t.Fatal(err)
	}
	if n := fc.brokers[0].accepted.Load(); n < 2 {
		t.Fatalf("accepted %d connections, want a reconnect", n)
	}
}

func TestProducerMetricsSummed(t *testing.T) {
	c := newTestClient(t, Config{Bootstrap: []string{"127.0.0.1:9"}})
	u1 := c.RegisterProducerMetrics(func(p *ProducerMetrics) {
		p.BufferedRecords, p.Records, p.PeakInFlight, p.Accepting, p.Healthy = 2, 10, 3, true, true
	})
	c.RegisterProducerMetrics(func(p *ProducerMetrics) {
		p.BufferedRecords, p.Records, p.PeakInFlight, p.Accepting, p.Healthy = 5, 1, 2, true, false
	})
	p := c.Metrics().Producer
	if p.BufferedRecords != 7 || p.Records != 11 || p.PeakInFlight != 3 || !p.Accepting || p.Healthy {
		t.Fatalf("summed %+v", p)
	}
	u1()
	u1()
	if p := c.Metrics().Producer; p.BufferedRecords != 5 || p.Healthy {
		t.Fatalf("after unregister %+v", p)
	}
}

// syncBuffer is a log sink safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestStaleMetadata(t *testing.T) {
	if !StaleMetadata(&RequestError{Err: wire.ErrNotLeaderOrFollower}) || StaleMetadata(wire.ErrInvalidRequest) || StaleMetadata(nil) {
		t.Fatal("StaleMetadata misclassifies")
	}
}

func TestStaleCoordinator(t *testing.T) {
	if !StaleCoordinator(wire.ErrNotCoordinator) || !StaleCoordinator(&RequestError{Err: wire.ErrCoordinatorNotAvailable}) || StaleCoordinator(wire.ErrCoordinatorLoadInProgress) {
		t.Fatal("StaleCoordinator misclassifies")
	}
}
