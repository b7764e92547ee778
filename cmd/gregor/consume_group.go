package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gregor-kafka/gregor/consumer"
)

// groupPoll bounds one wait for records when consume has an end: the
// member then checks whether its partitions are all read (a partition
// already at its end delivers nothing that would wake it).
const groupPoll = 200 * time.Millisecond

// groupSource consumes as a member of a consumer group. Records are
// committed only once written (CommitProcessed: Receive delivers, wrote
// marks, auto-commit and Close commit each partition's processed prefix).
type groupSource struct {
	g       *consumer.Group
	ends    map[int32]int64
	timeout time.Duration // --timeout, bounds Close (commit and leave)
	group   string
}

func newGroupSource(s *session, o *consumeOpts, ends map[int32]int64) (*groupSource, error) {
	cfg := consumer.GroupConfig{
		Config:          s.cfg.Consumer,
		GroupID:         o.group,
		Topics:          []string{o.topic},
		Protocol:        consumer.GroupProtocol(o.groupProtocol),
		CommitProcessed: true,
	}
	cfg.OffsetReset = consumer.ResetEarliest
	if o.from == "end" {
		cfg.OffsetReset = consumer.ResetLatest
	}
	g, err := consumer.NewGroup(s.cl, cfg)
	if err != nil {
		return nil, fmt.Errorf("group %s: %w", o.group, err)
	}
	return &groupSource{g: g, ends: ends, timeout: s.conn.timeout, group: o.group}, nil
}

func (gs *groupSource) receive(ctx context.Context) ([]consumer.Record, error) {
	if gs.ends == nil {
		recs, err := gs.g.Receive(ctx)
		return recs, gs.wrap(err)
	}
	rctx, cancel := context.WithTimeout(ctx, groupPoll)
	defer cancel()
	recs, err := gs.g.Receive(rctx)
	if err != nil && rctx.Err() != nil && ctx.Err() == nil {
		return nil, nil // nothing within groupPoll: look at the ends again
	}
	return recs, gs.wrap(err)
}

func (gs *groupSource) wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("group %s: %w", gs.group, err)
}

// finished reports whether the member owns partitions and has read each
// up to its end. A member that owns none (the group has more members than
// partitions, or the first assignment has not come yet) is not finished.
func (gs *groupSource) finished(context.Context) bool {
	owned := gs.g.Assignment()
	if len(owned) == 0 {
		return false
	}
	for _, pp := range owned {
		if pp.Position.Offset < gs.ends[pp.Partition] {
			return false
		}
	}
	return true
}

func (gs *groupSource) wrote(recs []consumer.Record) error {
	if len(recs) == 0 {
		return nil
	}
	// ErrNotDelivered: the partition was revoked since Receive; its new
	// owner reads the records again (at least once).
	if err := gs.g.MarkProcessed(recs...); err != nil && !errors.Is(err, consumer.ErrNotDelivered) {
		return gs.wrap(err)
	}
	return nil
}

// close commits the processed offsets and leaves the group.
func (gs *groupSource) close() error {
	ctx, cancel := context.WithTimeout(context.Background(), gs.timeout)
	defer cancel()
	if err := gs.g.Close(ctx); err != nil {
		return fmt.Errorf("group %s: commit and leave: %w", gs.group, err)
	}
	return nil
}
