package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/gregor-kafka/gregor/testlab/judge"
	"github.com/gregor-kafka/gregor/testlab/scenario"
	"github.com/twmb/franz-go/pkg/kgo"
)

// trackOps records, for every producer operation of cmd, the record offered
// and what the adapter claimed about it.
func (r *run) trackOps(cmd *judge.Command) {
	add := func(op string, spec map[string]any, producer string) {
		if op == "" || spec == nil {
			return
		}
		if _, seen := r.ops[op]; !seen {
			r.opOrder = append(r.opOrder, op)
		}
		o := &opRecord{spec: spec, commandID: cmd.ID, producer: producer}
		o.topic, _ = spec["topic"].(string)
		p, _ := spec["partition"].(float64)
		o.partition = int32(p)
		if cmd.Admission(op) == "rejected" {
			o.status = "rejected"
		}
		if t := cmd.Terminal(op); t != nil {
			o.status = t.String("status")
			var off *int64
			_ = json.Unmarshal(t.Fields["offset"], &off)
			o.offset = off
		}
		if tid, ok := cmd.Payload["transaction_id"].(string); ok {
			o.txn = tid
		}
		r.ops[op] = o
	}
	p := cmd.Payload
	r.trackReads(cmd)
	producer := str(p["producer_id"])
	switch cmd.Kind {
	case "send", "cancel_producer_send":
		add(str(p["operation_id"]), obj(p["record"]), producer)
	case "send_batch", "execute_transaction", "execute_transactional_transform":
		for _, o := range list(p["operations"]) {
			add(str(obj(o)["operation_id"]), obj(obj(o)["record"]), producer)
		}
	case "fence_transaction":
		add(str(obj(p["operation"])["operation_id"]), obj(obj(p["operation"])["record"]), producer)
	case "join_concurrent_actors":
		for _, a := range r.actorsOf(str(p["concurrency_id"])) {
			if str(a["kind"]) == "producer_send" {
				add(str(a["operation_id"]), obj(a["record"]), str(a["producer_id"])+"/"+str(a["actor_id"]))
			}
		}
	case "create_group_consumer":
		r.groups[str(p["group_id"])] = true
	case "create_topic":
		r.topics[str(p["topic"])] = true
	case "create_topics_batch":
		for _, t := range list(p["topics"]) {
			r.topics[str(obj(t)["topic"])] = true
		}
	}
}

func (r *run) actorsOf(cid string) []map[string]any {
	for _, c := range r.sess.Commands() {
		if c.Kind == "start_concurrent_actors" && str(c.Payload["concurrency_id"]) == cid {
			var out []map[string]any
			for _, a := range list(c.Payload["actors"]) {
				out = append(out, obj(a))
			}
			return out
		}
	}
	return nil
}

// groupOf returns the group of a group consumer created earlier.
func (r *run) groupOf(consumerID string) string {
	for _, c := range r.sess.Commands() {
		if c.Kind == "create_group_consumer" && str(c.Payload["consumer_id"]) == consumerID {
			return str(c.Payload["group_id"])
		}
	}
	return ""
}

// receivedRecords collects the ConsumedRecords a command claims to have received.
func receivedRecords(cmd *judge.Command) ([]consumed, error) {
	var out []consumed
	decode := func(raw json.RawMessage) error {
		var rs []consumed
		if err := json.Unmarshal(raw, &rs); err != nil {
			return err
		}
		out = append(out, rs...)
		return nil
	}
	for _, ev := range cmd.Events {
		switch ev.Kind {
		case "receive_completed", "group_receive_completed", "transactional_transform_completed":
			if err := decode(ev.Fields["records"]); err != nil {
				return nil, err
			}
		case "group_receive_set_completed":
			var ms []struct {
				Records json.RawMessage `json:"records"`
			}
			if err := json.Unmarshal(ev.Fields["members"], &ms); err != nil {
				return nil, err
			}
			for _, m := range ms {
				if err := decode(m.Records); err != nil {
					return nil, err
				}
			}
		case "share_receive_completed":
			var rs []struct {
				Record consumed `json:"record"`
			}
			if err := json.Unmarshal(ev.Fields["records"], &rs); err != nil {
				return nil, err
			}
			for _, x := range rs {
				out = append(out, x.Record)
			}
		}
	}
	return out, nil
}

// checkCancellation applies the verifier's rules for cancel_producer_send
// (§4.2): cancelled_not_sent means the terminal is definitely_not_sent with
// code cancelled and the second outcome is already_terminal; too_late is
// followed only by too_late or already_terminal and never comes with a
// definitely_not_sent terminal; already_terminal is followed by
// already_terminal.
func checkCancellation(cmd *judge.Command) error {
	if cmd.Kind != "cancel_producer_send" || cmd.Failed {
		return nil
	}
	var outs []string
	if err := json.Unmarshal(cmd.Completion.Fields["outcomes"], &outs); err != nil || len(outs) != 2 {
		return fmt.Errorf("outcomes %s: want exactly two", cmd.Completion.Fields["outcomes"])
	}
	t := cmd.Terminal(str(cmd.Payload["operation_id"]))
	status, code := t.String("status"), t.String("code")
	switch outs[0] {
	case "cancelled_not_sent":
		if status != "definitely_not_sent" || code != "cancelled" || outs[1] != "already_terminal" {
			return fmt.Errorf("cancelled_not_sent with terminal %s/%s and second outcome %s", status, code, outs[1])
		}
	case "too_late":
		if outs[1] != "too_late" && outs[1] != "already_terminal" {
			return fmt.Errorf("too_late followed by %s", outs[1])
		}
		if status == "definitely_not_sent" {
			return fmt.Errorf("too_late but the terminal claims definitely_not_sent (certainty improved)")
		}
	case "already_terminal":
		if outs[1] != "already_terminal" {
			return fmt.Errorf("already_terminal followed by %s", outs[1])
		}
	default:
		return fmt.Errorf("unknown cancellation outcome %q", outs[0])
	}
	return nil
}

// checkExpect applies the step's scenario-only expectations.
func (r *run) checkExpect(cmd *judge.Command, exp *scenario.Expect) error {
	if err := checkCancellation(cmd); err != nil {
		return err
	}
	for op, want := range exp.Terminals {
		op = r.exp.String(op)
		got := cmd.Admission(op)
		if t := cmd.Terminal(op); t != nil {
			got = t.String("status")
		}
		if got != want {
			return fmt.Errorf("operation %s: %q, want %q", op, got, want)
		}
	}
	for op, want := range exp.TerminalCodes {
		op = r.exp.String(op)
		t := cmd.Terminal(op)
		if t == nil || t.String("code") != want {
			got := "(no terminal)"
			if t != nil {
				got = string(t.Fields["code"])
			}
			return fmt.Errorf("operation %s: terminal code %s, want %q", op, got, want)
		}
	}
	for op, want := range exp.Offsets {
		op = r.exp.String(op)
		o := r.ops[op]
		if o == nil || o.offset == nil || *o.offset != want {
			return fmt.Errorf("operation %s: offset %v, want %d", op, offsetString(o), want)
		}
	}
	if exp.Event != nil {
		want := r.exp.Value(exp.Event)
		var got map[string]any
		b, _ := json.Marshal(cmd.Completion.Fields)
		_ = json.Unmarshal(b, &got)
		if p := partialMatch("", want, got); p != "" {
			return fmt.Errorf("completion %s: %s", cmd.Completion.Kind, p)
		}
	}
	if len(exp.EventOneOf) > 0 {
		var got map[string]any
		b, _ := json.Marshal(cmd.Completion.Fields)
		_ = json.Unmarshal(b, &got)
		var misses []string
		for _, alt := range exp.EventOneOf {
			p := partialMatch("", r.exp.Value(alt), got)
			if p == "" {
				misses = nil
				break
			}
			misses = append(misses, p)
		}
		if misses != nil {
			return fmt.Errorf("completion %s matches none of the alternatives: %v", cmd.Completion.Kind, misses)
		}
	}
	if exp.RecordCount != nil || exp.Records != nil {
		recs, err := receivedRecords(cmd)
		if err != nil {
			return err
		}
		if exp.RecordCount != nil && len(recs) != *exp.RecordCount {
			return fmt.Errorf("received %d records, want %d", len(recs), *exp.RecordCount)
		}
		if exp.Records != nil {
			if len(recs) != len(exp.Records) {
				return fmt.Errorf("received %d records, want the %d records of %v", len(recs), len(exp.Records), exp.Records)
			}
			for i, op := range exp.Records {
				op = r.exp.String(op)
				o := r.ops[op]
				if o == nil {
					return fmt.Errorf("expectation names unknown operation %s", op)
				}
				got := recs[i]
				if got.Topic != o.topic || got.Partition != o.partition || (o.offset != nil && got.Offset != *o.offset) {
					return fmt.Errorf("record %d is %s[%d]@%d, want operation %s at %s[%d]@%s", i, got.Topic, got.Partition, got.Offset, op, o.topic, o.partition, offsetString(o))
				}
				want, err := specContent(o.spec)
				if err != nil {
					return err
				}
				gc, err := got.content()
				if err != nil {
					return err
				}
				if d := diff(gc, want); d != "" {
					return fmt.Errorf("record %d (operation %s): %s", i, op, d)
				}
			}
		}
	}
	if exp.MinProduceRecords != nil {
		var snap struct {
			Producer struct {
				ProduceRecords uint64 `json:"produce_records"`
			} `json:"producer"`
		}
		if err := json.Unmarshal(cmd.Completion.Fields["snapshot"], &snap); err != nil {
			return fmt.Errorf("snapshot: %v", err)
		}
		if snap.Producer.ProduceRecords < *exp.MinProduceRecords {
			return fmt.Errorf("snapshot.producer.produce_records %d, want >= %d", snap.Producer.ProduceRecords, *exp.MinProduceRecords)
		}
	}
	return nil
}

func offsetString(o *opRecord) string {
	if o == nil || o.offset == nil {
		return "null"
	}
	return fmt.Sprint(*o.offset)
}

// partialMatch reports where got lacks or differs from want ("" when it
// contains it): objects by key, arrays element-wise with equal length.
func partialMatch(path string, want, got any) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: %v, want an object", path, got)
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, ok := g[k]
			if !ok {
				return fmt.Sprintf("%s.%s missing", path, k)
			}
			if p := partialMatch(path+"."+k, w[k], gv); p != "" {
				return p
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: %v, want %v", path, got, want)
		}
		for i := range w {
			if p := partialMatch(fmt.Sprintf("%s[%d]", path, i), w[i], g[i]); p != "" {
				return p
			}
		}
		return ""
	}
	if !reflect.DeepEqual(want, got) {
		return fmt.Sprintf("%s: %v, want %v", path, got, want)
	}
	return ""
}

// checkClaims verifies every claim of cmd against the broker. Broker
// metadata is eventually consistent (a CreatePartitions answer can precede
// the broker's metadata cache, a killed broker is still listed until it is
// fenced), so a claim gets claimWindow to be confirmed before it counts as refuted.
func (r *run) checkClaims(ctx context.Context, cmd *judge.Command) error {
	deadline := time.Now().Add(claimWindow)
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		n := len(r.ev.Facts)
		actx, cancel := context.WithTimeout(ctx, 20*time.Second)
		err := r.checkClaimsOnce(actx, cmd)
		cancel()
		if err == nil || time.Now().After(deadline) || ctx.Err() != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-tick.C:
			r.ev.Facts = r.ev.Facts[:n] // keep only the final attempt's facts
		}
	}
}

// claimWindow is how long a refuted claim is re-checked before it counts.
const claimWindow = 8 * time.Second

func (r *run) checkClaimsOnce(ctx context.Context, cmd *judge.Command) error {
	r.committedScans = nil
	// Producer operations of this command.
	for op, o := range r.ops {
		if o.commandID != cmd.ID {
			continue
		}
		if err := r.checkOp(ctx, cmd, op, o); err != nil {
			return err
		}
	}
	// Records claimed as received.
	recs, err := receivedRecords(cmd)
	if err != nil {
		return err
	}
	for _, c := range recs {
		rec, err := r.obs.Record(ctx, c.Topic, c.Partition, c.Offset)
		if err != nil {
			return fmt.Errorf("observer reading %s[%d]@%d: %v", c.Topic, c.Partition, c.Offset, err)
		}
		if rec == nil {
			r.fact(cmd.ID, fmt.Sprintf("received %s[%d]@%d", c.Topic, c.Partition, c.Offset), "no such record", false)
			return fmt.Errorf("claimed received record %s[%d]@%d does not exist on the broker", c.Topic, c.Partition, c.Offset)
		}
		cc, err := c.content()
		if err != nil {
			return err
		}
		if d := diff(cc, brokerContent(rec)); d != "" {
			r.fact(cmd.ID, fmt.Sprintf("received %s[%d]@%d", c.Topic, c.Partition, c.Offset), d, false)
			return fmt.Errorf("received record %s[%d]@%d differs from the broker's: %s", c.Topic, c.Partition, c.Offset, d)
		}
		if c.Timestamp != nil && *c.Timestamp != rec.Timestamp.UnixMilli() {
			return fmt.Errorf("received record %s[%d]@%d timestamp %d, broker has %d", c.Topic, c.Partition, c.Offset, *c.Timestamp, rec.Timestamp.UnixMilli())
		}
		r.fact(cmd.ID, fmt.Sprintf("received %s[%d]@%d", c.Topic, c.Partition, c.Offset), "same key, value, headers", true)
	}
	if cmd.Failed {
		return nil
	}
	if err := r.checkShare(ctx, cmd); err != nil {
		return err
	}
	return r.checkCompletion(ctx, cmd)
}

// checkOp verifies one producer operation's terminal against the broker.
func (r *run) checkOp(ctx context.Context, cmd *judge.Command, op string, o *opRecord) error {
	claim := fmt.Sprintf("operation %s %s %s[%d]@%s", op, o.status, o.topic, o.partition, offsetString(o))
	switch o.status {
	case "acknowledged", "transaction_staged":
		if o.offset == nil {
			r.fact(cmd.ID, claim, "acknowledged without an offset", false)
			return fmt.Errorf("operation %s %s with a null offset", op, o.status)
		}
		committed := false
		if o.status == "transaction_staged" {
			var judged bool
			if committed, judged = txnOutcome(cmd); !judged {
				r.fact(cmd.ID, claim, "staged in a transaction whose end the adapter did not report: not judged", true)
				return nil
			}
		}
		rec, err := r.obs.Record(ctx, o.topic, o.partition, *o.offset)
		if err != nil {
			return fmt.Errorf("observer reading %s[%d]@%d: %v", o.topic, o.partition, *o.offset, err)
		}
		if rec == nil {
			r.fact(cmd.ID, claim, "no record at that offset", false)
			return fmt.Errorf("operation %s acknowledged at %s[%d]@%d, but the broker has no record there", op, o.topic, o.partition, *o.offset)
		}
		want, err := specContent(o.spec)
		if err != nil {
			return err
		}
		if d := diff(want, brokerContent(rec)); d != "" {
			r.fact(cmd.ID, claim, d, false)
			return fmt.Errorf("operation %s at %s[%d]@%d: sent %s", op, o.topic, o.partition, *o.offset, d)
		}
		r.fact(cmd.ID, claim, "record present with the same key, value and headers", true)
		if o.status == "transaction_staged" {
			return r.checkVisibility(ctx, cmd, claim, o, committed)
		}
	case "definitely_not_sent":
		recs, err := r.obs.Scan(ctx, o.topic, o.partition)
		if err != nil {
			return fmt.Errorf("observer scanning %s[%d]: %v", o.topic, o.partition, err)
		}
		want, err := specContent(o.spec)
		if err != nil {
			return err
		}
		for _, rec := range recs {
			if diff(want, brokerContent(rec)) == "" && hasOpHeader(want) {
				r.fact(cmd.ID, claim, fmt.Sprintf("record found at offset %d", rec.Offset), false)
				return fmt.Errorf("operation %s reported definitely_not_sent, but the broker has it at offset %d", op, rec.Offset)
			}
		}
		r.fact(cmd.ID, claim, fmt.Sprintf("absent from %d records", len(recs)), true)
	case "possibly_sent":
		r.fact(cmd.ID, claim, "possibly_sent: neither success nor failure", true)
	}
	return nil
}

// hasOpHeader reports whether the record carries a testlab-operation-id
// header, which makes it unique in its partition.
func hasOpHeader(c content) bool {
	for _, h := range c.Headers {
		if h.Name == "testlab-operation-id" {
			return true
		}
	}
	return false
}

// checkCompletion verifies admin and group claims of a completion event.
func (r *run) checkCompletion(ctx context.Context, cmd *judge.Command) error {
	ev := cmd.Completion
	p := cmd.Payload
	topic := str(p["topic"])
	fact := func(claim, broker string, ok bool) { r.fact(cmd.ID, claim, broker, ok) }
	switch ev.Kind {
	case "transaction_fence_completed":
		var code *string
		_ = json.Unmarshal(ev.Fields["commit_error_code"], &code)
		if code == nil || !strings.HasPrefix(*code, "fenced") {
			fact("old transaction's commit after fencing", fmt.Sprintf("commit_error_code %s", ev.Fields["commit_error_code"]), false)
			return fmt.Errorf("fence_transaction: the old transaction's commit reported %s, want the fenced family", ev.Fields["commit_error_code"])
		}
		fact("old transaction's commit after fencing", *code, true)
	case "topic_created":
		td, err := r.obs.Topic(ctx, topic)
		if err != nil {
			return err
		}
		want := int(num(p["partitions"]))
		if !td.Exists || len(td.Partitions) != want || td.ReplicationFactor != int(num(p["replication_factor"])) {
			fact("topic "+topic+" created", fmt.Sprintf("%+v", td), false)
			return fmt.Errorf("topic %s claimed created with %d partitions RF %v; broker: %+v", topic, want, p["replication_factor"], td)
		}
		fact("topic "+topic+" created", fmt.Sprintf("%d partitions, RF %d", len(td.Partitions), td.ReplicationFactor), true)
	case "topic_creation_validated":
		td, err := r.obs.Topic(ctx, topic)
		if err != nil {
			return err
		}
		if td.Exists {
			fact("validate_only create of "+topic, "topic exists", false)
			return fmt.Errorf("validate_only create_topic left topic %s on the broker", topic)
		}
		fact("validate_only create of "+topic, "topic absent", true)
	case "topics_creation_completed":
		var outs []struct {
			Topic     string  `json:"topic"`
			ErrorCode *string `json:"error_code"`
		}
		_ = json.Unmarshal(ev.Fields["outcomes"], &outs)
		reqs := list(p["topics"])
		if len(outs) != len(reqs) {
			return fmt.Errorf("%d outcomes for %d topics", len(outs), len(reqs))
		}
		for i, o := range outs {
			rq := obj(reqs[i])
			if o.Topic != str(rq["topic"]) {
				return fmt.Errorf("outcome %d is for %s, want %s (request order)", i, o.Topic, rq["topic"])
			}
			td, err := r.obs.Topic(ctx, o.Topic)
			if err != nil {
				return err
			}
			if o.ErrorCode == nil && (!td.Exists || len(td.Partitions) != int(num(rq["partitions"]))) {
				return fmt.Errorf("topic %s claimed created; broker: %+v", o.Topic, td)
			}
			// TOPIC_ALREADY_EXISTS: the topic is there; an authorization
			// refusal (TOPIC_/CLUSTER_AUTHORIZATION_FAILED) created nothing.
			switch code := o.ErrorCode; {
			case code != nil && *code == "broker:broker_36" && !td.Exists:
				return fmt.Errorf("topic %s failed with %s but does not exist either", o.Topic, *code)
			case code != nil && (*code == "broker:broker_29" || *code == "broker:broker_31") && td.Exists:
				return fmt.Errorf("topic %s was refused with %s but exists", o.Topic, *code)
			}
			fact("batch outcome "+o.Topic, fmt.Sprintf("exists=%v partitions=%d", td.Exists, len(td.Partitions)), true)
		}
	case "topic_partitions_created", "topic_partition_increase_validated":
		td, err := r.obs.Topic(ctx, topic)
		if err != nil {
			return err
		}
		want := int(num(p["total_count"]))
		ok := len(td.Partitions) == want
		if ev.Kind == "topic_partition_increase_validated" {
			ok = len(td.Partitions) < want
		}
		fact(ev.Kind+" "+topic, fmt.Sprintf("%d partitions", len(td.Partitions)), ok)
		if !ok {
			return fmt.Errorf("%s for %s to %d; broker has %d partitions", ev.Kind, topic, want, len(td.Partitions))
		}
	case "topic_deleted":
		if err := r.waitTopicGone(ctx, topic); err != nil {
			fact("topic "+topic+" deleted", "still present", false)
			return err
		}
		r.deleted[topic] = true
		fact("topic "+topic+" deleted", "absent", true)
	case "topic_described":
		td, err := r.obs.Topic(ctx, topic)
		if err != nil {
			return err
		}
		var parts []int32
		_ = json.Unmarshal(ev.Fields["partitions"], &parts)
		if !reflect.DeepEqual(parts, td.Partitions) {
			return fmt.Errorf("topic_described %s partitions %v; broker has %v", topic, parts, td.Partitions)
		}
		fact("topic "+topic+" partitions", fmt.Sprint(td.Partitions), true)
	case "topics_listed":
		var names []string
		_ = json.Unmarshal(ev.Fields["topics"], &names)
		if !sort.StringsAreSorted(names) {
			return fmt.Errorf("topics_listed not sorted")
		}
		have, err := r.obs.Topics(ctx, p["include_internal"] == true)
		if err != nil {
			return err
		}
		listed := map[string]bool{}
		for _, n := range names {
			listed[n] = true
			if !have[n] && !r.deleted[n] {
				// created and deleted concurrently by another test is possible; check again
				if td, _ := r.obs.Topic(ctx, n); !td.Exists {
					fact("listed topic "+n, "absent", false)
					return fmt.Errorf("topics_listed names %s, which the broker does not have", n)
				}
			}
		}
		for t := range r.topics {
			if !r.deleted[t] && have[t] && !listed[t] {
				return fmt.Errorf("topics_listed lacks %s, which exists", t)
			}
		}
		fact("topics_listed", fmt.Sprintf("%d topics consistent with the broker", len(names)), true)
	case "offset_listed":
		start, end, err := r.obs.Watermarks(ctx, topic, int32(num(p["partition"])))
		if err != nil {
			return err
		}
		var off *int64
		_ = json.Unmarshal(ev.Fields["offset"], &off)
		want := end
		if str(p["position"]) == "earliest" {
			want = start
		}
		if off == nil || *off != want {
			return fmt.Errorf("offset_listed %s %v; broker has %d", p["position"], off, want)
		}
		fact(fmt.Sprintf("%s offset of %s[%v]", p["position"], topic, p["partition"]), fmt.Sprint(want), true)
	case "records_deleted":
		start, _, err := r.obs.Watermarks(ctx, topic, int32(num(p["partition"])))
		if err != nil {
			return err
		}
		if lw := int64(num(jsonAny(ev.Fields["low_watermark"]))); lw != start {
			return fmt.Errorf("records_deleted low_watermark %d; broker log start %d", lw, start)
		}
		fact("low watermark of "+topic, fmt.Sprint(start), true)
	case "topic_config_described", "topic_config_altered", "topic_config_alteration_validated":
		name := str(p["config_name"])
		val, err := r.obs.TopicConfig(ctx, topic, name)
		if err != nil {
			return err
		}
		bv := "null"
		if val != nil {
			bv = *val
		}
		switch ev.Kind {
		case "topic_config_described":
			var got *string
			_ = json.Unmarshal(ev.Fields["value"], &got)
			if got != nil && (val == nil || *got != *val) {
				return fmt.Errorf("config %s of %s claimed %q; broker has %s", name, topic, *got, bv)
			}
		case "topic_config_altered":
			if val == nil || *val != str(p["value"]) {
				return fmt.Errorf("config %s of %s claimed altered to %q; broker has %s", name, topic, p["value"], bv)
			}
		case "topic_config_alteration_validated":
			if val != nil && *val == str(p["value"]) {
				return fmt.Errorf("validate_only alter of %s changed the broker's value to %q", name, bv)
			}
		}
		fact(ev.Kind+" "+topic+" "+name, bv, true)
	case "cluster_described":
		id, brokers, err := r.obs.Cluster(ctx)
		if err != nil {
			return err
		}
		var got []int32
		_ = json.Unmarshal(ev.Fields["broker_ids"], &got)
		if ev.String("cluster_id") != id || !reflect.DeepEqual(got, brokers) {
			return fmt.Errorf("cluster_described %s %v; broker says %s %v", ev.String("cluster_id"), got, id, brokers)
		}
		fact("cluster", fmt.Sprintf("%s %v", id, brokers), true)
	case "consumer_group_offset_listed", "consumer_group_offset_altered", "consumer_group_offset_deleted":
		group := str(p["group_id"])
		part := int32(num(p["partition"]))
		off, ok, err := r.obs.Committed(ctx, group, topic, part)
		if err != nil {
			return err
		}
		switch ev.Kind {
		case "consumer_group_offset_listed":
			var got *int64
			_ = json.Unmarshal(ev.Fields["offset"], &got)
			if (got == nil) != !ok || (got != nil && *got != off) {
				return fmt.Errorf("committed offset of %s for %s[%d] claimed %v; broker has %d (exists=%v)", group, topic, part, got, off, ok)
			}
		case "consumer_group_offset_altered":
			if !ok || off != int64(num(p["offset"])) {
				return fmt.Errorf("committed offset of %s for %s[%d] claimed altered to %v; broker has %d (exists=%v)", group, topic, part, p["offset"], off, ok)
			}
		case "consumer_group_offset_deleted":
			if ok {
				return fmt.Errorf("committed offset of %s for %s[%d] claimed deleted; broker has %d", group, topic, part, off)
			}
		}
		fact(fmt.Sprintf("%s %s %s[%d]", ev.Kind, group, topic, part), fmt.Sprintf("committed=%v offset=%d", ok, off), true)
	case "consumer_group_deleted":
		gs, err := r.obs.Groups(ctx)
		if err != nil {
			return err
		}
		if gs[str(p["group_id"])] {
			return fmt.Errorf("group %s claimed deleted; broker still lists it", p["group_id"])
		}
		fact("group "+str(p["group_id"])+" deleted", "absent", true)
	case "group_assignments_observed":
		return r.checkGroupAssignments(ctx, cmd)
	case "group_receive_set_completed":
		return r.checkGroupReceiveSet(ctx, cmd)
	case "transactional_transform_completed":
		return r.checkTransformOffset(ctx, cmd)
	case "group_receive_completed":
		if ev.Fields["committed"] == nil || string(ev.Fields["committed"]) != "true" {
			return nil
		}
		recs, _ := receivedRecords(cmd)
		group := r.groupOf(str(p["consumer_id"]))
		last := map[string]int64{}
		for _, c := range recs {
			k := fmt.Sprintf("%s\x00%d", c.Topic, c.Partition)
			if c.Offset+1 > last[k] {
				last[k] = c.Offset + 1
			}
		}
		for _, c := range recs {
			k := fmt.Sprintf("%s\x00%d", c.Topic, c.Partition)
			off, ok, err := r.obs.Committed(ctx, group, c.Topic, c.Partition)
			if err != nil {
				return err
			}
			if !ok || off < last[k] {
				return fmt.Errorf("group_receive claimed committed; group %s has %d (exists=%v) for %s[%d], want >= %d", group, off, ok, c.Topic, c.Partition, last[k])
			}
		}
		fact("group "+group+" committed", fmt.Sprint(last), true)
	}
	return nil
}

func (r *run) waitTopicGone(ctx context.Context, topic string) error {
	dctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		td, err := r.obs.Topic(dctx, topic)
		if err == nil && !td.Exists {
			return nil
		}
		select {
		case <-dctx.Done():
			return fmt.Errorf("topic %s claimed deleted but still exists", topic)
		case <-tick.C:
		}
	}
}

// produce writes records through the observer (environment action).
func (r *run) produce(ctx context.Context, specs []map[string]any) error {
	var recs []*kgo.Record
	for _, s := range specs {
		spec := r.exp.Value(s).(map[string]any)
		rec, err := toKgo(spec)
		if err != nil {
			return err
		}
		r.envSends = append(r.envSends, spec)
		recs = append(recs, rec)
	}
	return r.obs.Produce(ctx, recs)
}

func jsonAny(raw json.RawMessage) any {
	var v any
	_ = json.Unmarshal(raw, &v)
	return v
}

func num(v any) float64 { f, _ := v.(float64); return f }
func str(v any) string  { s, _ := v.(string); return s }
func list(v any) []any  { l, _ := v.([]any); return l }
func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// txnOutcome says how the transaction of cmd's staged records ended, as the
// adapter reported it: committed (transaction_completed or
// transactional_transform_completed with disposition commit) or not
// (disposition abort, or fence_transaction: the fenced transaction must not
// commit); judged is false when the command failed.
func txnOutcome(cmd *judge.Command) (committed, judged bool) {
	ev := cmd.Completion
	if ev == nil {
		return false, false
	}
	switch ev.Kind {
	case "transaction_completed", "transactional_transform_completed":
		return ev.String("disposition") == "commit", true
	case "transaction_fence_completed":
		return false, true
	}
	return false, false
}

// checkVisibility checks a staged record against a read_committed reader:
// visible once its transaction committed, never visible when it aborted or
// was fenced. The last stable offset must have passed the record (the
// coordinator writes the markers after answering; checkClaims re-checks
// for a while).
func (r *run) checkVisibility(ctx context.Context, cmd *judge.Command, claim string, o *opRecord, committed bool) error {
	key := fmt.Sprintf("%s/%d", o.topic, o.partition)
	sc, ok := r.committedScans[key]
	if !ok {
		var err error
		sc.recs, sc.lso, err = r.obs.ScanCommitted(ctx, o.topic, o.partition)
		if err != nil {
			return fmt.Errorf("observer reading %s[%d] read_committed: %v", o.topic, o.partition, err)
		}
		if r.committedScans == nil {
			r.committedScans = map[string]committedScan{}
		}
		r.committedScans[key] = sc
	}
	recs, lso := sc.recs, sc.lso
	if lso <= *o.offset {
		r.fact(cmd.ID, claim+" (read_committed)", fmt.Sprintf("last stable offset %d not past the record yet", lso), false)
		return fmt.Errorf("%s[%d]: the last stable offset %d has not passed offset %d after the transaction ended", o.topic, o.partition, lso, *o.offset)
	}
	visible := false
	for _, rec := range recs {
		if rec.Offset == *o.offset {
			visible = true
		}
	}
	if visible != committed {
		r.fact(cmd.ID, claim+" (read_committed)", fmt.Sprintf("visible=%v to read_committed, committed=%v", visible, committed), false)
		return fmt.Errorf("%s[%d]@%d: visible to read_committed is %v, but the transaction committed is %v", o.topic, o.partition, *o.offset, visible, committed)
	}
	what := "absent under read_committed (aborted or fenced transaction)"
	if committed {
		what = "visible under read_committed"
	}
	r.fact(cmd.ID, claim+" (read_committed)", what, true)
	return nil
}

// committedScan is one read_committed scan of a partition.
type committedScan struct {
	recs []*kgo.Record
	lso  int64
}
