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
			o.status = string(t.Status)
			o.offset = t.Offset
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

// receivedRecords collects the ConsumedRecords a command claims to have
// received, in event order.
func receivedRecords(cmd *judge.Command) []judge.ConsumedRecord {
	var out []judge.ConsumedRecord
	for _, ev := range cmd.Events {
		switch p := ev.Payload.(type) {
		case *judge.ReceiveCompleted:
			out = append(out, p.Records...)
		case *judge.GroupReceiveCompleted:
			out = append(out, p.Records...)
		case *judge.TransactionalTransformCompleted:
			out = append(out, p.Records...)
		case *judge.GroupReceiveSetCompleted:
			for _, m := range p.Members {
				out = append(out, m.Records...)
			}
		case *judge.ShareReceiveCompleted:
			for _, x := range p.Records {
				out = append(out, x.Record)
			}
		}
	}
	return out
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
	done, ok := cmd.Completion.Payload.(*judge.ProducerCancellationCompleted)
	if !ok || len(done.Outcomes) != 2 {
		return fmt.Errorf("completion %s: want producer_cancellation_completed with two outcomes", cmd.Completion.Kind)
	}
	outs := done.Outcomes
	t := cmd.Terminal(str(cmd.Payload["operation_id"]))
	if t == nil {
		return fmt.Errorf("cancellation completed without a terminal")
	}
	status, code := t.Status, deref(t.Code)
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
			got = string(t.Status)
		}
		if got != want {
			return fmt.Errorf("operation %s: %q, want %q", op, got, want)
		}
	}
	for op, want := range exp.TerminalCodes {
		op = r.exp.String(op)
		t := cmd.Terminal(op)
		if t == nil || t.Code == nil || *t.Code != want {
			got := "(no terminal)"
			if t != nil {
				got = "null"
				if t.Code != nil {
					got = fmt.Sprintf("%q", *t.Code)
				}
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
	if exp.Event != nil || len(exp.EventOneOf) > 0 {
		got, err := completionFields(cmd.Completion)
		if err != nil {
			return err
		}
		if err := r.matchEvent(cmd.Completion.Kind, exp, got); err != nil {
			return err
		}
	}
	if exp.RecordCount != nil || exp.Records != nil {
		recs := receivedRecords(cmd)
		if err := r.matchRecords(recs, exp); err != nil {
			return err
		}
	}
	if exp.MinProduceRecords != nil {
		m, ok := cmd.Completion.Payload.(*judge.ClientMetricsObserved)
		if !ok {
			return fmt.Errorf("completion %s carries no metrics snapshot", cmd.Completion.Kind)
		}
		if got := m.Snapshot.Producer.ProduceRecords; got < *exp.MinProduceRecords {
			return fmt.Errorf("snapshot.producer.produce_records %d, want >= %d", got, *exp.MinProduceRecords)
		}
	}
	return nil
}

// completionFields is the completion's payload as generic JSON values, for
// the scenario's partial event expectations.
func completionFields(ev *judge.Event) (map[string]any, error) {
	got := map[string]any{}
	for k, raw := range ev.Fields {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, fmt.Errorf("completion %s.%s: %v", ev.Kind, k, err)
		}
		got[k] = v
	}
	return got, nil
}

// matchEvent applies the step's event and event_one_of expectations.
func (r *run) matchEvent(kind string, exp *scenario.Expect, got map[string]any) error {
	if exp.Event != nil {
		want := r.exp.Value(exp.Event)
		if p := partialMatch("", want, got); p != "" {
			return fmt.Errorf("completion %s: %s", kind, p)
		}
	}
	if len(exp.EventOneOf) > 0 {
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
			return fmt.Errorf("completion %s matches none of the alternatives: %v", kind, misses)
		}
	}
	return nil
}

// matchRecords applies the step's record_count and records expectations.
func (r *run) matchRecords(recs []judge.ConsumedRecord, exp *scenario.Expect) error {
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
			if d := diff(recordContent(got), want); d != "" {
				return fmt.Errorf("record %d (operation %s): %s", i, op, d)
			}
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
	for _, c := range receivedRecords(cmd) {
		rec, err := r.obs.Record(ctx, c.Topic, c.Partition, c.Offset)
		if err != nil {
			return fmt.Errorf("observer reading %s[%d]@%d: %v", c.Topic, c.Partition, c.Offset, err)
		}
		if rec == nil {
			r.fact(cmd.ID, fmt.Sprintf("received %s[%d]@%d", c.Topic, c.Partition, c.Offset), "no such record", false)
			return fmt.Errorf("claimed received record %s[%d]@%d does not exist on the broker", c.Topic, c.Partition, c.Offset)
		}
		if d := diff(recordContent(c), brokerContent(rec)); d != "" {
			r.fact(cmd.ID, fmt.Sprintf("received %s[%d]@%d", c.Topic, c.Partition, c.Offset), d, false)
			return fmt.Errorf("received record %s[%d]@%d differs from the broker's: %s", c.Topic, c.Partition, c.Offset, d)
		}
		if ts := c.TimestampMillis; ts != nil && *ts != rec.Timestamp.UnixMilli() {
			return fmt.Errorf("received record %s[%d]@%d timestamp %d, broker has %d", c.Topic, c.Partition, c.Offset, *ts, rec.Timestamp.UnixMilli())
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

// checkCompletion verifies admin and group claims of a completion event,
// read from its typed payload.
func (r *run) checkCompletion(ctx context.Context, cmd *judge.Command) error {
	ev := cmd.Completion
	p := cmd.Payload
	topic := str(p["topic"])
	fact := func(claim, broker string, ok bool) { r.fact(cmd.ID, claim, broker, ok) }
	switch pl := ev.Payload.(type) {
	case *judge.TransactionFenceCompleted:
		code := pl.CommitErrorCode
		if code == nil || !strings.HasPrefix(*code, "fenced") {
			fact("old transaction's commit after fencing", fmt.Sprintf("commit_error_code %s", ev.Fields["commit_error_code"]), false)
			return fmt.Errorf("fence_transaction: the old transaction's commit reported %s, want the fenced family", ev.Fields["commit_error_code"])
		}
		fact("old transaction's commit after fencing", *code, true)
	case *judge.TopicCreated:
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
	case *judge.TopicCreationValidated:
		td, err := r.obs.Topic(ctx, topic)
		if err != nil {
			return err
		}
		if td.Exists {
			fact("validate_only create of "+topic, "topic exists", false)
			return fmt.Errorf("validate_only create_topic left topic %s on the broker", topic)
		}
		fact("validate_only create of "+topic, "topic absent", true)
	case *judge.TopicsCreationCompleted:
		return r.checkTopicsBatch(ctx, cmd, pl)
	case *judge.TopicPartitionsCreated, *judge.TopicPartitionIncreaseValidated:
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
	case *judge.TopicDeleted:
		if err := r.waitTopicGone(ctx, topic); err != nil {
			fact("topic "+topic+" deleted", "still present", false)
			return err
		}
		r.deleted[topic] = true
		fact("topic "+topic+" deleted", "absent", true)
	case *judge.TopicDescribed:
		td, err := r.obs.Topic(ctx, topic)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(pl.Partitions, td.Partitions) {
			return fmt.Errorf("topic_described %s partitions %v; broker has %v", topic, pl.Partitions, td.Partitions)
		}
		fact("topic "+topic+" partitions", fmt.Sprint(td.Partitions), true)
	case *judge.TopicsListed:
		return r.checkTopicsListed(ctx, cmd, pl)
	case *judge.OffsetListed:
		start, end, err := r.obs.Watermarks(ctx, topic, int32(num(p["partition"])))
		if err != nil {
			return err
		}
		want := end
		if str(p["position"]) == "earliest" {
			want = start
		}
		if pl.Offset == nil || *pl.Offset != want {
			return fmt.Errorf("offset_listed %s %s; broker has %d", p["position"], ev.Fields["offset"], want)
		}
		fact(fmt.Sprintf("%s offset of %s[%v]", p["position"], topic, p["partition"]), fmt.Sprint(want), true)
	case *judge.RecordsDeleted:
		start, _, err := r.obs.Watermarks(ctx, topic, int32(num(p["partition"])))
		if err != nil {
			return err
		}
		if pl.LowWatermark != start {
			return fmt.Errorf("records_deleted low_watermark %d; broker log start %d", pl.LowWatermark, start)
		}
		fact("low watermark of "+topic, fmt.Sprint(start), true)
	case *judge.TopicConfigDescribed, *judge.TopicConfigAltered, *judge.TopicConfigAlterationValidated:
		return r.checkTopicConfig(ctx, cmd)
	case *judge.ClusterDescribed:
		id, brokers, err := r.obs.Cluster(ctx)
		if err != nil {
			return err
		}
		if deref(pl.ClusterID) != id || pl.ClusterID == nil || !reflect.DeepEqual(pl.BrokerIDs, brokers) {
			return fmt.Errorf("cluster_described %s %v; broker says %s %v", ev.Fields["cluster_id"], pl.BrokerIDs, id, brokers)
		}
		fact("cluster", fmt.Sprintf("%s %v", id, brokers), true)
	case *judge.ConsumerGroupOffsetListed, *judge.ConsumerGroupOffsetAltered, *judge.ConsumerGroupOffsetDeleted:
		return r.checkGroupOffset(ctx, cmd)
	case *judge.ConsumerGroupDeleted:
		gs, err := r.obs.Groups(ctx)
		if err != nil {
			return err
		}
		if gs[str(p["group_id"])] {
			return fmt.Errorf("group %s claimed deleted; broker still lists it", p["group_id"])
		}
		fact("group "+str(p["group_id"])+" deleted", "absent", true)
	case *judge.GroupAssignmentsObserved:
		return r.checkGroupAssignments(ctx, cmd, pl)
	case *judge.GroupReceiveSetCompleted:
		return r.checkGroupReceiveSet(ctx, pl)
	case *judge.TransactionalTransformCompleted:
		return r.checkTransformOffset(ctx, cmd, pl)
	case *judge.GroupReceiveCompleted:
		if !pl.Committed {
			return nil
		}
		group := r.groupOf(str(p["consumer_id"]))
		last := map[string]int64{}
		for _, c := range pl.Records {
			k := fmt.Sprintf("%s\x00%d", c.Topic, c.Partition)
			if c.Offset+1 > last[k] {
				last[k] = c.Offset + 1
			}
		}
		for _, c := range pl.Records {
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

// checkTopicsBatch: every outcome of create_topics_batch, in request
// order, matches the broker.
func (r *run) checkTopicsBatch(ctx context.Context, cmd *judge.Command, pl *judge.TopicsCreationCompleted) error {
	reqs := list(cmd.Payload["topics"])
	if len(pl.Outcomes) != len(reqs) {
		return fmt.Errorf("%d outcomes for %d topics", len(pl.Outcomes), len(reqs))
	}
	for i, o := range pl.Outcomes {
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
		r.fact(cmd.ID, "batch outcome "+o.Topic, fmt.Sprintf("exists=%v partitions=%d", td.Exists, len(td.Partitions)), true)
	}
	return nil
}

// checkTopicsListed: the listed topics exist (sortedness is the judge's)
// and every topic the scenario made and did not delete is listed.
func (r *run) checkTopicsListed(ctx context.Context, cmd *judge.Command, pl *judge.TopicsListed) error {
	have, err := r.obs.Topics(ctx, cmd.Payload["include_internal"] == true)
	if err != nil {
		return err
	}
	listed := map[string]bool{}
	for _, n := range pl.Topics {
		listed[n] = true
		if !have[n] && !r.deleted[n] {
			// created and deleted concurrently by another test is possible; check again
			td, err := r.obs.Topic(ctx, n)
			if err != nil {
				return err
			}
			if !td.Exists {
				r.fact(cmd.ID, "listed topic "+n, "absent", false)
				return fmt.Errorf("topics_listed names %s, which the broker does not have", n)
			}
		}
	}
	for t := range r.topics {
		if !r.deleted[t] && have[t] && !listed[t] {
			return fmt.Errorf("topics_listed lacks %s, which exists", t)
		}
	}
	r.fact(cmd.ID, "topics_listed", fmt.Sprintf("%d topics consistent with the broker", len(pl.Topics)), true)
	return nil
}

// checkTopicConfig: a described value equals the broker's (null claims
// nothing), an altered one is on the broker, a validated one is not.
func (r *run) checkTopicConfig(ctx context.Context, cmd *judge.Command) error {
	p := cmd.Payload
	topic, name := str(p["topic"]), str(p["config_name"])
	val, err := r.obs.TopicConfig(ctx, topic, name)
	if err != nil {
		return err
	}
	bv := "null"
	if val != nil {
		bv = *val
	}
	switch pl := cmd.Completion.Payload.(type) {
	case *judge.TopicConfigDescribed:
		if got := pl.Value; got != nil && (val == nil || *got != *val) {
			return fmt.Errorf("config %s of %s claimed %q; broker has %s", name, topic, *got, bv)
		}
	case *judge.TopicConfigAltered:
		if val == nil || *val != str(p["value"]) {
			return fmt.Errorf("config %s of %s claimed altered to %q; broker has %s", name, topic, p["value"], bv)
		}
	case *judge.TopicConfigAlterationValidated:
		if val != nil && *val == str(p["value"]) {
			return fmt.Errorf("validate_only alter of %s changed the broker's value to %q", name, bv)
		}
	}
	r.fact(cmd.ID, cmd.Completion.Kind+" "+topic+" "+name, bv, true)
	return nil
}

// checkGroupOffset: a singleton group offset claim (listed, altered,
// deleted) against the group's committed offset on the broker.
func (r *run) checkGroupOffset(ctx context.Context, cmd *judge.Command) error {
	p := cmd.Payload
	group, topic := str(p["group_id"]), str(p["topic"])
	part := int32(num(p["partition"]))
	off, ok, err := r.obs.Committed(ctx, group, topic, part)
	if err != nil {
		return err
	}
	switch pl := cmd.Completion.Payload.(type) {
	case *judge.ConsumerGroupOffsetListed:
		got := pl.Offset
		if (got == nil) != !ok || (got != nil && *got != off) {
			return fmt.Errorf("committed offset of %s for %s[%d] claimed %s; broker has %d (exists=%v)", group, topic, part, cmd.Completion.Fields["offset"], off, ok)
		}
	case *judge.ConsumerGroupOffsetAltered:
		if !ok || off != int64(num(p["offset"])) {
			return fmt.Errorf("committed offset of %s for %s[%d] claimed altered to %v; broker has %d (exists=%v)", group, topic, part, p["offset"], off, ok)
		}
	case *judge.ConsumerGroupOffsetDeleted:
		if ok {
			return fmt.Errorf("committed offset of %s for %s[%d] claimed deleted; broker has %d", group, topic, part, off)
		}
	}
	r.fact(cmd.ID, fmt.Sprintf("%s %s %s[%d]", cmd.Completion.Kind, group, topic, part), fmt.Sprintf("committed=%v offset=%d", ok, off), true)
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

// deref returns *s, or "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
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
	case "transaction_completed":
		return ev.Payload.(*judge.TransactionCompleted).Disposition == "commit", true
	case "transactional_transform_completed":
		return ev.Payload.(*judge.TransactionalTransformCompleted).Disposition == "commit", true
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
