package cases

import (
	"context"
	"fmt"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/consumer/assign"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/testlab/invariant"
)

func init() { register(Case{Name: "offsetReplay", Order: 4, Run: offsetReplay}) }

// offsetReplay (case 4): one partition holding "first" and "second". A
// classic group member (auto-commit off) receives both, commits only the
// first (offset 1), and closes. franz-go sees the group's committed offset
// 1; a new member of the group starts there and receives "second" again
// (the replay) as its first record.
func offsetReplay(ctx context.Context, e *Env) error {
	topic := e.Bed.Topic(ctx, "lab-replay", 1, 3, nil)
	group := topic + "-g"
	cl := e.Bed.Client(ctx, client.Config{RetryBackoff: 50 * time.Millisecond})
	h := &invariant.History{}
	if err := produceInputs(ctx, e, cl, h, topic, "first", "second"); err != nil {
		return err
	}
	ms := newMembers(group, e.T.Logf)
	a, err := newMember(cl, ms, "a", group, topic, consumer.ProtocolClassic, nil)
	if err != nil {
		return err
	}
	defer a.Close(context.Background())
	recs, err := receiveN(ctx, a, 2)
	if err != nil {
		return fmt.Errorf("member a: %w", err)
	}
	if string(recs[0].Value) != "first" || string(recs[1].Value) != "second" {
		return fmt.Errorf("member a received %q, %q; want first, second", recs[0].Value, recs[1].Value)
	}
	tp := gregor.TopicPartition{Topic: topic, Partition: 0}
	if err := a.Commit(ctx, map[gregor.TopicPartition]int64{tp: 1}); err != nil {
		return fmt.Errorf("member a commit 1: %w", err)
	}
	h.Commits = append(h.Commits, invariant.Commit{Group: group, TP: invariant.TP{Topic: topic}, Offset: 1, At: time.Now()})
	h.Reads = append(h.Reads, readOf("a", recs))
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	err = a.Close(cctx)
	cancel()
	if err != nil {
		return fmt.Errorf("member a close: %w", err)
	}
	if got, err := committedOffset(ctx, e, group, topic, 0); err != nil || got != 1 {
		return fmt.Errorf("committed offset after a closed: %d (error %v); want 1", got, err)
	}
	b, err := newMember(cl, ms, "b", group, topic, consumer.ProtocolClassic, nil)
	if err != nil {
		return err
	}
	defer b.Close(context.Background())
	recs, err = receiveN(ctx, b, 1)
	if err != nil {
		return fmt.Errorf("member b: %w", err)
	}
	if recs[0].Offset != 1 || string(recs[0].Value) != "second" {
		return fmt.Errorf("new member's first record is %q@%d; want second@1 (the replay)", recs[0].Value, recs[0].Offset)
	}
	e.T.Logf("a committed 1 and closed; b restarted at %d with %q", recs[0].Offset, recs[0].Value)
	h.Reads = append(h.Reads, readOf("b", recs[:1]))
	cctx, cancel = context.WithTimeout(ctx, 30*time.Second)
	err = b.Close(cctx)
	cancel()
	if err != nil {
		return fmt.Errorf("member b close: %w", err)
	}
	h.Assignments = ms.assignments()
	l, err := readLog(ctx, e, topic, 0)
	if err != nil {
		return err
	}
	h.Logs = append(h.Logs, l)
	return checkHistory(h)
}

// produceInputs writes vs (acknowledged, in order) to topic's partition 0
// with a plain idempotent producer, recorded in h.
func produceInputs(ctx context.Context, e *Env, cl *client.Client, h *invariant.History, topic string, vs ...string) error {
	p, err := producer.New(cl, producer.Config{})
	if err != nil {
		return err
	}
	defer p.Close(context.Background())
	for _, v := range vs {
		s, err := sendWait(ctx, p.Send, "in", "", topic, 0, v)
		if err != nil {
			return err
		}
		h.Sends = append(h.Sends, s)
	}
	return nil
}

// newMember starts a group member called name (auto-commit off, short
// session, heartbeat and rebalance timeouts) subscribed to topic, its events recorded in ms.
// assignors nil: the default.
func newMember(cl *client.Client, ms *members, name, group, topic string, proto consumer.GroupProtocol, assignors []assign.Assignor) (*consumer.Group, error) {
	return consumer.NewGroup(cl, consumer.GroupConfig{
		Config:            consumer.Config{MaxWait: 200 * time.Millisecond},
		GroupID:           group,
		Topics:            []string{topic},
		Protocol:          proto,
		Assignors:         assignors,
		SessionTimeout:    10 * time.Second,
		RebalanceTimeout:  20 * time.Second,
		HeartbeatInterval: 500 * time.Millisecond,
		DisableAutoCommit: true,
		OnAssignment:      ms.hook(name),
	})
}

// receiveN receives from g until it has at least n records (up to 60s).
func receiveN(ctx context.Context, g *consumer.Group, n int) ([]consumer.Record, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	var out []consumer.Record
	for len(out) < n {
		recs, err := g.Receive(ctx)
		if err != nil {
			return out, fmt.Errorf("received %d of %d records: %w", len(out), n, err)
		}
		out = append(out, recs...)
	}
	return out, nil
}

// readOf returns recs (contiguous, of one partition) as a Read of reader.
func readOf(reader string, recs []consumer.Record) invariant.Read {
	r := invariant.Read{Reader: reader, TP: invariant.TP{Topic: recs[0].Topic, Partition: recs[0].Partition},
		From: recs[0].Offset, To: recs[len(recs)-1].Offset + 1}
	for _, rec := range recs {
		r.Records = append(r.Records, invariant.LogRecord{Offset: rec.Offset, ID: string(rec.Value)})
	}
	return r
}
