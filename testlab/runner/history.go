package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/gregor-kafka/gregor/testlab/invariant"
	"github.com/gregor-kafka/gregor/testlab/judge"
	"github.com/twmb/franz-go/pkg/kgo"
)

// readRecord is what one command claims a consumer received from one
// partition.
type readRecord struct {
	reader    string
	committed bool
	unordered bool // several members' or a share group's deliveries
	tp        invariant.TP
	recs      []invariant.LogRecord
}

// trackReads records the records cmd claims were received, per partition.
func (r *run) trackReads(cmd *judge.Command) {
	recs := receivedRecords(cmd)
	if len(recs) == 0 {
		return
	}
	reader := str(cmd.Payload["consumer_id"])
	committed := r.readCommitted(reader)
	unordered := false
	for _, ev := range cmd.Events {
		switch ev.Payload.(type) {
		case *judge.GroupReceiveSetCompleted, *judge.ShareReceiveCompleted:
			unordered = true
		}
	}
	var order []invariant.TP
	by := map[invariant.TP][]invariant.LogRecord{}
	for _, c := range recs {
		tp := invariant.TP{Topic: c.Topic, Partition: c.Partition}
		if by[tp] == nil {
			order = append(order, tp)
		}
		by[tp] = append(by[tp], invariant.LogRecord{Offset: c.Offset, ID: recordID(recordContent(c))})
	}
	for _, tp := range order {
		r.reads = append(r.reads, readRecord{reader: reader, committed: committed, unordered: unordered, tp: tp, recs: by[tp]})
	}
}

// readCommitted reports whether consumer id was created with read_committed.
func (r *run) readCommitted(id string) bool {
	for _, c := range r.sess.Commands() {
		if c.Kind == "create_group_consumer" && str(c.Payload["consumer_id"]) == id {
			return str(obj(c.Payload["configuration"])["read_isolation"]) == "read_committed"
		}
	}
	return false
}

// recordID identifies a record by its testlab-operation-id header, or else by
// a hash of its key, value and headers (null and empty distinct).
func recordID(c content) string {
	for _, h := range c.Headers {
		if h.Name == "testlab-operation-id" && h.Value != nil {
			return "op:" + string(h.Value)
		}
	}
	hash := sha256.New()
	put := func(b []byte) {
		if b == nil {
			hash.Write([]byte{0})
			return
		}
		fmt.Fprintf(hash, "\x01%d:", len(b))
		hash.Write(b)
	}
	put(c.Key)
	put(c.Value)
	for _, h := range c.Headers {
		put([]byte(h.Name))
		put(h.Value)
	}
	return "sha256:" + hex.EncodeToString(hash.Sum(nil))[:16]
}

// history builds the invariant checker's view of the run: the adapter's
// producer operations in the order the runner saw them (all gregor producers
// are idempotent), the observer's own environment writes, the records
// receive commands claimed, and the final log of every partition written to
// that still exists, read by the observer.
func (r *run) history(ctx context.Context) (*invariant.History, error) {
	h := &invariant.History{}
	tps := map[invariant.TP]bool{}
	var order []invariant.TP
	note := func(tp invariant.TP) {
		if !tps[tp] {
			tps[tp] = true
			order = append(order, tp)
		}
	}
	for _, op := range r.opOrder {
		o := r.ops[op]
		c, err := specContent(o.spec)
		if err != nil {
			return nil, err
		}
		s := invariant.Send{Producer: o.producer, Idempotent: true, TP: invariant.TP{Topic: o.topic, Partition: o.partition},
			ID: recordID(c), Offset: -1, Txn: o.txn}
		if o.status == "acknowledged" && o.offset != nil {
			s.Acked, s.Offset = true, *o.offset
		}
		h.Sends = append(h.Sends, s)
		note(s.TP)
	}
	for _, spec := range r.envSends {
		rec, err := toKgo(spec)
		if err != nil {
			return nil, err
		}
		tp := invariant.TP{Topic: rec.Topic, Partition: rec.Partition}
		h.Sends = append(h.Sends, invariant.Send{Producer: "observer", TP: tp, ID: recordID(brokerContent(rec)), Offset: -1})
		note(tp)
	}
	for _, rd := range r.reads {
		if len(rd.recs) == 0 {
			continue
		}
		h.Reads = append(h.Reads, invariant.Read{Reader: rd.reader, Committed: rd.committed, Unordered: rd.unordered, TP: rd.tp,
			From: rd.recs[0].Offset, To: rd.recs[len(rd.recs)-1].Offset + 1, Records: rd.recs})
	}
	for _, tp := range order {
		if r.deleted[tp.Topic] {
			continue
		}
		l, err := r.finalLog(ctx, tp)
		if err != nil {
			return nil, err
		}
		h.Logs = append(h.Logs, l)
	}
	return h, nil
}

// finalLog reads tp's whole log with the observer.
func (r *run) finalLog(ctx context.Context, tp invariant.TP) (invariant.Log, error) {
	l := invariant.Log{TP: tp}
	var err error
	if l.Start, l.End, err = r.obs.Watermarks(ctx, tp.Topic, tp.Partition); err != nil {
		return l, fmt.Errorf("observer: offsets of %s: %v", tp, err)
	}
	var recs []*kgo.Record
	if l.End > l.Start {
		if recs, err = r.obs.Scan(ctx, tp.Topic, tp.Partition); err != nil {
			return l, fmt.Errorf("observer: reading %s: %v", tp, err)
		}
	}
	for _, rec := range recs {
		l.Records = append(l.Records, invariant.LogRecord{Offset: rec.Offset, ID: recordID(brokerContent(rec))})
	}
	return l, nil
}

// checkInvariants runs the invariant checker over the run's history; any
// violation fails the scenario. The history has no assignments, commits or
// leader epochs: protocol v34 reports none of them for the current commands.
func (r *run) checkInvariants(ctx context.Context) error {
	h, err := r.history(ctx)
	if err != nil {
		return invalidf("invariants: %v", err)
	}
	vs := invariant.Check(h)
	summary := fmt.Sprintf("%d sends, %d final logs, %d reads: %d violations", len(h.Sends), len(h.Logs), len(h.Reads), len(vs))
	r.fact("", "invariants ("+strings.Join(ruleNames(), ", ")+")", summary, len(vs) == 0)
	if len(vs) > 0 {
		var ds []string
		for _, v := range vs {
			ds = append(ds, v.String())
			r.fact("", "invariant "+string(v.Rule), v.String(), false)
		}
		return failf("invariant violations: %s", strings.Join(ds, "; "))
	}
	return nil
}

func ruleNames() []string {
	var out []string
	for _, r := range invariant.Rules {
		out = append(out, string(r))
	}
	return out
}
