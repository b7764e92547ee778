package kafkatest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	ik "github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/properties"
)

// KafkaVersion is the Apache Kafka release the cluster runs by default;
// the environment variable KAFKA_VERSION (e.g. 3.9.2) selects another.
const KafkaVersion = "4.4.0"

// EnvCacheDir names the environment variable that overrides the parent
// directory of the jar cache (default ${XDG_CACHE_HOME:-$HOME/.cache}/gregor).
const EnvCacheDir = "GREGOR_KAFKA_CACHE"

// Shape selects a cluster layout.
type Shape string

const (
	// SingleNode is one combined controller and broker JVM, node 1. Default.
	SingleNode Shape = "single"
	// ThreeBrokers is one dedicated controller (node 100) and brokers 1, 2, 3.
	ThreeBrokers Shape = "1+3"
)

// Listener names a client-facing listener of every broker.
type Listener string

const (
	// Plaintext: no TLS, no authentication; the client is ANONYMOUS, a super user.
	Plaintext Listener = "PLAINTEXT"
	// SASLPlaintext: SASL (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) without TLS.
	SASLPlaintext Listener = "SASL_PLAINTEXT"
	// SSL: TLS without client authentication (trust CAFile); ANONYMOUS.
	SSL Listener = "SSL"
	// SASLSSL: SASL (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) over TLS.
	SASLSSL Listener = "SASL_SSL"
	// MTLS: TLS with a required client certificate (ClientCertFile); the
	// principal is the certificate's common name (User:admin, User:alice).
	MTLS Listener = "MTLS"
)

// The users every cluster has, for PLAIN and SCRAM. AdminUser is a super
// user; AliceUser has no ACLs until a test grants them.
const (
	AdminUser     = "admin"
	AdminPassword = "admin-secret"
	AliceUser     = "alice"
	AlicePassword = "alice-secret"
)

// Errors, for errors.Is.
var (
	// ErrNoJDK: no java on PATH or in JAVA_HOME, or one older than 17.
	ErrNoJDK = ik.ErrNoJDK
	// ErrNoJars: the jars are not cached and Maven is missing, or the
	// download from Maven Central failed.
	ErrNoJars = ik.ErrNoJars
	// ErrStartup: a node exited while starting (its log tail is in the
	// message), or the brokers were not ready before ctx ended.
	ErrStartup = ik.ErrStartup
	// ErrUnknownBroker: no broker has the node ID given.
	ErrUnknownBroker = ik.ErrUnknownBroker
	// ErrBrokerRunning: RestartBroker of a broker that is running.
	ErrBrokerRunning = ik.ErrBrokerRunning
)

// Options configure Start. The zero value starts a SingleNode cluster.
type Options struct {
	// Shape is the layout (default SingleNode).
	Shape Shape
	// Dir is the parent of the cluster's own temporary directory (default
	// os.TempDir()).
	Dir string
	// Log receives progress lines (jar download, start-up, restarts); nil
	// discards them. StartForTest defaults it to t.Logf.
	Log func(format string, args ...any)
	// BrokerConfig adds or overrides broker settings (server.properties
	// keys such as "log.retention.ms"), applied after the defaults the
	// package doc lists.
	BrokerConfig map[string]string
	// Racks puts broker i in rack "rack-a", "rack-b", "rack-c", ...
	// (broker.rack, see BrokerRack) and sets replica.selector.class to
	// RackAwareReplicaSelector, so that consumers with a rack
	// (consumer.Config.Rack) fetch from the replica in their rack (KIP-392)
	// and the rack-aware producer and assignors have racks to work with.
	Racks bool
}

// Cluster is a running Kafka cluster. Its methods are safe for concurrent
// use.
type Cluster struct {
	c         *ik.Cluster
	closeOnce sync.Once
	closeErr  error // set once by closeOnce
}

// Start downloads the jars if they are not cached, starts a cluster of
// o.Shape and waits until every broker is ready, within ctx (the first run's
// download can take minutes; a start takes 15-30s). The caller must Close
// the cluster. Errors: ErrNoJDK, ErrNoJars, ErrStartup, ctx's error.
func Start(ctx context.Context, o Options) (*Cluster, error) {
	if o.Shape != SingleNode && o.Shape != ThreeBrokers && o.Shape != "" {
		return nil, fmt.Errorf("kafkatest: unknown shape %q (want %q or %q)", o.Shape, SingleNode, ThreeBrokers)
	}
	c, err := ik.Start(ctx, ik.Options{Shape: ik.Shape(o.Shape), Dir: o.Dir, Log: o.Log, BrokerConfig: o.BrokerConfig, Racks: o.Racks})
	if err != nil {
		return nil, err
	}
	return &Cluster{c: c}, nil
}

// StartForTest starts a cluster for t, bounded by 10 minutes or t's
// deadline, and closes it when t and its subtests finish. If the cluster
// cannot start it fails t with the reason (t.Fatal): it never skips. Progress
// lines go to t.Logf unless o.Log is set.
func StartForTest(t testing.TB, o Options) *Cluster {
	t.Helper()
	if o.Log == nil {
		o.Log = t.Logf
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	c, err := Start(ctx, o)
	if err != nil {
		t.Fatalf("kafkatest: cannot start Kafka %s (%s): %v", ik.Version(), shapeOr(o.Shape), err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("kafkatest: close: %v", err)
		}
	})
	return c
}

func shapeOr(s Shape) Shape {
	if s == "" {
		return SingleNode
	}
	return s
}

// Shape returns the cluster's layout.
func (c *Cluster) Shape() Shape { return Shape(c.c.Shape()) }

// Bootstrap returns "127.0.0.1:port" of every running broker on listener l,
// in node ID order (a stopped or killed broker is left out).
func (c *Cluster) Bootstrap(l Listener) []string { return c.c.Bootstrap(ik.Listener(l)) }

// BrokerAddr returns broker id's "127.0.0.1:port" on listener l, running or
// not, or "" when there is no such broker.
func (c *Cluster) BrokerAddr(id int32, l Listener) string { return c.c.BrokerAddr(id, ik.Listener(l)) }

// BrokerIDs lists the broker node IDs in ascending order: [1] or [1 2 3].
func (c *Cluster) BrokerIDs() []int32 { return c.c.BrokerIDs() }

// BrokerRack returns broker id's broker.rack: "rack-a" for broker 1,
// "rack-b" for 2, ... with Options.Racks, "" otherwise.
func (c *Cluster) BrokerRack(id int32) string { return c.c.BrokerRack(id) }

// ClusterID is the KRaft cluster ID the cluster was formatted with.
func (c *Cluster) ClusterID() string { return c.c.ClusterID() }

// CAFile is the path of the PEM certificate of the cluster's CA, which the
// TLS listeners' certificates chain to.
func (c *Cluster) CAFile() string { return c.c.CAFile() }

// ClientCertFile is the path of a PEM file with user's client certificate
// (CN=user, signed by the cluster's CA) and its unencrypted key, for the MTLS
// listener: tls.LoadX509KeyPair(f, f). user is AdminUser or AliceUser.
func (c *Cluster) ClientCertFile(user string) string { return c.c.ClientCertFile(user) }

// ClientProperties returns Java client properties that connect to listener
// l: security.protocol, the CA as a PEM trust store, and for SASL listeners
// sasl.mechanism ("PLAIN", "SCRAM-SHA-256" or "SCRAM-SHA-512") and
// sasl.jaas.config with user and password (ignored for other listeners; for
// MTLS, user picks the client certificate), and bootstrap.servers (the
// running brokers on l). They suit a Java client, a command-line tool's
// --command-config and gregor's package properties.
func (c *Cluster) ClientProperties(l Listener, mechanism, user, password string) map[string]string {
	p := c.c.ClientProperties(ik.Listener(l), mechanism, user, password)
	p["bootstrap.servers"] = strings.Join(c.Bootstrap(l), ",")
	return p
}

// ClientConfig returns a gregor client configuration for listener l
// (bootstrap addresses, TLS, SASL), built from ClientProperties(l,
// mechanism, user, password) with package properties. Errors: a
// *properties.KeyError, for example an unknown SASL mechanism.
func (c *Cluster) ClientConfig(l Listener, mechanism, user, password string) (client.Config, error) {
	return properties.Client(c.ClientProperties(l, mechanism, user, password))
}

// StopBroker stops broker id with SIGTERM (a controlled shutdown), waits up
// to 30s for the JVM to exit, then kills it. Errors: ErrUnknownBroker.
func (c *Cluster) StopBroker(ctx context.Context, id int32) error { return c.c.StopBroker(ctx, id) }

// KillBroker kills broker id with SIGKILL and waits until the JVM has
// exited. Errors: ErrUnknownBroker.
func (c *Cluster) KillBroker(ctx context.Context, id int32) error { return c.c.KillBroker(ctx, id) }

// RestartBroker starts a stopped or killed broker again with the same
// ports, configuration and data, and waits (within ctx, at most 2 minutes)
// until the cluster lists it as live. Errors: ErrUnknownBroker,
// ErrBrokerRunning, ErrStartup.
func (c *Cluster) RestartBroker(ctx context.Context, id int32) error {
	return c.c.RestartBroker(ctx, id)
}

// RunTool runs one of Kafka's command-line tools by its main class (for
// example "org.apache.kafka.tools.TopicCommand" or
// "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand") with args
// in a JVM of its own, and returns its combined stdout and stderr. Pass
// "--bootstrap-server" yourself (Bootstrap(Plaintext)[0]). A non-zero exit
// is an error carrying the output. Each call costs a JVM start (1-2s).
func (c *Cluster) RunTool(ctx context.Context, mainClass string, args ...string) (string, error) {
	return c.c.RunTool(ctx, mainClass, args...)
}

// Close stops every broker (SIGTERM, then SIGKILL after 20s), then the
// controller, and removes the cluster's directory. Safe to call more than
// once.
func (c *Cluster) Close() error {
	c.closeOnce.Do(func() { c.closeErr = c.c.Close() })
	return c.closeErr
}

// JarDir returns the directory that holds (or will hold, after the first
// Start) the Kafka jars.
func JarDir() (string, error) { return ik.JarDir() }
