// Package kafkatest is gregor's test bed: it obtains Apache Kafka 4.4.0 jars
// from Maven Central with the pom.xml kept beside it, formats KRaft storage and
// starts real broker and controller JVMs on 127.0.0.1, as a single combined
// node or as one controller with three brokers, with PLAINTEXT, SASL_PLAINTEXT,
// SSL and SASL_SSL listeners. Tests use Shared for the cluster `make test`
// starts, or Start for a cluster of their own.
package kafkatest
