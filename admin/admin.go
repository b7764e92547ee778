package admin

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/backoff"
	"github.com/gregor-kafka/gregor/wire"
)

// Admin runs administrative operations over a *client.Client. It holds no
// connections of its own and is safe for concurrent use. Create it with New.
type Admin struct {
	cl         *client.Client
	backoff    time.Duration
	backoffMax time.Duration
}

// Config tunes an Admin. The zero Config is the defaults. Nothing in it can
// be invalid, so New returns no error: a zero or negative duration takes
// its default, and RetryBackoffMax below RetryBackoff is raised to it.
type Config struct {
	// RetryBackoff is the first wait between retries of a retriable failure
	// (retry.backoff.ms); it doubles with ±20% jitter up to RetryBackoffMax.
	// Default 100ms. Retries always stop at the operation's context deadline.
	RetryBackoff time.Duration
	// RetryBackoffMax bounds the wait between retries (retry.backoff.max.ms).
	// Default 1s.
	RetryBackoffMax time.Duration
}

// New returns an Admin that sends its requests through cl with cfg (see
// Config for its defaults). cl must be non-nil; New does not connect.
func New(cl *client.Client, cfg Config) *Admin {
	a := &Admin{cl: cl, backoff: 100 * time.Millisecond, backoffMax: time.Second}
	if cfg.RetryBackoff > 0 {
		a.backoff = cfg.RetryBackoff
	}
	if cfg.RetryBackoffMax > 0 {
		a.backoffMax = cfg.RetryBackoffMax
	}
	a.backoffMax = max(a.backoffMax, a.backoff)
	return a
}

// ErrVisibilityTimeout reports that a topic change succeeded but was not
// yet visible in the metadata of every broker when the context ended (see
// CreateTopicsOptions.WaitVisible). It wraps client.ErrTimeout.
var ErrVisibilityTimeout = fmt.Errorf("%w: change not yet visible on every broker", client.ErrTimeout)

// BrokerError is a per-resource failure reported by a broker: the Kafka error
// (a *wire.KafkaError, matched with errors.Is / errors.As) and the broker's
// message for it.
type BrokerError struct {
	// Err is the *wire.KafkaError.
	Err error
	// Message is the broker's error message.
	Message string
}

// Error returns the Kafka error and the broker's message.
func (e *BrokerError) Error() string { return e.Err.Error() + ": " + e.Message }

// Unwrap returns the *wire.KafkaError.
func (e *BrokerError) Unwrap() error { return e.Err }

// codeErr returns nil for code 0 and otherwise the Kafka error for code,
// wrapped in a *BrokerError when the broker sent a message.
func codeErr(code int16, msg *string) error {
	err := wire.ErrorForCode(code)
	if err == nil {
		return nil
	}
	if msg != nil && *msg != "" {
		return &BrokerError{Err: err, Message: *msg}
	}
	return err
}

// wait sleeps before retry try+1 (internal/backoff, the same jittered
// backoff as the client's). It reports false when ctx ends first or its
// deadline is closer than the wait.
func (a *Admin) wait(ctx context.Context, try int) bool {
	dl, _ := ctx.Deadline()
	return backoff.Sleep(ctx, dl, backoff.Delay(a.backoff, a.backoffMax, try), nil)
}

// gaveUp wraps the last retriable failure of a resource when the deadline
// ends the retries, so callers can match client.ErrTimeout and still see why.
func gaveUp(ctx context.Context, last error) error {
	if last == nil {
		last = errors.New("no response")
	}
	if errors.Is(last, client.ErrTimeout) || errors.Is(last, client.ErrCancelled) {
		return last
	}
	cause := client.ErrTimeout
	if errors.Is(ctx.Err(), context.Canceled) {
		cause = client.ErrCancelled
	}
	return fmt.Errorf("%w; last failure: %w", cause, last)
}

// timeoutMs is the broker-side timeout for a request sent under ctx: the
// time left before the deadline (less a margin so the answer can arrive),
// or def when ctx has none. At least 1ms.
func timeoutMs(ctx context.Context, def time.Duration) int32 {
	d := def
	if dl, ok := ctx.Deadline(); ok {
		left := time.Until(dl)
		d = left - min(left/10, time.Second)
	}
	ms := d.Milliseconds()
	return int32(max(1, min(ms, math.MaxInt32)))
}

// route says where resource i goes, or fails it.
type routeFunc func(ctx context.Context, i int) (broker int32, err error)

// sendFunc sends the resources idx to broker and records their results. It
// returns the resources to retry with their last errors, or a whole-request
// failure.
type sendFunc func(ctx context.Context, broker int32, idx []int) (retry map[int]error, err error)

// resourcePlan is how a per-resource admin operation (resources 0..n-1:
// topics, partitions, groups, brokers ...) is routed, sent and retried;
// runPlan carries it out.
type resourcePlan struct {
	// resources is the number of resources.
	resources int
	// idempotent allows resending after a request that may have reached
	// the broker.
	idempotent bool
	// route says which broker resource i goes to, or fails it.
	route routeFunc
	// send sends one broker's resources and records their results.
	send sendFunc
	// retryRoute decides whether a routing error is retried; nil: when
	// transient.
	retryRoute func(ctx context.Context, i int, err error) bool
	// onSendFailure, when set, runs after a whole request to broker failed
	// (e.g. to forget a coordinator or invalidate metadata).
	onSendFailure func(broker int32, idx []int)
	// fail records the final failure of resource i that has no result.
	fail func(i int, err error)
}

// runPlan drives a per-resource operation: route every pending resource,
// send one request per broker, retry what is retriable with backoff until
// the context ends, and call p.fail exactly once for each resource that
// ends in failure without a recorded result.
func (a *Admin) runPlan(ctx context.Context, p resourcePlan) {
	n, idempotent, route, send, onRouteErr, onSendErr, fail := p.resources, p.idempotent, p.route, p.send, p.retryRoute, p.onSendFailure, p.fail
	pending := make([]int, n)
	for i := range pending {
		pending[i] = i
	}
	for try := 0; len(pending) > 0; try++ {
		retry := map[int]error{}
		byBroker := map[int32][]int{}
		for _, i := range pending {
			b, err := route(ctx, i)
			if err != nil {
				again := transient(ctx, err, true)
				if onRouteErr != nil {
					again = onRouteErr(ctx, i, err)
				}
				if again {
					retry[i] = err
				} else {
					fail(i, err)
				}
				continue
			}
			byBroker[b] = append(byBroker[b], i)
		}
		brokers := make([]int32, 0, len(byBroker))
		for b := range byBroker {
			brokers = append(brokers, b)
		}
		slices.Sort(brokers)
		for _, b := range brokers {
			idx := byBroker[b]
			r, err := send(ctx, b, idx)
			if err != nil {
				if onSendErr != nil {
					onSendErr(b, idx)
				}
				if transient(ctx, err, idempotent) {
					for _, i := range idx {
						retry[i] = err
					}
				} else {
					for _, i := range idx {
						fail(i, err)
					}
				}
				continue
			}
			for i, e := range r {
				retry[i] = e
			}
		}
		if len(retry) == 0 {
			return
		}
		pending = pending[:0]
		for i := range retry {
			pending = append(pending, i)
		}
		slices.Sort(pending)
		if !a.wait(ctx, try) {
			for _, i := range pending {
				fail(i, gaveUp(ctx, retry[i]))
			}
			return
		}
	}
}

// tpString returns "topic[partition]".
func tpString(tp gregor.TopicPartition) string { return fmt.Sprintf("%s[%d]", tp.Topic, tp.Partition) }
