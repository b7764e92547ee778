package client

// This file fixes the public contract of package client so that producer,
// consumer and admin can be built against it in parallel. The implementation
// lives in the other files of the package.

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// Config configures a Client. Zero values take the documented defaults.
type Config struct {
	// Bootstrap lists "host:port" addresses tried in order for the first
	// connection (bootstrap.servers). Required.
	Bootstrap []string
	// ClientID is sent in every request header (client.id). Default "gregor".
	ClientID string
	// TLS enables TLS when non-nil (security.protocol SSL / SASL_SSL).
	TLS *tls.Config
	// SASL enables SASL authentication when non-nil. Connections
	// re-authenticate before the session lifetime the broker sets ends
	// (KIP-368; see the package documentation).
	SASL *SASL
	// Mechanism enables SASL authentication with this mechanism when
	// non-nil: Plain, ScramSHA256, ScramSHA512, OAuthBearer or the
	// caller's own. Exclusive with SASL (which New turns into the
	// corresponding Mechanism).
	Mechanism Mechanism
	// DialTimeout bounds one TCP (and TLS) connect. Default 10s.
	DialTimeout time.Duration
	// RequestTimeout bounds one request round trip when the caller's context
	// has no earlier deadline (request.timeout.ms). Default 30s.
	RequestTimeout time.Duration
	// RetryBackoff is the first backoff between retries (retry.backoff.ms);
	// it doubles with jitter up to RetryBackoffMax. Defaults 100ms and 1s.
	RetryBackoff    time.Duration
	RetryBackoffMax time.Duration
	// MetadataMaxAge is how old cached metadata may get before a refresh
	// (metadata.max.age.ms). Default 5m.
	MetadataMaxAge time.Duration
	// ConnIdleTimeout closes connections unused for this long
	// (connections.max.idle.ms). Default 9m.
	ConnIdleTimeout time.Duration
	// MaxInFlightPerBroker bounds pipelined requests on one connection
	// (one broker's connection of one Lane). Default 5.
	MaxInFlightPerBroker int
	// MaxResponseBytes bounds one response frame, checked before allocating.
	// Default 100 MiB.
	MaxResponseBytes int32
	// ExpectedClusterID, when set, makes Ready (and every new connection's
	// metadata) fail with ErrClusterIdentity if the cluster reports another.
	// Unset, the first cluster ID metadata reports is expected from then
	// on, so a rebootstrap never joins another cluster.
	ExpectedClusterID string
	// MetadataRecoveryStrategy is what the client does when none of the
	// brokers it knows from metadata can be reached
	// (metadata.recovery.strategy, KIP-899). RecoveryRebootstrap, the
	// default (as in the Java client since 4.0): after
	// RebootstrapTrigger, or at once when a broker answers Metadata with
	// REBOOTSTRAP_REQUIRED (KIP-1102), forget the known brokers and
	// connect to the Bootstrap addresses again (resolving their names
	// anew), then rebuild metadata from there. RecoveryNone: keep trying
	// the known brokers.
	MetadataRecoveryStrategy MetadataRecoveryStrategy
	// RebootstrapTrigger is how long no known broker may be reachable
	// before the client rebootstraps
	// (metadata.recovery.rebootstrap.trigger.ms, KIP-1102). Default 5m.
	RebootstrapTrigger time.Duration
	// Logger receives diagnostics. Default: discard. Secrets are never logged.
	Logger *slog.Logger
	// Hooks receive the client's events (connections, requests, produced
	// and fetched batches, record outcomes, assignments); each implements
	// some of the Hook* interfaces (see Hook for the contract). Default: none.
	Hooks []Hook
	// EnableMetricsPush is enable.metrics.push (KIP-714): nil or true
	// (the default, as in the Java client) pushes the client's metrics to
	// a broker that asks for them (GetTelemetrySubscriptions, then
	// PushTelemetry at the subscription's interval, and a last push on
	// Close); false never does. A broker without a client telemetry
	// receiver does not ask, and the client then sends nothing.
	EnableMetricsPush *bool
	// Dialer, when set, replaces net.Dialer (tests use it for fault injection).
	Dialer func(ctx context.Context, network, addr string) (net.Conn, error)
}

// MetadataRecoveryStrategy is metadata.recovery.strategy (KIP-899).
type MetadataRecoveryStrategy string

// The metadata recovery strategies.
const (
	// RecoveryRebootstrap rebootstraps when no known broker can be reached
	// (the default).
	RecoveryRebootstrap MetadataRecoveryStrategy = "rebootstrap"
	// RecoveryNone only ever retries the known brokers once metadata is
	// known.
	RecoveryNone MetadataRecoveryStrategy = "none"
)

// SASLMechanism names a SASL mechanism (sasl.mechanism).
type SASLMechanism string

// The SASL mechanisms gregor supports.
const (
	SASLPlain       SASLMechanism = "PLAIN"
	SASLScramSHA256 SASLMechanism = "SCRAM-SHA-256"
	SASLScramSHA512 SASLMechanism = "SCRAM-SHA-512"
)

// SASL holds SASL credentials. They are used only for authentication and
// never logged or included in errors; String and Format never print the
// password.
type SASL struct {
	Mechanism SASLMechanism
	Username  string
	Password  string
}

// Format prints the mechanism and user, never the password, for every verb
// (%v, %+v, %#v, %s).
func (s SASL) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "SASL{Mechanism:%s Username:%q Password:<redacted>}", s.Mechanism, s.Username)
}

// AnyBroker routes a request to any live broker (the least loaded known one).
const AnyBroker int32 = -1

// CoordinatorType is the key_type of FindCoordinator.
type CoordinatorType int8

// Coordinator kinds (FindCoordinator key_type).
const (
	CoordinatorGroup       CoordinatorType = 0
	CoordinatorTransaction CoordinatorType = 1
	CoordinatorShare       CoordinatorType = 2
)

// Certainty says what is known about whether a request (or a record in it)
// reached a broker.
type Certainty uint8

const (
	// NotSent: no byte of the request can have reached a broker.
	NotSent Certainty = iota + 1
	// PossiblySent: bytes may have left; only the broker knows.
	PossiblySent
)

// String returns "not_sent" or "possibly_sent".
func (c Certainty) String() string {
	switch c {
	case NotSent:
		return "not_sent"
	case PossiblySent:
		return "possibly_sent"
	}
	return "unknown"
}

// Broker is one broker of the cluster as metadata describes it.
type Broker struct {
	NodeID int32
	Host   string
	Port   int32
	Rack   *string
}

// PartitionMetadata describes one partition. Leader is -1 when the partition
// has no leader; such partitions still count toward the topic's partitions.
type PartitionMetadata struct {
	Partition       int32
	Leader          int32
	LeaderEpoch     int32
	Replicas        []int32
	ISR             []int32
	OfflineReplicas []int32
	Err             error // per-partition error from the broker, or nil
}

// TopicMetadata describes one topic. Partitions are sorted by partition.
type TopicMetadata struct {
	Name       string
	ID         gregor.TopicID
	Internal   bool
	Partitions []PartitionMetadata
	Err        error // per-topic error (e.g. wire.ErrUnknownTopicOrPartition), or nil
}

// Metadata is an immutable snapshot of cluster metadata.
type Metadata struct {
	ClusterID    *string
	ControllerID int32
	Brokers      []Broker // sorted by NodeID
	Topics       map[string]*TopicMetadata
	Fetched      time.Time

	allTopics bool // Topics holds every topic of the cluster
}

// Pending is a request that has been queued on a connection. Requests
// queued to the same broker by one goroutine are written in call order.
type Pending interface {
	// Done is closed when the response (or failure) is available.
	Done() <-chan struct{}
	// Result returns the response or the failure; it waits for Done.
	Result() (wire.Response, error)
	// Version returns the negotiated API version used for the request.
	Version() int16
}

// The methods below are the contract; their implementations live in the
// other files of this package.
var _ interface {
	// Ready connects to a bootstrap broker, negotiates versions, authenticates,
	// loads metadata and checks ExpectedClusterID, all within ctx.
	Ready(ctx context.Context) error
	// Request sends req to broker (a node ID, or AnyBroker) at the highest
	// version both sides support and waits for the response within ctx.
	// Failures are *RequestError values carrying a Certainty.
	Request(ctx context.Context, broker int32, req wire.Request) (wire.Response, error)
	// RequestVersion is Request pinned to version v (tests of every version).
	RequestVersion(ctx context.Context, broker int32, req wire.Request, v int16) (wire.Response, error)
	// Enqueue queues req on broker's connection and returns without waiting
	// for the response; calls from one goroutine to one broker are written in
	// call order (the producer relies on it for sequence order).
	Enqueue(ctx context.Context, broker int32, req wire.Request) (Pending, error)
	// StartCall is Enqueue for one waiter that hands the call back (Call:
	// Wait, then Release), so steady calls allocate no handle.
	StartCall(ctx context.Context, broker int32, req wire.Request) (Call, error)
	// RequestController sends req to the active controller as metadata names it.
	RequestController(ctx context.Context, req wire.Request) (wire.Response, error)
	// Metadata returns metadata that includes the given topics (nil: all
	// topics), refreshing when the cache lacks them, is stale or was
	// invalidated. Concurrent refreshes are coalesced.
	Metadata(ctx context.Context, topics []string) (*Metadata, error)
	// CachedMetadata returns the latest snapshot without any I/O (may be nil).
	CachedMetadata() *Metadata
	// InvalidateMetadata marks the cached metadata stale so the next Metadata
	// call refreshes it (used on NOT_LEADER_OR_FOLLOWER and friends).
	InvalidateMetadata()
	// Leader returns the leader node ID and leader epoch of a partition,
	// from cached metadata when fresh.
	Leader(ctx context.Context, topic string, partition int32) (leader int32, epoch int32, err error)
	// Coordinator finds (FindCoordinator v4+, cached) the coordinator node for key.
	Coordinator(ctx context.Context, kind CoordinatorType, key string) (int32, error)
	// InvalidateCoordinator forgets a cached coordinator (NOT_COORDINATOR,
	// COORDINATOR_NOT_AVAILABLE).
	InvalidateCoordinator(kind CoordinatorType, key string)
	// BrokerVersions returns the API version ranges a broker advertised
	// (connecting first when needed).
	BrokerVersions(ctx context.Context, broker int32) (map[wire.APIKey][2]int16, error)
	// Metrics returns a snapshot of the client's counters and gauges,
	// including every registered metrics source (the producer's gauges).
	Metrics() MetricsSnapshot
	// RegisterProducerMetrics adds a source of producer metrics to the
	// snapshot; the returned function removes it.
	RegisterProducerMetrics(src func(*ProducerMetrics)) (unregister func())
	// Close stops background work, fails outstanding requests with ErrClosed
	// and closes every connection. Safe to call twice.
	Close(ctx context.Context) error
} = (*Client)(nil)
