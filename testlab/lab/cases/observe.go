package cases

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/testlab/invariant"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// observe reads topic's partition p with franz-go from its log start to its
// end offset at the given isolation (read_committed: the last stable
// offset), as a Read of reader (values are the record IDs). Bounded by 30s.
func observe(ctx context.Context, e *Env, reader, topic string, p int32, committed bool) (invariant.Read, error) {
	r := invariant.Read{Reader: reader, Committed: committed, TP: invariant.TP{Topic: topic, Partition: p}}
	starts, err := e.Bed.Adm.ListStartOffsets(ctx, topic)
	if err != nil {
		return r, err
	}
	var ends kadm.ListedOffsets
	iso := kgo.ReadUncommitted()
	if committed {
		iso = kgo.ReadCommitted()
		ends, err = e.Bed.Adm.ListCommittedOffsets(ctx, topic)
	} else {
		ends, err = e.Bed.Adm.ListEndOffsets(ctx, topic)
	}
	if err != nil {
		return r, err
	}
	s, _ := starts.Lookup(topic, p)
	en, _ := ends.Lookup(topic, p)
	if s.Err != nil || en.Err != nil {
		return r, fmt.Errorf("listing offsets of %s[%d]: %v %v", topic, p, s.Err, en.Err)
	}
	r.From, r.To = s.Offset, en.Offset
	if r.To <= r.From {
		return r, nil
	}
	kcl, err := kgo.NewClient(kgo.SeedBrokers(e.Bed.Boot...), kgo.KeepControlRecords(),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {p: kgo.NewOffset().At(r.From)}}),
		kgo.FetchIsolationLevel(iso))
	if err != nil {
		return r, err
	}
	defer kcl.Close()
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	// Below the end (the LSO for read_committed) the last offset is a data
	// record or a control record, both delivered: the loop ends.
	for next := r.From; next < r.To; {
		fs := kcl.PollFetches(rctx)
		if rctx.Err() != nil {
			return r, fmt.Errorf("reading %s[%d] [%d, %d) (committed %v): stopped at %d: %v", topic, p, r.From, r.To, committed, next, rctx.Err())
		}
		for _, fe := range fs.Errors() {
			return r, fmt.Errorf("reading %s[%d]: %v", topic, p, fe.Err)
		}
		fs.EachRecord(func(rec *kgo.Record) {
			next = rec.Offset + 1
			if !rec.Attrs.IsControl() && rec.Offset < r.To {
				r.Records = append(r.Records, invariant.LogRecord{Offset: rec.Offset, ID: string(rec.Value)})
			}
		})
	}
	return r, nil
}

// ids returns the IDs of recs in order.
func ids(recs []invariant.LogRecord) []string {
	out := []string{}
	for _, r := range recs {
		out = append(out, r.ID)
	}
	return out
}

// committedOffset returns group's committed offset of topic's partition p as
// franz-go sees it (-1: none).
func committedOffset(ctx context.Context, e *Env, group, topic string, p int32) (int64, error) {
	os, err := e.Bed.Adm.FetchOffsets(ctx, group)
	if err != nil {
		return 0, err
	}
	o, ok := os.Lookup(topic, p)
	if !ok {
		return -1, nil
	}
	if o.Err != nil {
		return 0, o.Err
	}
	return o.At, nil
}

// sendWait sends v to topic's partition p through send and waits for its
// acknowledgement, returning it as a Send of producer name (in transaction
// txnID, "" for none).
func sendWait(ctx context.Context, send func(context.Context, *producer.Record) (*producer.Delivery, error), name, txnID, topic string, p int32, v string) (invariant.Send, error) {
	s := invariant.Send{Producer: name, Idempotent: true, TP: invariant.TP{Topic: topic, Partition: p}, ID: v, Offset: -1, Txn: txnID}
	d, err := send(ctx, &producer.Record{Topic: topic, Partition: producer.ToPartition(p), Value: []byte(v)})
	if err != nil {
		return s, fmt.Errorf("send %s: %w", v, err)
	}
	r, err := d.Wait(ctx)
	if err == nil {
		err = r.Err
	}
	if err != nil {
		return s, fmt.Errorf("send %s: %w", v, err)
	}
	s.Acked, s.Offset = true, r.Offset
	return s, nil
}

// members records the assignment events of a group's members as the
// invariant checker's assignments, and lets a case wait for an ownership.
type members struct {
	group   string
	logf    func(format string, args ...any) // logs each event
	changed chan struct{}                    // one pending wake-up, buffered 1

	mu   sync.Mutex                      // guards the fields below
	open map[string]map[invariant.TP]int // member name → partition → index in done
	done []invariant.Assignment          // every assignment, End zero while owned
}

func newMembers(group string, logf func(string, ...any)) *members {
	return &members{group: group, logf: logf, changed: make(chan struct{}, 1), open: map[string]map[invariant.TP]int{}}
}

// hook returns the OnAssignment callback of the member called name.
func (m *members) hook(name string) func(context.Context, consumer.AssignmentEvent) {
	return func(_ context.Context, ev consumer.AssignmentEvent) {
		m.logf("member %s: event %d %v generation %d at %s", name, ev.Kind, ev.Partitions, ev.GenerationID, ev.Time.Format("15:04:05.000"))
		m.mu.Lock()
		own := m.open[name]
		if own == nil {
			own = map[invariant.TP]int{}
			m.open[name] = own
		}
		for _, tp := range ev.Partitions {
			itp := invariant.TP{Topic: tp.Topic, Partition: tp.Partition}
			if ev.Kind == consumer.Assigned {
				own[itp] = len(m.done)
				m.done = append(m.done, invariant.Assignment{Group: m.group, Member: name, TP: itp, Start: ev.Time})
			} else if i, ok := own[itp]; ok {
				m.done[i].End = ev.Time
				delete(own, itp)
			}
		}
		m.mu.Unlock()
		select {
		case m.changed <- struct{}{}:
		default:
		}
	}
}

// owned returns the partitions member name owns now, sorted by partition.
func (m *members) owned(name string) []int32 {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []int32
	for tp := range m.open[name] {
		out = append(out, tp.Partition)
	}
	slices.Sort(out)
	return out
}

// wait waits (up to 60s) until cond holds after an assignment event.
func (m *members) wait(ctx context.Context, what string, cond func() bool) error {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	for !cond() {
		select {
		case <-m.changed:
		case <-ctx.Done():
			return fmt.Errorf("%s did not happen within 60s", what)
		}
	}
	return nil
}

// assignments returns the recorded assignments.
func (m *members) assignments() []invariant.Assignment {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]invariant.Assignment(nil), m.done...)
}
