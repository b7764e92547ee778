package observer

import (
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
)

// retryEvery is how often a read the broker answered with a retriable
// error is asked again.
const retryEvery = 100 * time.Millisecond

// untilSettled runs read until it returns nil or an error Kafka does not
// call retriable, or ctx ends. A partition just created, just elected or
// whose brokers just resumed answers LEADER_NOT_AVAILABLE,
// NOT_LEADER_OR_FOLLOWER or OFFSET_NOT_AVAILABLE for a moment; the
// observer's truth is what the broker says once that has passed, so a
// transient answer is not a verdict.
func untilSettled(ctx context.Context, what string, read func() error) error {
	tick := time.NewTicker(retryEvery)
	defer tick.Stop()
	for {
		err := read()
		if err == nil || !kerr.IsRetriable(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: still %w when the deadline came (%v)", what, err, ctx.Err())
		case <-tick.C:
		}
	}
}
