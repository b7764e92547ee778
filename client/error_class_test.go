package client

import (
	"context"
	"fmt"
	"testing"

	"github.com/gregor-kafka/gregor/wire"
)

// TestFailureRows pins the classification of every client failure, bare
// and wrapped as the client wraps it, and that a Kafka code in the chain
// adds its own classes.
func TestFailureRows(t *testing.T) {
	stale := wire.ClassRetriable | wire.ClassStaleMetadata
	cases := []struct {
		err   error
		class wire.ErrorClass
		fatal bool
	}{
		{nil, 0, false},
		{ErrTransport, stale, false},
		{ErrUnknownBroker, stale, false},
		{ErrTimeout, stale, false},
		{ErrDNS, wire.ClassRetriable, false},
		{ErrProtocol, 0, false},
		{ErrBackpressure, 0, false},
		{ErrClosed, 0, true},
		{ErrCancelled, 0, true},
		{ErrAuthentication, 0, true},
		{ErrUnsupportedVersion, 0, true},
		{ErrClusterIdentity, 0, true},
		{errCtxTimeout, stale, false},
		{errCtxCancelled, 0, true},
		{context.Canceled, 0, false},
		{reqErr(3, "Produce", NotSent, fmt.Errorf("%w: write to b:9092: reset", ErrTransport)), stale, false},
		{reqErr(3, "Fetch", NotSent, wire.ErrNotCoordinator), wire.ClassOf(16), false},
		{fmt.Errorf("%w; last failure: %w", errCtxTimeout, wire.ErrTopicAuthorizationFailed), stale | wire.ClassOf(29), true},
	}
	for _, c := range cases {
		if got := Classify(c.err); got != c.class {
			t.Errorf("Classify(%v) = %#x, want %#x", c.err, got, c.class)
		}
		if got := Fatal(c.err); got != c.fatal {
			t.Errorf("Fatal(%v) = %v, want %v", c.err, got, c.fatal)
		}
	}
	for _, r := range failureRows {
		if r.reason == "" || r.class.Has(wire.ClassNotAppended) {
			t.Errorf("row %v: no reason, or a Produce-only class", r.err)
		}
	}
}
