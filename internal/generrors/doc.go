// Package generrors writes the root package's errors_kafka.go: one
// re-exported variable per *wire.KafkaError value that wire/error_codes.go
// declares, with its doc comment, so users match Kafka errors without
// importing wire. cmd/generrors runs it; the root package's test checks
// that the file is current.
package generrors
