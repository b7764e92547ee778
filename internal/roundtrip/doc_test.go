// Package roundtrip pins every version of gregor's core wire codecs against
// the real Kafka 4.4 of the test bed (kafkatest.Shared): each test sends one
// request per version with client.RequestVersion and checks the broker's
// answer. It holds tests only.
package roundtrip
