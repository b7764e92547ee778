package txn

import (
	"context"
	"errors"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// coordCall sends req to the coordinator of kind for key and returns the
// response, or the error code errOf extracts from it. It retries, with
// backoff until ctx ends: failed coordinator lookups and sends that wrote
// nothing; NOT_COORDINATOR and COORDINATOR_NOT_AVAILABLE (after forgetting
// the coordinator); and every other retriable code (CONCURRENT_TRANSACTIONS,
// COORDINATOR_LOAD_IN_PROGRESS, ...). A failure after the request may have
// reached the broker is retried only when idempotent is set; otherwise it is
// returned (certainty PossiblySent: the caller must treat the outcome as
// unknown).
func (t *Producer) coordCall(ctx context.Context, kind client.CoordinatorType, key string, req wire.Request,
	errOf func(wire.Response) error, idempotent bool) (wire.Response, error) {
	return t.coordCallTracked(ctx, kind, key, req, errOf, idempotent, nil)
}

// coordCallTracked is coordCall that also sets *reached (when not nil) once
// an attempt may have taken effect at the coordinator: its answer was lost
// after it may have been sent, or the answer was NOT_COORDINATOR or
// COORDINATOR_NOT_AVAILABLE, which a coordinator also gives when it lost
// its partition, or failed to replicate, after appending the request's
// transition to its log.
func (t *Producer) coordCallTracked(ctx context.Context, kind client.CoordinatorType, key string, req wire.Request,
	errOf func(wire.Response) error, idempotent bool, reached *bool) (wire.Response, error) {
	var last error
	for try := 0; ; try++ {
		if try > 0 {
			if err := t.backoff(ctx, try); err != nil {
				return nil, lastOr(last, ctxErr(ctx))
			}
		}
		id, err := t.cl.Coordinator(ctx, kind, key)
		if err != nil {
			if wire.Fatal(err) || errors.Is(err, client.ErrClosed) {
				return nil, err // a closed client never comes back
			}
			if ctx.Err() != nil {
				return nil, lastOr(last, err)
			}
			last = err
			continue
		}
		resp, err := t.cl.Request(ctx, id, req)
		if err != nil {
			if errors.Is(err, client.ErrUnsupportedVersion) {
				return nil, join(ErrUnsupported, err)
			}
			if reached != nil && client.CertaintyOf(err) == client.PossiblySent {
				*reached = true
			}
			if ctx.Err() != nil || errors.Is(err, client.ErrClosed) || (!idempotent && client.CertaintyOf(err) == client.PossiblySent) {
				return nil, err
			}
			t.cl.InvalidateCoordinator(kind, key)
			last = err
			continue
		}
		kerr := errOf(resp)
		if kerr == nil {
			return resp, nil
		}
		if client.StaleCoordinator(kerr) {
			t.cl.InvalidateCoordinator(kind, key)
			if reached != nil {
				*reached = true
			}
		}
		if wire.Retriable(kerr) {
			last = kerr
			continue
		}
		return resp, kerr
	}
}

// lastOr is the error of a coordinator call whose ctx ended (err) after
// retrying last (nil: nothing was tried).
func lastOr(last, err error) error { return &gaveUp{err: err, last: last} }

// gaveUp is a coordinator call that ran out of time while retrying. Its
// certainty is that of its last attempt (a definite broker answer, or a
// failure that wrote nothing, is NotSent: coordCall returns at once any
// failure of a non-idempotent request that may have been written).
type gaveUp struct{ err, last error }

func (e *gaveUp) Error() string {
	if e.last == nil {
		return e.err.Error()
	}
	return e.err.Error() + " (last attempt: " + e.last.Error() + ")"
}

func (e *gaveUp) Unwrap() []error {
	if e.last == nil {
		return []error{e.err}
	}
	return []error{e.err, e.last}
}

// Certainty implements the client's certainty contract (client.CertaintyOf).
func (e *gaveUp) Certainty() client.Certainty {
	var ke *wire.KafkaError
	if e.last == nil || errors.As(e.last, &ke) {
		return client.NotSent // nothing sent, or a definite (retriable) refusal
	}
	return client.CertaintyOf(e.last)
}

// backoff waits before retry number try: RetryBackoff, doubling up to 1s.
func (t *Producer) backoff(ctx context.Context, try int) error {
	d := t.cfg.RetryBackoff << min(try-1, 6)
	d = min(d, time.Second)
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// The error code extractors of the coordinator responses.

func initPIDErr(r wire.Response) error {
	return wire.ErrorForCode(r.(*wire.InitProducerIdResponse).ErrorCode)
}

func endTxnErr(r wire.Response) error { return wire.ErrorForCode(r.(*wire.EndTxnResponse).ErrorCode) }

func addOffsetsErr(r wire.Response) error {
	return wire.ErrorForCode(r.(*wire.AddOffsetsToTxnResponse).ErrorCode)
}

// addPartitionsErr returns the first partition error other than
// OPERATION_NOT_ATTEMPTED (which only says another partition failed).
func addPartitionsErr(r wire.Response) error {
	resp := r.(*wire.AddPartitionsToTxnResponse)
	if resp.ErrorCode != 0 {
		return wire.ErrorForCode(resp.ErrorCode)
	}
	var notAttempted error
	for _, t := range resp.ResultsByTopic {
		for _, p := range t.ResultsByPartition {
			if p.PartitionErrorCode == wire.ErrOperationNotAttempted.Code {
				notAttempted = wire.ErrOperationNotAttempted
			} else if p.PartitionErrorCode != 0 {
				return wire.ErrorForCode(p.PartitionErrorCode)
			}
		}
	}
	return notAttempted
}

// txnOffsetCommitErr returns the first partition error.
func txnOffsetCommitErr(r wire.Response) error {
	for _, t := range r.(*wire.TxnOffsetCommitResponse).Topics {
		for _, p := range t.Partitions {
			if p.ErrorCode != 0 {
				return wire.ErrorForCode(p.ErrorCode)
			}
		}
	}
	return nil
}
