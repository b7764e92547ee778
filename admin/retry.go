package admin

import (
	"context"
	"errors"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// The admin calls decide "retry or answer" through the one classifier
// (client.Classify for a whole request, wire.Retriable for a resource's
// code). The exceptions below are the answers that a retry cannot change
// although Kafka marks their codes retriable: each says which and why.

// transient reports whether a whole-request failure may be retried: the
// context is still live and the classifier calls the failure retriable
// (client.Classify: a transport failure, a per-request timeout, an unknown
// broker, a name that did not resolve, or a retriable Kafka code). When the
// request is not idempotent, only failures certain not to have reached the
// broker qualify.
func transient(ctx context.Context, err error, idempotent bool) bool {
	if ctx.Err() != nil || errors.Is(err, client.ErrClosed) || errors.Is(err, client.ErrCancelled) {
		return false
	}
	if !idempotent && client.CertaintyOf(err) != client.NotSent {
		return false
	}
	return client.Classify(err).Has(wire.ClassRetriable)
}

// retriableResource reports whether a resource's error is worth a retry:
// a retriable code (wire.Retriable) except an unknown topic or partition,
// which for a describe or alter call is the answer (the topic does not
// exist), not stale metadata.
func retriableResource(err error) bool { return wire.Retriable(err) && !isUnknownTopic(err) }

// retriableAnswer reports whether a controller's per-resource error is
// worth a retry: retriableResource, and not another final answer about the
// resource (an election that is not needed or has no eligible replica, a
// timeout the request set itself).
func retriableAnswer(err error) bool {
	return retriableResource(err) && !errors.Is(err, wire.ErrElectionNotNeeded) &&
		!errors.Is(err, wire.ErrPreferredLeaderNotAvailable) && !errors.Is(err, wire.ErrEligibleLeadersNotAvailable) &&
		!errors.Is(err, wire.ErrRequestTimedOut)
}
