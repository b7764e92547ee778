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
	if ce, ok := errorAs[*classified](err); ok {
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
	case err == context.DeadlineExceeded:
		return errCtxTimeout
	case err == context.Canceled:
		return errCtxCancelled
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%w: %w", ErrTimeout, err)
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("%w: %w", ErrCancelled, err)
	case err == nil:
		return nil
	}
	return err
}

// errCtxTimeout and errCtxCancelled are ctxError's answers for the context
// package's own errors (what ctx.Err() returns), made once: a cancelled
// request (each in-flight Fetch at a consumer's Close) costs no allocation.
var (
	errCtxTimeout   = fmt.Errorf("%w: %w", ErrTimeout, context.DeadlineExceeded)
	errCtxCancelled = fmt.Errorf("%w: %w", ErrCancelled, context.Canceled)
)

// errorAs is errors.As(err, &t) for a type T without the allocation of the
// target errors.As needs (its pointer escapes): the same depth-first walk
// of Unwrap() error and Unwrap() []error, the first error assignable to T.
// A chain with an error of its own As method is left to errors.As.
func errorAs[T any](err error) (T, bool) {
	t, found, custom := findAs[T](err)
	if custom {
		return errorsAs[T](err)
	}
	return t, found
}

// errorsAs is errors.As into a T of its own (a separate function, so that
// only this path pays for the escaping target).
func errorsAs[T any](err error) (T, bool) {
	var t T
	ok := errors.As(err, &t)
	return t, ok
}

// findAs walks err's tree for errorAs; custom reports an error with an As
// method met before any match.
func findAs[T any](err error) (t T, found, custom bool) {
	if err == nil {
		return t, false, false
	}
	if x, ok := err.(T); ok {
		return x, true, false
	}
	if _, ok := err.(interface{ As(any) bool }); ok {
		return t, false, true
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return findAs[T](u.Unwrap())
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if t, found, custom = findAs[T](e); found || custom {
				return t, found, custom
			}
		}
	}
	return t, false, false
}

// reqErr builds the *RequestError for one request.
func reqErr(broker int32, api string, c Certainty, err error) *RequestError {
	return &RequestError{Broker: broker, API: api, Certainty: c, Err: err}
}
