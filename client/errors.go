package client

import (
	"errors"
	"fmt"
)

// Client-side failures. Broker error codes are *wire.KafkaError values;
// these are the failures that happen before or around the broker.
var (
	// ErrClosed: the client (or connection) was closed.
	ErrClosed = errors.New("gregor: client closed")
	// ErrTimeout: the operation's deadline passed.
	ErrTimeout = errors.New("gregor: deadline exceeded")
	// ErrCancelled: the caller's context was cancelled.
	ErrCancelled = errors.New("gregor: cancelled")
	// ErrProtocol: the broker sent bytes that violate the protocol (wrong
	// correlation ID, oversized or malformed frame, undecodable response).
	ErrProtocol = errors.New("gregor: protocol violation")
	// ErrTransport: a connection failed (connect refused, reset, short read).
	ErrTransport = errors.New("gregor: transport failure")
	// ErrDNS: a broker host name did not resolve.
	ErrDNS = errors.New("gregor: name resolution failed")
	// ErrAuthentication: SASL or TLS authentication was refused.
	ErrAuthentication = errors.New("gregor: authentication failed")
	// ErrUnsupportedVersion: no API version is common to client and broker.
	// When the broker lacks the API (or every version gregor speaks), the
	// error is also a *gregor.UnsupportedFeatureError and matches
	// gregor.ErrUnsupportedFeature.
	ErrUnsupportedVersion = errors.New("gregor: no common API version")
	// ErrClusterIdentity: the cluster ID differs from Config.ExpectedClusterID.
	ErrClusterIdentity = errors.New("gregor: unexpected cluster identity")
	// ErrBackpressure: a local bound is reached (in-flight limit, buffer).
	ErrBackpressure = errors.New("gregor: local capacity reached")
	// ErrUnknownBroker: the node ID is not in metadata.
	ErrUnknownBroker = errors.New("gregor: unknown broker")
)

// RequestError is the failure of one request: which broker, which API, what
// is known about delivery, and the cause (one of the Err values above, a
// *wire.KafkaError, or a context error wrapped as ErrTimeout/ErrCancelled).
type RequestError struct {
	Broker    int32
	API       string
	Certainty Certainty
	Err       error
}

// Error describes the failure without any credentials. A request the
// client routed itself (AnyBroker: a bootstrap or any known broker) reads
// "to any broker".
func (e *RequestError) Error() string {
	if e.Broker < 0 {
		return fmt.Sprintf("%s to any broker (%s): %v", e.API, e.Certainty, e.Err)
	}
	return fmt.Sprintf("%s to broker %d (%s): %v", e.API, e.Broker, e.Certainty, e.Err)
}

// Unwrap returns the cause.
func (e *RequestError) Unwrap() error { return e.Err }

// CertaintyOf returns the certainty an error carries (through errors.As on
// an error with a MayHaveBeenWritten() bool method such as
// *producer.RecordError, then one with a Certainty() method, then
// *RequestError), or PossiblySent when it carries none: what cannot be
// proved not sent is possibly sent.
func CertaintyOf(err error) Certainty {
	if w, ok := errorAs[interface{ MayHaveBeenWritten() bool }](err); ok {
		if w.MayHaveBeenWritten() {
			return PossiblySent
		}
		return NotSent
	}
	if c, ok := errorAs[interface{ Certainty() Certainty }](err); ok {
		return c.Certainty()
	}
	if re, ok := errorAs[*RequestError](err); ok && re.Certainty != 0 {
		return re.Certainty
	}
	return PossiblySent
}

// ErrInvalidConfig: New rejected the Config; the wrapping error names the
// field and the reason.
var ErrInvalidConfig = errors.New("gregor: invalid client config")
