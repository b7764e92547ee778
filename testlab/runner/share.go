package runner

import (
	"context"
	"fmt"
	"reflect"
	"time"

	"github.com/gregor-kafka/gregor/testlab/judge"
)

// The share-group claims (§4.6/§5.5, KIP-932). Session invariants are
// checked once per command as it completes (trackShare): a record accepted
// or rejected successfully is never delivered again in its group; a record
// delivered again carries a higher delivery count; acknowledgements echo
// their dispositions, one per retained record, with delivery and code null
// exactly on success; a receive never exceeds the configured max_records.
// The broker's word is checked by the observer (checkShare) once the
// group's members under test have all closed. (The share-partition start
// offset that DescribeShareGroupOffsets reports cannot serve: the broker
// persists it one state write late.)

// shareKey names one record in one share group.
type shareKey struct {
	group, topic string
	partition    int32
	offset       int64
}

// shareRecord is one record of a retained share batch.
type shareRecord = judge.ShareRecord

// shareState is what the session claimed about share groups.
type shareState struct {
	group      map[string]string        // consumer_id -> group_id
	topic      map[string]string        // consumer_id -> topic
	open       map[string]bool          // consumer_id -> not yet closed
	maxRecords map[string]int           // consumer_id -> configured max_records (0: none)
	retained   map[string][]shareRecord // consumer_id + "\x00" + receive_id -> records
	delivered  map[shareKey]int16       // last delivery count seen
	finished   map[shareKey]string      // accept or reject, acknowledged with success
}

func (r *run) shares() *shareState {
	if r.share == nil {
		r.share = &shareState{group: map[string]string{}, topic: map[string]string{}, open: map[string]bool{}, maxRecords: map[string]int{}, retained: map[string][]shareRecord{},
			delivered: map[shareKey]int16{}, finished: map[shareKey]string{}}
	}
	return r.share
}

// trackShare applies a completed share command to the session's state and
// checks the session invariants.
func (r *run) trackShare(cmd *judge.Command) error {
	if cmd.Failed || cmd.Completion == nil {
		return nil
	}
	s, p := r.shares(), cmd.Payload
	cid := str(p["consumer_id"])
	switch cmd.Kind {
	case "create_share_consumer":
		s.group[cid], s.topic[cid], s.open[cid] = str(p["group_id"]), str(p["topic"]), true
		s.maxRecords[cid] = int(num(obj(p["configuration"])["max_records"]))
	case "share_receive":
		recs := cmd.Completion.Payload.(*judge.ShareReceiveCompleted).Records
		if m := s.maxRecords[cid]; m > 0 && len(recs) > m {
			return fmt.Errorf("share receive returned %d records, max_records is %d", len(recs), m)
		}
		for _, x := range recs {
			k := shareKey{s.group[cid], x.Record.Topic, x.Record.Partition, x.Record.Offset}
			if how, ok := s.finished[k]; ok {
				return fmt.Errorf("%s[%d]@%d delivered again in group %s after a successful %s", k.topic, k.partition, k.offset, k.group, how)
			}
			if x.DeliveryCount < 1 {
				return fmt.Errorf("%s[%d]@%d delivery_count %d, want >= 1", k.topic, k.partition, k.offset, x.DeliveryCount)
			}
			if prev, ok := s.delivered[k]; ok && x.DeliveryCount <= prev {
				return fmt.Errorf("%s[%d]@%d redelivered with delivery_count %d after %d", k.topic, k.partition, k.offset, x.DeliveryCount, prev)
			}
			s.delivered[k] = x.DeliveryCount
		}
		s.retained[cid+"\x00"+str(p["receive_id"])] = recs
	case "share_acknowledge":
		key := cid + "\x00" + str(p["receive_id"])
		recs := s.retained[key]
		delete(s.retained, key)
		ack := cmd.Completion.Payload.(*judge.ShareAcknowledgementCompleted)
		ds := ack.Dispositions
		want := make([]judge.ShareDisposition, 0, len(list(p["dispositions"])))
		for _, d := range list(p["dispositions"]) {
			want = append(want, judge.ShareDisposition(str(d)))
		}
		if !reflect.DeepEqual(ds, want) {
			return fmt.Errorf("acknowledgement dispositions %v, command sent %v", ds, want)
		}
		if len(ds) != len(recs) {
			return fmt.Errorf("%d dispositions acknowledged for %d retained records", len(ds), len(recs))
		}
		if err := outcomeShape(cmd.Completion.Kind, ack.Success, ack.Delivery, ack.Code); err != nil {
			return err
		}
		if !ack.Success {
			return nil
		}
		for i, x := range recs {
			if ds[i] == "accept" || ds[i] == "reject" {
				s.finished[shareKey{s.group[cid], x.Record.Topic, x.Record.Partition, x.Record.Offset}] = string(ds[i])
			}
		}
	case "drop_share_batch":
		delete(s.retained, cid+"\x00"+str(p["receive_id"]))
	case "close_share_consumer":
		s.open[cid] = false
		c := cmd.Completion.Payload.(*judge.ShareConsumerClosed)
		return outcomeShape(cmd.Completion.Kind, c.Success, c.Delivery, c.Code)
	}
	return nil
}

// outcomeShape checks that delivery and code are null exactly on success
// and that a failure's delivery is a failure certainty.
func outcomeShape(kind string, success bool, delivery *judge.TerminalStatus, code *string) error {
	if success != (delivery == nil && code == nil) {
		return fmt.Errorf("%s: success %v with delivery %v and code %v", kind, success, show(delivery), show(code))
	}
	if !success && (delivery == nil || *delivery != "possibly_sent" && *delivery != "definitely_not_sent") {
		return fmt.Errorf("%s: failure with delivery %s", kind, show(delivery))
	}
	return nil
}

// show prints a nullable value as the protocol writes it.
func show[T ~string](p *T) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprintf("%q", string(*p))
}

// shareObserveWindow is how long the observer's own share consumer reads
// a group after its members under test left.
const shareObserveWindow = 4 * time.Second

// checkShare asks the broker, when the last member of a share group under
// test has closed (and the scenario creates no more): the observer joins the group with franz-go's share
// consumer and must be delivered exactly the records of the topic that the
// session did not finish (accept or reject acknowledged with success):
// none finished comes back, none unfinished is lost.
func (r *run) checkShare(ctx context.Context, cmd *judge.Command) error {
	if cmd.Kind != "close_share_consumer" || cmd.Failed || r.share == nil {
		return nil
	}
	s := r.share
	cid := str(cmd.Payload["consumer_id"])
	group, topic := s.group[cid], s.topic[cid]
	created := 0
	for other, open := range s.open {
		if open && s.group[other] == group {
			return nil // a member under test is still in the group
		}
		if s.group[other] == group {
			created++
		}
	}
	if created < r.plannedShareMembers(group) {
		return nil // a later step creates another member: the observer would disturb it
	}
	td, err := r.obs.Topic(ctx, topic)
	if err != nil {
		return err
	}
	got, err := r.obs.ShareDeliveries(ctx, group, topic, shareObserveWindow)
	if err != nil {
		return err
	}
	for _, part := range td.Partitions {
		start, end, err := r.obs.Watermarks(ctx, topic, part)
		if err != nil {
			return err
		}
		seen := map[int64]bool{}
		for _, off := range got[part] {
			seen[off] = true
		}
		var lost, back []int64
		for off := start; off < end; off++ {
			_, fin := s.finished[shareKey{group, topic, part, off}]
			switch {
			case fin && seen[off]:
				back = append(back, off)
			case !fin && !seen[off]:
				lost = append(lost, off)
			}
		}
		claim := fmt.Sprintf("share group %s %s[%d] offsets %d..%d: finished ones gone, others still deliverable", group, topic, part, start, end-1)
		if len(back)+len(lost) > 0 {
			r.fact(cmd.ID, claim, fmt.Sprintf("observer's share consumer got finished %v, missed unfinished %v", back, lost), false)
			return fmt.Errorf("%s: the observer's share consumer was delivered finished offsets %v and not delivered unfinished offsets %v", claim, back, lost)
		}
		r.fact(cmd.ID, claim, fmt.Sprintf("observer's share consumer got %v", got[part]), true)
	}
	return nil
}

// plannedShareMembers counts the scenario's create_share_consumer steps for
// group.
func (r *run) plannedShareMembers(group string) int {
	n := 0
	for _, st := range r.sc.Steps {
		if st.Command == nil || str(st.Command["kind"]) != "create_share_consumer" {
			continue
		}
		if c, ok := r.exp.Value(st.Command).(map[string]any); ok && str(c["group_id"]) == group {
			n++
		}
	}
	return n
}
