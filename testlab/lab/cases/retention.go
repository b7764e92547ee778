package cases

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/testlab/invariant"
	"github.com/gregor-kafka/gregor/wire"
)

func init() { register(Case{Name: "retention", Order: 6, Run: retention}) }

// retention (case 6): retention.ms=4000, segment.ms=1000. r0..r2 carry
// timestamps a minute old, r3 (sent after they were acknowledged) one two
// minutes ahead, so r3 rolls a new segment and the old one expires at once
// while r3's never does during the case. A slow consumer parked at offset 1
// (assigned there, paused) with auto.offset.reset none gets a typed
// *consumer.OffsetOutOfRangeError naming position 1 and the new log start 3
// once retention moved the start to 3; a consumer with earliest, placed at
// 1 as well, resumes at 3 and reads r3.
func retention(ctx context.Context, e *Env) error {
	ret, seg := "4000", "1000"
	topic := e.Bed.Topic(ctx, "lab-retention", 1, 3, map[string]*string{"retention.ms": &ret, "segment.ms": &seg})
	tp := gregor.TopicPartition{Topic: topic, Partition: 0}
	cl := e.Bed.Client(ctx, client.Config{RetryBackoff: 50 * time.Millisecond})
	p, err := producer.New(cl, producer.Config{})
	if err != nil {
		return err
	}
	defer p.Close(context.Background())
	h := &invariant.History{}
	send := func(v string, ts time.Time) error {
		d, err := p.Send(ctx, &producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: []byte(v), Timestamp: ts})
		if err != nil {
			return err
		}
		r, err := d.Wait(ctx)
		if err == nil {
			err = r.Err
		}
		if err != nil {
			return fmt.Errorf("%s: %w", v, err)
		}
		h.Sends = append(h.Sends, invariant.Send{Producer: "p", Idempotent: true, TP: invariant.TP{Topic: topic}, ID: v, Acked: true, Offset: r.Offset})
		return nil
	}
	old := time.Now().Add(-time.Minute)
	for _, v := range []string{"r0", "r1", "r2"} {
		if err := send(v, old); err != nil {
			return err
		}
	}
	if err := send("r3", time.Now().Add(2*time.Minute)); err != nil {
		return err
	}

	slow, err := consumer.New(cl, consumer.Config{OffsetReset: consumer.ResetNone, MaxWait: 200 * time.Millisecond})
	if err != nil {
		return err
	}
	defer slow.Close(context.Background())
	if err := slow.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtOffset(1)}}); err != nil {
		return err
	}
	if err := slow.Pause(tp); err != nil {
		return err
	}
	if err := waitLogStart(ctx, e, topic, 3); err != nil {
		return err
	}
	// Back to 1: drops whatever was fetched before the pause took effect.
	if err := slow.Seek(ctx, tp, consumer.AtOffset(1)); err != nil {
		return err
	}
	if err := slow.Resume(tp); err != nil {
		return err
	}
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	recs, err := slow.Receive(rctx)
	cancel()
	var oor *consumer.OffsetOutOfRangeError
	switch {
	case !errors.As(err, &oor):
		return fmt.Errorf("reset none at offset 1 after the log start moved to 3: got %d records, error %v; want *OffsetOutOfRangeError", len(recs), err)
	case !errors.Is(err, wire.ErrOffsetOutOfRange):
		return fmt.Errorf("%v does not match wire.ErrOffsetOutOfRange", err)
	case oor.Offset != 1 || oor.LogStartOffset != 3 || oor.TopicPartition != tp:
		return fmt.Errorf("out-of-range error names %s offset %d, log start %d; want %s, 1, 3", oor.TopicPartition, oor.Offset, oor.LogStartOffset, tp)
	}
	e.T.Logf("reset none: %v", err)

	early, err := consumer.New(cl, consumer.Config{OffsetReset: consumer.ResetEarliest, MaxWait: 200 * time.Millisecond})
	if err != nil {
		return err
	}
	defer early.Close(context.Background())
	if err := early.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtOffset(1)}}); err != nil {
		return err
	}
	rctx, cancel = context.WithTimeout(ctx, 30*time.Second)
	recs, err = early.Receive(rctx)
	cancel()
	if err != nil || len(recs) == 0 || recs[0].Offset != 3 || string(recs[0].Value) != "r3" {
		var first any = "none"
		if len(recs) > 0 {
			first = fmt.Sprintf("%s@%d", recs[0].Value, recs[0].Offset)
		}
		return fmt.Errorf("reset earliest from offset 1: first record %v, error %v; want r3@3", first, err)
	}
	h.Reads = append(h.Reads, invariant.Read{Reader: "early", TP: invariant.TP{Topic: topic}, From: 3, To: recs[len(recs)-1].Offset + 1,
		Records: []invariant.LogRecord{{Offset: 3, ID: "r3"}}})
	l, err := readLog(ctx, e, topic, 0)
	if err != nil {
		return err
	}
	if l.Start != 3 {
		return fmt.Errorf("log start moved on to %d during the case (want 3)", l.Start)
	}
	h.Logs = append(h.Logs, l)
	return checkHistory(h)
}

// waitLogStart polls topic's partition 0 until its log start offset is want
// (up to 60s).
func waitLogStart(ctx context.Context, e *Env, topic string, want int64) error {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	var got int64 = -1
	for {
		if so, err := e.Bed.Adm.ListStartOffsets(ctx, topic); err == nil {
			if o, ok := so.Lookup(topic, 0); ok && o.Err == nil {
				got = o.Offset
				if got == want {
					return nil
				}
			}
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return fmt.Errorf("log start of %s[0] is %d, not %d, after 60s", topic, got, want)
		}
	}
}
