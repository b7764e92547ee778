package client

import (
	"context"
	"errors"
	"fmt"
)

// classified attaches the metrics failure class to an error where the class
// cannot be told from the Err value alone (a connect failure is ErrTransport
// like a reset connection, but counts as Connect).
type classified struct {
	class failClass
	err   error
}

func (e *classified) Error() string { return e.err.Error() }
func (e *classified) Unwrap() error { return e.err }

func withClass(c failClass, err error) error { return &classified{class: c, err: err} }

// classOf returns the failure class an error is counted under.
func classOf(err error) failClass {
	if errors.Is(err, ErrTimeout) {
		return classDeadline
	}
	var ce *classified
	if errors.As(err, &ce) {
		return ce.class
	}
	switch {
	case errors.Is(err, ErrDNS):
		return classDNS
	case errors.Is(err, ErrAuthentication):
		return classAuthentication
	case errors.Is(err, ErrUnsupportedVersion), errors.Is(err, ErrClusterIdentity):
		return classNegotiation
	case errors.Is(err, ErrTransport), errors.Is(err, ErrProtocol):
		return classTransport
	case errors.Is(err, ErrBackpressure), errors.Is(err, ErrClosed):
		return classRejected
	case errors.Is(err, ErrUnknownBroker):
		return classUnknownBroker
	}
	return classNone
}

// ctxError maps a context error to ErrTimeout or ErrCancelled, keeping the
// context error in the chain so errors.Is(err, context.DeadlineExceeded)
// holds too.
func ctxError(err error) error {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%w: %w", ErrTimeout, err)
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("%w: %w", ErrCancelled, err)
	case err == nil:
		return nil
	}
	return err
}

// reqErr builds the *RequestError for one request.
func reqErr(broker int32, api string, c Certainty, err error) *RequestError {
	return &RequestError{Broker: broker, API: api, Certainty: c, Err: err}
}
