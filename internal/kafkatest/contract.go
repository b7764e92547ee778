package kafkatest

// This file fixes the public contract of the test bed so that every other
// package's integration tests can be written against it in parallel.

import (
	"context"
	"testing"
	"time"
)

// EnvState names the environment variable that points tests at a running
// cluster: the path of the JSON state file written by `kafka-local up`
// (make test exports it for the whole run).
const EnvState = "GREGOR_KAFKA_STATE"

// Shape selects a cluster layout.
type Shape string

const (
	// SingleNode is one combined broker+controller JVM (node 1). Default.
	SingleNode Shape = "single"
	// ThreeBrokers is one dedicated controller (node 100) and brokers 1, 2, 3.
	ThreeBrokers Shape = "1+3"
)

// Listener names a client-facing listener of every broker.
type Listener string

const (
	// Plaintext is the unauthenticated, unencrypted listener; clients connect
	// as ANONYMOUS, a super user.
	Plaintext Listener = "PLAINTEXT"
	// SASLPlaintext authenticates with SASL (PLAIN or SCRAM-SHA-256/512) over
	// an unencrypted connection.
	SASLPlaintext Listener = "SASL_PLAINTEXT"
	// SSL is TLS without client authentication; the broker presents a
	// certificate of the cluster's CA (Cluster.CAFile) and clients connect as
	// ANONYMOUS, a super user.
	SSL Listener = "SSL"
	// SASLSSL authenticates with SASL (PLAIN or SCRAM-SHA-256/512) over TLS
	// that trusts the cluster's CA (Cluster.CAFile).
	SASLSSL Listener = "SASL_SSL"
	// Proxied is a PLAINTEXT listener meant to be reached through a fault
	// proxy (testlab/faultproxy): the broker binds ProxyBackend(id) but
	// advertises ProxyFront(id), where nothing listens until a proxy does, so
	// a client bootstrapped through the proxy stays behind it for every
	// broker. Bootstrap(Proxied) and BrokerAddr(id, Proxied) return the front
	// addresses. Inter-broker traffic uses Plaintext and never passes the proxy.
	Proxied Listener = "PROXIED"
	// OAuth authenticates with SASL OAUTHBEARER only (KIP-255), over an
	// unencrypted connection (security protocol SASL_PLAINTEXT). TEST ONLY:
	// the broker validates tokens with Kafka's unsecured JWS validator
	// (OAuthBearerUnsecuredValidatorCallbackHandler), which accepts any
	// unsigned ("alg":"none") JWS whose "sub" claim names the principal
	// and whose "exp" is in the future; see UnsecuredJWS. Never use that
	// validator outside tests.
	OAuth Listener = "OAUTH"
	// MTLS is TLS with ssl.client.auth=required (security protocol SSL):
	// the client must present a certificate signed by the cluster's CA
	// (Cluster.ClientCert gives one per test user) and its principal is the
	// certificate's CN (User:alice for alice's certificate; User:admin is
	// a super user).
	MTLS Listener = "MTLS"
)

// Protocol is the listener's security.protocol.
func (l Listener) Protocol() string {
	switch l {
	case OAuth:
		return string(SASLPlaintext)
	case MTLS:
		return string(SSL)
	case Proxied:
		return string(Plaintext)
	}
	return string(l)
}

// Credentials of the users the test bed creates at format time. "admin" is a
// super user; "alice" has no ACLs until a test grants them. Both exist for
// PLAIN (JAAS) and SCRAM-SHA-256/512 (metadata log).
const (
	AdminUser     = "admin"
	AdminPassword = "admin-secret"
	AliceUser     = "alice"
	AlicePassword = "alice-secret"
)

// Options configure Start.
type Options struct {
	Shape Shape
	// Dir is the parent of the cluster's temporary directory (default os.TempDir()).
	Dir string
	// Log receives progress lines (nil: discard).
	Log func(format string, args ...any)
	// BrokerConfig adds or overrides broker properties (server.properties
	// keys, e.g. "connections.max.reauth.ms"), applied after the test
	// bed's own settings.
	BrokerConfig map[string]string
	// TelemetryReporter configures every broker with the test bed's client
	// telemetry receiver (KIP-714; TelemetryReporterClass, compiled with
	// javac and cached), which records each push in TelemetryLog.
	TelemetryReporter bool
	// Version is the Kafka release to run (one of SupportedVersions; its
	// jars are downloaded when not cached); "" is Version(), i.e.
	// $KAFKA_VERSION or KafkaVersion.
	Version string
	// Racks gives each broker a broker.rack (Rack: rack-a, rack-b, rack-c
	// for brokers 1-3) and replica.selector.class RackAwareReplicaSelector,
	// so a consumer with client.rack is told to fetch from the replica in
	// its rack (KIP-392). See racks.go.
	Racks bool
	// StartTimeout bounds the wait for the nodes to be ready, at Start and
	// at each RestartBroker (default 120s; a loaded machine may need more).
	StartTimeout time.Duration
}

// The methods below are the contract of *Cluster.
var _ interface {
	// Bootstrap returns "127.0.0.1:port" of every live broker on listener l.
	Bootstrap(l Listener) []string
	// CAFile is the path of the PEM file holding the self-signed CA (and
	// leaf) certificate the SSL listeners present; CAPEM is its content.
	CAFile() string
	CAPEM() []byte
	// ClusterID is the KRaft cluster ID the cluster was formatted with.
	ClusterID() string
	// BrokerIDs lists the broker node IDs (1 for SingleNode; 1,2,3 for ThreeBrokers).
	BrokerIDs() []int32
	// StopBroker sends SIGTERM and waits (bounded) for exit; KillBroker sends
	// SIGKILL; RestartBroker starts a stopped broker with the same config and
	// waits until it answers a Metadata request as registered.
	StopBroker(ctx context.Context, id int32) error
	KillBroker(ctx context.Context, id int32) error
	RestartBroker(ctx context.Context, id int32) error
	// RunTool runs one of Kafka's CLI main classes (e.g.
	// "org.apache.kafka.tools.ConfigCommand") with args and returns its
	// combined output; "--bootstrap-server" is the caller's to pass.
	RunTool(ctx context.Context, mainClass string, args ...string) (string, error)
	// Close stops brokers then the controller (TERM, then bounded KILL of
	// its own process groups) and removes the cluster's directory.
	Close() error

	// Additions (implemented in cluster.go, config.go, tools.go, state.go):
	// Metadata sends a raw ApiVersions+Metadata to broker id (independent of
	// gregor's client) and returns the live brokers and cluster ID.
	Metadata(ctx context.Context, id int32) (*ClusterMetadata, error)
	// PauseBroker/ResumeBroker SIGSTOP/SIGCONT a broker (requests stay in flight).
	PauseBroker(ctx context.Context, id int32) error
	ResumeBroker(ctx context.Context, id int32) error
	// BrokerAddr is broker id's address on l; ControllerAddr the controller listener.
	BrokerAddr(id int32, l Listener) string
	ControllerAddr() string
	Shape() Shape
	Dir() string
	// ClientProperties / WriteClientProperties: Java client settings for a
	// listener and SASL mechanism/user (for --command-config).
	ClientProperties(l Listener, mechanism, user, password string) map[string]string
	WriteClientProperties(l Listener, mechanism, user, password string) (string, error)
	// Features: FeatureCommand describe (finalized levels as strings).
	Features(ctx context.Context) (map[string]string, error)
	// CreateTopic with TopicCommand (rf <= 0: cluster default).
	CreateTopic(ctx context.Context, topic string, partitions, rf int, configs ...string) error
	// State / WriteState: the JSON state document kafka-local writes.
	State() State
	WriteState(path string) error
} = (*Cluster)(nil)

// Package-level additions: UniqueName(t, prefix) for per-test names;
// Attach(path) for a cluster described by a state file; StartDetached and
// StopState for kafka-local; EnsureJars/JarDir for the Maven jar cache;
// Probe(ctx, addr) for a raw readiness round trip.
var (
	_ func(testing.TB, string) string                             = UniqueName
	_ func(string) (*Cluster, error)                              = Attach
	_ func(context.Context, Options) (*Cluster, error)            = StartDetached
	_ func(string) error                                          = StopState
	_ func(context.Context, func(string, ...any)) (string, error) = EnsureJars
	_ func(context.Context, string) (*ClusterMetadata, error)     = Probe
)

// Shared returns the cluster named by EnvState, or fails t with a message that
// says what is missing. It never skips. (Implemented in shared.go.)
var _ func(t testing.TB) *Cluster = Shared

// Start formats and starts a new cluster of the given shape and waits until
// every broker is ready. (Implemented in cluster.go.)
var _ func(ctx context.Context, o Options) (*Cluster, error) = Start
