// Package gregor is the root of gregor, an Apache Kafka client written from
// scratch in Go. This package holds no code: the client lives in the
// packages below it, and the example of this package shows them together
// (create a topic, produce, consume, close).
//
// Packages (imports point down only):
//
//   - client: connections (TCP, TLS, SASL PLAIN and SCRAM), API version
//     negotiation, metadata, request routing. Create one *client.Client with
//     client.New and share it; every other package builds on it.
//   - producer: the idempotent acks=all producer (KIP-98) with batching,
//     linger, Java-compatible key partitioning and a per-record Delivery
//     that reaches exactly one terminal outcome.
//   - consumer: the directly assigned consumer (explicit topic-partitions,
//     Fetch sessions, leader epochs). Group and share consumers are planned.
//   - admin: topics, partitions, offsets, records, configs, cluster and
//     consumer-group administration.
//   - txn: the transactional producer (planned; not implemented yet).
//   - wire: the Kafka protocol codecs (no I/O); most users never import it
//     directly except for its error values (wire.ErrUnknownTopicOrPartition
//     and friends, matched with errors.Is) and record types (wire.Header).
//   - properties: client, producer and consumer configs from Java-style
//     client properties (bootstrap.servers, linger.ms, sasl.jaas.config, ...).
//   - cmd/gregor: the command-line tool (produce, consume, topic, group,
//     cluster); examples/: small programs, run against a real broker by the
//     tests.
//   - kafkatest: starts a real Kafka cluster (single node, or a controller
//     and three brokers) from Maven jars for your own tests, no Docker.
//   - adapter: the JSON Lines control protocol that the testlab conformance
//     harness drives (cmd/gregor-adapter); not needed to use the library.
//
// Closing: producer.Close and consumer.Close do not close the client, so
// close them first and the client last.
//
// The module is not published: use a replace directive or a go.work file
// pointing at a checkout. See README.md at the repository root for how to
// build, run the test bed (make run, make test) and point tests at a cluster.
package gregor
