package cases

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/gregor-kafka/gregor/testlab/invariant"
	"github.com/twmb/franz-go/pkg/kadm"
)

// partition returns the observer's (franz-go) view of topic's partition p.
func partition(ctx context.Context, e *Env, topic string, p int32) (kadm.PartitionDetail, error) {
	tds, err := e.Bed.Adm.ListTopics(ctx, topic)
	if err != nil {
		return kadm.PartitionDetail{}, err
	}
	d, ok := tds[topic].Partitions[p]
	if !ok {
		return d, fmt.Errorf("%s[%d] not in metadata", topic, p)
	}
	return d, d.Err
}

// waitPartition polls topic's partition p (every 200ms, up to 90s) until
// cond holds and returns that view; the error names what was awaited.
func waitPartition(ctx context.Context, e *Env, topic string, p int32, what string, cond func(kadm.PartitionDetail) bool) (kadm.PartitionDetail, error) {
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	var last kadm.PartitionDetail
	var lastErr error
	for {
		d, err := partition(ctx, e, topic, p)
		if err == nil && cond(d) {
			return d, nil
		}
		last, lastErr = d, err
		select {
		case <-tick.C:
		case <-ctx.Done():
			return last, fmt.Errorf("%s[%d]: %s did not happen (last: leader %d, ISR %v, error %v)", topic, p, what, last.Leader, last.ISR, lastErr)
		}
	}
}

// isrIs returns a condition: the ISR is exactly ids (in any order).
func isrIs(ids ...int32) func(kadm.PartitionDetail) bool {
	return func(d kadm.PartitionDetail) bool {
		got := slices.Clone(d.ISR)
		want := slices.Clone(ids)
		slices.Sort(got)
		slices.Sort(want)
		return slices.Equal(got, want)
	}
}

// readLog reads topic's partition p with franz-go as the invariant
// checker's final log (labtest.Bed.ReadLog).
func readLog(ctx context.Context, e *Env, topic string, p int32) (invariant.Log, error) {
	return e.Bed.ReadLog(ctx, topic, p)
}

// checkHistory runs the invariant checker over h and returns its violations
// as one error (nil when there are none).
func checkHistory(h *invariant.History) error {
	vs := invariant.Check(h)
	if len(vs) == 0 {
		return nil
	}
	return fmt.Errorf("%d invariant violation(s): %v", len(vs), vs)
}
