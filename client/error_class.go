package client

import (
	"errors"

	"github.com/gregor-kafka/gregor/wire"
)

// failureRow is the classification of one of the client's own failures
// (the Err values of errors.go), in wire's vocabulary, and why.
type failureRow struct {
	err    error
	class  wire.ErrorClass
	reason string
}

// failureRows extends wire's table of Kafka codes to the failures that
// happen before or around the broker, so that every package's "what now"
// after any failure is one lookup (Classify). A failure with class 0 is
// final (Fatal). ErrProtocol and ErrBackpressure have no row: no rule
// holds for every operation (the client resends a read-only request after
// ErrProtocol, the producer retries both until its delivery timeout).
// Pinned by TestFailureRows.
var failureRows = []failureRow{
	{ErrTransport, wire.ClassRetriable | wire.ClassStaleMetadata, "the connection failed: the broker may be gone or its partitions moved; look it up again and retry"},
	{ErrUnknownBroker, wire.ClassRetriable | wire.ClassStaleMetadata, "the node id is not in metadata: refresh it and retry"},
	{ErrTimeout, wire.ClassRetriable | wire.ClassStaleMetadata, "a request timed out: the broker may be down; refresh and retry while the operation's own deadline allows"},
	{ErrDNS, wire.ClassRetriable, "a broker host name did not resolve: it may resolve later"},
	{ErrClosed, 0, "the client or connection was closed by its owner: nothing more will be sent"},
	{ErrCancelled, 0, "the caller cancelled the operation"},
	{ErrAuthentication, 0, "SASL or TLS refused the credentials: the same credentials are refused again"},
	{ErrUnsupportedVersion, 0, "no API version is common to client and broker"},
	{ErrClusterIdentity, 0, "the cluster is not the one configured (ExpectedClusterID)"},
}

// Classify returns the classes of every failure in err's chain: the Kafka
// code's (wire.Classify) together with those of the client's own failures
// (failureRows). It is the one classifier every package asks what to do
// after a failure; an operation that decides otherwise names its
// exception beside its call (INTERNALS.md §7, "Add a retriable error").
func Classify(err error) wire.ErrorClass {
	if err == nil {
		return 0
	}
	c := wire.Classify(err)
	for _, r := range failureRows {
		if r.class != 0 && errors.Is(err, r.err) {
			c |= r.class
		}
	}
	return c
}

// Fatal reports whether err is a failure no retry can cure: a Kafka code
// without wire.ClassRetriable (wire.Fatal), or one of the client's final
// failures (ErrClosed, ErrCancelled, ErrAuthentication,
// ErrUnsupportedVersion, ErrClusterIdentity).
func Fatal(err error) bool {
	if err == nil {
		return false
	}
	if c, ok := wire.KafkaClass(err); ok {
		return !c.Has(wire.ClassRetriable)
	}
	for _, r := range failureRows {
		if r.class == 0 && errors.Is(err, r.err) {
			return true
		}
	}
	return false
}
