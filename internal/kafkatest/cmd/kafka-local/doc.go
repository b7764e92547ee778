// Command kafka-local starts, stops and describes a local Apache Kafka 4.4.0
// cluster for gregor's tests:
//
//	go run ./internal/kafkatest/cmd/kafka-local up     [-state F] [-shape single|1+3] [-dir D]
//	go run ./internal/kafkatest/cmd/kafka-local down   [-state F]
//	go run ./internal/kafkatest/cmd/kafka-local status [-state F]
//
// up starts the cluster detached (its JVMs outlive this command), writes the
// JSON state file (default <repo>/.kafka/state.json) that kafkatest.Shared
// reads through GREGOR_KAFKA_STATE, and prints the bootstrap addresses,
// start-up time and feature levels. down stops the cluster the state file
// names and removes it. status prints the state and whether each node is
// alive; it exits 1 when the cluster is not running.
package main
