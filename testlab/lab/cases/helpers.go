package cases

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/gregor-kafka/gregor/testlab/invariant"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
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

// readLog reads topic's partition p with franz-go (read_uncommitted, control
// records dropped) from its log start to its log end, as the invariant
// checker's final log (record IDs are the values).
func readLog(ctx context.Context, e *Env, topic string, p int32) (invariant.Log, error) {
	l := invariant.Log{TP: invariant.TP{Topic: topic, Partition: p}}
	starts, err := e.Bed.Adm.ListStartOffsets(ctx, topic)
	if err != nil {
		return l, err
	}
	ends, err := e.Bed.Adm.ListEndOffsets(ctx, topic)
	if err != nil {
		return l, err
	}
	s, _ := starts.Lookup(topic, p)
	en, _ := ends.Lookup(topic, p)
	if s.Err != nil || en.Err != nil {
		return l, fmt.Errorf("listing offsets of %s[%d]: %v %v", topic, p, s.Err, en.Err)
	}
	l.Start, l.End = s.Offset, en.Offset
	if l.End <= l.Start {
		return l, nil
	}
	kcl, err := kgo.NewClient(kgo.SeedBrokers(e.Bed.Boot...), kgo.KeepControlRecords(),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {p: kgo.NewOffset().At(l.Start)}}),
		kgo.FetchIsolationLevel(kgo.ReadUncommitted()))
	if err != nil {
		return l, err
	}
	defer kcl.Close()
	rctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	for next := l.Start; next < l.End; {
		fs := kcl.PollFetches(rctx)
		if rctx.Err() != nil {
			return l, fmt.Errorf("reading %s[%d] [%d, %d): stopped at %d: %v", topic, p, l.Start, l.End, next, rctx.Err())
		}
		for _, fe := range fs.Errors() {
			return l, fmt.Errorf("reading %s[%d]: %v", topic, p, fe.Err)
		}
		fs.EachRecord(func(r *kgo.Record) {
			next = r.Offset + 1
			if !r.Attrs.IsControl() && r.Offset < l.End {
				l.Records = append(l.Records, invariant.LogRecord{Offset: r.Offset, ID: string(r.Value)})
			}
		})
	}
	return l, nil
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
