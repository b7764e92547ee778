// Package kafkatest starts a real Apache Kafka cluster for your tests,
// without Docker or a preinstalled Kafka.
//
// # Quick start
//
//	func TestMyApp(t *testing.T) {
//		c := kafkatest.StartForTest(t, kafkatest.Options{}) // fails t, never skips; Close on t.Cleanup
//		cfg, err := c.ClientConfig(kafkatest.Plaintext, "", "", "")
//		// ... handle err
//		cl, err := client.New(cfg) // then your code against a real broker
//		// ...
//	}
//
// The Kafka 4.4.0 jars come from Maven Central and the brokers run as
// local JVMs on 127.0.0.1 (KRaft mode, no ZooKeeper). It is the test bed
// gregor's own tests run against.
//
// # Requirements
//
// A JDK 17 or newer (java on PATH, or JAVA_HOME) and, on the first run
// only, Maven (mvn) with access to Maven Central. The jars (about 44 MB)
// are downloaded once into
//
//	${XDG_CACHE_HOME:-$HOME/.cache}/gregor/kafka-<hash of the pom>/lib
//
// (GREGOR_KAFKA_CACHE overrides the parent directory; JarDir names it) and
// reused by every later run.
//
// # Shapes
//
//   - SingleNode (the default): one JVM that is both controller and broker,
//     node ID 1. Topics default to 1 partition, replication factor 1,
//     min.insync.replicas 1. It starts in about 15-30s on a small machine.
//   - ThreeBrokers: one dedicated controller (node 100) and brokers 1, 2
//     and 3. Topics default to replication factor 3 and
//     min.insync.replicas 2, so one broker may be stopped or killed
//     (StopBroker, KillBroker) and started again (RestartBroker) while
//     acks=all writes go on; the controller fences a killed broker after
//     4s (broker.session.timeout.ms).
//
// Every broker listens on free loopback ports, one per listener: Plaintext,
// SASLPlaintext, SSL, SASLSSL and MTLS (Bootstrap gives the addresses). TLS
// listeners present a certificate of a CA generated for the cluster
// (CAFile); SASL listeners accept PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 for
// the users AdminUser (a super user) and AliceUser (no ACLs until a test
// grants them). Plaintext and SSL clients are ANONYMOUS, a super user.
// auto.create.topics.enable is false: create topics before producing to
// them. Options.BrokerConfig overrides any broker setting.
//
// # Lifetime
//
// Start returns once every broker answers a Metadata request that lists
// all brokers; Close stops the brokers, then the controller, and deletes
// the cluster's directory (under Options.Dir, default os.TempDir()).
// The JVMs are killed if the process that started them dies, so an
// interrupted test leaves no broker behind. StartForTest registers Close
// with t.Cleanup. Each call starts a new cluster: share one between the
// tests of a package (from TestMain, say) when start-up time matters.
//
// # Errors
//
// Start's errors say what is missing and carry the tail of the failing
// node's log; errors.Is classifies them: ErrNoJDK, ErrNoJars, ErrStartup.
// The broker calls report ErrUnknownBroker and ErrBrokerRunning.
package kafkatest
