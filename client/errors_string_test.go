package client

import (
	"errors"
	"testing"
)

// A request routed by the client itself (AnyBroker) reads "to any broker",
// not "to broker -1".
func TestRequestErrorNamesAnyBroker(t *testing.T) {
	cause := errors.New("boom")
	if got, want := (&RequestError{Broker: AnyBroker, API: "FindCoordinator", Certainty: NotSent, Err: cause}).Error(),
		"FindCoordinator to any broker (not_sent): boom"; got != want {
		t.Errorf("AnyBroker: %q, want %q", got, want)
	}
	if got, want := (&RequestError{Broker: 2, API: "Produce", Certainty: NotSent, Err: cause}).Error(),
		"Produce to broker 2 (not_sent): boom"; got != want {
		t.Errorf("broker 2: %q, want %q", got, want)
	}
}
