package protocol

import (
	"context"
	"errors"
	"fmt"
	"github.com/gregor-kafka/gregor/wire"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer/share"
)

// NewShareConsumer makes a share.Consumer in explicit acknowledgement mode.
func (g *gregorClient) NewShareConsumer(cfg ShareConsumerConfig) (ShareConsumer, error) {
	c, err := share.New(g.c, share.Config{GroupID: cfg.GroupID, Topics: []string{cfg.Topic}, AckMode: share.AckExplicit,
		MaxRecords: cfg.MaxRecords, BatchSize: cfg.BatchSize})
	if err != nil {
		return nil, err
	}
	return &gregorShare{c: c}, nil
}

type gregorShare struct{ c *share.Consumer }

func (g *gregorShare) AwaitMembership(ctx context.Context) error { return g.c.AwaitJoined(ctx) }
func (g *gregorShare) MemberEpoch() int32                        { return g.c.MemberEpoch() }

func (g *gregorShare) Receive(ctx context.Context) ([]ShareRecord, error) {
	recs, err := g.c.Receive(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]ShareRecord, len(recs))
	for i := range recs {
		r := &recs[i]
		ts := wire.MillisOf(r.Timestamp)
		out[i] = ShareRecord{DeliveryCount: r.DeliveryCount, ReceivedRecord: ReceivedRecord{Topic: r.Topic, Partition: r.Partition,
			Offset: r.Offset, TimestampMillis: &ts, Key: r.Key, Value: r.Value}}
		for _, h := range r.Headers {
			out[i].Headers = append(out[i].Headers, RecordHeader{Name: h.Key, Value: h.Value})
		}
	}
	return out, nil
}

func ackType(d string) (share.AcknowledgeType, error) {
	switch d {
	case DispositionAccept:
		return share.Accept, nil
	case DispositionRelease:
		return share.Release, nil
	case DispositionReject:
		return share.Reject, nil
	}
	return 0, fmt.Errorf("unknown disposition %q", d)
}

// Acknowledge records every disposition, then sends them (Commit) and
// reduces the per-record results to one outcome: the first failure.
func (g *gregorShare) Acknowledge(ctx context.Context, recs []ShareRecord, ds []string) ShareOutcome {
	want := map[[2]int64]bool{}
	for i := range recs {
		t, err := ackType(ds[i])
		if err != nil {
			return ShareOutcome{Err: err, NotSent: true}
		}
		r := &share.Record{}
		r.Topic, r.Partition, r.Offset = recs[i].Topic, recs[i].Partition, recs[i].Offset
		if err := g.c.Acknowledge(r, t); err != nil {
			return ShareOutcome{Err: err, NotSent: true}
		}
		want[[2]int64{int64(recs[i].Partition), recs[i].Offset}] = true
	}
	results, err := g.c.Commit(ctx)
	if err != nil {
		return ShareOutcome{Err: err, NotSent: true}
	}
	for _, r := range results {
		if r.Err != nil && want[[2]int64{int64(r.Partition), r.Offset}] {
			return outcomeOf(r.Err)
		}
	}
	return ShareOutcome{}
}

func (g *gregorShare) Close(ctx context.Context) ShareOutcome {
	err := g.c.Close(ctx)
	var ce *share.CloseError
	switch {
	case err == nil:
		return ShareOutcome{}
	case errors.As(err, &ce) && ce.Err == nil:
		return outcomeOf(ce.FailedAcks[0].Err) // only acknowledgements failed
	case errors.As(err, &ce):
		return outcomeOf(ce.Err)
	}
	return outcomeOf(err)
}

// outcomeOf is a failed outcome; only a client failure known not sent is
// NotSent (a broker's code means the request arrived).
func outcomeOf(err error) ShareOutcome {
	var re *client.RequestError
	return ShareOutcome{Err: err, NotSent: errors.As(err, &re) && re.Certainty == client.NotSent}
}
