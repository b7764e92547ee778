// Package gregor is the root of gregor, an Apache Kafka client written from
// scratch in Go, and its shared vocabulary.
//
// # Quick start
//
// Write a record and read it back (the package Example has the whole
// program, README.md a group consumer and a transaction):
//
//	cl, err := client.New(client.Config{Bootstrap: []string{"127.0.0.1:9092"}})
//	// ... handle err; defer cl.Close(ctx): last, after the producer's and consumer's Close
//	p, err := producer.New(cl, producer.Config{})
//	r, err := p.Produce(ctx, producer.Record{Topic: "greetings", Value: []byte("hello")})
//	c, err := consumer.New(cl, consumer.Config{})
//	tp := gregor.TopicPartition{Topic: r.Topic, Partition: r.Partition}
//	err = c.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtBeginning()}})
//	recs, err := c.Receive(ctx)
//
// # Vocabulary
//
// The names every other package uses, so that a program sets headers,
// picks a compression codec, matches Kafka errors and asks what a failure
// means without importing wire:
//
//   - TopicPartition: one partition of a topic (producer, consumer, admin,
//     txn all use it).
//   - Header and Compression (CompressionNone ... CompressionZstd): aliases
//     of wire's types, so values pass either way.
//   - KafkaError and one Err* value per Kafka error code (ErrNotLeaderOrFollower,
//     ErrTopicAlreadyExists, ...): the same pointers as wire's, so errors.Is
//     matches either (errors_kafka.go is generated from wire/error_codes.go:
//     go generate .).
//   - IsRetriable(err): a Kafka error in err's chain that a retry can cure;
//     false on a terminal error (every failed record's).
//   - MayHaveBeenWritten(err): whether a failed record may have been written
//     anyway (false for nil; the error's own answer when it carries one,
//     such as *producer.RecordError; else true unless a Kafka error proves
//     nothing was appended).
//   - ErrUnsupportedFeature and *UnsupportedFeatureError: the cluster lacks
//     what an operation needs (an API not in ApiVersions, KIP-848 or share
//     groups, transactions v2 on an older cluster); the error names the
//     feature, what the broker offers and the way out, and comes at once,
//     never after retries.
//
// This package imports only wire and the standard library. The client lives
// in the packages below it, and the example of this package shows them
// together (create a topic, produce, consume, close).
//
// # Packages
//
// Imports point down only:
//
//   - client: connections (TCP, TLS and mutual TLS, SASL PLAIN, SCRAM and
//     OAUTHBEARER), API version negotiation, metadata, request routing. Create one *client.Client with
//     client.New and share it; every other package builds on it.
//   - producer: the idempotent acks=all producer (KIP-98) with batching,
//     linger, Java-compatible key partitioning and a per-record Delivery
//     that reaches exactly one terminal outcome.
//   - consumer: the directly assigned consumer (explicit topic-partitions,
//     Fetch sessions, leader epochs) and the group consumer (NewGroup: the
//     KIP-848 consumer protocol, or the classic protocol with Java's
//     assignors in consumer/assign); consumer/share is the share-group
//     consumer (KIP-932).
//   - admin: topics, partitions, offsets, records, configs, cluster and
//     consumer-group administration.
//   - txn: the transactional producer (KIP-98, KIP-447 offsets in a
//     transaction, transactions v2 of KIP-890).
//   - wire: the Kafka protocol codecs (no I/O); users need not import it:
//     the names they need are re-exported here.
//   - properties: client, producer, consumer, group and transactional
//     configs from Java-style client properties (bootstrap.servers,
//     linger.ms, group.id, sasl.jaas.config, ...).
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
